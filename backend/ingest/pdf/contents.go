package pdf

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"cairn/backend/ingest/numerals"
)

// A contents page (a table of contents, a list of figures or tables) sets
// each entry as a number, a title, a dot leader and a page number pushed
// to the right margin. Drawn as separate pieces with wide gaps between
// them, the pieces looked like the cells of a table whose title column was
// running text ("2.1 | 3", the titles read apart) and a chapter entry set
// large and bold without a leader ("1 Prerequisites 1") like a heading.
// joinContentsRows finds such entries from the page's geometry and reads
// each as one line that is no heading and no table cell.

// contentsPageRE matches a page number as a contents entry gives it.
var contentsPageRE = regexp.MustCompile(`^(?:\d{1,4}|[ivxlc]{1,7}|[IVXLC]{1,7})$`)

// leaderEndRE matches the end of a title followed by its dot leader.
var leaderEndRE = regexp.MustCompile(`(?:(?:\.\s?){3,}|(?:·\s?){3,}|…{2,}|_{4,})\s*$`)

// Contents entries: at least minContentsEntries entries right-aligned on
// one page-number column, their pages never going back, at least half of
// them with a leader, each at most contentsGapEm below the one above.
const (
	minContentsEntries = 4
	contentsGapEm      = 6.0
	// titleGapEm: an entry's number and title stand at most this far apart.
	titleGapEm = 4.0
)

// contentsEntryLine is one candidate entry on a baseline: its pieces (the
// last one ends with the page number) and where its page number stands.
type contentsEntryLine struct {
	parts  []*pline
	page   int // the page number's order: Roman numerals before digits
	u1, v  float64
	size   float64
	leader bool
}

// joinContentsRows reads the entries of a contents list as single lines
// marked contents (see above). Lines in ruled tables are left alone; lines
// is sorted top to bottom, then along the line, and stays so.
func joinContentsRows(lines []*pline) []*pline {
	var cands []*contentsEntryLine
	for i := 0; i < len(lines); {
		j := i + 1
		for j < len(lines) && math.Abs(lines[j].v-lines[i].v) <= 0.3*math.Max(lines[i].size, lines[j].size) {
			j++
		}
		cands = append(cands, rowEntries(lines[i:j])...)
		i = j
	}
	if len(cands) < minContentsEntries {
		return lines
	}
	joined := map[*pline]*pline{} // first piece of an accepted entry -> its line
	drop := map[*pline]bool{}
	for _, run := range contentsRuns(cands) {
		for _, e := range run {
			l := mergeLines(e.parts)
			l.contents = true
			joined[e.parts[0]] = l
			for _, p := range e.parts {
				drop[p] = true
			}
		}
	}
	if len(joined) == 0 {
		return lines
	}
	out := lines[:0:0]
	for _, l := range lines {
		if j := joined[l]; j != nil {
			out = append(out, j)
		} else if !drop[l] {
			out = append(out, l)
		}
	}
	sortLines(out)
	return out
}

// rowEntries finds the candidate entries of one baseline's lines (sorted
// along the line): each line that is a page number, or ends with a leader
// and a page number, closes an entry made of the lines since the previous
// entry; the entry needs letters before its page number.
func rowEntries(row []*pline) []*contentsEntryLine {
	row = append([]*pline(nil), row...)
	sort.SliceStable(row, func(a, b int) bool { return row[a].u0 < row[b].u0 })
	var out []*contentsEntryLine
	start := 0
	for k, l := range row {
		if l.cell {
			start = k + 1
			continue
		}
		t := strings.TrimSpace(l.text)
		var num string
		var leader bool
		if contentsPageRE.MatchString(t) {
			if k == start {
				continue // a number alone (an entry's own number, or a stray page number)
			}
			num = t
			leader = leaderEndRE.MatchString(row[k-1].text)
		} else if m := contentsEntryRE.FindString(t); m != "" {
			num = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(m), ".·… "))
			leader = true
		} else {
			continue
		}
		// The pieces before the page number stand close together (a
		// number and its title); one further left across a wider gap is
		// another column's.
		for m := k - 1; m > start; m-- {
			if row[m].u0-row[m-1].u1 > titleGapEm*math.Max(row[m].size, row[m-1].size) {
				start = m
				break
			}
		}
		parts := row[start : k+1]
		if !hasLetters(parts, len(parts)-1, num) {
			start = k + 1
			continue
		}
		out = append(out, &contentsEntryLine{parts: parts, page: pageOrder(num), u1: l.u1, v: l.v, size: l.size, leader: leader})
		start = k + 1
	}
	return out
}

