package tables

import (
	"strings"
)

// Rows a question picks by a condition: "Which members attended more than
// 6 meetings?" keeps the rows of a table of words whose cell under the
// head it names ("Meetings attended") is above 6; "Who are the honorary
// members?" the rows whose cell in some column is the phrase it says
// ("Honorary"). Both may hold at once ("Which honorary members attended
// more than 6 meetings?"). The answer is the rows' keys (first cells).

// Bound is the limit a question sets on a figure: "more than 6" is
// {Above: true, Value: 6}; "at most 3" is {Value: 3, Inclusive: true}.
type Bound struct {
	Above     bool
	Inclusive bool
	Value     float64
}

// Holds reports whether v is within the bound.
func (b Bound) Holds(v float64) bool {
	switch {
	case b.Above && b.Inclusive:
		return v >= b.Value
	case b.Above:
		return v > b.Value
	case b.Inclusive:
		return v <= b.Value
	default:
		return v < b.Value
	}
}

// FilterQuery is what FilterRows needs of a question.
type FilterQuery struct {
	// Tokens are its words as written, lower-cased (as KeyQuery's).
	Tokens []string
	// Words are its words as the caller's words cuts them, but for those
	// that set the bound ("more", "than", "6"): they name nothing.
	Words  []string
	Weight func(word string) float64
	// Bound, when set, is the limit the figures of the column named must
	// be within.
	Bound *Bound
}

// named returns how much weight of the question's words a text holds,
// and the weight of all the text's words.
func (q FilterQuery) named(words Words) func(s string) (hit, all float64) {
	asked := map[string]bool{}
	for _, w := range q.Words {
		asked[w] = true
	}
	return func(s string) (hit, all float64) {
		for _, w := range words(s) {
			all += q.Weight(w)
			if asked[w] {
				hit += q.Weight(w)
			}
		}
		return hit, all
	}
}

// Filtered is the rows a question picks out of one table.
type Filtered struct {
	Table int   // index into the tables given to FilterRows
	Rows  []int // the rows kept, in the table's order
	// Read is how many rows were read (those with a cell under every
	// column the condition looks at).
	Read int
	// Col is the column whose figures are within the bound, -1 when the
	// question sets none.
	Col int
	// Category is the column whose cell is the phrase the question
	// says, -1 when none; Value is that phrase as the table writes it.
	Category int
	Value    string
}

// minFilterRows is the fewest rows a table must have to be filtered: two
// rows are a pair, not a list to pick from.
const minFilterRows = 3

// minHeadNamed is the least part of a head's words (by weight) the
// question must name for its column to be the one the bound is on.
const minHeadNamed = 0.5

// FilterRows picks the rows of one of tabs by the question's condition:
// with a bound, the rows whose figure under the head the question names
// (minHeadNamed; at least half the rows must hold a figure there) is
// within it; and, bound or not, the rows whose cell in another column
// (not the first, the rows' keys) is a phrase the question says word for
// word (the longest such phrase; one every row has picks nothing). Without
// a bound, a phrase is a condition only when the question also names the
// keys' head ("Who are the honorary members?" names "Member") and
// quotes no row's key (it would ask about that row). Of the
// tables that can be filtered, the one whose title, heads and phrase hold
// the most weight of the question's words (the first of equals). ok is
// false when no table has such a condition or no row meets it.
func FilterRows(q FilterQuery, tabs []TextTable, tokens, words Words) (Filtered, bool) {
	said := map[string]bool{}
	for _, t := range q.Tokens {
		said[t] = true
	}
	named := q.named(words)
	var best Filtered
	bestScore, found := -1.0, false
	for ti, t := range tabs {
		if len(t.Head) < 2 || len(t.Rows) < minFilterRows {
			continue
		}
		f := Filtered{Table: ti, Col: -1, Category: -1}
		if q.Bound != nil {
			var top float64
			for c := 1; c < len(t.Head); c++ {
				hit, all := named(t.Head[c])
				if hit == 0 || hit < minHeadNamed*all || hit <= top || !mostlyFigures(t.Rows, c) {
					continue
				}
				f.Col, top = c, hit
			}
			if f.Col < 0 {
				continue
			}
		}
		f.Category, f.Value = saidPhrase(t, f.Col, said, tokens, words)
		if q.Bound == nil {
			// A question quoting a row's key asks about that row.
			if hit, _ := named(t.Head[0]); f.Category < 0 || hit == 0 || quotesKey(t, said, tokens, words) {
				continue
			}
		}
		key := phraseKey(tokens(f.Value))
		for ri, r := range t.Rows {
			if f.Col >= len(r.Cells) || f.Category >= len(r.Cells) || len(r.Cells) < 2 {
				continue
			}
			f.Read++
			if f.Category >= 0 && phraseKey(tokens(r.Cells[f.Category])) != key {
				continue
			}
			if f.Col >= 0 {
				v, ok := Number(r.Cells[f.Col])
				if !ok || !q.Bound.Holds(v) {
					continue
				}
			}
			f.Rows = append(f.Rows, ri)
		}
		if len(f.Rows) == 0 {
			continue
		}
		score, _ := named(t.Title + " " + strings.Join(t.Head, " ") + " " + f.Value)
		if score > bestScore {
			best, bestScore, found = f, score, true
		}
	}
	return best, found
}

// mostlyFigures reports whether at least half the rows hold a figure in
// column c.
func mostlyFigures(rows []TextRow, c int) bool {
	n := 0
	for _, r := range rows {
		if c < len(r.Cells) {
			if _, ok := Number(r.Cells[c]); ok {
				n++
			}
		}
	}
	return 2*n >= len(rows)
}

// saidPhrase is the column (not the first, nor skip) and the cell of t
// that the question says word for word (every one of its tokens among
// said, and one of its words at least a word of weight), the one of most
// tokens, first of equals; a cell every row of its column has is left
// out. -1 when there is none.
func saidPhrase(t TextTable, skip int, said map[string]bool, tokens, words Words) (int, string) {
	col, value, most := -1, "", 0
	for c := 1; c < len(t.Head); c++ {
		if c == skip {
			continue
		}
		count := map[string]int{}
		read := 0
		for _, r := range t.Rows {
			if c < len(r.Cells) {
				count[phraseKey(tokens(r.Cells[c]))]++
				read++
			}
		}
		for _, r := range t.Rows {
			if c >= len(r.Cells) || !hasLetter(r.Cells[c]) {
				continue
			}
			toks := tokens(r.Cells[c])
			if len(toks) <= most || len(words(r.Cells[c])) == 0 || count[phraseKey(toks)] == read {
				continue
			}
			all := true
			for _, w := range toks {
				if !said[w] {
					all = false
					break
				}
			}
			if all {
				col, value, most = c, r.Cells[c], len(toks)
			}
		}
	}
	return col, value
}

// quotesKey reports whether the question says some row's key (first
// cell) word for word.
func quotesKey(t TextTable, said map[string]bool, tokens, words Words) bool {
	for _, r := range t.Rows {
		if len(r.Cells) == 0 || len(words(r.Cells[0])) == 0 {
			continue
		}
		all := true
		for _, w := range tokens(r.Cells[0]) {
			if !said[w] {
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

// phraseKey is a cell's tokens as one string: two cells are the same
// phrase when their keys are equal.
func phraseKey(toks []string) string { return strings.Join(toks, " ") }
