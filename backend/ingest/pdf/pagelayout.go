package pdf

import (
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Page analysis: runs -> lines -> blocks (paragraphs, table rows) ->
// reading order. Everything works in a frame where the text runs along +u
// and lines stack along -v, so rotated pages and vertical CJK (whose
// columns run right to left) go through the same code as upright text.
//
// Reading order follows the partial order of Breuel's "High Performance
// Document Layout Analysis" (2003): block a comes before block b when they
// overlap horizontally and a is above b, or when a lies entirely left of b
// and no third block, vertically between them, overlaps both. A
// topological sort of that order reads a two-column page column by column,
// a title spanning both columns first, and a figure or footnote spanning
// the columns between the parts above and below it. A block that crosses
// the middle of the text area with nothing beside it (a centred title
// line, a full-width paragraph) cuts the page in two, as the first cut of
// an XY-cut would: what is above it is read before it, what is below
// after, whatever their sides (a left-aligned "Introduction" under a
// centred title block is read after the whole block).

// Block-building thresholds (em of the larger line).
const (
	lineJoinEm   = 0.4  // baseline difference of runs that form one line
	maxLeadingEm = 1.75 // baseline distance beyond which a block ends
	// minDoubleLeadingEm and maxDoubleLeadingEm: the baseline distances
	// of double-spaced text, at which a line still goes on with the
	// paragraph above when that line runs on to the measure (wrapsOn); a
	// gap a little over maxLeadingEm is a space between paragraphs or
	// items.
	minDoubleLeadingEm = 1.95
	maxDoubleLeadingEm = 2.6
	// minMeasureEm: the least width of a line of double-spaced running
	// text (a page's measure, not a column's or a heading's).
	minMeasureEm = 25.0
	// fullLineShare: the part of the width a line must reach to run on to
	// the measure.
	fullLineShare = 0.8
	leadingGrowth = 1.35 // a gap this much above the block's own spacing ends it
	paraSizeRatio = 1.2  // font-size change that ends a block
	maxBlocksSort = 400  // above this, blocks are read top to bottom, left to right
)

// pline is one line of a block: runs on one baseline, ordered along u.
type pline struct {
	runs      []*run
	u0, u1, v float64
	size      float64 // size of the line's main run
	glyphs    int
	weights   [7]int
	heavy     bool // set in a heavier face than the page's body text
	text      string
	cell      bool // part of a table row
	contents  bool // an entry of a contents list, read whole (joinContentsRows)
	// contentsMore: a contents entry's title goes on on this line.
	contentsMore bool
	// figure, when set, is where the figure of a line joined to the
	// currency sign before it starts ("$ 81,204": the "8"): the column
	// the figure lines up with, the sign standing at the column's left.
	figure float64
}

func (l *pline) bold() bool { return l.heavy }

// colour is the fill colour of the line's glyphs, and false when they
// are set in more than one colour.
func (l *pline) colour() (uint32, bool) {
	for i, r := range l.runs {
		if r.mixed || i > 0 && r.color != l.runs[0].color {
			return 0, false
		}
	}
	if len(l.runs) == 0 {
		return 0, false
	}
	return l.runs[0].color, true
}

// colourChange reports whether two lines are each set in one colour, and
// clearly not the same one.
func colourChange(a, b *pline) bool {
	ca, oka := a.colour()
	cb, okb := b.colour()
	return oka && okb && colourDistance(ca, cb) > minColourDistance
}

// minColourDistance: colours closer than this (the largest difference of
// a channel, 0..255) are one colour to a reader (black and near-black).
const minColourDistance = 64

// colourDistance is the largest difference of the two colours' channels.
func colourDistance(a, b uint32) int {
	d := 0
	for sh := 0; sh <= 16; sh += 8 {
		x, y := int(a>>sh&0xff), int(b>>sh&0xff)
		d = max(d, x-y, y-x)
	}
	return d
}

// pblock is a group of lines read together.
type pblock struct {
	lines          []*pline
	u0, u1, v0, v1 float64 // v0 bottom, v1 top
	closed         bool
	table          bool
	cells          []string // table row cells
	frame          frame
}

func (b *pblock) last() *pline { return b.lines[len(b.lines)-1] }

func (b *pblock) add(l *pline) {
	if len(b.lines) == 0 {
		b.u0, b.u1 = l.u0, l.u1
		b.v0, b.v1 = l.v-0.25*l.size, l.v+0.8*l.size
	} else {
		b.u0, b.u1 = math.Min(b.u0, l.u0), math.Max(b.u1, l.u1)
		b.v0, b.v1 = math.Min(b.v0, l.v-0.25*l.size), math.Max(b.v1, l.v+0.8*l.size)
	}
	b.lines = append(b.lines, l)
}

func (b *pblock) vc() float64 { return (b.v0 + b.v1) / 2 }

// frame is a writing direction: device = u*(ux,uy) + v*(-uy,ux).
type frame struct{ ux, uy float64 }

func (f frame) device(u, v float64) (float64, float64) {
	return u*f.ux - v*f.uy, u*f.uy + v*f.ux
}

// layoutPage turns a page's runs into paragraphs in reading order.
func layoutPage(runs []*run, rules []rule) []para {
	if len(runs) == 0 {
		return nil
	}
	if len(runs) > maxRunsPerPage {
		return streamOrder(runs)
	}
	// Group runs by writing direction; the direction with the most glyphs
	// is read first.
	type group struct {
		f      frame
		runs   []*run
		glyphs int
	}
	var groups []*group
	for _, r := range runs {
		if r.glyphs == 0 {
			continue
		}
		var g *group
		for _, h := range groups {
			if h.f.ux*r.ux+h.f.uy*r.uy > 0.98 {
				g = h
				break
			}
		}
		if g == nil {
			g = &group{f: frame{r.ux, r.uy}}
			groups = append(groups, g)
		}
		g.runs = append(g.runs, r)
		g.glyphs += r.glyphs
	}
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].glyphs > groups[j].glyphs })
	var out []para
	for _, g := range groups {
		out = append(out, layoutFrame(g.f, g.runs, rulesInFrame(rules, g.f))...)
	}
	return out
}

// rulesInFrame expresses the page's rules in the coordinates of a writing
// direction (u along the lines, v across them), so a table set sideways
// on a landscape page is found like an upright one. Only the four axis
// directions have rules that stay axis-aligned; other frames get none.
func rulesInFrame(rules []rule, f frame) []rule {
	if f.ux > 0.99 {
		return rules
	}
	if math.Abs(f.ux) > 0.01 && math.Abs(f.uy) > 0.01 {
		return nil
	}
	out := make([]rule, 0, len(rules))
	for _, r := range rules {
		var x0, y0, x1, y1 float64
		if r.horizontal {
			x0, y0, x1, y1 = r.a, r.at, r.b, r.at
		} else {
			x0, y0, x1, y1 = r.at, r.a, r.at, r.b
		}
		u0, v0 := x0*f.ux+y0*f.uy, -x0*f.uy+y0*f.ux
		u1, v1 := x1*f.ux+y1*f.uy, -x1*f.uy+y1*f.ux
		if math.Abs(v1-v0) < 0.5 {
			out = append(out, rule{true, (v0 + v1) / 2, math.Min(u0, u1), math.Max(u0, u1)})
		} else {
			out = append(out, rule{false, (u0 + u1) / 2, math.Min(v0, v1), math.Max(v0, v1)})
		}
	}
	return out
}

// streamOrder is the fallback for pages too large to analyse: one
// paragraph per run, in content-stream order.
func streamOrder(runs []*run) []para {
	var out []para
	for _, r := range runs {
		t := strings.TrimSpace(r.b.String())
		if t == "" {
			continue
		}
		out = append(out, para{text: t, size: r.size(), lines: 1, runes: utf8.RuneCountInString(t), upright: r.ux > 0.99})
	}
	return out
}

