package tables

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// Tables of words: a manual's fault list ("12 | Element too hot | Let it
// cool …"), a button table ("Tap twice | Starts the timer | …"), a form's
// fields. A row is found by its first cell (its key) when the question
// quotes it ("fault codes 12 and 112", "tap twice on the stop button");
// the cell asked is the one under the
// head the question names ("descriptions"), else the one after the key.

// TextTable is a table read as rows of cells, figures or not.
type TextTable struct {
	// Title is the passage's heading and the lines just above the table.
	Title string
	// Head is the header row, when the table's first row reads as one
	// (or the passage continues a table whose header row it was given).
	Head []string
	Rows []TextRow
}

// TextRow is a row of a TextTable with its byte span in the text parsed.
type TextRow struct {
	Cells      []string
	Start, End int
}

// maxHeadWords is the most words a header cell holds.
const maxHeadWords = 6

// parenRE is a note in parentheses.
var parenRE = regexp.MustCompile(`\([^()]*\)`)

// ParseText reads the tables of a passage's text as rows of cells: runs
// of lines with cells separated by " | ". header, when set, is the header
// row of a table the passage starts by continuing (its last line is the
// head); heading is the passage's heading, part of every table's title.
// The first row of any other table is its head when it has two rows or
// more and every cell of the first is short and holds no figure.
func ParseText(text, header, heading string) []TextTable {
	var out []TextTable
	var cur *TextTable
	var above []string
	carried := lastLine(header)
	flush := func() {
		if cur != nil && len(cur.Rows) > 0 {
			if cur.Head == nil && len(cur.Rows) > 1 && readsAsHead(cur.Rows[0].Cells) {
				cur.Head, cur.Rows = cur.Rows[0].Cells, cur.Rows[1:]
			}
			cur.Rows = withoutHeadAgain(cur.Rows, cur.Head)
			out = append(out, *cur)
		}
		cur = nil
	}
	for _, ln := range textLines(text) {
		start := ln.start
		l := strings.TrimSpace(ln.text)
		if l == "" {
			continue
		}
		if !strings.Contains(l, " | ") {
			flush()
			above, carried = withLineAbove(above, ln.pageMark()+l), ""
			continue
		}
		if cur == nil {
			cur = &TextTable{Title: strings.TrimSpace(heading + " " + strings.Join(above, " "))}
			if carried != "" {
				cur.Head = splitCells(carried)
			}
			carried, above = "", nil
		}
		cur.Rows = append(cur.Rows, TextRow{Cells: splitCells(l), Start: start, End: ln.end})
	}
	flush()
	return out
}

// withoutHeadAgain leaves out the rows that say the head again, as a
// table continued on a new page prints it.
func withoutHeadAgain(rows []TextRow, head []string) []TextRow {
	if head == nil {
		return rows
	}
	return slices.DeleteFunc(rows, func(r TextRow) bool { return slices.Equal(r.Cells, head) })
}

// lastLine is the last line of s with text.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// readsAsHead reports whether a row reads as column heads: every cell
// short (a note in parentheses aside: "Service Specification (i.e.,
// vendor and product name)"; a footnote mark is no word), none a figure,
// and at least two with text.
func readsAsHead(cells []string) bool {
	n := 0
	for _, c := range cells {
		if c == "" {
			continue
		}
		if isFigure(c) || headWords(c) > maxHeadWords {
			return false
		}
		n++
	}
	return n >= 2
}

// headWords is how many words a head cell holds: its runs of letters or
// digits outside parentheses.
func headWords(c string) int {
	n := 0
	for _, f := range strings.Fields(parenRE.ReplaceAllString(c, "")) {
		if strings.IndexFunc(f, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			n++
		}
	}
	return n
}

// KeyQuery is what KeyedLookup needs of a question: its words in order,
// cut as KeyedLookup's tokens cuts a key (lower case, every word kept),
// and the weight of a word as Query has it.
type KeyQuery struct {
	Tokens []string
	Weight func(word string) float64
}

// KeyedCell is a cell found by its row's key.
type KeyedCell struct {
	Table, Row, Col int // indexes into the tables given to KeyedLookup
	Key             string
	Head            string // the head over the cell, if the table has one
	Value           string
	// Named says the question names the cell's head (else the cell is
	// the first after the key).
	Named bool
}

// maxKeyWords is the most words a row's key may hold to be quoted;
// maxKeyRows the most rows one key is answered from (a table may list
// several under one key: a component's services).
const (
	maxKeyWords = 8
	maxKeyRows  = 12
)

