package pdf

import (
	"maps"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Ruled tables: a stack of horizontal rules with text between them laid
// out in two or more columns. Columns come from the vertical rules inside
// the table when it has them, else from the white gaps every row leaves
// at the same place. Rows are the bands between horizontal rules; a band
// holding several lines is split into rows where the first column starts
// a new entry, and lines without a first-column entry continue the row
// above (cells wrapped over several lines).

const (
	ruleJoinTol   = 1.5   // rules closer than this (points) are one
	maxRowBandGap = 160.0 // a gap between two rules this tall ends a table
	minColGapEm   = 0.8   // white gap that separates columns, in em
)

// ruledTables finds the ruled tables among the lines, marks their lines as
// cells, and returns one block per table row.
func ruledTables(lines []*pline, rules []rule, f frame) []*pblock {
	hs, vs := splitRules(rules)
	if len(hs) < 2 || len(lines) == 0 {
		return nil
	}
	var out []*pblock
	marks := tinyMarks(rules, false)
	var joined [][2]float64 // the marks of pieces joined first, made when a grid needs them
	for _, st := range stackRules(hs) {
		if st.closing != 0 {
			// A head ruled off over a tall body closed by a rule as wide
			// as the top one: one table, when the body keeps the head's
			// columns.
			body := st
			body.ys = []float64{st.ys[0], st.ys[1], st.closing}
			if rows := body.rows(lines, vs, f); rows != nil {
				out = append(out, rows...)
				continue
			}
		}
		for _, t := range st.splitAtUnruledBands(vs) {
			// A grid (rules down its columns too) drawn in short pieces
			// is a table; elsewhere short pieces under figures stay
			// marks, and such a region is left to the white space.
			m := marks
			if t.gridded(vs) {
				if joined == nil {
					joined = tinyMarks(rules, true)
				}
				m = joined
			}
			if t.isChart(m, lines) {
				continue
			}
			if t.gridded(vs) {
				t.spans = hs
			}
			out = append(out, t.rows(lines, vs, f)...)
		}
	}
	return out
}

// maxMarkLength is the length of the strokes plots draw as data markers
// and tick marks (a "+" or "x" at each point, a tick on an axis).
const maxMarkLength = 8.0

// maxAbutGap is the widest gap between two collinear strokes that still
// meet: a border drawn cell by cell in pieces of a few points; a dashed
// line's gaps are wider.
const maxAbutGap = 0.6

// abutAtTol is how far apart (points) the lines of two strokes that meet
// may lie.
const abutAtTol = 0.1

// tinyMarks returns the midpoints of the page's tiny strokes. With join,
// strokes that meet on one line are one stroke first: a border drawn in
// short pieces is a rule, not many marks.
func tinyMarks(rules []rule, join bool) [][2]float64 {
	if join {
		hs, vs := byDirection(rules)
		rules = append(joinCollinear(hs, abutAtTol, maxAbutGap), joinCollinear(vs, abutAtTol, maxAbutGap)...)
	}
	var out [][2]float64
	for _, r := range rules {
		if r.b-r.a < maxMarkLength {
			if r.horizontal {
				out = append(out, [2]float64{(r.a + r.b) / 2, r.at})
			} else {
				out = append(out, [2]float64{r.at, (r.a + r.b) / 2})
			}
		}
	}
	return out
}

// isChart reports whether the ruled region is a plot rather than a table:
// a grid holding far more tiny strokes (data markers, ticks) than lines
// of text. A form's check boxes stay well below that.
func (t ruleStack) isChart(marks [][2]float64, lines []*pline) bool {
	top, bottom := t.ys[0], t.ys[len(t.ys)-1]
	n := 0
	for _, m := range marks {
		if m[0] >= t.x0 && m[0] <= t.x1 && m[1] <= top && m[1] >= bottom {
			n++
		}
	}
	if n <= 30 {
		return false
	}
	text := 0
	for _, l := range lines {
		if l.v < top && l.v > bottom && l.u1 > t.x0 && l.u0 < t.x1 {
			text++
		}
	}
	return n > 3*text
}

// splitRules separates and merges horizontal and vertical rules.
func splitRules(rules []rule) (hs, vs []rule) {
	hs, vs = byDirection(rules)
	return mergeRules(hs), mergeRules(vs)
}

// byDirection separates horizontal and vertical rules.
func byDirection(rules []rule) (hs, vs []rule) {
	for _, r := range rules {
		if r.horizontal {
			hs = append(hs, r)
		} else {
			vs = append(vs, r)
		}
	}
	return hs, vs
}

// mergeRules joins collinear rules that touch or overlap.
func mergeRules(rs []rule) []rule { return joinCollinear(rs, ruleJoinTol, ruleJoinTol) }

// joinCollinear joins rules of one direction whose lines lie at most
// atTol apart and that overlap or leave at most gap between them; rs is
// reordered.
func joinCollinear(rs []rule, atTol, gap float64) []rule {
	sort.Slice(rs, func(i, j int) bool {
		if math.Abs(rs[i].at-rs[j].at) > atTol {
			return rs[i].at < rs[j].at
		}
		return rs[i].a < rs[j].a
	})
	var out []rule
	for _, r := range rs {
		if n := len(out); n > 0 && math.Abs(out[n-1].at-r.at) <= atTol && r.a <= out[n-1].b+gap {
			out[n-1].b = math.Max(out[n-1].b, r.b)
			continue
		}
		out = append(out, r)
	}
	return out
}

// gridded reports whether the region also draws its columns: vertical
// rules inside it down four fifths of its height, at two places or more
// at least minGridColumn apart (the two edges of one shaded column are
// one place).
func (t ruleStack) gridded(vs []rule) bool {
	top, bottom := t.ys[0], t.ys[len(t.ys)-1]
	var xs []float64
	for _, v := range vs {
		if v.at > t.x0+2 && v.at < t.x1-2 && math.Min(v.b, top)-math.Max(v.a, bottom) >= 0.8*(top-bottom) {
			xs = append(xs, v.at)
		}
	}
	sort.Float64s(xs)
	places := 0
	for i, x := range xs {
		if i == 0 || x-xs[i-1] >= minGridColumn {
			places++
		}
	}
	return places >= 2
}

// minGridColumn is the narrowest column, in points, a grid's rules
// divide.
const minGridColumn = 20.0

// ruleStack is a candidate table: horizontal rules (top first) over a
// common stretch x0..x1.
type ruleStack struct {
	ys     []float64
	x0, x1 float64
	// spans holds, for a drawn grid, the horizontal rules as drawn, so
	// that a row label whose cell spans several rows (no rule through it)
	// can be told; nil elsewhere.
	spans []rule
	// closing, when not 0, is the rule that may close a tall body under
	// a head ruled off (closingRule).
	closing float64
}

// stackRules groups horizontal rules into stacks: rules below one another
// that share most of their width, no more than maxRowBandGap apart.
func stackRules(hs []rule) []ruleStack {
	sort.Slice(hs, func(i, j int) bool { return hs[i].at > hs[j].at })
	var out []ruleStack
	used := make([]bool, len(hs))
	for i := range hs {
		if used[i] || hs[i].b-hs[i].a < 20 {
			continue
		}
		st := ruleStack{ys: []float64{hs[i].at}, x0: hs[i].a, x1: hs[i].b}
		used[i] = true
		last := hs[i].at
		for j := i + 1; j < len(hs); j++ {
			if used[j] || last-hs[j].at > maxRowBandGap {
				if last-hs[j].at > maxRowBandGap {
					break
				}
				continue
			}
			// A rule much wider than the table (a page-wide rule below it)
			// or much narrower (a cell's underline) does not bound its rows.
			// The narrower ones inside the table are taken up, so that
			// they do not make tables of their own.
			ov := math.Min(st.x1, hs[j].b) - math.Max(st.x0, hs[j].a)
			if ov < 0.5*math.Max(st.x1-st.x0, hs[j].b-hs[j].a) {
				if ov >= 0.9*(hs[j].b-hs[j].a) {
					used[j] = true
				}
				continue
			}
			if last-hs[j].at < ruleJoinTol {
				used[j] = true
				continue
			}
			st.ys = append(st.ys, hs[j].at)
			st.x0, st.x1 = math.Min(st.x0, hs[j].a), math.Max(st.x1, hs[j].b)
			used[j] = true
			last = hs[j].at
		}
		if st = st.withoutShortRules(hs); len(st.ys) >= 2 {
			st.closing = closingRule(hs, st)
			out = append(out, st)
		}
	}
	return out
}

// labelCellRuled reports, for each rule of the stack, whether it is drawn
// across the first column (x0 to sep, the first column separator) as
// well; in a drawn grid a rule that stops at the first column leaves the
// row label's cell spanning the rows on both sides of it ("Alder unit"
// centred beside its "60", "72" and "75" rows). Nil when the stack is no
// drawn grid.
func (t ruleStack) labelCellRuled(sep float64) []bool {
	if t.spans == nil {
		return nil
	}
	out := make([]bool, len(t.ys))
	for i, y := range t.ys {
		for _, h := range t.spans {
			if math.Abs(h.at-y) <= ruleJoinTol && h.a <= t.x0+spanRuleTol && h.b >= sep-spanRuleTol {
				out[i] = true
				break
			}
		}
	}
	return out
}

// spanRuleTol is how far short of a cell's edge (points) a rule drawn
// across that cell may stop.
const spanRuleTol = 2.0

// spanRow is where a row of a ruled table lies: its band (between rules
// ys[band] and ys[band+1]) and the middle of its row label's letters
// (NaN without a label).
type spanRow struct {
	band     int
	labelMid float64
}

// fillSpannedLabels gives each row of a label cell that spans several
// rows that label: bands not parted by a rule drawn across the first
// column are one label cell; when exactly one of its rows has a label,
// set in the middle of the cell as such labels are (a rule stroked and
// then painted over by the cell's fill reads as drawn, so the place of
// the label decides too), and every other row there has none, those rows
// take the label (each row of a table read as data names what it is
// about). Only the first column: a figure spanning rows is not repeated,
// so nothing is counted twice; nor the first band, the column heads'. ruled[i] is whether rule i crosses the
// first column.
func (t ruleStack) fillSpannedLabels(rows []*pblock, at []spanRow, ruled []bool) {
	if ruled == nil {
		return
	}
	for start := 0; start < len(rows); {
		end := start + 1
		for end < len(rows) && !crossesBefore(at[end].band, at[end-1].band, ruled) {
			end++
		}
		group, where := rows[start:end], at[start:end]
		start = end
		if len(group) < 2 || where[0].band == 0 {
			continue // the heads' band: a stub head spans the head rows
		}
		label, labelled, mid := "", 0, 0.0
		for i, b := range group {
			if len(b.cells) == 0 {
				labelled = -1
				break
			}
			if b.cells[0] != "" {
				label, mid = b.cells[0], where[i].labelMid
				labelled++
			}
		}
		top, bottom := t.ys[where[0].band], t.ys[where[len(where)-1].band+1]
		rowHeight := (top - bottom) / float64(len(group))
		if labelled != 1 || math.IsNaN(mid) || math.Abs(mid-(top+bottom)/2) > spanLabelOffCentre*rowHeight {
			continue
		}
		for _, b := range group {
			if b.cells[0] == "" {
				b.cells[0] = label
			}
		}
	}
}

// spanLabelOffCentre is how far (in rows) a spanning label's middle may
// lie from its cell's.
const spanLabelOffCentre = 0.3

// crossesBefore reports whether a rule drawn across the first column
// parts band b from the earlier band a (rows split out of one band are
// parted: their label cell is their own).
func crossesBefore(b, a int, ruled []bool) bool {
	if b == a {
		return true
	}
	for i := a + 1; i <= b && i < len(ruled); i++ {
		if ruled[i] {
			return true
		}
	}
	return false
}

// textBody reports whether the rows of a head over a tall body read as a
// table of words and counts (a board's attendance list: names, roles,
// "7", "Yes"): a head of three cells or more, two rows in three filling
// half their cells or more, and no amount in any cell
// (no currency sign, thousands separator, decimals or percentage).
// Statements and survey charts ruled this way are left to the readings
// that handle their sign columns, section rows and heads above the rule;
// a code listing in a box (one head cell) is no table.
func textBody(rows []*pblock) bool {
	if len(rows) == 0 {
		return false
	}
	heads := 0
	for _, c := range rows[0].cells {
		if c != "" {
			heads++
		}
	}
	if heads < 3 {
		return false
	}
	// Most rows fill most columns: a chart's labels and values, set
	// where their bars end, fill few.
	full := 0
	for _, b := range rows[1:] {
		n := 0
		for _, c := range b.cells {
			if c != "" {
				n++
			}
		}
		if 2*n >= len(b.cells) {
			full++
		}
	}
	if 3*full < 2*(len(rows)-1) {
		return false
	}
	for _, b := range rows {
		for _, c := range b.cells {
			for _, w := range strings.Fields(c) {
				if amountRE.MatchString(w) || currencySign(w) {
					return false
				}
			}
		}
	}
	return true
}

// closedBody reports whether the stack is a head ruled off over a tall
// body its closing rule ends (the stack ruledTables tries first).
func (t ruleStack) closedBody() bool {
	return t.closing != 0 && len(t.ys) == 3 && t.ys[2] == t.closing
}

// maxBodyBand is the tallest body band (points) a table ruled only above
// and below its head and at its end may have: most of a page.
const maxBodyBand = 500.0

// maxHeadBandRatio is the tallest a head band may be against the body
// band below it for the two to be read as one table's head and body.
const maxHeadBandRatio = 0.5

// closingRule is the rule that closes a tall body under a stack of two
// rules (a top rule and a head rule, "Director | Executive/ …" between
// them): the first rule below the head rule by more than maxRowBandGap
// and at most maxBodyBand, as wide as the top rule (each end within
// ruleJoinTol), the head band at most maxHeadBandRatio of the body's
// height; 0 when there is none (or the stack has other rules).
func closingRule(hs []rule, st ruleStack) float64 {
	if len(st.ys) != 2 {
		return 0
	}
	head, low := st.ys[0]-st.ys[1], st.ys[1]
	best := 0.0
	for _, h := range hs {
		gap := low - h.at
		if gap <= maxRowBandGap || gap > maxBodyBand || head > maxHeadBandRatio*gap {
			continue
		}
		if math.Abs(h.a-st.x0) <= ruleJoinTol && math.Abs(h.b-st.x1) <= ruleJoinTol && h.at > best {
			best = h.at // the nearest below
		}
	}
	return best
}

// withoutShortRules drops the stack's rules that cover less than half of
// its width: underlines of single cells and rules under a column group
// mark text, not row boundaries.
func (t ruleStack) withoutShortRules(hs []rule) ruleStack {
	width := t.x1 - t.x0
	var ys []float64
	for _, y := range t.ys {
		longest := 0.0
		for _, h := range hs {
			if math.Abs(h.at-y) <= ruleJoinTol && h.b > t.x0 && h.a < t.x1 {
				longest = math.Max(longest, math.Min(h.b, t.x1)-math.Max(h.a, t.x0))
			}
		}
		if longest >= 0.5*width {
			ys = append(ys, y)
		}
	}
	t.ys = ys
	return t
}

// rows lays out one candidate table; nil when it is not one (one column,
// running text in a box, no text).
func (t ruleStack) rows(lines []*pline, vs []rule, f frame) []*pblock {
	top, bottom := t.ys[0], t.ys[len(t.ys)-1]
	var in []*pline
	for _, l := range lines {
		if l.cell {
			continue
		}
		mid := (l.u0 + l.u1) / 2
		if l.v < top && l.v > bottom && mid > t.x0 && mid < t.x1 {
			if l.u0 < t.x0-2*l.size || l.u1 > t.x1+2*l.size {
				return nil // text runs across the table's edge: not a table
			}
			in = append(in, l)
		}
	}
	if len(in) < 2 || labelledOutside(in, lines, t.x0) {
		return nil
	}
	cols := t.columns(in, vs)
	if len(cols) < 1 {
		return nil
	}
	if t.closedBody() {
		// A tall body is the head's table only when it keeps the head's
		// columns: a summary whose long labels run into the figures'
		// gaps is left to the white space, which reads it row by row.
		var head []*pline
		for _, l := range in {
			if l.v < t.ys[0] && l.v > t.ys[1] {
				head = append(head, l)
			}
		}
		if len(head) == 0 || len(cols) < len(t.columns(head, vs)) {
			return nil
		}
	}
	g := grid{seps: cols, vs: vs}
	ncols := len(cols) + 1
	ends := columnEnds(in, g)
	// Cells: runs by row band and column.
	type cellRun struct {
		r *run
		v float64
	}
	var rowsOut []*pblock
	var spanRows []spanRow // where each row of rowsOut lies, for fillSpannedLabels
	wrapped := 0           // lines read as the rest of the row above (continuesRow)
	for bi := 0; bi+1 < len(t.ys); bi++ {
		hi, lo := t.ys[bi], t.ys[bi+1]
		var band []*pline
		for _, l := range in {
			if l.v < hi && l.v > lo {
				band = append(band, l)
			}
		}
		if len(band) == 0 {
			continue
		}
		sort.SliceStable(band, func(i, j int) bool { return band[i].v > band[j].v })
		// Split the band into rows where column 0 starts an entry once the
		// row so far has text in another column (before that, a line in
		// column 0 continues a wrapped first cell). A band whose first
		// line leaves the first column empty is one row whose first cell
		// is set lower (vertically centred, or wrapped cells beside it).
		// A line whose cells all go on from the row above (continuesRow)
		// is the rest of that row, though its first column has text.
		var starts []float64
		firstColUsed := inFirstColumn(band[0], g)
		rowHasOthers := false
		var start, above map[int]lineCell
		for _, l := range band {
			first, others := columnsUsed(l, g)
			cur := baselineCells(band, l, g)
			if len(starts) == 0 || first && rowHasOthers && starts[len(starts)-1]-l.v > 0.3*l.size {
				if len(starts) > 0 && continuesRow(start, above, cur, ends) {
					wrapped++
				} else {
					starts = append(starts, l.v)
					rowHasOthers = false
					start, above = cur, map[int]lineCell{}
				}
			}
			rowHasOthers = rowHasOthers || others
			for c, lc := range lineCells(l, g) {
				above[c] = lc
			}
		}
		if !firstColUsed {
			starts = starts[:1]
		}
		if len(starts) == 1 && len(rowsOut) > 0 {
			// (not the first band with text, the heads': heads wrap over
			// lines in every column)
			starts = listRows(band, g, starts)
		}
		cells := make([][][]string, len(starts))
		for i := range cells {
			cells[i] = make([][]string, ncols)
		}
		rowOf := func(v float64) int {
			k := 0
			for i, s := range starts {
				if v <= s+0.3 {
					k = i
				}
			}
			return k
		}
		var lb []*pline
		for _, l := range band {
			lb = append(lb, l)
		}
		sort.SliceStable(lb, func(i, j int) bool { return lb[i].v > lb[j].v })
		var spans map[*run][]int
		if bi == 0 {
			spans = spanningHeads(band, g) // column heads stand in the first band
		}
		for _, l := range lb {
			ri := rowOf(l.v)
			for _, r := range l.runs {
				if cols, ok := spans[r]; ok {
					for _, c := range cols {
						cells[ri][c] = append(cells[ri][c], strings.TrimSpace(r.b.String()))
					}
					continue
				}
				for _, piece := range splitRun(r, g) {
					if t := strings.TrimSpace(piece.text); t != "" {
						cells[ri][piece.col] = append(cells[ri][piece.col], t)
					}
				}
			}
			l.cell = true
		}
		for ri := range cells {
			b := &pblock{table: true, frame: f, closed: true}
			any := false
			for c := 0; c < ncols; c++ {
				txt := strings.Join(cells[ri][c], " ")
				b.cells = append(b.cells, txt)
				if txt != "" {
					any = true
				}
			}
			if !any {
				continue
			}
			sr := spanRow{band: bi, labelMid: math.NaN()}
			for _, l := range band {
				if rowOf(l.v) == ri {
					b.add(l)
					if inFirstColumn(l, g) {
						sr.labelMid = l.v + 0.35*l.size // the middle of its letters
					}
				}
			}
			rowsOut = append(rowsOut, b)
			spanRows = append(spanRows, sr)
		}
	}
	t.fillSpannedLabels(rowsOut, spanRows, t.labelCellRuled(cols[0]))
	// Two lines of cells make a table, though they are one wrapped row.
	if len(rowsOut)+wrapped < 2 || t.closedBody() && !textBody(rowsOut) || !anyRowAcross(rowsOut) {
		for _, l := range in {
			l.cell = false
		}
		return nil
	}
	if head := headsAbove(lines, top, t.x0, t.x1, g, ncols, f); head != nil {
		rowsOut = append([]*pblock{head}, rowsOut...)
	}
	// Each row spans the table, so the rows are read in their order: a
	// section label centred in its band ("ASSETS") is not read after the
	// one below it that starts at the left edge ("CURRENT ASSETS").
	for _, b := range rowsOut {
		b.u0, b.u1 = math.Min(b.u0, t.x0), math.Max(b.u1, t.x1)
	}
	return joinClosingColumns(dropEmptyColumns(rowsOut))
}

// listRows splits a band read as one row into a row per baseline when
// every baseline fills the same two columns or more, one of them with a
// value (a number, a count, "Nil" aside), the band's lines
// standing one per baseline in each (a list of short rows ruled only
// round its head and foot: "1 | Mr. A | Member | 3" over "2 | Mr. B |
// Member | 2"); a band whose lines wrap (a later baseline leaving a
// column empty, or a cell going on in lower case) stays one row. starts
// is returned as it was otherwise.
func listRows(band []*pline, g grid, starts []float64) []float64 {
	var out []float64
	var cols []int
	for _, l := range band {
		if len(out) > 0 && math.Abs(out[len(out)-1]-l.v) <= 0.3*l.size {
			continue // a baseline already read
		}
		cells := baselineCells(band, l, g)
		got := slices.Sorted(maps.Keys(cells))
		if len(got) < 2 || cols != nil && !slices.Equal(got, cols) {
			return starts
		}
		value := false
		for _, c := range cells {
			if r, _ := utf8.DecodeRuneInString(c.text); cols != nil && unicode.IsLower(r) {
				return starts // a cell going on from the line above
			}
			value = value || valueCellRE.MatchString(strings.TrimSpace(c.text))
		}
		if !value {
			return starts // a line of words only: heads wrapped over lines
		}
		cols = got
		out = append(out, l.v)
	}
	if len(out) < 2 {
		return starts
	}
	return out
}

// anyRowAcross reports whether some row fills two cells or more. Rules
// that box lines one above another (a contents tree ruled entry by
// entry, a quotation or a code listing in a frame) make no table when
// every row holds one cell only: its lines are paragraphs.
func anyRowAcross(rows []*pblock) bool {
	for _, b := range rows {
		n := 0
		for _, c := range b.cells {
			if strings.TrimSpace(c) != "" {
				n++
			}
		}
		if n >= 2 {
			return true
		}
	}
	return false
}

// Heads over a group of columns: in a band of column heads set on two
// levels, a head on the upper line centred over the heads of several
// columns below it ("HOVER" over "2-hop | 3-hop | 4-hop", the heads of
// the other columns set between the two levels) heads each of them:
// "HOVER 2-hop", "HOVER 3-hop", "HOVER 4-hop", not only the column it
// happens to stand in. The heads below must each stand in a column of
// their own with nothing else above them, and the upper head must not
// break off mid-phrase into the one below it ("Number of" over
// "shares" is one head, wrapped).

// maxSpanHeadWords is the longest head, in words, read as one over a
// group of columns or as one of the group's own heads.
const maxSpanHeadWords = 4

// spanningHeads maps each run of the band's upper line that heads a
// group of columns to those columns; nil when there is none.
func spanningHeads(band []*pline, g grid) map[*run][]int {
	if len(band) < 2 {
		return nil
	}
	top, bottom := band[0], band[len(band)-1]
	if top.v-bottom.v < 0.5*top.size {
		return nil // one level
	}
	for _, l := range band {
		for _, r := range l.runs {
			if valueCell(&pline{text: strings.TrimSpace(r.b.String())}) {
				return nil // figures: a row, not column heads
			}
		}
	}
	// The runs of the upper and the lower level by column (a level's
	// runs may be lines of their own).
	level := func(v float64) map[int]*run {
		out := map[int]*run{}
		for _, l := range band {
			if math.Abs(l.v-v) > 0.3*l.size {
				continue
			}
			for _, r := range l.runs {
				if c0, c1 := g.col(r.u0+0.1), g.col(r.u1-0.1); c0 == c1 && out[c0] == nil {
					out[c0] = r
				}
			}
		}
		return out
	}
	upper, lower := level(top.v), level(bottom.v)
	var out map[*run][]int
	for c, r := range upper {
		below := lower[c]
		if below == nil {
			continue
		}
		text := strings.TrimSpace(r.b.String())
		if f := strings.Fields(text); len(f) == 0 || len(f) > maxSpanHeadWords || strings.ContainsAny(text, "(),;") || strings.HasSuffix(text, "-") || openEnders[strings.ToLower(f[len(f)-1])] || startsLower(below.b.String()) {
			continue // a head wrapped onto the line below
		}
		lo, hi := c, c
		for lower[lo-1] != nil && upper[lo-1] == nil {
			lo--
		}
		for lower[hi+1] != nil && upper[hi+1] == nil {
			hi++
		}
		if hi == lo {
			continue
		}
		short := true
		for k := lo; k <= hi; k++ {
			short = short && len(strings.Fields(lower[k].b.String())) <= maxSpanHeadWords
		}
		if !short {
			continue
		}
		left, right := lower[lo].u0, lower[hi].u1
		mid := (r.u0 + r.u1) / 2
		if math.Abs(mid-(left+right)/2) > 0.15*(right-left)+0.5*top.size {
			continue // not centred over the group
		}
		if out == nil {
			out = map[*run][]int{}
		}
		for k := lo; k <= hi; k++ {
			out[r] = append(out[r], k)
		}
	}
	return out
}

// startsLower reports whether s starts with a lower-case letter.
func startsLower(s string) bool {
	for _, r := range strings.TrimSpace(s) {
		return unicode.IsLower(r)
	}
	return false
}

// headsAboveLines is how far above a ruled table's top rule (lines of
// text) its column heads may stand.
const headsAboveLines = 3

// headOverhangEm is how far (in em) a column head may reach past its
// column's edge.
const headOverhangEm = 0.25

// headsAbove is the header row of a ruled table whose column heads stand
// just above its top rule, over its value columns only ("August 29, /
// 2021" over one column of figures, "August 30, / 2020" over the next, a
// statement's first band being its "ASSETS" section): the lines within
// headsAboveLines of the rule, each within one column and none in the
// first, read from the rule up to the first line that is not a head (a
// caption, a unit line such as "(in millions)", a title across the
// columns: those stand above the heads and end them; a contents entry
// with its dot leader is no head), at least two columns headed, each head
// holding a figure (a date or year); a head set
// over two lines reads as one ("August 29, 2021"). Nil when there are
// none, or when a line that is no head stands beside or below them; the
// lines taken become cells.
func headsAbove(lines []*pline, top, x0, x1 float64, g grid, ncols int, f frame) *pblock {
	var near []*pline
	for _, l := range lines {
		if l.cell || l.v <= top || l.v-top > headsAboveLines*l.size || l.u1 < x0 || l.u0 > x1 {
			continue
		}
		near = append(near, l)
	}
	sort.SliceStable(near, func(i, j int) bool { return near[i].v < near[j].v })
	var heads []*pline
	for _, l := range near {
		first, others := false, false
		across := l.u0 < x0-l.size || l.u1 > x1+l.size // a caption or text over the table's edge
		if !across {
			first, others = columnsUsed(l, g) // the first column is the labels'
		}
		if across || first {
			if len(heads) == 0 || l.v-heads[len(heads)-1].v < 0.5*l.size {
				return nil // no heads below it, or it stands beside them
			}
			break
		}
		if others {
			if strings.Contains(l.text, "....") {
				return nil // a contents or index entry with its dot leader
			}
			heads = append(heads, l)
		}
	}
	sort.SliceStable(heads, func(i, j int) bool { return heads[i].v > heads[j].v })
	cells := make([][]string, ncols)
	for _, l := range heads {
		// A head may stand out of its column by a little (a year set
		// wider than the figures under it, right-aligned with them).
		in := math.Min(headOverhangEm*l.size, (l.u1-l.u0)/2)
		if g.col(l.u0+in) != g.col(l.u1-in) {
			return nil // a line over several columns: a caption, not a head
		}
		col := -1
		for _, r := range l.runs {
			for _, piece := range splitRun(r, g) {
				if t := strings.TrimSpace(piece.text); t != "" {
					if col >= 0 && piece.col != col {
						return nil // a line over several columns: a caption, not a head
					}
					col = piece.col
					cells[piece.col] = append(cells[piece.col], t)
				}
			}
		}
	}
	headed := 0
	for _, c := range cells {
		if len(c) == 0 {
			continue
		}
		// A period heads a column of figures ("August 29, 2021", "2021");
		// heads of words over several lines are left to the reading of
		// the lines above (a whitespace table of their own).
		if len(c) > headsAboveLines || !strings.ContainsAny(strings.Join(c, " "), "0123456789") {
			return nil
		}
		headed++
	}
	if headed < 2 {
		return nil
	}
	b := &pblock{table: true, frame: f, closed: true}
	for _, c := range cells {
		b.cells = append(b.cells, strings.Join(c, " "))
	}
	for _, l := range heads {
		l.cell = true
		b.add(l)
	}
	// The row spans the table, so it is read before the rows below it
	// (the first band's label stands left of the heads).
	b.u0, b.u1 = math.Min(b.u0, x0), math.Max(b.u1, x1)
	return b
}

// dropEmptyColumns removes the columns no row has text in (edges of cell
// boxes drawn a little apart make columns of nothing).
func dropEmptyColumns(rows []*pblock) []*pblock {
	used := map[int]bool{}
	for _, b := range rows {
		for i, c := range b.cells {
			if strings.TrimSpace(c) != "" {
				used[i] = true
			}
		}
	}
	for _, b := range rows {
		kept := b.cells[:0]
		for i, c := range b.cells {
			if used[i] {
				kept = append(kept, c)
			}
		}
		b.cells = kept
	}
	return rows
}

// closingRE matches a cell that only closes the figure before it: the
// parenthesis of a negative figure or its percent sign, each given a
// cell of its own by a filing's ruled statement ("(332 | )").
var closingRE = regexp.MustCompile(`^\s*\)?\s*%?\s*\)?\s*$`)

// joinClosingColumns appends each column that holds nothing but closing
// marks (closingRE) to the column before it: "(332)", not "(332" beside
// ")".
func joinClosingColumns(rows []*pblock) []*pblock {
	n := 0
	for _, b := range rows {
		n = max(n, len(b.cells))
	}
	closing := make([]bool, n)
	for j := 1; j < n; j++ {
		any, only := false, true
		for _, b := range rows {
			if j >= len(b.cells) || strings.TrimSpace(b.cells[j]) == "" {
				continue
			}
			any = true
			only = only && closingRE.MatchString(b.cells[j])
		}
		closing[j] = any && only
	}
	for _, b := range rows {
		var kept []string
		for j, c := range b.cells {
			if closing[j] && len(kept) > 0 {
				kept[len(kept)-1] = strings.TrimRight(kept[len(kept)-1], " ") + strings.TrimSpace(c)
				continue
			}
			kept = append(kept, c)
		}
		b.cells = kept
	}
	return rows
}

// splitAtUnruledBands cuts a table with inner vertical rules at the bands
// that no such rule crosses: the stack ran on past the table (a rule above
// the footnotes, a box around the next block) or joined two tables with a
// heading between them.
func (t ruleStack) splitAtUnruledBands(vs []rule) []ruleStack {
	var inner []rule
	for _, v := range vs {
		if v.at > t.x0+2 && v.at < t.x1-2 && v.a < t.ys[0] && v.b > t.ys[len(t.ys)-1] {
			inner = append(inner, v)
		}
	}
	if len(inner) == 0 {
		return []ruleStack{t}
	}
	ruled := func(bi int) bool {
		hi, lo := t.ys[bi], t.ys[bi+1]
		for _, v := range inner {
			if math.Min(hi, v.b)-math.Max(lo, v.a) >= 0.5*(hi-lo) {
				return true
			}
		}
		return false
	}
	var out []ruleStack
	start := -1 // first band of the current piece
	for bi := 0; bi < len(t.ys)-1; bi++ {
		if ruled(bi) {
			if start < 0 {
				start = bi
			}
			continue
		}
		if start >= 0 {
			out = append(out, ruleStack{ys: t.ys[start : bi+1], x0: t.x0, x1: t.x1})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, ruleStack{ys: t.ys[start:], x0: t.x0, x1: t.x1})
	}
	return out
}

// columns returns the column separators (sorted u positions) of a table:
// its inner vertical rules; with none, the white gaps shared by its
// lines; with maxUnruledRules (a rule after its label column only), also
// those shared by its lines below the heads, a head spanning a group of
// columns.
func (t ruleStack) columns(in []*pline, vs []rule) []float64 {
	top, bottom := t.ys[0], t.ys[len(t.ys)-1]
	// A rule closer to the table's edge than a letter is wide frames the
	// table (a double or shadowed frame's inner line); it divides no
	// columns.
	edge := 2.0
	for _, l := range in {
		edge = math.Max(edge, 0.6*l.size)
	}
	var ruled []float64
	for _, v := range vs {
		if v.at > t.x0+edge && v.at < t.x1-edge && v.b-v.a > 0.3*(top-bottom)/float64(len(t.ys)-1) && v.a < top && v.b > bottom {
			ruled = append(ruled, v.at)
		}
	}
	sort.Float64s(ruled)
	seps := dedupe(ruled)
	// White gaps: the stretches of x no run of the table covers. A head
	// of the table's top lines may span a group of columns ("Benchmark"
	// over "one | two | three"): a gap white in every line below the
	// heads is a column gap though a head runs across it.
	// A table that draws two inner rules or more draws its columns; white
	// space inside its cells ("$" then the figure) is no column. One that
	// draws none takes the white gaps of all its lines (a unit line across
	// the top keeps a statement's "$" with its figures).
	var white []float64
	switch len(seps) {
	case 0:
		white = whiteGaps(in)
	case maxUnruledRules:
		white = whiteGaps(in)
		if body := belowHeads(in); len(body) >= minBodyLines {
			for _, x := range whiteGaps(body) {
				if !afterSigns(body, x) {
					white = append(white, x)
				}
			}
		}
	}
	size := 0.0
	for _, l := range in {
		size = math.Max(size, l.size)
	}
	for _, x := range white {
		i := sort.SearchFloat64s(seps, x)
		if i < len(seps) && seps[i]-x < minColGapEm*size || i > 0 && x-seps[i-1] < minColGapEm*size {
			continue // a rule or a gap already there
		}
		seps = slices.Insert(seps, i, x)
	}
	if len(seps) == 0 {
		return nil
	}
	// Running text inside a box is not a table.
	if len(ruled) == 0 && prose([][]*pline{in}) && len(seps) < 2 {
		return nil
	}
	return seps
}

// maxUnruledRules is the most inner vertical rules a table may draw and
// still leave its other columns to white space (a rule after the label
// column only).
const maxUnruledRules = 1

// afterSigns reports whether every run that ends just before position x
// (the last before it on its line) is a currency sign alone: the white
// after a "$" is inside a cell, not between columns.
func afterSigns(lines []*pline, x float64) bool {
	signs := 0
	for _, l := range lines {
		var last *run
		for _, r := range l.runs {
			if r.u1 <= x && (last == nil || r.u1 > last.u1) {
				last = r
			}
		}
		if last == nil {
			continue
		}
		if !currencySign(strings.TrimSpace(last.b.String())) {
			return false
		}
		signs++
	}
	return signs > 0
}

// minBodyLines is how many lines below a table's heads their white gaps
// must hold in to make columns the heads span.
const minBodyLines = 3

// headLines is how many of a table's top baselines may hold heads that
// span columns.
const headLines = 2

// whiteGaps are the middles of the stretches across the lines that no
// run covers, at least minColGapEm (of the largest size) wide.
func whiteGaps(in []*pline) []float64 {
	type iv struct{ a, b float64 }
	var ivs []iv
	size := 0.0
	for _, l := range in {
		size = math.Max(size, l.size)
		for _, r := range l.runs {
			ivs = append(ivs, iv{r.u0, r.u1})
		}
	}
	if len(ivs) == 0 {
		return nil
	}
	sort.Slice(ivs, func(i, j int) bool { return ivs[i].a < ivs[j].a })
	var seps []float64
	end := ivs[0].b
	for _, x := range ivs[1:] {
		if x.a-end >= minColGapEm*size {
			seps = append(seps, (x.a+end)/2)
		}
		end = math.Max(end, x.b)
	}
	return seps
}

// belowHeads are the lines under the table's top headLines baselines
// (nil when the table has no more lines than that).
func belowHeads(in []*pline) []*pline {
	var vs []float64
	for _, l := range in {
		vs = append(vs, l.v)
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(vs)))
	var tops []float64
	for _, v := range vs {
		if len(tops) == 0 || tops[len(tops)-1]-v > 0.5*in[0].size {
			tops = append(tops, v)
		}
	}
	if len(tops) <= headLines {
		return nil
	}
	cut := tops[headLines-1] - 0.5*in[0].size
	var out []*pline
	for _, l := range in {
		if l.v < cut {
			out = append(out, l)
		}
	}
	return out
}