// layoutFrame lays out the runs of one writing direction.
func layoutFrame(f frame, runs []*run, rules []rule) []para {
	lines := buildLines(runs)
	markHeavy(lines)
	rtl := rtlDominant(lines)
	ruled := ruledTables(lines, rules, f)
	blocks := append(ruled, groupLines(lines, f)...)
	order := readingOrder(blocks, rtl)
	var out []para
	for _, bi := range order {
		out = append(out, blockParas(blocks[bi], f)...)
	}
	return out
}

// buildLines merges runs that share a baseline and touch (content streams
// may show a line in pieces, out of order, or with raised superscripts)
// into lines. Runs separated by more than runGapEm stay apart: they are
// columns or table cells.
func buildLines(runs []*run) []*pline {
	rs := append([]*run(nil), runs...)
	sort.SliceStable(rs, func(i, j int) bool {
		if math.Abs(rs[i].v-rs[j].v) > 0.01 {
			return rs[i].v > rs[j].v
		}
		return rs[i].u0 < rs[j].u0
	})
	var lines []*pline
	for _, r := range rs {
		s := r.size()
		if s <= 0 {
			s = 1
		}
		var best *pline
		bestGap := math.Inf(1)
		for i := len(lines) - 1; i >= 0; i-- {
			l := lines[i]
			tol := lineJoinEm * math.Max(s, l.size)
			if l.v-r.v > 2*tol+2*s {
				break
			}
			// A footnote mark set small and raised beside a figure
			// ("4,210 ⁽ᵃ⁾") is read on the figure's line, whichever of
			// the two comes first.
			mark := footnoteMark(r, l.size, l.v) || len(l.runs) == 1 && footnoteMark(l.runs[0], s, r.v)
			if mark {
				tol = markRaiseEm * math.Max(s, l.size)
			}
			if math.Abs(l.v-r.v) > tol {
				continue
			}
			// The gap is judged by the smaller face: a heading beside the
			// next column's body text is still a column away.
			em := math.Max(s, l.size)
			gap := math.Max(r.u0-l.u1, l.u0-r.u1)
			limit := runGapEm * math.Min(s, l.size)
			if mark {
				limit = markGapEm * math.Max(s, l.size)
			}
			if gap > limit || gap < -0.3*em {
				continue
			}
			if gap > 0 && signAfterFigure(l.runs[len(l.runs)-1].lastRune, r.firstRune) {
				continue // a figure, then the next cell's "$"
			}
			if gap < bestGap {
				best, bestGap = l, gap
			}
		}
		if best == nil {
			best = &pline{u0: r.u0, u1: r.u1, v: r.v, size: s}
			lines = append(lines, best)
		} else if float64(r.glyphs)*s > float64(best.glyphs)*best.size {
			best.v, best.size = r.v, s
		}
		best.runs = append(best.runs, r)
		best.u0, best.u1 = math.Min(best.u0, r.u0), math.Max(best.u1, r.u1)
		best.glyphs += r.glyphs
		for w, n := range r.weights {
			best.weights[w] += n
		}
	}
	sortLines(lines)
	lines = bridgeGaps(lines)
	for _, l := range lines {
		sort.SliceStable(l.runs, func(i, j int) bool { return l.runs[i].u0 < l.runs[j].u0 })
		l.text = lineText(l)
	}
	return lines
}

// signsBeforeFigures are the currency signs set before their figure
// ("$ 5,363"); a sign written after it ("5 €") is not among them.
const signsBeforeFigures = "$£¥₹"

// figuresApart reports whether line a ends in a figure ("512,430", "38%",
// "(16)") and line b opens with one or with a currency sign set before
// its figure ("$", "£", "¥", "₹"): two cells of a table row, whatever
// crosses the gap between them. The runs on either side of the gap must
// hold no letters.
func figuresApart(a, b *pline) bool {
	ra, rb := a.runs[len(a.runs)-1], b.runs[0]
	last, first := ra.lastRune, rb.firstRune
	return endsFigure(last) &&
		(unicode.IsDigit(first) || first == '(' || strings.ContainsRune(signsBeforeFigures, first)) &&
		!strings.ContainsFunc(ra.b.String(), unicode.IsLetter) && !strings.ContainsFunc(rb.b.String(), unicode.IsLetter)
}

// markGapEm is how far after the text it marks a footnote mark may stand,
// and markRaiseEm how far above its baseline, and still be read on its
// line.
const (
	markGapEm   = 2.5
	markRaiseEm = 0.6
)

// footnoteMark reports whether r is a footnote mark set smaller than text
// of the given size beside it and raised above its baseline v ("4,210
// ⁽ᵃ⁾"): it belongs to that text's line, however far the line's own gap
// rule would put it.
func footnoteMark(r *run, size, v float64) bool {
	if r.size() > 0.85*size || r.v <= v {
		return false
	}
	return footnoteMarkRE.MatchString(strings.TrimSpace(r.b.String()))
}

var footnoteMarkRE = regexp.MustCompile(`^(?:\((?:\d{1,2}|[a-z]|[ivx]{1,4})\)|[*†‡§]{1,3}|\d{1,2})$`)

// markHeavy marks the lines set (nine tenths of their glyphs) in a face
// heavier than the one most glyphs of the page use.
func markHeavy(lines []*pline) {
	var all [7]int
	for _, l := range lines {
		for w, n := range l.weights {
			all[w] += n
		}
	}
	body := 2
	for w, n := range all {
		if n > all[body] {
			body = w
		}
	}
	for _, l := range lines {
		heavier := 0
		for w := body + 1; w < len(l.weights); w++ {
			heavier += l.weights[w]
		}
		l.heavy = l.glyphs > 0 && heavier*10 >= l.glyphs*9
	}
}

// sortLines orders lines top to bottom, then along the line.
func sortLines(lines []*pline) {
	sort.SliceStable(lines, func(i, j int) bool {
		if math.Abs(lines[i].v-lines[j].v) > 0.01 {
			return lines[i].v > lines[j].v
		}
		return lines[i].u0 < lines[j].u0
	})
}

// bridgeGaps joins neighbouring lines on one baseline whose gap (up to
// maxBridgeEm) is crossed by the ink of a line just above or below: a wide
// word space of justified text, not a column gutter or a table column,
// which stay white from line to line. A gap of up to wordGapEm is joined
// unless a line near it shows a gutter there (white at the gap with text
// on both sides): the loose word spacing of a scanned page's text layer,
// whose next and previous lines may end short of the gap (ragged right).
func bridgeGaps(lines []*pline) []*pline {
	const maxBridgeEm, nearEm, wordGapEm = 3.0, 2.5, 1.5
	out := lines[:0:0]
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		for i+1 < len(lines) {
			n := lines[i+1]
			em := math.Max(l.size, n.size)
			gap := n.u0 - l.u1
			if math.Abs(n.v-l.v) > lineJoinEm*em || gap <= 0 || gap > maxBridgeEm*em {
				break
			}
			if !looseWordGap(lines, l, n, wordGapEm, nearEm*em) && (!inkCrosses(lines, l, n, nearEm*em) || figuresApart(l, n)) {
				// A head spanning the columns above two figures is no
				// word space between them.
				break
			}
			l.runs = append(l.runs, n.runs...)
			l.u1 = math.Max(l.u1, n.u1)
			l.glyphs += n.glyphs
			for w, k := range n.weights {
				l.weights[w] += k
			}
			i++
		}
		out = append(out, l)
	}
	return out
}

// looseWordGap reports whether the gap between lines a and b on one
// baseline is a loose word space: both words (not a bullet, a box or a
// figure: list marks and table cells keep their own alignment), set in
// one size, at most wordGapEm of it apart, and no gutter near (see
// gutterNear).
func looseWordGap(lines []*pline, a, b *pline, wordGapEm, near float64) bool {
	small, large := math.Min(a.size, b.size), math.Max(a.size, b.size)
	if large > paraSizeRatio*small || b.u0-a.u1 > wordGapEm*small {
		return false
	}
	if !wordy(a.runs[len(a.runs)-1]) || !wordy(b.runs[0]) {
		return false
	}
	return !gutterNear(lines, a, b, near)
}

