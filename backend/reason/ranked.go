package reason

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"cairn/backend/analyze"
	"cairn/backend/kb"
	"cairn/backend/lexicon"
	"cairn/backend/question"
	"cairn/backend/tables"
)

// A question that asks which item has the highest or lowest figure
// ("Which instrument had the highest notional value in 2021?") is answered
// by ranking the rows of the evidence table that names what it asks: the
// row with the highest (or lowest) figure in the year asked, the table's
// total left out, is the answer, cited by its row.

var (
	mostWords    = lexicon.English().Set("most_words")
	leastWords   = lexicon.English().Set("least_words")
	whichWords   = lexicon.English().Set("wh_words")
	riseWords    = lexicon.English().Set("rise_words")
	fallWords    = lexicon.English().Set("fall_words")
	percentWords = lexicon.English().Set("percent_words")
	// boundPhrases are the two-word phrases of bound_inclusive ("at
	// least"): a bound, no superlative.
	boundPhrases = lexicon.English().Map("bound_inclusive")
)

// A question that asks which item moved most ("Which branch saw the
// steepest fall in sales, in percent?") ranks the rows by
// their change from the year before the year asked to that year
// (tables.RankChange): by percent when the question says so, else by
// amount.

// changeAsked reads whether a ranking question asks for the largest rise
// (+1) or fall (-1): a word of either right after its superlative
// ("the biggest drop", "the highest revenue growth": within two words);
// 0 when it asks a ranking of the figures themselves.
func changeAsked(toks []analyze.Token) int {
	for i, t := range toks {
		if !mostWords[t.Text] && !leastWords[t.Text] {
			continue
		}
		for _, n := range toks[i+1 : min(len(toks), i+3)] {
			switch {
			case riseWords[n.Text]:
				return 1
			case fallWords[n.Text]:
				return -1
			}
		}
	}
	return 0
}

// percentAsked says the question asks for a share ("on a percentage
// basis", "in %").
func percentAsked(text string, toks []analyze.Token) bool {
	if strings.Contains(text, "%") {
		return true
	}
	for _, t := range toks {
		if percentWords[t.Text] {
			return true
		}
	}
	return false
}

// minRankedCover is the least part of the question's words (by weight) a
// table's title, heads and labels must hold for its rows to be ranked.
const minRankedCover = 0.3

// measureRowShare is the part of a row's label (by weight) the question
// must say for the row to be the measure it names ("net revenue" names
// "Total net revenue").
const measureRowShare = 0.6

// rankedCell is the row a ranking question asks for.
type rankedCell struct {
	foundCell
	most bool
	rows int // how many rows were ranked
	// change, when the rows were ranked by how much they moved: +1 the
	// largest rise asked, -1 the largest fall; moved holds the figures.
	change int
	moved  tables.Change
	// oldColumn is the earlier year's column of a change; percent says
	// the change was ranked by percent.
	oldColumn string
	percent   bool
	// item, when the columns were ranked (the items are columns: a
	// statement by segment), is the column's item; the cell's row is the
	// figure the question names.
	item string
}

// superlative reads whether a question asks which item has the most (+1)
// or the least (-1) of something: a wh-word and a superlative, the first
// superlative deciding ("brought in the most (or lost the least)"), one
// in a phrase that sets a bound ("at least 6") left aside. 0 when it asks
// neither.
func superlative(toks []analyze.Token) int {
	wh := false
	for i, t := range toks {
		switch {
		case i > 0 && boundPhrases[toks[i-1].Text+" "+t.Text] != "":
			// "at least 6" sets a bound, it asks no ranking
		case whichWords[t.Text]:
			wh = true
		case mostWords[t.Text] && wh:
			return 1
		case leastWords[t.Text] && wh:
			return -1
		}
	}
	return 0
}

