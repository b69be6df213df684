// Package tables reads the tables Cairn's readers keep as rows of cells
// ("Purchases of property, plant and equipment | (1,577) | (1,373)") back
// as data: header rows and the column groups they span, row labels under
// their section rows, figures with their sign, and the unit a table states.
// Lookup finds the cell a question asks for: the row and column whose
// labels share the question's words, in the period the question names.
// Pure functions over passage text; no language's vocabulary is built in
// (words are compared through the analyzer's tokens and stems, and their
// weight comes from the caller).
package tables

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Table is one table of a passage.
type Table struct {
	// Heads are the header rows above the figures, top first, each as its
	// cells ("Assets | Depreciation & Amortization | Capital Expenditures",
	// then "(Millions) | 2018 | 2017 | 2016 | 2018 …").
	Heads [][]string
	// Columns names each value column by the heads over it, group first
	// ("Capital Expenditures 2018").
	Columns []string
	// Stub is the header rows' label cell when they have one ("(Millions)"):
	// where statements give their unit.
	Stub string
	// Title is the text that names the table: the passage's heading (given
	// to Parse) and the lines just above the table ("Consolidated Balance
	// Sheets", "$ in millions, except per share amounts").
	Title string
	Rows  []Row
	// FiscalEnd, when set (by the caller, who knows the document), is the
	// day the fiscal years of the table's document end: a column headed by
	// a date stands for the fiscal year that date falls in (FiscalYear),
	// not its calendar year ("July 26, 2025" is fiscal 2026 for years
	// ending late January).
	FiscalEnd FiscalEnd
	// GoesOn, when set (by the caller, who knows the passages), says the
	// table goes on in the next passage: its last row here closes
	// nothing (is no total).
	GoesOn bool
	// yearHeads is 1 + the index among Heads of the years set as lines
	// above the table, 0 when there are none.
	yearHeads int
}

// Row is one row of figures.
type Row struct {
	Label string
	// Section is the nearest label row above it ("Cash Flows from
	// Investing Activities").
	Section string
	Cells   []string // value cells, one per column
	// Start and End are the row's byte span in the text parsed.
	Start, End int
}

// titleLines is how many lines above a table may name it.
const titleLines = 3