// wordy reports whether a run holds a word: two letters or more.
func wordy(r *run) bool {
	n := 0
	for _, c := range r.b.String() {
		if unicode.IsLetter(c) {
			if n++; n >= 2 {
				return true
			}
		}
	}
	return false
}

// gutterNear reports whether a line within near of a's baseline (but not
// on it) stands wholly right of the middle of the gap between a and b and
// in b's column (starting within an em of b, ending within an em of it,
// or centred within an em: left-aligned text, right-aligned or centred
// figures): the next column of the page or of a table running past the
// gap, whose lines need not share a's baseline.
func gutterNear(lines []*pline, a, b *pline, near float64) bool {
	mid := (a.u1 + b.u0) / 2
	em := math.Max(a.size, b.size)
	for _, o := range lines {
		d := math.Abs(o.v - a.v)
		if d > near || d < 0.5*a.size || o.u0 <= mid {
			continue
		}
		if math.Abs(o.u0-b.u0) <= em || math.Abs(o.u1-b.u1) <= em || math.Abs((o.u0+o.u1)-(b.u0+b.u1)) <= 2*em {
			return true
		}
	}
	return false
}

// inkCrosses reports whether a run of a line within near of a's baseline
// (but not on it) covers the middle of the gap between a and b, and no
// other pair of lines near it leaves white at the same place (a gutter: a
// full-width footnote under two columns crosses it, the columns above
// do not).
func inkCrosses(lines []*pline, a, b *pline, near float64) bool {
	mid := (a.u1 + b.u0) / 2
	crosses := false
	for i, o := range lines {
		d := math.Abs(o.v - a.v)
		if d > near || d < 0.5*a.size {
			continue
		}
		if i+1 < len(lines) {
			n := lines[i+1]
			if math.Abs(n.v-o.v) <= lineJoinEm*o.size && o.u1 < mid && n.u0 > mid {
				return false // white at mid on a neighbouring line: a gutter
			}
		}
		if crosses || o.u0 > mid || o.u1 < mid {
			continue
		}
		for _, r := range o.runs {
			if r.u0 < mid && r.u1 > mid {
				crosses = true
				break
			}
		}
	}
	return crosses
}