// rankedRow answers a ranking question from the tables of the evidence:
// among the tables whose title, heads and labels hold enough of the
// question's words (minRankedCover), the best named one's row with the
// highest or lowest figure in the year asked. nil when the question asks
// no ranking or no table answers it.
func (u *run) rankedRow(ctx context.Context, ev []Evidence) (*rankedCell, error) {
	dir := superlative(u.q.Tokens)
	if dir == 0 {
		return nil, nil
	}
	all, from := u.evidenceTables(ev)
	if len(all) == 0 {
		return nil, nil
	}
	q, err := u.cellQuery(ctx, all)
	if err != nil || len(q.Terms) == 0 {
		return nil, err
	}
	for w := range q.Context {
		q.Terms[w] = true
	}
	// The words that ask for the ranking name nothing in a table; nor do
	// those that ask for a change and its kind.
	change := changeAsked(u.q.Tokens)
	for _, t := range u.q.Tokens {
		if mostWords[t.Text] || leastWords[t.Text] || whichWords[t.Text] || change != 0 && (riseWords[t.Text] || fallWords[t.Text] || percentWords[t.Text]) {
			for _, w := range tableWords(t.Text) {
				delete(q.Terms, w)
			}
		}
	}
	// The words in one order: sums of weights taken in map order differ
	// in their last bits from run to run, and two tables covering the
	// same words must tie the same way every time.
	terms := slices.Sorted(maps.Keys(q.Terms))
	var total float64
	for _, w := range terms {
		total += q.Weight(w)
	}
	year := u.q.Period
	if len(q.Years) > 0 {
		year = q.Years[0]
	}
	percent := percentAsked(u.q.Text, u.q.Tokens)
	best, bestCover := -1, minRankedCover
	var bestRank tables.Ranking
	var bestMoved tables.Change
	byPassage := map[int]map[int]int{} // evidence passage → its tables' named row
	var passages []int
	// cover is the part of the question's words (by weight) a table's
	// title, heads and labels hold, or its document's title (the company
	// a question names is its document's, not a table's).
	cover := func(ti int) float64 {
		t := all[ti]
		held := map[string]bool{}
		h := ev[from[ti]].Hit
		text := h.DocTitle + " " + h.IndexTitle + " " + t.Title + " " + strings.Join(t.Columns, " ") + " " + t.Stub
		for _, row := range t.Rows {
			text += " " + row.Label + " " + row.Section
		}
		for _, w := range tableWords(text) {
			held[w] = true
		}
		var hit float64
		for _, w := range terms {
			if held[w] {
				hit += q.Weight(w)
			}
		}
		return hit / total
	}
	columnsNamed := false
	for ti, t := range all {
		// A single row the question names as its measure is what it
		// measures, not an item (a statement's "Net income" row over
		// periods): its rows rank nothing, its columns may (below).
		// Several are items among others.
		named, namedAt := 0, -1
		for ri, row := range t.Rows {
			var said, all float64
			for _, w := range tableWords(row.Label) {
				all += q.Weight(w)
				if q.Terms[w] {
					said += q.Weight(w)
				}
			}
			if all > 0 && said >= measureRowShare*all {
				named, namedAt = named+1, ri
			}
		}
		// A change is ranked among rows only: a named row that is the
		// total of the others names what the rows (its parts) measure,
		// and they are the items ("Takings" under the branches'
		// takings).
		if named == 1 && !(change != 0 && tables.TotalOfRows(t, namedAt)) {
			// its items may be the columns (RankColumns, below)
			if byPassage[from[ti]] == nil {
				byPassage[from[ti]] = map[int]int{}
				passages = append(passages, from[ti])
			}
			byPassage[from[ti]][ti] = namedAt
			columnsNamed = columnsNamed || cover(ti) >= minRankedCover
			continue
		}
		var r tables.Ranking
		var moved tables.Change
		var ok bool
		if change != 0 {
			moved, ok = tables.RankChange(all, ti, year, dir*change > 0, percent)
			r = moved.Ranking
		} else {
			r, ok = tables.Rank(all, ti, q.Years, dir > 0, nil)
		}
		if !ok {
			continue
		}
		if c := cover(ti); c > bestCover {
			best, bestCover, bestRank, bestMoved = ti, c, r, moved
		}
	}
	// A table with one row the question names as its measure ranks its
	// columns (a statement by segment) before any table whose rows were
	// ranked without one: the question says what it measures there.
	if change == 0 && len(passages) > 0 && (best < 0 || columnsNamed) {
		rc, err := u.rankedColumn(ev, all, from, byPassage, passages, year, dir)
		if rc != nil || err != nil || best < 0 {
			return rc, err
		}
	}
	if best < 0 {
		return nil, nil
	}
	t := all[best]
	row := t.Rows[bestRank.Row]
	c := tables.Cell{Table: best, Row: bestRank.Row, Col: bestRank.Col, Label: row.Label, Section: row.Section, Column: t.Columns[bestRank.Col],
		Unit: t.Stub, Value: bestRank.Value, Number: bestRank.Number, Year: bestRank.Year}
	rc := &rankedCell{foundCell: foundCell{Cell: c, ev: from[best], start: row.Start, end: row.End}, most: dir > 0, rows: bestRank.Rows, change: change}
	if change != 0 {
		rc.moved, rc.oldColumn, rc.percent = bestMoved, t.Columns[bestMoved.OldCol], percent
	}
	return rc, nil
}

