package tables

import "strings"

// The different values of a column a question counts: "How many distinct
// effects do the kettle's controls have while boiling?" is answered by the
// different cells under "Effect" of the table titled "Controls while
// boiling" — "Lower the temperature." written on two rows is one.

// Distinct is the column of one table whose values a question counts.
type Distinct struct {
	Table int // index into the tables given to DistinctColumn
	Col   int
}

// ValueRows is one value of a column, as its first row writes it, with
// the rows (indexes) that hold it.
type ValueRows struct {
	Value string
	Rows  []int
}

// DistinctColumn finds the column a question counts the values of: a
// column of words (not mostly figures) whose head the question names
// (minHeadNamed of the head's words by weight), in a table of at least
// minFilterRows rows; of several, the column whose head holds the most
// weight of the question's words, in the table whose title and heads hold
// the most (the first of equals). ok is false when no head is named.
func DistinctColumn(q FilterQuery, tabs []TextTable, words Words) (Distinct, bool) {
	named := q.named(words)
	best, bestScore, found := Distinct{}, -1.0, false
	for ti, t := range tabs {
		if len(t.Head) < 2 || len(t.Rows) < minFilterRows {
			continue
		}
		col, top := -1, 0.0
		for c, h := range t.Head {
			hit, all := named(h)
			if hit == 0 || hit < minHeadNamed*all || hit <= top || mostlyFigures(t.Rows, c) {
				continue
			}
			col, top = c, hit
		}
		if col < 0 {
			continue
		}
		score, _ := named(t.Title + " " + strings.Join(t.Head, " "))
		if score > bestScore {
			best, bestScore, found = Distinct{Table: ti, Col: col}, score, true
		}
	}
	return best, found
}

// DistinctValues groups rows by their cell in column col, in the order the
// values first come: two cells are one value when their tokens are the
// same ("Lower the temperature." and "Lower the temperature"). Rows with no cell there, or
// an empty one, are left out.
func DistinctValues(rows []TextRow, col int, tokens Words) []ValueRows {
	var out []ValueRows
	at := map[string]int{}
	for ri, r := range rows {
		if col >= len(r.Cells) {
			continue
		}
		toks := tokens(r.Cells[col])
		if len(toks) == 0 {
			continue
		}
		key := phraseKey(toks)
		i, ok := at[key]
		if !ok {
			i = len(out)
			at[key] = i
			out = append(out, ValueRows{Value: strings.TrimSpace(r.Cells[col])})
		}
		out[i].Rows = append(out[i].Rows, ri)
	}
	return out
}