// lineText joins a line's runs, with a space where they are apart. When
// runs overlap along the line, the glyphs of all of them are ordered by
// position instead.
func lineText(l *pline) string {
	for _, r := range l.runs {
		if isRTL(r.firstRune) || isRTL(r.lastRune) {
			return rtlLineText(l)
		}
	}
	for i := 1; i < len(l.runs); i++ {
		if l.runs[i].u0 < l.runs[i-1].u1-0.5*l.size {
			return glyphOrderText(l)
		}
	}
	var b strings.Builder
	for i, r := range l.runs {
		t := strings.TrimSpace(r.b.String())
		if t == "" {
			continue
		}
		if i > 0 && b.Len() > 0 {
			prev := l.runs[i-1]
			gap := r.u0 - prev.u1
			first, _ := utf8.DecodeRuneInString(t)
			if gap > wordGapEm*l.size && !(noSpaceScript(prev.lastRune) && noSpaceScript(first)) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(t)
	}
	return b.String()
}

// glyphOrderText is a line's text from its glyphs sorted by position,
// with a space where two glyphs are more than a word gap apart.
func glyphOrderText(l *pline) string {
	var gs []placed
	for _, r := range l.runs {
		gs = append(gs, r.gl...)
	}
	sort.SliceStable(gs, func(i, j int) bool { return gs[i].u0 < gs[j].u0 })
	var b strings.Builder
	var prev rune
	end := math.Inf(-1)
	space := false
	for _, g := range gs {
		if g.text == " " {
			space = true
			continue
		}
		first, _ := utf8.DecodeRuneInString(g.text)
		if b.Len() > 0 && (space || g.u0-end > wordGapEm*l.size) && !(noSpaceScript(prev) && noSpaceScript(first)) {
			b.WriteByte(' ')
		}
		space = false
		b.WriteString(g.text)
		prev, _ = utf8.DecodeLastRuneInString(g.text)
		end = math.Max(end, g.u1)
	}
	return b.String()
}

// groupLines groups lines into blocks: a line joins the block whose last
// line is just above it, overlaps it along the line, has a similar size and
// weight, and keeps the block's line spacing. Whitespace-aligned tables are
// found first; their rows become one-line blocks.
func groupLines(lines []*pline, f frame) []*pblock {
	var blocks []*pblock
	lines = attachCurrency(lines)
	lines = attachBullets(lines)
	lines = joinContentsRows(lines)
	var free []*pline // lines not already in a ruled table nor contents entries
	for _, l := range lines {
		if !l.cell && !l.contents {
			free = append(free, l)
		}
	}
	for _, table := range findTables(free) {
		first := len(blocks)
		slots := columnSlots(table)
		cols := cellColumns(table, slots)
		goesOn := wrappedRows(table, cols)
		var last *pblock     // the row block made last
		var wrapped []*pline // a label's first lines, wrapped onto its row
		for k, row := range table {
			if len(row) == 0 {
				continue
			}
			if goesOn[k] && last != nil {
				// The rest of the row above, every cell wrapped: each
				// line joins the cell of its column.
				for i, c := range row {
					c.cell = true
					last.add(c)
					col := cols[k][i]
					for len(last.cells) <= col {
						last.cells = append(last.cells, "")
					}
					last.cells[col] = strings.TrimSpace(strings.ReplaceAll(joinLines([]string{last.cells[col], c.text}), "\n", " "))
				}
				continue
			}
			if k+1 < len(table) && wrapsOnto(row, table[k+1]) {
				row[0].cell = true
				wrapped = append(wrapped, row[0])
				continue
			}
			b := &pblock{table: true, frame: f}
			for _, l := range wrapped {
				b.add(l)
			}
			for i, c := range row {
				c.cell = true
				b.add(c)
				text := c.text
				if i == 0 && len(wrapped) > 0 {
					var parts []string
					for _, l := range wrapped {
						parts = append(parts, l.text)
					}
					text = strings.ReplaceAll(joinLines(append(parts, text)), "\n", " ")
				}
				if slots[k] != nil {
					for len(b.cells) < slots[k][i] {
						b.cells = append(b.cells, "") // a column this row leaves empty
					}
				}
				b.cells = append(b.cells, text)
			}
			wrapped = nil
			moveTrailingSigns(b.cells)
			b.closed = true
			blocks = append(blocks, b)
			last = b
		}
		// Each row spans the table's width, so rows are read in their
		// order: a label row at the left ("Assets") is not read before
		// the column heads above it because nothing overlaps both.
		u0, u1 := math.Inf(1), math.Inf(-1)
		for _, b := range blocks[first:] {
			u0, u1 = math.Min(u0, b.u0), math.Max(u1, b.u1)
		}
		for _, b := range blocks[first:] {
			b.u0, b.u1 = u0, u1
		}
	}
	lines = attachNumbers(lines)
	double := doubleSpaced(lines)
	for _, l := range lines {
		if l.cell {
			continue
		}
		if strings.TrimSpace(l.text) == "" {
			continue
		}
		var best *pblock
		bestDV := math.Inf(1)
		for _, b := range blocks {
			if b.closed {
				continue
			}
			lb := b.last()
			ov := math.Min(lb.u1, l.u1) - math.Max(lb.u0, l.u0)
			if ov <= 0 {
				continue
			}
			dv := lb.v - l.v
			if dv <= 0.3*math.Min(lb.size, l.size) {
				continue
			}
			if dv < bestDV {
				best, bestDV = b, dv
			}
		}
		if best != nil && !joins(best, l, bestDV, double) {
			best.closed = true
			best = nil
		}
		// Any other open block whose last line this line overlaps from
		// below is now cut off: nothing further down may join it.
		for _, b := range blocks {
			if b == best || b.closed {
				continue
			}
			lb := b.last()
			if math.Min(lb.u1, l.u1)-math.Max(lb.u0, l.u0) > 0 && lb.v > l.v {
				b.closed = true
			}
		}
		if best == nil {
			best = &pblock{frame: f}
			blocks = append(blocks, best)
		}
		best.add(l)
	}
	return blocks
}

// trailingSignRE matches a cell that ends in a currency sign set before
// a figure, apart from the figure before it ("38% $").
var trailingSignRE = regexp.MustCompile(`^(.*[0-9%)])\s+([` + signsBeforeFigures + `])$`)

// moveTrailingSigns gives a currency sign read at the end of a cell ("38%
// $ | 81,307", a sign set close after the figure of the cell before) to
// the figure of the next cell it belongs to ("38% | $ 81,307").
func moveTrailingSigns(cells []string) {
	for i := 0; i+1 < len(cells); i++ {
		m := trailingSignRE.FindStringSubmatch(cells[i])
		next := strings.TrimSpace(cells[i+1])
		if m == nil || next == "" {
			continue
		}
		if r, _ := utf8.DecodeRuneInString(next); unicode.IsDigit(r) || r == '(' {
			cells[i], cells[i+1] = m[1], m[2]+" "+next
		}
	}
}

// columnSlots places the cells of a table's rows in its columns. The
// columns are those of its fullest rows (the rows with the most cells,
// each cell's stretch across the line taken over all of them); a row with
// fewer cells, two or more, leaves the columns none of its cells stands in
// empty ("Net income | 4,029 | 4,029" under eight value columns holds its
// figures in the last two). slots[k][i] is the column of cell i of row k;
// nil where a row keeps its cells in order: a full row, a one-cell row, a
// row whose cells do not each fall in one column of their own to the
// right of the one before (a head spanning a group of columns, which
// package tables reads by its groups), and every row when the fullest
// rows do not agree on where their columns are.
func columnSlots(table [][]*pline) [][]int {
	slots := make([][]int, len(table))
	full := 0
	for _, r := range table {
		full = max(full, len(r))
	}
	if full < 3 {
		return slots
	}
	// The columns' stretches, over the fullest rows.
	cols := make([][2]float64, full)
	for i := range cols {
		cols[i] = [2]float64{math.Inf(1), math.Inf(-1)}
	}
	for _, r := range table {
		if len(r) != full {
			continue
		}
		for i, c := range r {
			cols[i][0], cols[i][1] = math.Min(cols[i][0], c.u0), math.Max(cols[i][1], c.u1)
		}
	}
	for i := 1; i < full; i++ {
		if cols[i][0] <= cols[i-1][1] {
			return slots // the fullest rows disagree: their columns overlap
		}
	}
	for k, r := range table {
		if len(r) < 2 || len(r) == full {
			continue
		}
		at := make([]int, len(r))
		prev := -1
		for i, c := range r {
			best, bestOv, over := -1, 0.0, 0
			for j, col := range cols {
				if ov := math.Min(c.u1, col[1]) - math.Max(c.u0, col[0]); ov > 0 {
					over++
					if ov > bestOv {
						best, bestOv = j, ov
					}
				}
			}
			if best <= prev || over > 1 {
				// outside every column, not right of the cell before, or
				// across several (a head over a group of columns)
				at = nil
				break
			}
			at[i], prev = best, best
		}
		slots[k] = at
	}
	return slots
}

// wrapsOnto reports whether a table's one-cell row is the first line of
// the label of the row below it, wrapped ("Common stock ($0.10 par value;
// 6,250,000,000 shares authorized in each period;" over "4,291,433,646
// shares issued in each period) | 429 | 429"): the next line, at most a
// line and a half below, starts where the label does (or a few em in, a
// hanging indent), is set in the same weight, and the first line is
// plainly unfinished: a parenthesis left open, a final comma, semicolon,
// hyphen or slash, or a next line that starts in lower case. A section
// label ("Current assets", "Equity:") over its first row is none of these.
func wrapsOnto(row, next []*pline) bool {
	if len(row) != 1 || len(next) == 0 {
		return false
	}
	l, n := row[0], next[0]
	if valueCell(l) || valueCell(n) || l.heavy != n.heavy {
		return false
	}
	s := math.Max(l.size, n.size)
	if l.v-n.v > 1.5*s || l.v-n.v <= 0 || n.u0 < l.u0-0.5*s || n.u0 > l.u0+3*s {
		return false
	}
	text := strings.TrimSpace(l.text)
	if text == "" || strings.HasSuffix(text, ":") {
		return false
	}
	if strings.Count(text, "(") > strings.Count(text, ")") {
		return true
	}
	switch r, _ := utf8.DecodeLastRuneInString(text); r {
	case ',', ';', '-', '–', '/':
		return true
	}
	first, _ := utf8.DecodeRuneInString(strings.TrimSpace(n.text))
	return unicode.IsLower(first)
}

// currencyGapEm: a currency sign set apart this far (em) before a number
// is still that number's sign; statements align "$" at the column's left
// and the figure at its right.
const currencyGapEm = 8.0

// attachCurrency joins a line that is only a currency sign to the number
// that follows it on the same baseline, so "$ | 5,363" is one cell
// ("$ 5,363"), not two columns.
func attachCurrency(lines []*pline) []*pline {
	out := attachBefore(lines, func(l, m *pline) bool {
		s := math.Max(l.size, m.size)
		return currencySign(strings.TrimSpace(l.text)) && !l.cell && !m.cell &&
			m.u0-l.u1 <= currencyGapEm*s && valueCell(m)
	})
	for _, l := range out {
		if len(l.runs) > 1 && currencySign(strings.TrimSpace(l.runs[0].b.String())) {
			l.figure = l.runs[1].u0
		}
	}
	return out
}

// currencySign reports whether t is one currency sign alone ("$", "€").
func currencySign(t string) bool {
	r, n := utf8.DecodeRuneInString(t)
	return n == len(t) && n > 0 && unicode.Is(unicode.Sc, r)
}

// attachBefore joins each line to the next one on its baseline, just to
// its right, when join says it belongs to it: the joined line (its runs,
// extent and text, a space between) replaces both, and lines stays sorted
// (top to bottom, then along the line).
func attachBefore(lines []*pline, join func(l, m *pline) bool) []*pline {
	out := lines[:0:0]
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if i+1 < len(lines) {
			m := lines[i+1]
			s := math.Max(l.size, m.size)
			if math.Abs(m.v-l.v) <= 0.3*s && m.u0 > l.u1 && join(l, m) {
				j := *m
				j.runs = append(append([]*run{}, l.runs...), m.runs...)
				j.u0 = l.u0
				j.text = strings.TrimSpace(l.text) + " " + strings.TrimSpace(m.text)
				j.glyphs += l.glyphs
				out = append(out, &j)
				i++
				continue
			}
		}
		out = append(out, l)
	}
	return out
}

// loneBulletRE matches a line that is only a bullet glyph. Dashes and
// asterisks are left out: alone in a table they mean an empty cell or a
// note.
var loneBulletRE = regexp.MustCompile(`^[•◦▪■●○◆◇‣⁃∙\x{F0A7}\x{F0B7}]$`)

// bulletGapEm: a bullet this close before a line (em of the larger size)
// opens it.
const bulletGapEm = 6.0

// attachBullets joins a line that is only a bullet to the line of words
// it stands before on the same baseline, so that a list whose marks are
// set apart from their text (a tab stop, a hanging indent, a filing's list
// laid out as a two-column table) reads as items ("• text") and not as a
// table of bullets beside a column of text. Table cells are left alone,
// and so is a bullet before another mark (a matrix of dots).
func attachBullets(lines []*pline) []*pline {
	return attachBefore(lines, func(l, m *pline) bool {
		s := math.Max(l.size, m.size)
		return !l.cell && !m.cell && loneBulletRE.MatchString(strings.TrimSpace(l.text)) &&
			m.u0-l.u1 <= bulletGapEm*s && startsWithWord(m.text)
	})
}

