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
	for _, row := range baselines(lines) {
		cands = append(cands, rowEntries(row)...)
	}
	joined := map[*pline]*pline{} // first piece of an accepted entry -> its line
	drop := map[*pline]bool{}
	var runs [][]*contentsEntryLine
	if len(cands) >= minContentsEntries {
		runs = contentsRuns(cands)
	}
	for _, run := range runs {
		for _, e := range run {
			l := mergeLines(e.parts)
			l.contents = true
			joined[e.parts[0]] = l
			for _, p := range e.parts {
				drop[p] = true
			}
		}
	}
	var rest []*pline
	for _, l := range lines {
		if !drop[l] {
			rest = append(rest, l)
		}
	}
	for _, e := range leadingContents(rest) {
		l := e.parts[0]
		if len(e.parts) > 1 {
			l = mergeLines(e.parts)
			for _, p := range e.parts {
				drop[p] = true
			}
		}
		l.contents = true
		joined[e.parts[0]] = l
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
		for _, run := range forwardRuns(col) {
			led := 0
			for _, e := range run {
				if e.leader {
					led++
				}
			}
			if len(run) >= minContentsEntries && 2*led >= len(run) {
				out = append(out, run)
			}
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

// Some contents pages put the page number first ("14 We Care for the
// Valley", a report's or a magazine's), in several columns, with no
// leader; a title too long for its column goes on below, under the
// title. Read across, their numbers and titles looked like the cells of
// one table spanning the columns.

// leadingNumberRE matches an entry that opens with its page number and
// then its title, drawn as one piece.
var leadingNumberRE = regexp.MustCompile(`^(\d{1,3})\s+[\p{Lu}'‘"“]`)

// digitsRE matches a page number in digits alone.
var digitsRE = regexp.MustCompile(`^\d{1,3}$`)

// minLeadingEntries: an unled list needs more entries than a led one.
const minLeadingEntries = 5

// leadingContents finds the entries of contents lists that open with
// their page number (see above) among lines (sorted top to bottom, then
// along the line). An entry is a number and its title on one baseline,
// at most two em apart; a list is at least minLeadingEntries entries
// whose numbers start on one column, each close below the one before,
// never going back and mostly not by one (row numbers of a table or the
// steps of a list count by one), half of their titles two words or more
// (a table's "9 Friday" rows are none), none wrapping back under its
// number as prose does. The lines that continue a title below
// it, starting right of the number, are read with it: returned entries
// are marked, their continuation lines marked contents too.
func leadingContents(lines []*pline) []*contentsEntryLine {
	var cands []*contentsEntryLine
	for _, row := range baselines(lines) {
		row = append([]*pline(nil), row...)
		sort.SliceStable(row, func(a, b int) bool { return row[a].u0 < row[b].u0 })
		for k, l := range row {
			if l.cell || l.contents {
				continue
			}
			t := strings.TrimSpace(l.text)
			var parts []*pline
			switch {
			case digitsRE.MatchString(t) && k+1 < len(row):
				next := row[k+1]
				gap := next.u0 - l.u1
				nt := strings.TrimSpace(next.text)
				if next.cell || next.contents || gap < 0 || gap > 2*math.Max(l.size, next.size) || letters(nt) < 2 || !leadingNumberRE.MatchString(t+" "+nt) {
					continue
				}
				parts = []*pline{l, next}
			case leadingNumberRE.MatchString(t) && !contentsEntryRE.MatchString(t):
				parts = []*pline{l}
			default:
				continue
			}
			n, _ := strconv.Atoi(leadingNumberRE.FindStringSubmatch(t + " " + strings.TrimSpace(parts[len(parts)-1].text))[1])
			cands = append(cands, &contentsEntryLine{parts: parts, page: n, u1: l.u0, v: l.v, size: l.size})
		}
	}
	var out []*contentsEntryLine
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].u1 < cands[b].u1 })
	for i := 0; i < len(cands); {
		j := i + 1
		for j < len(cands) && cands[j].u1-cands[j-1].u1 <= math.Max(cands[j].size, cands[j-1].size) {
			j++
		}
		col := append([]*contentsEntryLine(nil), cands[i:j]...)
		sort.SliceStable(col, func(a, b int) bool { return col[a].v > col[b].v })
		i = j
		for _, run := range forwardRuns(col) {
			byOne := 0
			for m := 1; m < len(run); m++ {
				if run[m].page-run[m-1].page <= 1 {
					byOne++
				}
			}
			words, prose := 0, 0
			for _, e := range run {
				if wordsIn(e.parts) >= 3 {
					words++
				}
				if wrapsUnder(lines, e) {
					prose++
				}
			}
			if len(run) >= minLeadingEntries && 2*byOne < len(run)-1 && 2*words >= len(run) && prose == 0 {
				out = append(out, run...)
			}
		}
	}
	markContinuations(lines, out)
	return out
}

// markContinuations marks contents the lines that carry an entry's title
// on below it: each next line down, at most 1.6 lines below the one
// above, starting right of the entry's number and at most titleGapEm to
// its right, until the next entry.
func markContinuations(lines []*pline, entries []*contentsEntryLine) {
	first := map[*pline]bool{}
	for _, e := range entries {
		for _, p := range e.parts {
			first[p] = true
		}
	}
	for _, e := range entries {
		x0, v, size := e.u1, e.v, e.size
		for _, l := range lines {
			if l.v >= v || first[l] {
				continue
			}
			if v-l.v > 1.6*math.Max(size, l.size) {
				break
			}
			if l.cell || l.contents || l.u0 <= x0+0.3*size || l.u0 > x0+titleGapEm*size {
				continue
			}
			l.contents, l.contentsMore = true, true
			v = l.v
		}
	}
}

// wordsIn counts the words of an entry's pieces (its number included).
func wordsIn(parts []*pline) int {
	n := 0
	for _, p := range parts {
		n += len(strings.Fields(p.text))
	}
	return n
}

// wrapsUnder reports whether the line below an entry (at most 1.6 lines
// down) starts under its number, as the next line of a paragraph does.
func wrapsUnder(lines []*pline, e *contentsEntryLine) bool {
	for _, l := range lines {
		if l.v >= e.v-0.3*e.size {
			continue
		}
		if e.v-l.v > 1.6*math.Max(e.size, l.size) {
			return false
		}
		if math.Abs(l.u0-e.u1) <= 0.3*e.size && !leadingNumberRE.MatchString(strings.TrimSpace(l.text)) && !digitsRE.MatchString(strings.TrimSpace(l.text)) {
			return true
		}
	}
	return false
}

// baselines cuts lines (sorted top to bottom, then along the line) into
// the runs that stand on one baseline.
func baselines(lines []*pline) [][]*pline {
	var out [][]*pline
	for i := 0; i < len(lines); {
		j := i + 1
		for j < len(lines) && math.Abs(lines[j].v-lines[i].v) <= 0.3*math.Max(lines[i].size, lines[j].size) {
			j++
		}
		out = append(out, lines[i:j])
		i = j
	}
	return out
}

// forwardRuns cuts a column of entries (top to bottom) into runs of
// entries each close below the one before (contentsGapEm) whose pages
// never go back.
func forwardRuns(col []*contentsEntryLine) [][]*contentsEntryLine {
	var out [][]*contentsEntryLine
	start := 0
	for k := 1; k <= len(col); k++ {
		if k < len(col) && col[k].page >= col[k-1].page && col[k-1].v-col[k].v <= contentsGapEm*math.Max(col[k].size, col[k-1].size) {
			continue
		}
		out = append(out, col[start:k])
		start = k
	}
	return out
}