// KeyedLookup finds the cells a question asks for by their rows' keys:
// rows whose first cell the question quotes word for word (every such
// row of the table a key is taken from, up to maxKeyRows; a key inside
// a longer key it also quotes is left out: "Tap" within "tap twice"), each key taken from the table whose title names the most of
// the question's other words (the first such). The cell is the one under
// the head holding the most weight of the question's words outside the
// keys (and outside the key column's head), else the first non-empty
// cell after the key. A key is quoted only
// if it holds a figure or a code, or two words, or the question names the
// table or the head; a cell that is a figure alone is left to Lookup.
// Cells come in the order the question quotes their keys.
func KeyedLookup(q KeyQuery, tabs []TextTable, tokens, words Words) []KeyedCell {
	type match struct {
		t, r, at, n int
	}
	var ms []match
	for ti, t := range tabs {
		for ri, r := range t.Rows {
			if len(r.Cells) < 2 {
				continue
			}
			key := tokens(r.Cells[0])
			if len(key) == 0 || len(key) > maxKeyWords || len(words(r.Cells[0])) == 0 && !hasDigit(r.Cells[0]) {
				continue
			}
			if at := PhraseAt(q.Tokens, key); at >= 0 {
				ms = append(ms, match{ti, ri, at, len(key)})
			}
		}
	}
	// Keys inside longer keys the question quotes are no keys of theirs.
	inKeys := map[int]bool{}
	var kept []match
	for _, m := range ms {
		inside := false
		for _, o := range ms {
			if o.n > m.n && o.at <= m.at && m.at+m.n <= o.at+o.n {
				inside = true
				break
			}
		}
		if !inside {
			kept = append(kept, m)
			for i := m.at; i < m.at+m.n; i++ {
				inKeys[i] = true
			}
		}
	}
	rest := map[string]bool{}
	for i, w := range q.Tokens {
		if !inKeys[i] {
			for _, s := range words(w) {
				rest[s] = true
			}
		}
	}
	// weigh is the weight of the question's words outside the keys that
	// s holds, but for those of skip.
	weigh := func(s, skip string) float64 {
		var sum float64
		seen := map[string]bool{}
		for _, w := range words(skip) {
			seen[w] = true
		}
		for _, w := range words(s) {
			if rest[w] && !seen[w] {
				seen[w] = true
				sum += q.Weight(w)
			}
		}
		return sum
	}
	// Per key, the rows of the table whose title names the most.
	best := map[string]float64{}
	for _, m := range kept {
		k := strings.Join(tokens(tabs[m.t].Rows[m.r].Cells[0]), " ")
		if s, ok := best[k]; !ok || weigh(tabs[m.t].Title, "") > s {
			best[k] = weigh(tabs[m.t].Title, "")
		}
	}
	// In the order the question quotes the keys, tables in the order given.
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].at < kept[j].at })
	var out []KeyedCell
	from := map[string]int{} // the table each key's rows are taken from
	rows := map[string]int{}
	values := map[string]bool{}
	for _, m := range kept {
		t, r := tabs[m.t], tabs[m.t].Rows[m.r]
		k := strings.Join(tokens(r.Cells[0]), " ")
		title := weigh(t.Title, "")
		if ti, ok := from[k]; ok && ti != m.t || title < best[k] || rows[k] >= maxKeyRows {
			continue
		}
		// The key column's head names the keys ("fault codes 12 and
		// 112"), not the cell asked.
		col, named := 0, false
		var top float64
		for c := 1; c < len(t.Head) && c < len(r.Cells); c++ {
			if w := weigh(t.Head[c], t.Head[0]); w > top && r.Cells[c] != "" {
				col, named, top = c, true, w
			}
		}
		if col == 0 {
			for c := 1; c < len(r.Cells); c++ {
				if r.Cells[c] != "" {
					col = c
					break
				}
			}
		}
		if col == 0 || !hasLetter(r.Cells[col]) {
			continue
		}
		if !named && title == 0 && m.n < 2 && !hasDigit(r.Cells[0]) {
			continue // one word of the question, nothing else it names
		}
		if values[k+"\x00"+r.Cells[col]] {
			continue
		}
		from[k], values[k+"\x00"+r.Cells[col]] = m.t, true
		rows[k]++
		head := ""
		if col < len(t.Head) {
			head = t.Head[col]
		}
		out = append(out, KeyedCell{Table: m.t, Row: m.r, Col: col, Key: r.Cells[0], Head: head, Value: r.Cells[col], Named: named})
	}
	return out
}

// PhraseAt is the index in toks where phrase starts, word for word; -1
// when it is not there.
func PhraseAt(toks, phrase []string) int {
	for i := 0; i+len(phrase) <= len(toks); i++ {
		ok := true
		for j, w := range phrase {
			if toks[i+j] != w {
				ok = false
				break
			}
		}
		if ok {
			return i
		}
	}
	return -1
}

func hasDigit(s string) bool { return strings.IndexFunc(s, unicode.IsDigit) >= 0 }

func hasLetter(s string) bool { return strings.IndexFunc(s, unicode.IsLetter) >= 0 }