// startsWithWord reports whether s opens with a letter, a digit or an
// opening quote or bracket.
func startsWithWord(s string) bool {
	r, _ := utf8.DecodeRuneInString(strings.TrimSpace(s))
	return unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("\"'“‘(", r)
}

// numberLabelRE matches a line that is only a section or item number.
var numberLabelRE = regexp.MustCompile(`^(?:\d{1,2}|[IVX]{1,4}|[A-Z])\.?$`)

// labelGapEm: a number label this close before a line (em of the larger
// size) belongs to it.
const labelGapEm = 3.0

// attachNumbers joins a line that is only a number ("1" in a box before a
// section title, a list number set at the margin of a hanging indent) to
// the line it stands before on the same baseline, so "1 Introduction"
// reads as one heading and not as a lone "1" paragraph. Table cells are
// left alone (lines is sorted top to bottom, then along the line).
func attachNumbers(lines []*pline) []*pline {
	return attachBefore(lines, func(l, m *pline) bool {
		s := math.Max(l.size, m.size)
		return !l.cell && !m.cell && numberLabelRE.MatchString(strings.TrimSpace(l.text)) &&
			m.u0-l.u1 <= labelGapEm*s && startsWithLetter(m.text)
	})
}

// startsWithLetter reports whether s opens with a letter.
func startsWithLetter(s string) bool {
	r, _ := utf8.DecodeRuneInString(strings.TrimSpace(s))
	return unicode.IsLetter(r)
}

// joins reports whether line l continues block b, dv below its last line;
// double says the page's running text is double-spaced (doubleSpaced).
func joins(b *pblock, l *pline, dv float64, double bool) bool {
	lb := b.last()
	s := math.Max(lb.size, l.size)
	if math.Max(lb.size, l.size)/math.Max(math.Min(lb.size, l.size), 0.01) > paraSizeRatio {
		return false
	}
	if dv > maxLeadingEm*s && (!double || dv < minDoubleLeadingEm*s || dv > maxDoubleLeadingEm*s || !wrapsOn(lb, l, s)) {
		return false
	}
	if n := len(b.lines); n >= 2 {
		sp := b.lines[n-2].v - lb.v
		if sp > 0 && dv > sp*leadingGrowth+0.1*s {
			return false
		}
	}
	if lb.bold() && l.bold() && s/math.Min(lb.size, l.size) > 1.05 {
		return false // two headings of different levels
	}
	if titleLine(lb.text) && !allCaps(l.text) || titleLine(l.text) && !allCaps(lb.text) {
		return false // a numbered title in capitals set close to its paragraph
	}
	if len(b.lines) == 1 && capsTitle(lb.text) && !allCaps(l.text) {
		return false // a title in capitals on the line above its paragraph
	}
	if colourChange(lb, l) {
		return false // a title in a second colour above its paragraph
	}
	if lb.bold() != l.bold() {
		// A bold run-in heading that wraps: "Former U.S. citizens and
		// former U.S." / "long-term residents. If you ..." reads on.
		first, _ := utf8.DecodeRuneInString(l.text)
		return lb.bold() && unicode.IsLower(first) && !endsSentence(lb.text)
	}
	return true
}

// doubleSpaced reports whether a page's running text is double-spaced:
// of the lines of running text (more than proseWords words, no table
// cell), the distance down to the next such line below in the same size
// that overlaps it is most often between minDoubleLeadingEm and
// maxDoubleLeadingEm (to a tenth of an em), over minSpacings lines at
// least. A page of single-spaced paragraphs with its list items or
// contents entries set wider apart is not.
func doubleSpaced(lines []*pline) bool {
	var prose []*pline
	for _, l := range lines {
		if !l.cell && l.size > 0 && len(strings.Fields(l.text)) > proseWords {
			prose = append(prose, l)
		}
	}
	count := map[int]int{}
	n := 0
	for _, a := range prose {
		best := math.Inf(1)
		for _, b := range prose {
			dv := a.v - b.v
			if dv <= 0.3*a.size || math.Abs(a.size-b.size) > 0.05*a.size || math.Min(a.u1, b.u1) <= math.Max(a.u0, b.u0) {
				continue
			}
			best = math.Min(best, dv)
		}
		if !math.IsInf(best, 1) {
			count[int(math.Round(best/a.size*10))]++
			n++
		}
	}
	if n < minSpacings {
		return false
	}
	mode, most := 0, 0
	for k, c := range count {
		if c > most || c == most && k < mode {
			mode, most = k, c
		}
	}
	em := float64(mode) / 10
	return em >= minDoubleLeadingEm && em <= maxDoubleLeadingEm
}

// minSpacings is the fewest spacings between lines of running text that
// tell a page's spacing.
const minSpacings = 4

// wrapsOn reports whether line l goes on with the paragraph whose line lb
// is, set at a wider spacing than maxLeadingEm (double-spaced text: a
// plan document, a power of attorney, a thesis): both in one size, weight
// and colour, neither bold; lb a line of running text (more than
// proseWords words, minMeasureEm wide) that ends no sentence nor opens a
// list (":") and runs on to the measure (fullLineShare of the two lines'
// joint width, a ragged right edge allowed); l starting no further right
// than lb (which may be indented as a paragraph's first line) and no new
// item ("2.", "•"); a lower-case word at the end of lb or the start of l.
// s is the larger size.
func wrapsOn(lb, l *pline, s float64) bool {
	if lb.bold() || l.bold() || math.Abs(lb.size-l.size) > 0.05*s || colourChange(lb, l) {
		return false
	}
	t := strings.TrimSpace(lb.text)
	if len(strings.Fields(t)) <= proseWords || endsSentence(t) || strings.HasSuffix(t, ":") || lb.u1-lb.u0 < minMeasureEm*s {
		return false
	}
	if l.u0 > lb.u0+0.5*s || itemStartRE.MatchString(l.text) {
		return false
	}
	// A sentence runs on over a lower-case word at one end or the other;
	// a line ending on a capitalised word, a figure or a bracket and the
	// next opening on a capital are two items ("… Stockholder Matters" /
	// "Certain Relationships …").
	f := strings.Fields(t)
	if !lowerStart(f[len(f)-1]) && !lowerStart(l.text) {
		return false
	}
	left := math.Min(lb.u0, l.u0)
	return lb.u1-left >= fullLineShare*(math.Max(lb.u1, l.u1)-left)
}

// itemStartRE matches the start of a list item, a note or an entry: a
// bullet, a number or a letter with its mark ("2.", "(c)", "1 ").
var itemStartRE = regexp.MustCompile(`^\s*(?:[*•◦·▪■□☐☑☒●○◆◇※‐–—\p{Co}-]|(?:\(?(?:\d{1,3}|[a-zA-Z]|[ivxIVX]{1,4})[.)]|\d{1,3})\s)`)

// lowerStart reports whether s opens with a lower-case letter.
func lowerStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(strings.TrimSpace(s))
	return unicode.IsLower(r)
}

// maxLabelLines: the lines of running text across a table's columns
// that may stand between two of its full rows (a long label row, wrapped).
const maxLabelLines = 2

// proseWords: a line with this many words is running text, not a cell,
// unless it is a row's label (stubCell).
const proseWords = 6