// hasLetters reports whether the entry's pieces hold a word before its
// page number: two letters in a piece before the last, or in the last
// piece's text before the number.
func hasLetters(parts []*pline, last int, num string) bool {
	for _, p := range parts[:last] {
		if letters(p.text) >= 2 {
			return true
		}
	}
	t := strings.TrimSpace(parts[last].text)
	return letters(strings.TrimSuffix(t, num)) >= 2
}

// pageOrder orders page numbers as a document counts them: front matter
// in Roman numerals before the pages in digits.
func pageOrder(num string) int {
	if n, err := strconv.Atoi(num); err == nil {
		return 10000 + n
	}
	return numerals.RomanValue(num)
}

// contentsRuns groups the candidate entries by the column their page
// numbers are right-aligned on, and returns the runs that read as a
// contents list: consecutive entries of one column (top to bottom, each
// close below the one before) whose pages never go back, long enough and
// mostly led by dots.
func contentsRuns(cands []*contentsEntryLine) [][]*contentsEntryLine {
	sorted := append([]*contentsEntryLine(nil), cands...)
	sort.SliceStable(sorted, func(a, b int) bool { return sorted[a].u1 < sorted[b].u1 })
	var out [][]*contentsEntryLine
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && sorted[j].u1-sorted[j-1].u1 <= 0.6*math.Max(sorted[j].size, sorted[j-1].size) {
			j++
		}
		col := append([]*contentsEntryLine(nil), sorted[i:j]...)
		sort.SliceStable(col, func(a, b int) bool { return col[a].v > col[b].v })
		i = j
		// An index's page numbers go back and forth from entry to entry;
		// a contents list's go forward.
		pairs, back := 0, 0
		for k := 1; k < len(col); k++ {
			if col[k-1].v-col[k].v <= contentsGapEm*math.Max(col[k].size, col[k-1].size) {
				pairs++
				if col[k].page < col[k-1].page {
					back++
				}
			}
		}
		if 10*back > pairs {
			continue
		}
		start := 0
		for k := 1; k <= len(col); k++ {
			if k < len(col) && col[k].page >= col[k-1].page && col[k-1].v-col[k].v <= contentsGapEm*math.Max(col[k].size, col[k-1].size) {
				continue
			}
			run := col[start:k]
			led := 0
			for _, e := range run {
				if e.leader {
					led++
				}
			}
			if len(run) >= minContentsEntries && 2*led >= len(run) {
				out = append(out, run)
			}
			start = k
		}
	}
	return out
}

// mergeLines joins pieces of one baseline (sorted along it) into one line.
func mergeLines(parts []*pline) *pline {
	first := parts[0]
	l := &pline{u0: first.u0, u1: first.u1, v: first.v, size: first.size}
	weight, heavy := 0.0, 0
	for _, p := range parts {
		if p.heavy {
			heavy += p.glyphs
		}
		l.runs = append(l.runs, p.runs...)
		l.u0, l.u1 = math.Min(l.u0, p.u0), math.Max(l.u1, p.u1)
		l.glyphs += p.glyphs
		for w, n := range p.weights {
			l.weights[w] += n
		}
		if g := float64(p.glyphs) * p.size; g > weight {
			weight, l.v, l.size = g, p.v, p.size
		}
	}
	l.heavy = float64(heavy) >= 0.9*float64(l.glyphs)
	sort.SliceStable(l.runs, func(i, j int) bool { return l.runs[i].u0 < l.runs[j].u0 })
	l.text = lineText(l)
	return l
}