// Parse reads the tables of a passage's text: runs of lines with cells
// separated by " | ", with the one-cell label lines between them. header,
// when set, is the header row of a table the passage continues (its first
// rows are under it; several header rows are one per line); heading is
// the passage's heading, part of every table's title.
func Parse(text, header, heading string) []Table {
	var out []Table
	var cur *Table
	section := ""
	var above []string // the lines above the next table
	title := func() string {
		return strings.TrimSpace(heading + " " + strings.Join(above, " "))
	}
	var pendingHeads [][]string
	for _, h := range strings.Split(header, "\n") {
		if strings.TrimSpace(h) != "" {
			pendingHeads = append(pendingHeads, splitCells(h))
		}
	}
	flush := func() {
		if cur != nil && len(cur.Rows) > 0 {
			dropSignColumns(cur)
			splitPanels(cur)
			// Years set as lines head the first columns; more columns (a
			// change, a percentage) follow them. Over a row of dates
			// without their year ("Dec. 26 | Sep. 26 | … | Dec. 27 | …"),
			// each year heads its group of columns.
			if i := cur.yearHeads - 1; i >= 0 && len(cur.Heads[i]) < width(cur.Rows) && !yearGroups(cur.Heads, i, width(cur.Rows)) {
				h := cur.Heads[i]
				cur.Heads[i] = append(h[:len(h):len(h)], make([]string, width(cur.Rows)-len(h))...)
			}
			cur.Columns, cur.Stub = columns(cur.Heads, width(cur.Rows))
			out = append(out, *cur)
		}
		cur = nil
	}
	// The years over a statement's figures, when they are set as lines of
	// their own above its first row ("2021", "2020", "2019" under the
	// title or under a first label row) rather than as a header row.
	var yearHead []string
	for _, ln := range textLines(text) {
		start, end := ln.start, ln.end
		l := strings.TrimSpace(ln.text)
		if l == "" {
			continue
		}
		if ys := YearsOnly(l); len(ys) > 0 && (cur == nil || len(cur.Rows) == 0) {
			yearHead = append(yearHead, ys...)
			continue
		}
		if !strings.Contains(l, " | ") {
			// A label line between rows: a section of the table, unless
			// it reads as prose (ends a sentence, or is long).
			if cur != nil && isLabelLine(l) {
				section = l
				continue
			}
			flush()
			section = ""
			// A label line above the passage's first row (its label
			// wrapped, or its section) keeps the header carried to the
			// passage; prose ends it.
			if len(out) > 0 || header == "" || !isLabelLine(l) {
				pendingHeads = nil
			}
			// So does a label line between the years over a table
			// ("2015 / As of December 31, / 2014").
			if !isLabelLine(l) {
				yearHead = nil
			}
			above = withLineAbove(above, ln.pageMark()+l)
			continue
		}
		cells := splitCells(l)
		if cur == nil {
			cur = &Table{Heads: pendingHeads, Title: title()}
			pendingHeads = nil
			above = nil
		}
		label, values := cells[0], cells[1:]
		if label != "" && allBlank(values) {
			// A label with empty cells ("Operating Activities |  |  |")
			// is a section row, not a head.
			section = label
			continue
		}
		if !hasFigure(values) {
			if len(cur.Rows) == 0 {
				cur.Heads = append(cur.Heads, cells)
				continue
			}
			// Words over the figures below: a new table's heads, under
			// the label line just above them, which names it.
			flush()
			if section != "" {
				above = []string{section}
			}
			section = ""
			cur = &Table{Heads: [][]string{cells}, Title: title()}
			above = nil
			continue
		}
		if isFigure(label) {
			// No label: all cells are values.
			label, values = "", cells
		}
		if len(cur.Rows) == 0 && len(yearHead) >= 2 {
			cur.Heads = append(cur.Heads, yearHead)
			cur.yearHeads = len(cur.Heads)
		}
		yearHead = nil
		cur.Rows = append(cur.Rows, Row{Label: label, Section: section, Cells: values, Start: start, End: end})
	}
	flush()
	return out
}

// maxPanels is the most side-by-side panels a table is read as; minPanelRows
// how many full rows must show them, panelShare the part of the full rows.
const (
	maxPanels    = 3
	minPanelRows = 3
	panelShare   = 0.8
)

// splitPanels reads a table printed as panels side by side ("Avon | 11
// | Norfolk | 5": a label and its figures, then another label and its
// figures): when most full rows (panelShare, at least minPanelRows) hold,
// at each panel's first place, a cell of words (or none) and figures (or
// nothing) elsewhere, each row is cut into one row per panel, the later
// panels' rows after the first's, and the header rows keep the first
// panel's heads. A statement's rows hold figures only after their label,
// so none is cut.
func splitPanels(t *Table) {
	w := width(t.Rows) + 1 // cells of a full row, its label's included
	for p := 2; p <= maxPanels; p++ {
		if w%p != 0 || w/p < 2 {
			continue
		}
		s := w / p
		full, ok := 0, 0
		for _, r := range t.Rows {
			cells := append([]string{r.Label}, r.Cells...)
			if len(cells) != w {
				continue
			}
			full++
			if panelRow(cells, s) {
				ok++
			}
		}
		if full < minPanelRows || float64(ok) < panelShare*float64(full) {
			continue
		}
		var rows []Row
		for k := 0; k < p; k++ {
			for _, r := range t.Rows {
				cells := append([]string{r.Label}, r.Cells...)
				if len(cells) < (k+1)*s {
					continue
				}
				part := cells[k*s : (k+1)*s]
				if allBlank(part) {
					continue
				}
				nr := Row{Label: part[0], Cells: append([]string(nil), part[1:]...), Start: r.Start, End: r.End}
				if k == 0 {
					nr.Section = r.Section
				}
				rows = append(rows, nr)
			}
		}
		t.Rows = rows
		for i, h := range t.Heads {
			switch len(h) {
			case w:
				t.Heads[i] = h[:s]
			case w - 1:
				t.Heads[i] = h[:s-1]
			}
		}
		return
	}
}