// findTables finds whitespace-aligned tables: runs of consecutive
// baselines that each hold several lines (cells) whose left edges or
// centres line up from row to row. Two-column text also has two "cells"
// per baseline, so two-cell rows need three rows in a row and a short cell.
//
// A statement's rows are labelled on the left ("Purchases of property,
// plant and equipment (PP&E)", however long) with values to the right; a
// label alone on its line inside the table, at the labels' column and
// short of the values (a section such as "Cash Flows from Investing
// Activities", or the first line of a wrapped label), is a one-cell row of
// the table rather than the end of it, so the header row above it and the
// rows below stay one table.
func findTables(lines []*pline) [][][]*pline {
	// Rows: lines sharing a baseline.
	var rows [][]*pline
	long := map[int]bool{} // rows of one line of running text
	for i := 0; i < len(lines); {
		j := i + 1
		for j < len(lines) && math.Abs(lines[j].v-lines[i].v) <= 0.3*math.Max(lines[i].size, lines[j].size) {
			j++
		}
		base := append([]*pline(nil), lines[i:j]...)
		sort.SliceStable(base, func(a, b int) bool { return base[a].u0 < base[b].u0 })
		// A line of running text (six words or more) beside a table is
		// the next column, not a cell; a row's label is.
		var row []*pline
		for k, l := range base {
			if len(strings.Fields(l.text)) < proseWords || k == 0 && stubCell(base) {
				row = append(row, l)
			}
		}
		switch {
		case len(row) > 0:
			rows = append(rows, row)
		case len(base) == 1:
			// Only running text: a table's long label row, or the next
			// column's text beside a table, which does not interrupt it.
			rows = append(rows, base)
			long[len(rows)-1] = true
		}
		i = j
	}
	rows = joinOffsetRows(rows, long)
	var out [][][]*pline
	prevEnd := 0 // rows before this belong to a table found already
	for i := 0; i < len(rows); {
		if len(rows[i]) < 2 {
			i++
			continue
		}
		last := i // the last row of several cells
		stub := rows[i][0].u0
		across := 0 // lines of running text across the table's columns since its last full row
		var skip map[int]bool
		fulls := []int{i} // the table's rows of several cells so far
		for j := i + 1; j < len(rows); j++ {
			if len(rows[j]) >= 2 {
				if !rowsNear(rows[j-1], rows[j]) || !alignsWithRows(rows, fulls, j) {
					break
				}
				last, across = j, 0
				fulls = append(fulls, j)
				stub = math.Min(stub, rows[j][0].u0)
				continue
			}
			if labelRow(rows[last], rows[j][0], stub) && rowsNear(rows[j-1], rows[j]) {
				stub = math.Min(stub, rows[j][0].u0)
				continue
			}
			if !long[j] {
				break
			}
			if crossesCells(rows[j][0], rows[last]) {
				// Running text across the table's columns: a long label
				// row (wrapped onto a second line at most), not paragraphs.
				if across++; across > maxLabelLines {
					break
				}
			}
			if skip == nil {
				skip = map[int]bool{}
			}
			skip[j] = true
		}
		j := last + 1 // one-cell rows after the last full row are not the table's
		start := headerAbove(rows, i, prevEnd)
		var full, kept [][]*pline
		for k, r := range rows[start:i] {
			if len(r) >= 2 {
				full = append(full, r)
			}
			kept = append(kept, rows[start+k])
		}
		for k, r := range rows[i:j] {
			if skip[i+k] {
				continue
			}
			kept = append(kept, r)
			if len(r) >= 2 {
				full = append(full, r)
			}
		}
		n := len(full)
		cells := len(rows[i])
		ok := n >= 2 && cells >= 3 || n >= 3 && shortCells(full)
		if ok && !prose(full) && !sideLists(full) {
			out = append(out, alignedCells(kept))
			prevEnd = j
		}
		i = j
	}
	return out
}

// crossesCells reports whether line l runs across two or more of the
// cells of row: running text over the table's columns, where a cell's
// wrapped text stays within its column.
func crossesCells(l *pline, row []*pline) bool {
	n := 0
	for _, c := range row {
		if math.Min(l.u1, c.u1) > math.Max(l.u0, c.u0) {
			n++
		}
	}
	return n >= 2
}

// headerAbove is where the table whose first full row is rows[i] starts:
// at its header rows above it (column heads such as dates over the value
// columns, no label; several lines of them, "Year Ended December 31," over
// "2015 | 2014" over "(in thousands)") with only label rows ("Assets",
// "Current assets") between them and rows[i], or at rows[i] itself. Rows
// before from are another table's.
func headerAbove(rows [][]*pline, i, from int) int {
	ref := rows[i]
	start := i
	for k := i - 1; k >= from; k-- {
		if !rowsNear(rows[k], rows[k+1]) {
			break
		}
		if headsColumns(ref, rows[k]) {
			start = k
			continue
		}
		if start != i || len(rows[k]) != 1 || !labelRow(ref, rows[k][0], ref[0].u0) {
			break
		}
	}
	return start
}

func headsColumns(ref, h []*pline) bool {
	if len(h) > len(ref)-1 {
		return false
	}
	for _, c := range h {
		if c.u0 < ref[0].u1 {
			return false
		}
		over := false
		for _, v := range ref[1:] {
			if math.Min(c.u1, v.u1)-math.Max(c.u0, v.u0) > 0 {
				over = true
				break
			}
		}
		if !over {
			return false
		}
	}
	return true
}

// offsetRowEm: a label and its values set this far apart across the line
// (em) are still one row.
const offsetRowEm = 0.6

// joinOffsetRows joins a label alone on its baseline to the row of values
// just below it when the two are less than offsetRowEm apart: a label set
// a little higher than its figures (a label box aligned to the top, the
// figures to the bottom) is one row, not a label row and a row without a
// label. long is kept in step with the rows.
func joinOffsetRows(rows [][]*pline, long map[int]bool) [][]*pline {
	out := rows[:0:0]
	for i := 0; i < len(rows); i++ {
		r := rows[i]
		if len(r) == 1 && !valueCell(r[0]) && i+1 < len(rows) {
			n := rows[i+1]
			s := math.Max(r[0].size, n[0].size)
			values := len(n) > 0
			for _, c := range n {
				values = values && valueCell(c)
			}
			if values && r[0].v-n[0].v < offsetRowEm*s && r[0].u1 < n[0].u0 {
				delete(long, i)
				out = append(out, append([]*pline{r[0]}, n...))
				i++
				continue
			}
		}
		if long[i] {
			delete(long, i)
			long[len(out)] = true
		}
		out = append(out, r)
	}
	return out
}

// valueCellRE matches a cell holding a value rather than words: a number
// with its sign, currency, parentheses, percent or unit letters ("(1,577)",
// "$ 5,363", "12.5%", "3.2x"), or a dash standing for none.
var valueCellRE = regexp.MustCompile(`^(?:[\p{Sc}(+\-−–]\s*)*\d[\d.,  ]*\)?\s*(?:%|\p{Sc}|[a-zA-Z]{1,2})?\)?$|^[—–\-]+$`)

// valueCell reports whether a line is a value cell.
func valueCell(l *pline) bool { return valueCellRE.MatchString(strings.TrimSpace(l.text)) }

// stubCell reports whether the first line of a baseline (sorted along the
// line) labels a row of values: every other line on it is a value cell.
func stubCell(base []*pline) bool {
	if len(base) < 2 {
		return false
	}
	for _, l := range base[1:] {
		if !valueCell(l) {
			return false
		}
	}
	return true
}

// rowsNear reports whether two consecutive rows are close enough to be
// rows of one table: no more than three lines apart.
func rowsNear(a, b []*pline) bool {
	s := math.Max(a[0].size, b[0].size)
	return a[0].v-b[0].v <= 3*s
}

// labelRow reports whether a line alone on its baseline belongs to the
// table whose last full row is ref, as a one-cell row: it starts at the
// labels' column (stub: the leftmost label so far; a section label may
// stand up to two em left of it, a wrapped or nested one a few em right)
// and ends before the values' column, and is no paragraph (at most two
// dozen words).
func labelRow(ref []*pline, x *pline, stub float64) bool {
	s := math.Max(ref[0].size, x.size)
	if x.u0 < math.Min(stub, ref[0].u0)-2*s || x.u0 > ref[0].u0+6*s {
		return false
	}
	if x.u1 > ref[1].u0-0.5*s {
		return false
	}
	return len(strings.Fields(x.text)) <= 24 && !valueCell(x)
}

