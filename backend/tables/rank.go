package tables

import "math"

// Ranking is the answer to "which row has the highest (or lowest) figure"
// in one table: the row and its cell in the column read.
type Ranking struct {
	Table, Row, Col int
	Year            int // the column's year, when one was asked
	Value           string
	Number          float64
	Rows            int // how many rows were ranked
}

// minRanked is the fewest rows a ranking is made among.
const minRanked = 2

// Rank finds, in table ti of tabs, the row with the highest figure (most)
// or the lowest (!most) in the column of the first year given (the first
// column when none is), among the rows that have a figure there (and are
// in only, when it is not nil: the rows a question names). A row
// whose figure is the sum of all the others' (the table's total, whatever
// its label says) is left out. ok is false when fewer than minRanked rows
// have a figure in that column, or the table has no column for the year.
func Rank(tabs []Table, ti int, years []int, most bool, only map[int]bool) (Ranking, bool) {
	t := tabs[ti]
	cols := yearColumns(t.Columns, years[:min(len(years), 1)])
	if len(cols) == 0 {
		return Ranking{}, false
	}
	col := cols[0]
	type fig struct {
		row int
		v   float64
	}
	var figs []fig
	var sum float64
	for ri, r := range t.Rows {
		if col.col >= len(r.Cells) || only != nil && !only[ri] {
			continue
		}
		if v, ok := Number(r.Cells[col.col]); ok {
			figs = append(figs, fig{ri, v})
			sum += v
		}
	}
	// The total: a figure equal to the sum of the others.
	kept := figs[:0:0]
	for _, f := range figs {
		rest := sum - f.v
		if len(figs) > minRanked && f.v != 0 && math.Abs(rest-f.v) <= totalTolerance*math.Abs(f.v) {
			continue
		}
		kept = append(kept, f)
	}
	if len(kept) < minRanked {
		return Ranking{}, false
	}
	best := kept[0]
	for _, f := range kept[1:] {
		if most && f.v > best.v || !most && f.v < best.v {
			best = f
		}
	}
	r := t.Rows[best.row]
	return Ranking{Table: ti, Row: best.row, Col: col.col, Year: col.year, Value: r.Cells[col.col], Number: best.v, Rows: len(kept)}, true
}

// totalTolerance is how far a total may be from the sum of its parts
// (rounding in the printed figures).
const totalTolerance = 0.005
