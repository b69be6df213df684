package tables

import (
	"math"
	"sort"
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
	cols := yearColumns(t, years[:min(len(years), 1)])
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
	best, n, ok := pick(figs, most, false)
	if !ok {
		return Ranking{}, false
	}
	r := t.Rows[best.row]
	return Ranking{Table: ti, Row: best.row, Col: col.col, Year: col.year, Value: r.Cells[col.col], Number: best.figure, Rows: n}, true
}

// minAnywhereTotal is the fewest figures among which one that is the sum
// of the others is left out as their total wherever it stands.
const minAnywhereTotal = 4

// totalTolerance is how far a total may be from the sum of its parts
// (rounding in the printed figures).
const totalTolerance = 0.005

// addsUpTo reports whether parts, a sum, is total (not 0) within
// totalTolerance.
func addsUpTo(parts, total float64) bool {
	return total != 0 && math.Abs(parts-total) <= totalTolerance*math.Abs(total)
}

// TotalOfRows reports whether row ri of t is the total of the table's
// other rows: in the first column where it has a figure, that figure is
// the sum of the others' there (at least minRanked of them), within
// totalTolerance.
func TotalOfRows(t Table, ri int) bool {
	r := t.Rows[ri]
	for c, cell := range r.Cells {
		v, ok := Number(cell)
		if !ok {
			continue
		}
		var sum float64
		n := 0
		for oi, o := range t.Rows {
			if oi == ri || c >= len(o.Cells) {
				continue
			}
			if w, ok := Number(o.Cells[c]); ok {
				sum += w
				n++
			}
		}
		return n >= minRanked && addsUpTo(sum, v)
	}
	return false
}

// rowFigure is a row's figure in the column read and what it is ranked
// by (the figure itself, or its change).
type rowFigure struct {
	row        int
	figure, by float64
}

// pick leaves out the table's total (a row whose figure is the sum of all
// the others', whatever its label says; only the last one when lastTotal:
// a total column stands at the right, and three figures may add up by
// chance) and returns the row ranked highest (most) or lowest by its by,
// and how many rows were ranked; ok is false when fewer than minRanked
// are left.
func pick(figs []rowFigure, most, lastTotal bool) (rowFigure, int, bool) {
	var sum float64
	for _, f := range figs {
		sum += f.figure
	}
	kept := figs[:0:0]
	for i, f := range figs {
		if len(figs) > minRanked && addsUpTo(sum-f.figure, f.figure) && (!lastTotal || i == len(figs)-1) {
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
		for j := range t.Columns {
			if y, ok := t.yearAt(j); ok && y > year {
				year = y
			}
		}
	}
	later, earlier := -1, -1
	for j := range t.Columns {
		y, ok := t.yearAt(j)
		if ok && y == year {
			later = j
			break
		}
	}
	if later < 0 {
		return Change{}, false
	}
	for _, j := range nearFirst(later, len(t.Columns)) {
		if y, ok := t.yearAt(j); ok && y == year-1 {
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
	best, n, ok := pick(figs, up, false)
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

// ColumnRanking is the column with the highest or lowest figure in a row
// a question names, when the items it ranks are the columns (a statement
// by segment: "Total net revenue" across "Retail 2021", "Wholesale 2021",
// …): the row's cell in that column, and the item the column names.
type ColumnRanking struct {
	Table, Row, Col int
	Item            string // the column's name without its year ("Retail")
	Year            int
	Value           string
	Number          float64
	Items           int // how many columns were ranked
}

// RankColumns ranks the columns of the year asked (the latest the columns
// name when year is 0) by their figure in one row of each table: rows maps
// a table of tabs to its row (the tables of one passage, which may set the
// items out over several tables under one another). The last column, when
// its figure is the sum of all the others' (a "Total" column), is left out; a column
// whose name is only its year names no item and is not ranked. ok is false
// when fewer than minRanked columns are left.
func RankColumns(tabs []Table, rows map[int]int, year int, most bool) (ColumnRanking, bool) {
	if year == 0 {
		for ti := range rows {
			for _, c := range tabs[ti].Columns {
				if y, ok := columnYear(c); ok && y > year {
					year = y
				}
			}
		}
	}
	type at struct{ table, col int }
	var figs []rowFigure
	var where []at
	var items []string
	tis := make([]int, 0, len(rows))
	for ti := range rows {
		tis = append(tis, ti)
	}
	sort.Ints(tis)
	for _, ti := range tis {
		t, r := tabs[ti], tabs[ti].Rows[rows[ti]]
		for j, c := range t.Columns {
			y, ok := columnYear(c)
			if !ok || y != year || j >= len(r.Cells) {
				continue
			}
			item := itemOf(c, y)
			v, ok := Number(r.Cells[j])
			if item == "" || !ok {
				continue
			}
			figs = append(figs, rowFigure{row: len(where), figure: v, by: v})
			where = append(where, at{ti, j})
			items = append(items, item)
		}
	}
	// A total column stands at the right of its table, and three figures
	// may add up by chance; of four or more, one that is the sum of the
	// others is their total wherever it stands (a table split into
	// panels, ranked together, puts its total among them).
	best, n, ok := pick(figs, most, len(figs) < minAnywhereTotal)
	if !ok {
		return ColumnRanking{}, false
	}
	w := where[best.row]
	return ColumnRanking{Table: w.table, Row: rows[w.table], Col: w.col, Item: items[best.row], Year: year,
		Value: tabs[w.table].Rows[rows[w.table]].Cells[w.col], Number: best.figure, Items: n}, true
}

// itemOf is a column's name without its year and stray cell marks
// ("Retail 2021" → "Retail").
func itemOf(column string, year int) string {
	y := strconv.Itoa(year)
	var kept []string
	for _, w := range strings.Fields(column) {
		if w != y && w != "|" {
			kept = append(kept, strings.Trim(w, "|"))
		}
	}
	return strings.TrimSpace(strings.Join(kept, " "))
}