// alignedCells drops from a table's rows the lines that line up with no
// cell of any other row: text from the next column of the page that
// happens to share a row's baseline.
func alignedCells(rows [][]*pline) [][]*pline {
	out := make([][]*pline, 0, len(rows))
	for i, r := range rows {
		if len(r) == 1 || stubCell(r) {
			// A label row, or a row's label: the label column is ragged
			// on the right and indented by level on the left.
			kept := []*pline{r[0]}
			if len(r) > 1 {
				kept = append(kept, keepAligned(rows, i, r[1:])...)
			}
			out = append(out, kept)
			continue
		}
		out = append(out, keepAligned(rows, i, r))
	}
	return out
}

// keepAligned keeps the lines of cells (of rows[i]) that line up with a
// cell of another row, and those standing between two such cells: a
// figure inside its row ("38%" of a change column no other row has) is
// the row's, where a line past its last aligned cell may be the next
// page column's.
func keepAligned(rows [][]*pline, i int, cells []*pline) []*pline {
	aligned := make([]bool, len(cells))
	for j, x := range cells {
		for k, other := range rows {
			if k != i && alignsWithAny(x, other) {
				aligned[j] = true
				break
			}
		}
	}
	first, last := -1, -1
	for j, a := range aligned {
		if a {
			if first < 0 {
				first = j
			}
			last = j
		}
	}
	var kept []*pline
	for j, x := range cells {
		if aligned[j] || first >= 0 && first < j && j < last {
			kept = append(kept, x)
		}
	}
	return kept
}

// alignsWithAny reports whether line x starts, ends or is centred where a
// line of row does.
func alignsWithAny(x *pline, row []*pline) bool {
	for _, y := range row {
		if sameColumn(x, y, math.Max(x.size, y.size)) {
			return true
		}
	}
	return false
}

// sameColumn reports whether lines x and y start, end or are centred
// within s of each other; a figure after its currency sign starts where
// its digits do, too ("$ 81,204" under a head over "81,204").
func sameColumn(x, y *pline, s float64) bool {
	if math.Abs(x.u1-y.u1) < s || math.Abs((x.u0+x.u1)-(y.u0+y.u1)) < 2*s {
		return true
	}
	for _, a := range x.starts() {
		for _, b := range y.starts() {
			if math.Abs(a-b) < s {
				return true
			}
		}
	}
	return false
}

// starts is where the line starts, and where its figure does when it
// was joined to a currency sign before it.
func (l *pline) starts() []float64 {
	if l.figure > 0 {
		return []float64{l.u0, l.figure}
	}
	return []float64{l.u0}
}

// alignsWithRows reports whether rows[j] shares its column positions with
// the last of the table's full rows, or else stands wholly in the columns
// of one of the others: a row of a few wide cells ("$ 4,218,306" under two
// columns) may not line up with the row after it, which lines up with the
// rows above. Every cell must then find its column, so that a line of
// the next page column beside a table's row does not join it.
func alignsWithRows(rows [][]*pline, fulls []int, j int) bool {
	if rowsAlign(rows[fulls[len(fulls)-1]], rows[j]) {
		return true
	}
	for k := len(fulls) - 2; k >= 0; k-- {
		if a := rows[fulls[k]]; len(rows[j]) <= len(a) && alignedCount(rows[j], a) == len(rows[j]) {
			return true
		}
	}
	return false
}

// rowsAlign reports whether two table rows share at least two column
// positions (left edges, right edges or centres within an em).
func rowsAlign(a, b []*pline) bool {
	shared := alignedCount(a, b)
	return shared >= 2 && shared >= min(len(a), len(b))-1
}

// alignedCount is how many cells of row a line up with a cell of row b
// (left edges, right edges or centres within an em of the rows' size).
func alignedCount(a, b []*pline) int {
	s := math.Max(a[0].size, b[0].size)
	shared := 0
	for _, x := range a {
		for _, y := range b {
			if sameColumn(x, y, s) {
				shared++
				break
			}
		}
	}
	return shared
}

// prose reports whether the "cells" of candidate table rows read like
// lines of text columns: most hold four words or more. Tables hold names,
// numbers and short phrases, and may repeat one phrase from row to row
// (the same exchange named on every row of a list of securities), which
// lines of text do not.
func prose(rows [][]*pline) bool {
	seen := map[string]int{} // the rows each text stands in
	for _, r := range rows {
		in := map[string]bool{}
		for _, c := range r {
			in[strings.TrimSpace(c.text)] = true
		}
		for t := range in {
			seen[t]++
		}
	}
	long, all := 0, 0
	for _, r := range rows {
		if stubCell(r) {
			r = r[1:] // a row's label may be long; its values are not
		}
		for _, c := range r {
			all++
			if len(strings.Fields(c.text)) >= 4 && seen[strings.TrimSpace(c.text)] == 1 {
				long++
			}
		}
	}
	return long*2 > all
}

// listCellRE matches a cell that opens with a list mark: a bullet or an
// item number ("2.", "b)").
var listCellRE = regexp.MustCompile(`^\s*(?:[*•◦·▪■□●○◆◇‐–-]|\(?(?:\d{1,2}|[a-z])[.)])\s`)

// sideLists reports whether candidate table rows are lists set side by
// side (a slide's text boxes): two thirds of the cells open with a list
// mark. A reader takes such lists one after the other, not across.
func sideLists(rows [][]*pline) bool {
	marked, all := 0, 0
	for _, r := range rows {
		for _, c := range r {
			all++
			if listCellRE.MatchString(c.text) {
				marked++
			}
		}
	}
	return marked*3 >= all*2
}

// shortCells reports whether two-cell rows look like a table rather than
// two text columns: in most rows some cell is short compared to the row.
func shortCells(rows [][]*pline) bool {
	short := 0
	for _, r := range rows {
		span := r[len(r)-1].u1 - r[0].u0
		for _, c := range r {
			if c.u1-c.u0 < 0.3*span {
				short++
				break
			}
		}
	}
	return short*4 >= len(rows)*3
}

// readingOrder sorts blocks by the partial order described at the top of
// this file, with a topological sort that prefers the upper, then the
// left block among those ready. With rtl, "left" means right.
func readingOrder(blocks []*pblock, rtl bool) []int {
	n := len(blocks)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	u0 := func(b *pblock) float64 { return b.u0 }
	u1 := func(b *pblock) float64 { return b.u1 }
	if rtl {
		u0 = func(b *pblock) float64 { return -b.u1 }
		u1 = func(b *pblock) float64 { return -b.u0 }
	}
	pos := func(a, b int) bool {
		ba, bb := blocks[a], blocks[b]
		if math.Abs(ba.v1-bb.v1) > 0.5 {
			return ba.v1 > bb.v1
		}
		return u0(ba) < u0(bb)
	}
	sort.SliceStable(idx, func(i, j int) bool { return pos(idx[i], idx[j]) })
	if n > maxBlocksSort || n < 2 {
		return idx
	}
	overlap := func(a, b *pblock) bool {
		return math.Min(u1(a), u1(b))-math.Max(u0(a), u0(b)) > 0.5
	}
	band := cutBands(blocks)
	before := make([][]bool, n)
	for i := range before {
		before[i] = make([]bool, n)
	}
	indeg := make([]int, n)
	// over[a]: the blocks overlapping a horizontally (rule 2's witnesses
	// must overlap both ends, so only these are looked at).
	over := make([][]int, n)
	for a := 0; a < n; a++ {
		for c := 0; c < n; c++ {
			if c != a && overlap(blocks[a], blocks[c]) {
				over[a] = append(over[a], c)
			}
		}
	}
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			if a == b {
				continue
			}
			A, B := blocks[a], blocks[b]
			ok := false
			if band[a] != band[b] {
				ok = band[a] < band[b] // a cut lies between them
			} else if overlap(A, B) {
				ok = A.vc() > B.vc()
			} else if u1(A) <= u0(B)+0.5 {
				ok = true
				lo, hi := math.Min(A.vc(), B.vc()), math.Max(A.vc(), B.vc())
				for _, c := range over[a] {
					C := blocks[c]
					if c != b && C.vc() > lo && C.vc() < hi && overlap(C, B) {
						ok = false
						break
					}
				}
			}
			if ok {
				before[a][b] = true
				indeg[b]++
			}
		}
	}
	done := make([]bool, n)
	out := make([]int, 0, n)
	for len(out) < n {
		pick := -1
		for _, i := range idx {
			if !done[i] && indeg[i] == 0 {
				pick = i
				break
			}
		}
		if pick < 0 {
			// A cycle: take the first remaining block in position order.
			for _, i := range idx {
				if !done[i] {
					pick = i
					break
				}
			}
		}
		done[pick] = true
		out = append(out, pick)
		for b := 0; b < n; b++ {
			if before[pick][b] {
				before[pick][b] = false
				indeg[b]--
			}
		}
	}
	return out
}

