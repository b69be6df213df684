package tables

import (
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Query is what Lookup needs of a question: its words (as Words cuts
// them), the weight of any word (rarer words weigh more: an inverse
// document frequency) and the years it names.
type Query struct {
	Terms  map[string]bool
	Weight func(word string) float64
	Years  []int
	// Context, when set, are more words that may name a table (in its
	// title: "the balance sheet"), never its rows. Words of Terms that a
	// table's title holds name the table, not its rows, when Context is
	// empty or holds them too; when the caller has told the words that
	// name a table apart (Context set, without them), they name rows.
	Context map[string]bool
	// MinCover, when set, is the least part of the query's own weight
	// (by Weight) a cell's row label, section and column must name: a
	// short query ("total assets") is not answered by a row that names one
	// of its words ("Total").
	MinCover float64
	// MinShare, when set, replaces the package's MinShare for this query.
	MinShare float64
}

// Words cuts a label into comparable words (the caller's analyzer: lower
// case, stems, no function words).
type Words func(string) []string

// Cell is one value a question asks for, with what names it.
type Cell struct {
	Table, Row, Col int    // indexes into the tables given to Lookup
	Label           string // the row's label
	Section         string // the label row above it, if any
	Column          string // the column's heads ("Capital Expenditures 2018")
	Unit            string // the table's stub when it states a unit ("(Millions)")
	// Scale is the multiplier the table states for its figures (stub or
	// title: 1e6 for "in millions"); 0 when it states none.
	Scale  float64
	Value  string // the cell as printed ("(1,577)")
	Number float64
	Year   int // the year of the column, when the question named it
	// Score is the weight of the question's words that name the cell (in
	// its row's label, column group and section); Share the part of the
	// label's weight (or the column group's, for a total) they make.
	Score, Share float64
	// Via, for a cell Bridge found, is the label of the row that names
	// the quantity and prints the same figures.
	Via string
}

// MinShare is the least part of a row's label (or of the column group, for
// a total) the question must name, by weight, for Lookup to report it.
const MinShare = 0.4

// Lookup finds the cells a question asks for in tables, best first: rows
// whose label (with its section and the column's group heads) holds the
// question's weightiest words, in the column of each year the question
// names (or the first column when it names none; tables print the latest
// period first). Words of the question that name a table (in its title)
// count for the table, a quarter, not for its rows. Among equal rows the
// one whose label the question names more of wins, then the later one (a
// total closes its table). At most one cell per row and year.
func Lookup(q Query, tabs []Table, words Words) []Cell {
	var out []Cell
	minShare := MinShare
	if q.MinShare > 0 {
		minShare = q.MinShare
	}
	for ti, t := range tabs {
		cols := yearColumns(t, q.Years)
		if len(cols) == 0 {
			continue
		}
		scale := t.scale()
		// Words of the question that name the table ("the balance sheet")
		// choose the table, not its row.
		rowQ, titleHit := q, 0.0
		if t.Title != "" {
			rowQ.Terms = map[string]bool{}
			inTitle := map[string]bool{}
			for _, w := range words(t.Title) {
				if (q.Terms[w] || q.Context[w]) && !inTitle[w] {
					titleHit += q.Weight(w)
				}
				inTitle[w] = true
			}
			for w := range q.Terms {
				if !inTitle[w] || len(q.Context) > 0 && !q.Context[w] {
					rowQ.Terms[w] = true
				}
			}
		}
		// A word many of the table's labels hold ("Total …") tells its
		// rows apart less than one only a row holds.
		rowQ.Weight = inTable(t, words, q.Weight)
		colWords := make([][]string, len(t.Columns))
		for j, name := range t.Columns {
			colWords[j] = withoutYears(words(name))
		}
		for ri, r := range t.Rows {
			label := words(r.Label)
			section := words(r.Section)
			for _, yc := range cols {
				if yc.col >= len(r.Cells) {
					continue
				}
				v, ok := Number(r.Cells[yc.col])
				if !ok {
					continue
				}
				match, share := score(rowQ, label, section, colWords[yc.col], ri == len(t.Rows)-1 && !t.GoesOn)
				if share < minShare {
					continue
				}
				if q.MinCover > 0 && cover(q, label, section, colWords[yc.col]) < q.MinCover {
					continue
				}
				match += titleHit / 4
				out = append(out, Cell{Table: ti, Row: ri, Col: yc.col, Label: r.Label, Section: r.Section, Column: t.Columns[yc.col],
					Unit: t.Stub, Scale: scale, Value: r.Cells[yc.col], Number: v, Year: yc.year, Score: match, Share: share})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		if out[i].Share != out[j].Share {
			return out[i].Share > out[j].Share
		}
		if out[i].Table != out[j].Table {
			return out[i].Table < out[j].Table
		}
		return out[i].Row > out[j].Row
	})
	fullyNamedFirst(out, q, words)
	// One cell per row and year: its best column group.
	type key struct{ t, r, y int }
	seen := map[key]bool{}
	kept := out[:0]
	for _, c := range out {
		k := key{c.Table, c.Row, c.Year}
		if !seen[k] {
			seen[k] = true
			kept = append(kept, c)
		}
	}
	return kept
}

// scale is the multiplier the table states for its figures: its stub's
// ("(Millions)"), else its title's; 0 when it states none.
func (t Table) scale() float64 {
	if s := Scale(t.Stub); s != 0 {
		return s
	}
	return Scale(t.Title)
}

// inTable weighs words for the rows of t: weight times how rare the word
// is among t's row labels, log(1 + rows/holding) / log(1 + rows), so a
// word every label holds weighs least and one label's own word fully.
func inTable(t Table, words Words, weight func(string) float64) func(string) float64 {
	holding := map[string]int{}
	for _, r := range t.Rows {
		seen := map[string]bool{}
		for _, w := range words(r.Label) {
			if !seen[w] {
				seen[w] = true
				holding[w]++
			}
		}
	}
	n := float64(len(t.Rows))
	return func(w string) float64 {
		h := holding[w]
		if h == 0 || n < 2 {
			return weight(w)
		}
		return weight(w) * math.Log(1+n/float64(h)) / math.Log(1+n)
	}
}

// yearCol is a value column and the year it is taken for.
type yearCol struct{ col, year int }

// yearColumns picks the columns to read: for each year named, the columns
// whose heads hold it (one per column group); with no year named, the
// first column. A
// named year no column holds leaves the table out when its columns are
// periods of other years.
func yearColumns(t Table, years []int) []yearCol {
	columns := t.Columns
	if len(columns) == 0 {
		return nil
	}
	if len(years) == 0 {
		return []yearCol{{0, 0}}
	}
	var out []yearCol
	for _, y := range years {
		ys := strconv.Itoa(y)
		for j, c := range columns {
			if fy, ok := t.fiscalYearAt(j); ok {
				if fy == y {
					out = append(out, yearCol{j, y})
				}
				continue
			}
			if containsWord(c, ys) {
				out = append(out, yearCol{j, y})
			}
		}
	}
	return out
}

// YearColumns is how many value columns of the table stand for year y:
// more than one when the table splits the year (quarters, segments, a
// year's months).
func (t Table) YearColumns(y int) int { return len(yearColumns(t, []int{y})) }

// containsWord reports whether s holds w as a whole word.
func containsWord(s, w string) bool {
	for i := 0; ; {
		k := strings.Index(s[i:], w)
		if k < 0 {
			return false
		}
		a, b := i+k, i+k+len(w)
		if (a == 0 || !isAlnum(s[a-1])) && (b == len(s) || !isAlnum(s[b])) {
			return true
		}
		i = a + 1
	}
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// withoutYears drops year words (the period is matched apart).
func withoutYears(ws []string) []string {
	out := ws[:0:0]
	for _, w := range ws {
		if !IsYear(w) {
			out = append(out, w)
		}
	}
	return out
}

// score says how well the question names a cell: match is the weight of
// the question's words among the row's label (full weight), its column
// group (half) and its section (a quarter), and share the part of the
// label's own weight the question names (so a long label is not matched
// by one common word). When the question names none of the label but
// some of the column group ("gadget spending" over the columns), only the
// table's last row is taken (a total closes its table; not a table that
// goes on in the next passage), its share the
// group's.
func score(q Query, label, section, column []string, last bool) (match, share float64) {
	named := func(ws []string) (hit, all float64) {
		seen := map[string]bool{}
		for _, w := range ws {
			if seen[w] {
				continue
			}
			seen[w] = true
			v := q.Weight(w)
			all += v
			if q.Terms[w] {
				hit += v
			}
		}
		return hit, all
	}
	lh, la := named(label)
	ch, ca := named(column)
	sh, _ := named(section)
	switch {
	case lh > 0:
		return lh + ch/2 + sh/4, lh / la
	case last && ch > 0:
		return ch / 2, ch / ca
	}
	return 0, 0
}

// cover is the part of the query's weight that a row's label, section and
// column name.
func cover(q Query, parts ...[]string) float64 {
	named := map[string]bool{}
	for _, ws := range parts {
		for _, w := range ws {
			named[w] = true
		}
	}
	// In one order: sums taken in map order differ in their last bits
	// from run to run, and equal covers must tie alike every time.
	var hit, all float64
	for _, w := range slices.Sorted(maps.Keys(q.Terms)) {
		v := q.Weight(w)
		all += v
		if named[w] {
			hit += v
		}
	}
	if all == 0 {
		return 0
	}
	return hit / all
}

// fullyNamedFirst reorders cells whose labels name the same words of the
// question among the places they hold: the label the question names
// entirely first ("Net income" before "Provision for income taxes, net"
// for "net income"), though its words weigh less in its own table.
func fullyNamedFirst(cells []Cell, q Query, words Words) {
	named := func(c Cell) string {
		var ws []string
		seen := map[string]bool{}
		for _, w := range words(c.Label) {
			if q.Terms[w] && !seen[w] {
				seen[w] = true
				ws = append(ws, w)
			}
		}
		sort.Strings(ws)
		return strings.Join(ws, " ")
	}
	groups := map[string][]int{}
	for i, c := range cells {
		k := named(c)
		if k != "" {
			groups[k] = append(groups[k], i)
		}
	}
	for _, at := range groups {
		if len(at) < 2 {
			continue
		}
		group := make([]Cell, len(at))
		for j, i := range at {
			group[j] = cells[i]
		}
		sort.SliceStable(group, func(a, b int) bool { return group[a].Share > group[b].Share })
		for j, i := range at {
			cells[i] = group[j]
		}
	}
}
