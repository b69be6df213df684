package pdf

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Wrapped rows: a ruled band holding several lines is split into rows
// where the first column starts a new entry. When every cell of a row is
// wrapped over the same lines ("Hold / down" beside "The kettle is switched
// by / default."), the first column's second line is no new entry but
// the rest of its cell. A line continues the row above when its first
// cell does (wrappedOn) and none of its other cells starts anew: a
// figure under a figure, or a capital after a cell that did not end a
// sentence.

// lineCell is the text a line holds in one column of a table and where
// it stands along the line.
type lineCell struct {
	text   string
	u0, u1 float64
	size   float64
}

// lineCells gives a line's text by column. A run cut at separators (see
// splitRun) shares its extent among its pieces by their length.
func lineCells(l *pline, g grid) map[int]lineCell {
	out := map[int]lineCell{}
	for _, r := range l.runs {
		pieces := splitRun(r, g)
		total := 0
		for _, p := range pieces {
			total += utf8.RuneCountInString(p.text)
		}
		at := r.u0
		for _, p := range pieces {
			w := r.u1 - r.u0
			if total > 0 {
				w *= float64(utf8.RuneCountInString(p.text)) / float64(total)
			}
			u0, u1 := at, at+w
			at = u1
			t := strings.TrimSpace(p.text)
			if t == "" {
				continue
			}
			if c, ok := out[p.col]; ok {
				c.text += " " + t
				c.u0, c.u1 = min(c.u0, u0), max(c.u1, u1)
				out[p.col] = c
			} else {
				out[p.col] = lineCell{text: t, u0: u0, u1: u1, size: r.size()}
			}
		}
	}
	return out
}

// baselineCells gives the text by column of the band's lines on l's
// baseline (a row's cells may be set as lines of their own).
func baselineCells(band []*pline, l *pline, g grid) map[int]lineCell {
	out := map[int]lineCell{}
	for _, o := range band {
		if math.Abs(o.v-l.v) > 0.3*l.size {
			continue
		}
		for c, lc := range lineCells(o, g) {
			if have, ok := out[c]; ok {
				if lc.u0 < have.u0 {
					have, lc = lc, have
				}
				have.text += " " + lc.text
				have.u1 = max(have.u1, lc.u1)
				lc = have
			}
			out[c] = lc
		}
	}
	return out
}

// columnEnds is, for each column, the right end of its longest text in
// the lines: where the column's wrapped text breaks at the latest.
func columnEnds(in []*pline, g grid) map[int]float64 {
	ends := map[int]float64{}
	for _, l := range in {
		for c, lc := range lineCells(l, g) {
			if e, ok := ends[c]; !ok || lc.u1 > e {
				ends[c] = lc.u1
			}
		}
	}
	return ends
}

// continuesRow reports whether a line's cells (cur) go on with the row
// whose first line's cells are start and whose last text in each column
// is above: the first cell was wrapped into it beside at least one other
// cell, no other cell starts an entry of its own, and either the two
// lines do not fill the same columns (cells wrapped over lines leave some
// column short: a list of short rows fills every column on every line)
// or a cell above breaks off mid-phrase (brokenMidPhrase).
func continuesRow(start, above, cur map[int]lineCell, ends map[int]float64) bool {
	first, ok := cur[0]
	prev, had := above[0]
	if !ok || !had || len(cur) < 2 && len(start) < 2 || !wrappedOn(prev, first, ends[0]) {
		// A line of the first column alone is a row's entry (a symbol
		// set apart from its row), unless it goes on in lower case
		// from a first cell beside others that broke off where it had
		// no room ("b. Has the plan been significantly | No" over
		// "changed since last year?").
		return false
	}
	if sameColumns(start, cur) && !brokenMidPhrase(above, cur) {
		return false // every column filled alike on both lines: two rows of a list ("Oak | oak | acorn" over "ash | ash | key")
	}
	for c, lc := range cur {
		p, ok := above[c]
		if c == 0 || !ok {
			continue
		}
		r, _ := utf8.DecodeRuneInString(lc.text)
		switch {
		case unicode.IsLower(r):
		case unicode.IsUpper(r) && closesSentence(p.text):
		case unicode.IsDigit(r) && breaksOff(p.text):
		default:
			return false // a figure under a figure, a mark, a capital mid-sentence: a new entry
		}
	}
	return true
}

