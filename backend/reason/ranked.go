package reason

import (
	"context"
	"fmt"
	"strings"

	"cairn/backend/analyze"
	"cairn/backend/kb"
	"cairn/backend/lexicon"
	"cairn/backend/tables"
)

// A question that asks which item has the highest or lowest figure
// ("Which instrument had the highest notional value in 2021?") is answered
// by ranking the rows of the evidence table that names what it asks: the
// row with the highest (or lowest) figure in the year asked, the table's
// total left out, is the answer, cited by its row.

var (
	mostWords  = lexicon.English().Set("most_words")
	leastWords = lexicon.English().Set("least_words")
	whichWords = lexicon.English().Set("wh_words")
)

// minRankedCover is the least part of the question's words (by weight) a
// table's title, heads and labels must hold for its rows to be ranked.
const minRankedCover = 0.3

// namedRowShare is the part of a row's label (by weight) the question
// must say for the row to be one it names in full.
const namedRowShare = 0.99

// rankedCell is the row a ranking question asks for.
type rankedCell struct {
	foundCell
	most bool
	rows int // how many rows were ranked
}

// superlative reads whether a question asks which item has the most (+1)
// or the least (-1) of something: a wh-word and a superlative, the first
// superlative deciding ("brought in the most (or lost the least)"). 0 when
// it asks neither.
func superlative(toks []analyze.Token) int {
	wh := false
	for _, t := range toks {
		switch {
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
	all, from := evidenceTables(ev)
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
	// The words that ask for the ranking name nothing in a table.
	for _, t := range u.q.Tokens {
		if mostWords[t.Text] || leastWords[t.Text] || whichWords[t.Text] {
			for _, w := range tableWords(t.Text) {
				delete(q.Terms, w)
			}
		}
	}
	var total float64
	for w := range q.Terms {
		total += q.Weight(w)
	}
	best, bestCover := -1, minRankedCover
	var bestRank tables.Ranking
	for ti, t := range all {
		// A single row the question names in full is what it measures,
		// not an item (a statement's "Net income" row over periods):
		// such a table ranks nothing. Several are items among others.
		named := 0
		for _, row := range t.Rows {
			var said, all float64
			for _, w := range tableWords(row.Label) {
				all += q.Weight(w)
				if q.Terms[w] {
					said += q.Weight(w)
				}
			}
			if all > 0 && said >= namedRowShare*all {
				named++
			}
		}
		if named == 1 {
			continue
		}
		r, ok := tables.Rank(all, ti, q.Years, dir > 0, nil)
		if !ok {
			continue
		}
		held := map[string]bool{}
		text := t.Title + " " + strings.Join(t.Columns, " ") + " " + t.Stub
		for _, row := range t.Rows {
			text += " " + row.Label + " " + row.Section
		}
		for _, w := range tableWords(text) {
			held[w] = true
		}
		var hit float64
		for w := range q.Terms {
			if held[w] {
				hit += q.Weight(w)
			}
		}
		if cover := hit / total; cover > bestCover {
			best, bestCover, bestRank = ti, cover, r
		}
	}
	if best < 0 {
		return nil, nil
	}
	t := all[best]
	row := t.Rows[bestRank.Row]
	c := tables.Cell{Table: best, Row: bestRank.Row, Col: bestRank.Col, Label: row.Label, Section: row.Section, Column: t.Columns[bestRank.Col],
		Unit: t.Stub, Value: bestRank.Value, Number: bestRank.Number, Year: bestRank.Year}
	return &rankedCell{foundCell: foundCell{Cell: c, ev: from[best], start: row.Start, end: row.End}, most: dir > 0, rows: bestRank.Rows}, nil
}

// rank says where the row stands: "highest of 4 rows".
func (rc *rankedCell) rank() string {
	end := "lowest"
	if rc.most {
		end = "highest"
	}
	return fmt.Sprintf("%s of %d rows", end, rc.rows)
}

// text writes the ranked row as the answer's lead: its label, which end of
// how many rows it is, and its figure under its column.
func (rc *rankedCell) text(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s — the %s", rc.Label, rc.rank())
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