// cutBands numbers the horizontal bands the page's cuts divide it into,
// top to bottom, and gives each block its band. A cut is a block that
// crosses the middle of the text area (the blocks' horizontal extent) and
// that no other block stands beside (no other block's vertical extent
// meets its own); a block's band is the number of cuts wholly above it.
// Blocks of different bands are read band by band; within a band the
// partial order above decides.
func cutBands(blocks []*pblock) []int {
	n := len(blocks)
	band := make([]int, n)
	if n < 2 {
		return band
	}
	lo, hi := blocks[0].u0, blocks[0].u1
	for _, b := range blocks {
		lo, hi = math.Min(lo, b.u0), math.Max(hi, b.u1)
	}
	mid := (lo + hi) / 2
	var cuts []*pblock
	for i, c := range blocks {
		if c.u0 >= mid || c.u1 <= mid {
			continue
		}
		alone := true
		for j, o := range blocks {
			if j != i && math.Min(c.v1, o.v1)-math.Max(c.v0, o.v0) > -0.5 {
				alone = false
				break
			}
		}
		if alone {
			cuts = append(cuts, c)
		}
	}
	if len(cuts) == 0 {
		return band
	}
	for i, b := range blocks {
		for _, c := range cuts {
			if c != b && c.v0 >= b.v1-0.5 {
				band[i]++
			}
		}
	}
	return band
}

// blockParas turns a block into paragraphs: table rows become one
// paragraph with cells joined by " | "; text blocks are split where a line
// ends short of the block's right edge and the next one is indented or the
// short line ends a sentence.
func blockParas(b *pblock, f frame) []para {
	upright := f.ux > 0.99
	if b.table {
		// Empty cells stay (a ruled table's row has one per column), so
		// each value stays under its column: "X |  | X".
		cells := make([]string, len(b.cells))
		empty := true
		for i, c := range b.cells {
			cells[i] = strings.Join(strings.Fields(c), " ")
			empty = empty && cells[i] == ""
		}
		if empty {
			return nil
		}
		t := strings.Join(cells, " | ")
		p := para{text: t, size: b.lines[0].size, lines: 1, runes: utf8.RuneCountInString(t), upright: upright, table: true, cells: len(cells)}
		setBox(&p, b.u0, b.v0, b.u1, b.v1, f)
		return []para{p}
	}
	var out []para
	start := 0
	emit := func(end int) {
		if end <= start {
			return
		}
		ls := b.lines[start:end]
		var texts []string
		var sizeSum float64
		glyphs, bold, contents := 0, true, true
		colour, oneColour := ls[0].colour()
		u0, u1, v0, v1 := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for _, l := range ls {
			texts = append(texts, l.text)
			sizeSum += l.size * float64(l.glyphs)
			glyphs += l.glyphs
			bold = bold && l.bold()
			contents = contents && l.contents
			c, ok := l.colour()
			oneColour = oneColour && ok && c == colour
			u0, u1 = math.Min(u0, l.u0), math.Max(u1, l.u1)
			v0, v1 = math.Min(v0, l.v-0.25*l.size), math.Max(v1, l.v+0.8*l.size)
		}
		t := joinLines(texts)
		p := para{text: t, lines: len(ls), runes: utf8.RuneCountInString(t), upright: upright, bold: bold, colour: colour, oneColour: oneColour, contents: contents}
		if glyphs > 0 {
			p.size = sizeSum / float64(glyphs)
		}
		setBox(&p, u0, v0, u1, v1, f)
		out = append(out, p)
		start = end
	}
	runes := 0
	for i := 1; i < len(b.lines); i++ {
		prev, l := b.lines[i-1], b.lines[i]
		runes += utf8.RuneCountInString(prev.text)
		s := l.size
		short := prev.u1 < b.u1-3*s
		indented := l.u0 > b.u0+0.8*s && l.u0 > prev.u0+0.8*s
		last, _ := utf8.DecodeLastRuneInString(strings.TrimSpace(prev.text))
		ends := strings.ContainsRune(".!?:。！？：", last)
		// A numbered title on a line of its own ends its paragraph even
		// when it is set as close as a line of text ("3 应用电路" over
		// its first paragraph).
		alone := i-1 == start && prev.u1-prev.u0 < 0.6*(b.u1-b.u0) && numberedLine(prev.text) && brokenEarly(prev, l, b.u1)
		// Each contents entry is a paragraph of its own.
		if short && (indented || ends || alone) || runes > maxParaRunes || (prev.contents || l.contents) && !l.contentsMore {
			emit(i)
			runes = 0
		}
	}
	emit(len(b.lines))
	return out
}

// brokenEarly reports whether line prev ends where the text did not need
// to break: the room left before the block's right edge u1 would have
// held the next line's first word (a title on a line of its own, not a
// line of running text wrapped before a long word).
func brokenEarly(prev, l *pline, u1 float64) bool {
	t := strings.TrimSpace(l.text)
	n := utf8.RuneCountInString(t)
	if n == 0 || l.u1 <= l.u0 {
		return false
	}
	word := 1
	if first, _ := utf8.DecodeRuneInString(t); !noSpaceScript(first) {
		if i := strings.IndexByte(t, ' '); i > 0 {
			word = utf8.RuneCountInString(t[:i])
		} else {
			word = n
		}
	}
	need := (l.u1-l.u0)*float64(word)/float64(n) + 0.5*l.size
	return u1-prev.u1 > need
}

// setBox stores a frame box as a device-space box on p.
func setBox(p *para, u0, v0, u1, v1 float64, f frame) {
	xs, ys := [4]float64{}, [4]float64{}
	xs[0], ys[0] = f.device(u0, v0)
	xs[1], ys[1] = f.device(u1, v0)
	xs[2], ys[2] = f.device(u0, v1)
	xs[3], ys[3] = f.device(u1, v1)
	p.box = [4]float64{min(xs[0], xs[1], xs[2], xs[3]), min(ys[0], ys[1], ys[2], ys[3]), max(xs[0], xs[1], xs[2], xs[3]), max(ys[0], ys[1], ys[2], ys[3])}
	p.hasBox = true
}

// joinLines joins the lines of a paragraph with newlines, undoing
// end-of-line hyphenation ("re-" + "trieval" -> "retrieval") where a
// hyphen follows a letter and the next line starts with a lower-case
// letter, as pdftotext does.
func joinLines(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			prev := lines[i-1]
			next, _ := utf8.DecodeRuneInString(l)
			if hyphenated(prev) && unicode.IsLower(next) {
				s := b.String()
				_, size := utf8.DecodeLastRuneInString(s)
				b.Reset()
				b.WriteString(s[:len(s)-size])
			} else {
				b.WriteByte('\n')
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

// hyphenated reports whether a line ends with a hyphen (or soft hyphen)
// right after a letter.
func hyphenated(l string) bool {
	last, size := utf8.DecodeLastRuneInString(l)
	if last != '-' && last != 0xAD && last != '\u2010' {
		return false
	}
	before, _ := utf8.DecodeLastRuneInString(l[:len(l)-size])
	return unicode.IsLetter(before)
}