// dedupe drops separators closer than 2 points to the previous one.
func dedupe(xs []float64) []float64 {
	var out []float64
	for _, x := range xs {
		if len(out) == 0 || x-out[len(out)-1] > 2 {
			out = append(out, x)
		}
	}
	return out
}

// runPiece is the part of a run that falls in one table column.
type runPiece struct {
	col  int
	text string
}

// grid is a table's column layout: the separators between columns, and
// the vertical rules that may draw them.
type grid struct {
	seps []float64
	vs   []rule
}

// col is the column of position u.
func (g grid) col(u float64) int { return sort.SearchFloat64s(g.seps, u) }

// cuts reports whether separator k divides the line at v: a separator
// drawn by vertical rules divides only the rows those rules cross (a cell
// spanning columns has no rule through it); one found in the white space
// divides every row.
func (g grid) cuts(k int, v float64) bool {
	drawn := false
	for _, r := range g.vs {
		if math.Abs(r.at-g.seps[k]) <= 2 {
			drawn = true
			if v >= r.a-2 && v <= r.b+2 {
				return true
			}
		}
	}
	return !drawn
}

// splitRun cuts a run at the column separators it crosses (a cell's text
// set close to the next cell's, with only a rule between them), by the
// position of each glyph; a run inside one column, or crossing only
// separators that do not divide its row, stays whole.
func splitRun(r *run, g grid) []runPiece {
	if c0 := g.col(r.u0 + 0.1); c0 == g.col(r.u1-0.1) || len(r.gl) == 0 {
		return []runPiece{{g.col((r.u0 + r.u1) / 2), r.b.String()}}
	}
	var out []runPiece
	gap := wordGapEm * r.size()
	end := math.Inf(-1)
	for _, gl := range r.gl {
		c := g.col((gl.u0 + gl.u1) / 2)
		// A cell boundary leaves white: glyphs set touching are one word
		// (text overflowing its cell), whatever rule runs under them.
		touching := gl.text != " " && gl.u0-end < 0.1*r.size()
		if n := len(out); n > 0 && (out[n-1].col == c || touching || !g.divides(out[n-1].col, c, r.v)) {
			if gl.u0-end > gap {
				out[n-1].text += " "
			}
			out[n-1].text += gl.text
		} else {
			out = append(out, runPiece{c, gl.text})
		}
		if gl.text != " " {
			end = gl.u1
		}
	}
	return out
}