// brokenMidPhrase reports whether a cell above one of cur's ends where no
// phrase ends: on a comma, hyphen or open parenthesis, or on a word a
// phrase does not end on (lexicon title_open_enders: "switched by").
func brokenMidPhrase(above, cur map[int]lineCell) bool {
	for c := range cur {
		p, ok := above[c]
		if !ok {
			continue
		}
		t := strings.TrimSpace(p.text)
		if strings.HasSuffix(t, ",") || strings.HasSuffix(t, "-") || strings.HasSuffix(t, "(") {
			return true
		}
		if f := strings.Fields(t); len(f) > 1 && openEnders[strings.ToLower(f[len(f)-1])] {
			return true
		}
	}
	return false
}

// sameColumns reports whether two lines have text in the same columns.
func sameColumns(a, b map[int]lineCell) bool {
	if len(a) != len(b) {
		return false
	}
	for c := range a {
		if _, ok := b[c]; !ok {
			return false
		}
	}
	return true
}

// wrappedOn reports whether cur is the rest of the text above it in the
// same column: the text above broke off mid-phrase (it ends in a letter
// or a joining mark, not a full stop or a figure), cur goes on in lower
// case, and cur's first word would not have fitted after it before the
// column's end (end: its longest text's right end), which is why the
// line was broken there.
func wrappedOn(above, cur lineCell, end float64) bool {
	if !breaksOff(above.text) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(cur.text)
	if !unicode.IsLower(r) {
		return false
	}
	word, _, _ := strings.Cut(cur.text, " ")
	n := utf8.RuneCountInString(cur.text)
	wordWidth := (cur.u1 - cur.u0) * float64(utf8.RuneCountInString(word)) / float64(n)
	space := wordGapEm * above.size
	return above.u1+space+wordWidth > end
}

// breaksOff reports whether a cell's text stops mid-phrase: it ends in a
// letter or a joining mark ("from", "and,", "moderate-to-"), not a full
// stop or a figure.
func breaksOff(s string) bool {
	last, _ := utf8.DecodeLastRuneInString(s)
	return unicode.IsLetter(last) || strings.ContainsRune(",-/&(", last)
}

// closesSentence reports whether a cell's text ends a sentence (or a
// lead-in ending in a colon).
func closesSentence(s string) bool {
	last, _ := utf8.DecodeLastRuneInString(strings.TrimRight(s, ")\"'’”"))
	return strings.ContainsRune(".!?:;。！？", last)
}

// wrappedRows marks the rows of a table without rules that are the rest
// of the row above, every cell wrapped over the same lines (continuesRow,
// columns as cellColumns places cells): goesOn[k] says row k joins the row
// before it. Rows whose cells have no column of their own (a head over a
// group of columns) join none and take none.
func wrappedRows(table [][]*pline, cols [][]int) []bool {
	goesOn := make([]bool, len(table))
	ends := map[int]float64{}
	for k, row := range table {
		for i, c := range row {
			if cols[k] != nil {
				if e, ok := ends[cols[k][i]]; !ok || c.u1 > e {
					ends[cols[k][i]] = c.u1
				}
			}
		}
	}
	cellsOf := func(k int) map[int]lineCell {
		if cols[k] == nil {
			return nil
		}
		out := map[int]lineCell{}
		for i, c := range table[k] {
			col := cols[k][i]
			if t := strings.TrimSpace(c.text); t != "" {
				out[col] = lineCell{text: t, u0: c.u0, u1: c.u1, size: c.size}
			}
		}
		return out
	}
	var start, above map[int]lineCell
	for k := range table {
		cur := cellsOf(k)
		if k > 0 && above != nil && cur != nil && len(table[k]) > 1 && continuesRow(start, above, cur, ends) {
			goesOn[k] = true
			for c, lc := range cur {
				above[c] = lc
			}
			continue
		}
		start, above = cur, map[int]lineCell{}
		for c, lc := range cur {
			above[c] = lc
		}
	}
	return goesOn
}

// cellColumns gives the column of each cell of a table's rows: its slot
// (columnSlots), or its place in a row that fills every column; nil for a
// row that places its cells otherwise.
func cellColumns(table [][]*pline, slots [][]int) [][]int {
	full := 0
	for _, r := range table {
		full = max(full, len(r))
	}
	cols := make([][]int, len(table))
	for k, r := range table {
		switch {
		case slots[k] != nil:
			cols[k] = slots[k]
		case len(r) == full:
			cols[k] = make([]int, len(r))
			for i := range r {
				cols[k][i] = i
			}
		}
	}
	return cols
}