// panelRow reports whether a full row's cells read as panels of s cells:
// each panel's first a cell of words or empty, the others figures or
// empty, and a later panel's label holding words.
func panelRow(cells []string, s int) bool {
	later := false
	for i, c := range cells {
		if c == "" {
			continue
		}
		if i%s == 0 {
			if isFigure(c) {
				return false
			}
			later = later || i > 0
		} else if !isFigure(c) {
			return false
		}
	}
	return later
}

// textLine is a line of a passage's text with its byte span there (no
// line end); page says a page break (kb.PageSeparator) comes right
// before it.
type textLine struct {
	text       string
	start, end int
	page       bool
}

// pageMark is the page break before the line, "" when none.
func (l textLine) pageMark() string {
	if l.page {
		return "\f"
	}
	return ""
}

// textLines cuts a passage's text into lines at line ends and at page
// breaks: a page's first line follows the page before's last with no
// line end between them (a table's last row on one page, then its header
// row again on the next).
func textLines(text string) []textLine {
	var out []textLine
	pos := 0
	for _, line := range strings.SplitAfter(text, "\n") {
		at := pos
		for i, seg := range strings.Split(strings.TrimRight(line, "\n"), "\f") {
			out = append(out, textLine{text: seg, start: at, end: at + len(seg), page: i > 0})
			at += len(seg) + 1
		}
		pos += len(line)
	}
	return out
}

// withLineAbove keeps the last titleLines lines above the next table,
// line l the last of them; what a page before l's says (up to its last
// form feed) names no table on it.
func withLineAbove(above []string, l string) []string {
	if i := strings.LastIndexByte(l, '\f'); i >= 0 {
		above, l = nil, strings.TrimSpace(l[i+1:])
		if l == "" {
			return above
		}
	}
	above = append(above, l)
	if len(above) > titleLines {
		above = above[1:]
	}
	return above
}