// divides reports whether a separator between columns a and b cuts the
// line at v.
func (g grid) divides(a, b int, v float64) bool {
	for k := min(a, b); k < max(a, b); k++ {
		if g.cuts(k, v) {
			return true
		}
	}
	return false
}

// inFirstColumn reports whether the line has text in the table's first
// column.
func inFirstColumn(l *pline, g grid) bool {
	first, _ := columnsUsed(l, g)
	return first
}

// columnsUsed reports whether the line has text in the table's first
// column and in any other.
func columnsUsed(l *pline, g grid) (first, others bool) {
	for _, r := range l.runs {
		for _, p := range splitRun(r, g) {
			if strings.TrimSpace(p.text) != "" {
				if p.col == 0 {
					first = true
				} else {
					others = true
				}
			}
		}
	}
	return first, others
}

// labelledOutside reports whether most lines of a ruled region have text
// on their baseline to the left of it: the rules are underlines of figure
// columns (a statement rules its subtotals under the figures only), and
// the rows run on to their labels, so the region is not a table of its
// own (the statement is read whole as a table without rules).
func labelledOutside(in, lines []*pline, x0 float64) bool {
	var bases []float64
	for _, l := range in {
		seen := false
		for _, v := range bases {
			if math.Abs(v-l.v) < 0.3*l.size {
				seen = true
				break
			}
		}
		if !seen {
			bases = append(bases, l.v)
		}
	}
	labelled := 0
	for _, v := range bases {
		for _, l := range lines {
			if !l.cell && l.u1 <= x0 && math.Abs(l.v-v) < 0.3*l.size && startsWithLetter(l.text) {
				labelled++
				break
			}
		}
	}
	return labelled >= 2 && 2*labelled >= len(bases)
}