// rankedColumn answers a ranking question whose items are a table's
// columns (a statement by segment): in the first evidence passage whose
// tables have a row the question names in full, the column of the year
// asked with the highest (or lowest) figure in that row (tables.
// RankColumns), the "Total" column left out.
func (u *run) rankedColumn(ev []Evidence, all []tables.Table, from []int, byPassage map[int]map[int]int, passages []int, year, dir int) (*rankedCell, error) {
	// The passages whose tables cover the span of time the question names
	// first ("Q2": the three months' table before the six months').
	passages = slices.Clone(passages)
	sort.SliceStable(passages, func(i, j int) bool {
		return u.spanFit(all, byPassage[passages[i]]) > u.spanFit(all, byPassage[passages[j]])
	})
	for _, p := range passages {
		c, ok := tables.RankColumns(all, u.rankedGroup(ev, all, byPassage, p), year, dir > 0)
		if !ok {
			continue
		}
		t := all[c.Table]
		row := t.Rows[c.Row]
		cell := tables.Cell{Table: c.Table, Row: c.Row, Col: c.Col, Label: row.Label, Section: row.Section, Column: t.Columns[c.Col],
			Unit: t.Stub, Value: c.Value, Number: c.Number, Year: c.Year}
		return &rankedCell{foundCell: foundCell{Cell: cell, ev: from[c.Table], start: row.Start, end: row.End}, most: dir > 0, rows: c.Items, item: c.Item}, nil
	}
	return nil, nil
}

// rankedGroup is the tables whose columns rank together for evidence
// passage p: its own, with those of the passage it goes on from (a table
// split between two passages, its panels on either side), leaving out
// any that names only another span of time than the question ("six
// months ended" for a quarter).
func (u *run) rankedGroup(ev []Evidence, all []tables.Table, byPassage map[int]map[int]int, p int) map[int]int {
	group := maps.Clone(byPassage[p])
	if h := ev[p].Hit; h.TableHeader != "" && startsWithRow(h.Text) {
		for q, rows := range byPassage {
			if o := ev[q].Hit; o.DocID == h.DocID && o.ID == h.ID-1 {
				maps.Copy(group, rows)
			}
		}
	}
	for ti := range group {
		if u.spanFitOf([]tables.Table{all[ti]}) < 0 {
			delete(group, ti)
		}
	}
	return group
}

// spanFit says how well the span of time tables' titles and heads name
// fits the one the question names (spanFitOf), for the tables of rows.
func (u *run) spanFit(all []tables.Table, rows map[int]int) int {
	var ts []tables.Table
	for ti := range rows {
		ts = append(ts, all[ti])
	}
	return u.spanFitOf(ts)
}

// spanFitOf says how well the span of time the titles and heads of ts
// name fits the one the question names (question.PeriodSpans): 1 when
// they name it, -1 when they name only other spans ("six months ended"
// for a question about a quarter), 0 when either names none.
func (u *run) spanFitOf(ts []tables.Table) int {
	var text strings.Builder
	for _, t := range ts {
		text.WriteString(t.Title + " " + t.Stub + " " + strings.Join(t.Columns, " ") + " ")
		for _, h := range t.Heads {
			text.WriteString(strings.Join(h, " ") + " ")
		}
	}
	q, y, p := question.PeriodSpans(text.String())
	asked := [3]bool{u.q.NamesQuarter, u.q.NamesFiscalYear, u.q.NamesPartYear}
	named := [3]bool{q, y, p}
	if asked == [3]bool{} || named == [3]bool{} {
		return 0
	}
	for i := range asked {
		if asked[i] && named[i] {
			return 1
		}
	}
	return -1
}