// yearGroups reports whether the years of head row yi stand over equal
// groups of the n columns: another head row names every column by a date
// without its year, and n is a multiple of the years.
func yearGroups(heads [][]string, yi, n int) bool {
	k := len(heads[yi])
	if k < 2 || n%k != 0 {
		return false
	}
	for i, h := range heads {
		if i == yi {
			continue
		}
		cells := h
		if len(cells) == n+1 {
			cells = cells[1:]
		}
		if len(cells) != n {
			continue
		}
		all := true
		for _, c := range cells {
			if !monthDayRE.MatchString(strings.TrimSpace(c)) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// dropSignColumns removes the value columns that hold nothing but
// currency signs and blanks in every row as wide as the table (a ruled
// statement gives "$" its own column: "Cash | $ | 11,258 | $ | 12,277"),
// so the figures' columns line up with the heads over them. A narrower
// row, its sign set with its figure ("Net loss | $ (660) | $ (403)"),
// keeps its cells and says nothing of the wide rows' columns.
func dropSignColumns(t *Table) {
	n := width(t.Rows)
	keep := make([]bool, n)
	for _, r := range t.Rows {
		if len(r.Cells) != n {
			continue // a narrower row ("Net loss | $ (660) | $ (403)") lines up otherwise
		}
		for j, c := range r.Cells {
			if !signOrBlank(c) {
				keep[j] = true
			}
		}
	}
	all := true
	for _, k := range keep {
		all = all && k
	}
	if all {
		return
	}
	for i, r := range t.Rows {
		if len(r.Cells) != n {
			continue
		}
		var cells []string
		for j, c := range r.Cells {
			if keep[j] {
				cells = append(cells, c)
			}
		}
		t.Rows[i].Cells = cells
	}
	// Header rows as wide as the rows lose the same columns. A head
	// standing over a sign's column heads the sign's figure: it moves to
	// the figure's column beside it when that one has no head of its own.
	for i, h := range t.Heads {
		lead := len(h) - n
		if lead != 0 && lead != 1 {
			continue
		}
		heads := append([]string(nil), h[lead:]...)
		for j, c := range heads {
			if keep[j] || c == "" {
				continue
			}
			if j+1 < n && keep[j+1] && heads[j+1] == "" {
				heads[j+1], heads[j] = c, ""
			} else if j > 0 && keep[j-1] && heads[j-1] == "" {
				heads[j-1], heads[j] = c, ""
			}
		}
		cells := append([]string(nil), h[:lead]...)
		for j, c := range heads {
			if keep[j] {
				cells = append(cells, c)
			}
		}
		t.Heads[i] = cells
	}
	compactSignCells(t)
}

// compactSignCells reads the rows of a table whose currency signs still
// stand in cells of their own after dropSignColumns (rows set with the
// sign apart, "Derivative assets | $ | 88 | $ | 37", among rows without,
// "Other | 158 | 158") by their figures alone: every row and header row
// loses its sign-only and blank cells, so the figures line up.
func compactSignCells(t *Table) {
	signs := false
	for _, r := range t.Rows {
		for _, c := range r.Cells {
			signs = signs || c != "" && signOrBlank(c)
		}
	}
	if !signs {
		return
	}
	compact := func(cells []string) []string {
		var out []string
		for _, c := range cells {
			if !signOrBlank(c) {
				out = append(out, c)
			}
		}
		return out
	}
	for i, r := range t.Rows {
		t.Rows[i].Cells = compact(r.Cells)
	}
	for i, h := range t.Heads {
		if len(h) > 1 {
			t.Heads[i] = append([]string{h[0]}, compact(h[1:])...)
		}
	}
}

// signOrBlank reports whether a cell is empty or only currency signs.
func signOrBlank(c string) bool {
	for _, r := range c {
		if !unicode.Is(unicode.Sc, r) && !unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

// IsHeadRow reports whether a row of cells reads as a header row: words
// or years over the figures ("Assets | Depreciation & Amortization |
// Capital Expenditures", "(Millions) | 2018 | 2017"), no figure among its
// value cells and not all of them empty (a section row).
func IsHeadRow(row string) bool {
	if !strings.Contains(row, " | ") {
		return false
	}
	values := splitCells(row)[1:]
	return !allBlank(values) && !hasFigure(values)
}

// splitCells cuts a row into its trimmed cells. Cells are written
// between " | "; an empty cell may leave a bar with one space on either
// side only ("| | 2021", "Label | |", "a | | b"), each such bar one more
// empty cell.
func splitCells(row string) []string {
	var cells []string
	for _, p := range strings.Split(row, " | ") {
		p = strings.TrimSpace(p)
		for p == "|" || strings.HasPrefix(p, "| ") {
			cells = append(cells, "")
			p = strings.TrimSpace(p[1:])
		}
		tail := 0
		for p != "|" && strings.HasSuffix(p, " |") {
			p = strings.TrimSpace(p[:len(p)-1])
			tail++
		}
		cells = append(cells, p)
		for ; tail > 0; tail-- {
			cells = append(cells, "")
		}
	}
	return cells
}

func allBlank(cells []string) bool {
	for _, c := range cells {
		if c != "" {
			return false
		}
	}
	return true
}

// YearsOnly returns the years of a text that holds nothing else ("2021",
// "2021 2020", "2021\n2020": a statement's column heads set as lines of
// their own); nil otherwise. A footnote mark after a year ("2017 (1)",
// "2019*") is left out with it.
func YearsOnly(l string) []string {
	f := strings.Fields(l)
	var out []string
	for i, w := range f {
		if y := strings.TrimRight(w, footnoteSigns); y != w && IsYear(y) {
			out = append(out, y)
			continue
		}
		if IsYear(w) {
			out = append(out, w)
			continue
		}
		if i > 0 && IsYear(f[i-1]) && footnoteRE.MatchString(w) {
			continue
		}
		return nil
	}
	return out
}

// withoutFootnoteMark is a cell without the footnote mark set after its
// figure ("4,210 (a)", "1,306*"); the cell as it was when it has none.
func withoutFootnoteMark(c string) string {
	if i := strings.LastIndexByte(c, ' '); i > 0 && footnoteRE.MatchString(c[i+1:]) {
		rest := strings.TrimSpace(c[:i])
		if last, _ := utf8.DecodeLastRuneInString(rest); unicode.IsDigit(last) || last == ')' || last == '%' {
			return rest
		}
	}
	if t := strings.TrimRight(c, footnoteSigns); t != c && t != "" {
		return strings.TrimSpace(t)
	}
	return c
}

// footnoteSigns are the marks set after a figure or a head to call a
// footnote; footnoteRE is a mark in parentheses: "(1)", "(a)", "(iv)".
const footnoteSigns = "*†‡§"

var footnoteRE = regexp.MustCompile(`^\((?:\d{1,2}|[a-z]|[ivx]{1,4})\)$`)

// isLabelLine reports whether a line alone between table rows reads as a
// label (short, no sentence end) rather than prose.
func isLabelLine(l string) bool {
	if len(strings.Fields(l)) > 16 {
		return false
	}
	last := l[len(l)-1]
	return last != '.' || strings.HasSuffix(l, "etc.")
}

// hasFigure reports whether some cell holds a figure (a year alone is a
// column head, not a figure).
func hasFigure(cells []string) bool {
	for _, c := range cells {
		if _, ok := Number(c); ok && !IsYear(c) {
			return true
		}
	}
	return false
}

// isFigure reports whether a cell is a figure or a dash.
func isFigure(c string) bool {
	_, ok := Number(c)
	return ok || dashRE.MatchString(c)
}

var (
	numberRE = regexp.MustCompile(`^[\p{Sc}\s]*([(−–-])?\s*[\p{Sc}\s]*(\d[\d,. ]*)\s*\)?\s*(%|\p{Sc})?\s*\)?$`)
	dashRE   = regexp.MustCompile(`^[—–\-]+$`)
	yearRE   = regexp.MustCompile(`^(?:19|20)\d\d$`)
)

// IsYear reports whether a cell (or a word) is a year, 1900–2099, and
// nothing else.
func IsYear(c string) bool { return yearRE.MatchString(strings.TrimSpace(c)) }

// Number reads a figure as statements print it: "(1,577)" and "-1,577" are
// negative, currency signs and thousands separators are dropped, "12.5%"
// is 12.5, a footnote mark after it is no part of it ("4,210 (a)",
// "4,210*"). A dash or an empty cell is no number.
func Number(c string) (float64, bool) {
	c = withoutFootnoteMark(strings.TrimSpace(c))
	m := numberRE.FindStringSubmatch(c)
	if m == nil {
		return 0, false
	}
	digits := strings.ReplaceAll(strings.ReplaceAll(m[2], ",", ""), " ", "")
	digits = strings.TrimRight(digits, ".")
	v, err := strconv.ParseFloat(digits, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, false
	}
	if m[1] != "" {
		v = -v
	}
	return v, true
}

// width is the number of value columns: the most rows have.
func width(rows []Row) int {
	n := 0
	for _, r := range rows {
		n = max(n, len(r.Cells))
	}
	return n
}

// columns names n value columns from the header rows: a row of n+1 cells
// has a label cell first (the stub), a row of n cells heads each column,
// and a shorter row heads groups of equal width (n/k columns each) when k
// divides n, else the last k columns one by one.
func columns(heads [][]string, n int) ([]string, string) {
	names := make([][]string, n)
	stub := ""
	for hi, h := range heads {
		cells := h
		if label, groups, ok := groupHeads(cells, n); ok {
			if label != "" {
				stub = label
			}
			cells = groups
		} else if hi+1 < len(heads) {
			cells = centredOver(cells, heads[hi+1], n)
		}
		if len(cells) == n+1 {
			if cells[0] != "" {
				stub = cells[0]
			}
			cells = cells[1:]
		}
		k := len(cells)
		switch {
		case k == 0:
		case k == n:
			for j, c := range cells {
				names[j] = appendNonEmpty(names[j], c)
			}
		case k < n && n%k == 0:
			span := n / k
			for j := range n {
				names[j] = appendNonEmpty(names[j], cells[j/span])
			}
		case k < n:
			for j, c := range cells {
				names[n-k+j] = appendNonEmpty(names[n-k+j], c)
			}
		default: // more heads than columns: the last n
			for j := range n {
				names[j] = appendNonEmpty(names[j], cells[k-n+j])
			}
		}
	}
	out := make([]string, n)
	for j, parts := range names {
		out[j] = strings.Join(parts, " ")
	}
	return out, stub
}

// centredOver spreads each head of a sparse header row over the empty
// cells on both sides of it, as far as it has them on both sides alike:
// a head centred over a group of columns ("| 2021 | | 2022 | | | 2023 |"
// over "Total | Opened | Closed | Total | Opened | Closed | Total") heads
// each column of the group, not only the middle one. Only when the row
// holds n cells (with or without its stub) and the row below names every
// column the spread covers: an empty cell over an empty head (a "$"
// column's) is no column of the group. The row is returned as it was
// otherwise.
func centredOver(cells, below []string, n int) []string {
	row, stub := cells, []string(nil)
	if len(row) == n+1 {
		row, stub = row[1:], row[:1]
	}
	if len(below) == n+1 {
		below = below[1:]
	}
	if len(row) != n || len(below) != n {
		return cells
	}
	blank := func(j int) bool {
		return j >= 0 && j < n && strings.TrimSpace(row[j]) == "" && strings.TrimSpace(below[j]) != ""
	}
	claims := make([][]int, n) // the heads spreading over each cell
	for i, c := range row {
		if strings.TrimSpace(c) == "" {
			continue
		}
		for d := 1; blank(i-d) && blank(i+d); d++ {
			claims[i-d] = append(claims[i-d], i)
			claims[i+d] = append(claims[i+d], i)
		}
	}
	out := slices.Clone(row)
	spread := false
	for j, by := range claims {
		if len(by) == 1 { // a cell two heads reach is left to neither
			out[j] = row[by[0]]
			spread = true
		}
	}
	if !spread {
		return cells
	}
	return append(slices.Clone(stub), out...)
}

// groupHeads reads a header row set as groups over the columns: a label
// cell, then group names each followed by empty cells ("Three months ended
// | Retail | | | Wholesale | | |" over "2021 | 2020 | Change" twice).
// Where the empty cells fall is the writer's guess at the layout (one
// may be missing at the row's end, or one too many inside), so the groups
// are taken as equal spans: the group names without the empty cells,
// when their count divides n (and is at least two). ok is false for a row
// without empty cells between names, or whose names do not divide n.
func groupHeads(cells []string, n int) (label string, groups []string, ok bool) {
	if len(cells) < 3 || cells[0] == "" {
		return "", nil, false
	}
	gap := false
	var names []string
	for i, c := range cells[1:] {
		if c == "" {
			gap = gap || i+2 < len(cells) && cells[i+2] != ""
			continue
		}
		names = append(names, c)
	}
	if !gap || len(names) < 2 || n%len(names) != 0 || len(names) == n {
		return "", nil, false
	}
	return cells[0], names, true
}

func appendNonEmpty(list []string, s string) []string {
	if s = strings.TrimSpace(s); s != "" {
		return append(list, s)
	}
	return list
}

// MaxSummedRows is how many rows right above a row Sums checks it adds up.
const MaxSummedRows = 6

// Sums reports whether row r of t is the sum of the two to MaxSummedRows
// rows right above it, in every column where all of them print a figure
// (one at least): a total, labelled so or not ("Net earnings including
// noncontrolling interests" under continuing and discontinued
// operations).
func (t Table) Sums(r int) bool {
	if r < 2 || r >= len(t.Rows) {
		return false
	}
	for k := 2; k <= MaxSummedRows && k <= r; k++ {
		checked, ok := 0, true
		for c := range t.Rows[r].Cells {
			v, has := Number(t.Rows[r].Cells[c])
			if !has {
				continue
			}
			sum, all := 0.0, true
			for _, above := range t.Rows[r-k : r] {
				if c >= len(above.Cells) {
					all = false
					break
				}
				x, has := Number(above.Cells[c])
				if !has {
					all = false
					break
				}
				sum += x
			}
			if !all {
				continue
			}
			checked++
			if math.Abs(sum-v) > math.Max(1, 0.001*math.Abs(v)) {
				ok = false
				break
			}
		}
		if ok && checked > 0 {
			return true
		}
	}
	return false
}
