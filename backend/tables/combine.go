package tables

import (
	"maps"
	"slices"
)

// Combination is the figures of several items a question names in one
// table, each read in the one measure the question names: rows named in a
// column ("Posts" of "North" and "South"), or columns named in a row
// ("Visitors" of "Museum-east" and "Museum-west"). The caller adds them up
// or takes one from the other.
type Combination struct {
	Table int
	// Measure is the label of the row, or the heads of the column, the
	// figures are read in.
	Measure string
	// Items are the named rows (or columns) in the table's order.
	Items []CombinedItem
	// Cover is the part of the question's words (by weight) the items,
	// the measure and the table's title and heads name.
	Cover float64
}

// CombinedItem is one item of a Combination: its name (the row's label or
// the column's heads), its cell and the figure there.
type CombinedItem struct {
	Name     string
	Row, Col int
	Value    string
	Number   float64
	// Words are the question's words that name the item.
	Words []string
}

// MinCombineCover is the least part of the question's words (by weight)
// the table must name for its items to be combined: a question that names
// an item the table lacks ("… than Westmoor") is not answered by the others.
const MinCombineCover = 0.6

// maxCombinedItems is the most items a question is taken to name: a word
// naming more rows than that names a kind of row, not a few of them.
const maxCombinedItems = 8

// Combine finds, among tabs, the table whose rows (or columns) the
// question names two or more of, and whose columns (or rows) it names one
// of as their measure, with a figure for every item there; the best
// covered such table when it covers MinCombineCover of the question. A
// word names items when some but not all of the table's rows (columns)
// hold it; the measure is the column (row) whose heads (label) hold most
// of the question's other words, in the year the question names when it
// names one (rows named and no column named: the column of the one year
// named). q.Terms are the question's words without those that ask for the
// operation ("in total", "how many more").
func Combine(tabs []Table, words Words, q Query) (Combination, bool) {
	if len(q.Terms) == 0 {
		return Combination{}, false
	}
	var best Combination
	found := false
	for ti, t := range tabs {
		for _, byRows := range []bool{true, false} {
			c, ok := combineIn(t, byRows, words, q)
			if !ok {
				continue
			}
			c.Table = ti
			if !found || c.Cover > best.Cover {
				best, found = c, true
			}
		}
	}
	if !found || best.Cover < MinCombineCover {
		return Combination{}, false
	}
	return best, true
}

// combineIn reads one table's combination: its rows as the items and a
// column as the measure (byRows), or its columns as the items and a row
// as the measure.
func combineIn(t Table, byRows bool, words Words, q Query) (Combination, bool) {
	// The names of the items and of the measures across them.
	var items, measures []string
	if byRows {
		for _, r := range t.Rows {
			items = append(items, r.Label)
		}
		measures = t.Columns
	} else {
		items = t.Columns
		for _, r := range t.Rows {
			measures = append(measures, r.Label)
		}
	}
	if len(items) < 3 || len(measures) == 0 {
		return Combination{}, false
	}
	itemWords := make([]map[string]bool, len(items))
	df := map[string]int{}
	for i, name := range items {
		itemWords[i] = map[string]bool{}
		for _, w := range withoutYears(words(name)) {
			if q.Terms[w] && !itemWords[i][w] {
				itemWords[i][w] = true
				df[w]++
			}
		}
	}
	// A word held by some items but not all names them; when some word
	// names one item alone, only such words name items ("the Northfield
	// and Lakeside plants": not every plant).
	naming := map[string]bool{}
	unique := false
	for _, n := range df {
		unique = unique || n == 1
	}
	for w, n := range df {
		if n < len(items) && (n == 1 || !unique) {
			naming[w] = true
		}
	}
	var named []int
	for i := range items {
		for w := range itemWords[i] {
			if naming[w] {
				named = append(named, i)
				break
			}
		}
	}
	if len(named) < 2 || len(named) > maxCombinedItems {
		return Combination{}, false
	}
	// The measure: the line the question's other words name most, in the
	// year it names.
	yearOK := func(m int) bool {
		if len(q.Years) == 0 {
			return true
		}
		if byRows {
			for _, yc := range yearColumns(t, q.Years) {
				if yc.col == m {
					return true
				}
			}
			return false
		}
		return true
	}
	measure, measureScore := -1, 0.0
	var measureWords []string
	for m, name := range measures {
		if !yearOK(m) {
			continue
		}
		var s float64
		var ws []string
		for _, w := range withoutYears(words(name)) {
			if q.Terms[w] && !naming[w] && !slices.Contains(ws, w) {
				s += q.Weight(w)
				ws = append(ws, w)
			}
		}
		if s > measureScore {
			measure, measureScore, measureWords = m, s, ws
		}
	}
	if measure < 0 && byRows {
		// Rows measured by the one year named ("in 2025"), or by the one
		// column of figures of the table.
		if ycs := yearColumns(t, q.Years); len(q.Years) == 1 && len(ycs) == 1 {
			measure = ycs[0].col
		} else if len(q.Years) == 0 && len(measures) == 1 {
			measure = 0
		}
	}
	if measure < 0 {
		return Combination{}, false
	}
	c := Combination{Measure: measures[measure]}
	held := map[string]bool{}
	for _, w := range measureWords {
		held[w] = true
	}
	for _, i := range named {
		row, col := i, measure
		if !byRows {
			row, col = measure, i
		}
		if col >= len(t.Rows[row].Cells) {
			return Combination{}, false
		}
		v, ok := Number(t.Rows[row].Cells[col])
		if !ok {
			return Combination{}, false
		}
		var ws []string
		for w := range itemWords[i] {
			if naming[w] {
				ws = append(ws, w)
				held[w] = true
			}
		}
		slices.Sort(ws)
		c.Items = append(c.Items, CombinedItem{Name: items[i], Row: row, Col: col, Value: t.Rows[row].Cells[col], Number: v, Words: ws})
	}
	// The table's title, heads and stub name the rest ("collections").
	texts := []string{t.Title, t.Stub}
	for _, h := range t.Heads {
		texts = append(texts, h...)
	}
	parts := [][]string{slices.Collect(maps.Keys(held))}
	for _, text := range texts {
		parts = append(parts, words(text))
	}
	c.Cover = cover(q, parts...)
	return c, true
}
