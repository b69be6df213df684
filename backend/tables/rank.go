package tables

import (
	"math"
	"strconv"
	"strings"
)

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
	var figs []rowFigure
	for ri, r := range t.Rows {
		if col.col >= len(r.Cells) || only != nil && !only[ri] {
			continue
		}
		if v, ok := Number(r.Cells[col.col]); ok {
			figs = append(figs, rowFigure{row: ri, figure: v, by: v})
		}
	}
	best, n, ok := pick(figs, most)
	if !ok {
		return Ranking{}, false
	}
	r := t.Rows[best.row]
	return Ranking{Table: ti, Row: best.row, Col: col.col, Year: col.year, Value: r.Cells[col.col], Number: best.figure, Rows: n}, true
}

// totalTolerance is how far a total may be from the sum of its parts
// (rounding in the printed figures).
const totalTolerance = 0.005

// rowFigure is a row's figure in the column read and what it is ranked
// by (the figure itself, or its change).
type rowFigure struct {
	row        int
	figure, by float64
}

// pick leaves out the table's total (a row whose figure is the sum of all
// the others', whatever its label says) and returns the row ranked
// highest (most) or lowest by its by, and how many rows were ranked; ok is
// false when fewer than minRanked are left.
func pick(figs []rowFigure, most bool) (rowFigure, int, bool) {
	var sum float64
	for _, f := range figs {
		sum += f.figure
	}
	kept := figs[:0:0]
	for _, f := range figs {
		if len(figs) > minRanked && f.figure != 0 && math.Abs(sum-f.figure-f.figure) <= totalTolerance*math.Abs(f.figure) {
			continue
		}
		kept = append(kept, f)
	}
	if len(kept) < minRanked {
		return rowFigure{}, 0, false
	}
	best := kept[0]
	for _, f := range kept[1:] {
		if most && f.by > best.by || !most && f.by < best.by {
			best = f
		}
	}
	return best, len(kept), true
}

// Change is a ranking by how much a row's figure moved between two years.
type Change struct {
	Ranking
	// OldCol, OldValue and OldNumber are the earlier year's cell of the
	// row; Ranking's Col, Value and Number the later year's.
	OldCol    int
	OldYear   int
	OldValue  string
	OldNumber float64
	// Moved is the change, later less earlier, in percent of the earlier
	// figure when the ranking was by percent.
	Moved float64
}

// RankChange finds, in table ti of tabs, the row whose figure rose most
// (up) or fell most (!up) from the year before year to year (the latest
// year the columns name when year is 0), by percent of the earlier figure when
// percent, else by amount. The earlier year's column is the nearest one
// after the later's (statements print the latest year first), else
// before it. A row whose later figure is the sum of all the others' is
// left out, as in Rank. ok is false when the table has no such pair of
// columns or fewer than minRanked rows have both figures.
func RankChange(tabs []Table, ti int, year int, up, percent bool) (Change, bool) {
	t := tabs[ti]
	if year == 0 {
		for _, c := range t.Columns {
			if y, ok := columnYear(c); ok && y > year {
				year = y
			}
		}
	}
	later, earlier := -1, -1
	for j, c := range t.Columns {
		y, ok := columnYear(c)
		if ok && y == year {
			later = j
			break
		}
	}
	if later < 0 {
		return Change{}, false
	}
	for _, j := range nearFirst(later, len(t.Columns)) {
		if y, ok := columnYear(t.Columns[j]); ok && y == year-1 {
			earlier = j
			break
		}
	}
	if earlier < 0 {
		return Change{}, false
	}
	var figs []rowFigure
	olds := map[int]float64{}
	for ri, r := range t.Rows {
		if later >= len(r.Cells) || earlier >= len(r.Cells) {
			continue
		}
		now, ok1 := Number(r.Cells[later])
		old, ok2 := Number(r.Cells[earlier])
		if !ok1 || !ok2 || percent && old == 0 {
			continue
		}
		moved := now - old
		if percent {
			moved = 100 * moved / math.Abs(old)
		}
		figs = append(figs, rowFigure{row: ri, figure: now, by: moved})
		olds[ri] = old
	}
	best, n, ok := pick(figs, up)
	if !ok {
		return Change{}, false
	}
	r := t.Rows[best.row]
	return Change{
		Ranking: Ranking{Table: ti, Row: best.row, Col: later, Year: year, Value: r.Cells[later], Number: best.figure, Rows: n},
		OldCol:  earlier, OldYear: year - 1, OldValue: r.Cells[earlier], OldNumber: olds[best.row], Moved: best.by,
	}, true
}

// columnYear is the year a column's name holds as a word ("2023",
// "Three Months Ended July 2, 2023"), the last one when it holds several.
func columnYear(c string) (int, bool) {
	y, found := 0, false
	for _, w := range strings.FieldsFunc(c, func(r rune) bool { return r < '0' || r > '9' }) {
		if len(w) == 4 && (strings.HasPrefix(w, "19") || strings.HasPrefix(w, "20")) {
			y, _ = strconv.Atoi(w)
			found = true
		}
	}
	return y, found
}

// nearFirst lists the indexes other than i below n, those after i first,
// nearest first, then those before it, nearest first.
func nearFirst(i, n int) []int {
	var out []int
	for j := i + 1; j < n; j++ {
		out = append(out, j)
	}
	for j := i - 1; j >= 0; j-- {
		out = append(out, j)
	}
	return out
}