// spanNeighbours adds to the evidence the passage just before or after
// one whose tables cover another span of time than the question names,
// when that passage's tables cover the span named (a statement's three
// months set above its six months: "Q2" asks the first, the search found
// the second). The evidence is returned as it was when the question names
// no span; at most maxCellPassages passages in all.
func (u *run) spanNeighbours(ctx context.Context, ev []Evidence) ([]Evidence, error) {
	if !u.q.NamesQuarter && !u.q.NamesFiscalYear && !u.q.NamesPartYear {
		return ev, nil
	}
	have := map[int64]bool{}
	for _, e := range ev {
		have[e.Hit.ID] = true
	}
	n := len(ev)
	for i := 0; i < min(n, maxCellPassages); i++ {
		e := ev[i]
		if !strings.Contains(e.Hit.Text, " | ") || u.spanFitOf(u.tablesOf(e.Hit)) >= 0 {
			continue
		}
		near, err := u.r.Retriever.Around(ctx, e.Hit.ID, 1, 1)
		if err != nil {
			return ev, err
		}
		for _, h := range near {
			if have[h.ID] || len(ev) >= maxCellPassages || !strings.Contains(h.Text, " | ") {
				continue
			}
			if u.spanFitOf(u.tablesOf(h)) > 0 {
				have[h.ID] = true
				ev = append(ev, Evidence{N: len(ev) + 1, Hit: h})
			}
		}
	}
	return ev, nil
}

// rank says where the row stands: "highest of 4 rows".
func (rc *rankedCell) rank() string {
	end := "lowest"
	if rc.most {
		end = "highest"
	}
	if rc.item != "" {
		return fmt.Sprintf("%s of %d columns", end, rc.rows)
	}
	if rc.change != 0 {
		// "the largest fall", "the smallest rise"
		end = "smallest "
		if rc.most {
			end = "largest "
		}
		end += map[bool]string{true: "rise", false: "fall"}[rc.change > 0]
	}
	return fmt.Sprintf("%s of %d rows", end, rc.rows)
}

// text writes the ranked row as the answer's lead: its label, which end of
// how many rows it is, and its figure under its column.
func (rc *rankedCell) text(n int) string {
	var b strings.Builder
	if rc.item != "" {
		// "Treasury — the lowest of 3 columns (Total net revenue, Treasury 2025: $ (473) (in millions))"
		fmt.Fprintf(&b, "%s — the %s (%s, %s: %s", rc.item, rc.rank(), rc.Label, rc.Column, rc.Value)
		if u := unitOf(rc.Unit); u != "" {
			fmt.Fprintf(&b, " %s", u)
		}
		fmt.Fprintf(&b, ") [%d]", n)
		return b.String()
	}
	fmt.Fprintf(&b, "%s — the %s", rc.Label, rc.rank())
	if rc.change != 0 {
		// "(2024 → 2025: 5,034 → 1,305, -74.1 %)"
		unit := ""
		if u := unitOf(rc.Unit); u != "" {
			unit = " " + u
		}
		moved := signed(rc.moved.Moved) + unit
		if rc.percent {
			moved = fmt.Sprintf("%+.1f %%", rc.moved.Moved)
		}
		fmt.Fprintf(&b, " (%s → %s: %s → %s%s, %s) [%d]", rc.oldColumn, rc.Column, rc.moved.OldValue, rc.Value, unit, moved, n)
		return b.String()
	}
	if rc.Column != "" {
		fmt.Fprintf(&b, " (%s: %s", rc.Column, rc.Value)
	} else {
		fmt.Fprintf(&b, " (%s", rc.Value)
	}
	if u := unitOf(rc.Unit); u != "" {
		fmt.Fprintf(&b, " %s", u)
	}
	fmt.Fprintf(&b, ") [%d]", n)
	return b.String()
}

// answerCells is the ranked cell as the answer carries it.
func (rc *rankedCell) answerCells(n int) []kb.TableCell {
	cells := answerCells([]foundCell{rc.foundCell}, n)
	cells[0].Rank = rc.rank()
	return cells
}
