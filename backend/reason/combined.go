package reason

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"cairn/backend/analyze"
	"cairn/backend/formula"
	"cairn/backend/kb"
	"cairn/backend/lexicon"
	"cairn/backend/search"
	"cairn/backend/tables"
)

// A question that asks for the figures of several items it names added up
// ("How many posts did Harbourline, Skyward and Aerodyne make in total?")
// or taken one from the other ("How many more posts did Harbourline make
// than Skyward?") is answered from the one table that holds every item
// named and the measure named (tables.Combine): the sum or the difference
// worked out, each item's cell cited, as a figure the question defines is.

var (
	sumWords      = lexicon.English().Set("sum_words")
	moreThanWords = lexicon.English().Set("more_than_words")
	// fillerWords name the document or ask for all of something ("in the
	// paper", "in total"): no item, no measure.
	fillerWords = lexicon.English().Set("document_part_fillers")
)

// combineAsked reads whether a question asks for a sum (+1: a word of
// sum_words, or "in total") or a difference (-1: "how many" or "how much"
// then a comparative of more_than_words, then "than"); 0 for neither. The
// second result are the tokens that ask it, which name nothing in a table.
func combineAsked(toks []analyze.Token) (int, []string) {
	for i, t := range toks {
		if sumWords[t.Text] {
			return 1, []string{t.Text}
		}
		if t.Text == "total" && i > 0 && toks[i-1].Text == "in" {
			return 1, []string{"total"}
		}
	}
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].Text != "how" || toks[i+1].Text != "many" && toks[i+1].Text != "much" || !moreThanWords[toks[i+2].Text] {
			continue
		}
		for _, t := range toks[i+3:] {
			if t.Text == "than" {
				return -1, []string{"how", toks[i+1].Text, toks[i+2].Text, "than"}
			}
		}
	}
	return 0, nil
}

// combinedFigure works out the sum or the difference a question asks of
// the items it names in one table, among the tables of the best passages
// and of the passages that name every name the question names (the table
// listing the items holds them all, though the best passages, ranked by
// the graph too, may be about each alone); nil when it asks neither, or
// no table names the items and their measure (a question naming an item
// no table has is not answered from the others). A difference takes the
// item the question names first less the other, and is not taken between
// items when the question names two years. The passage of the table used
// joins the evidence.
func (u *run) combinedFigure(ctx context.Context, g *gathered) (*statedFigure, error) {
	op, asking := combineAsked(u.q.Tokens)
	if op == 0 || op < 0 && len(u.q.Years) >= 2 {
		// Two years named compare periods, not items: the change of
		// one row (the cells' own arithmetic).
		return nil, nil
	}
	all, at := u.evidenceTables(g.evidence)
	from := make([]kb.Hit, len(at))
	for i, e := range at {
		from[i] = g.evidence[e].Hit
	}
	named, err := u.passagesNamingAll(ctx)
	if err != nil {
		return nil, err
	}
	for _, h := range named {
		read := g.evidence[:min(len(g.evidence), maxCellPassages)]
		if slices.ContainsFunc(read, func(e Evidence) bool { return e.Hit.ID == h.ID }) || !strings.Contains(h.Text, " | ") {
			continue // its tables are read already, or it has none
		}
		for _, t := range u.tablesOf(h) {
			all = append(all, t)
			from = append(from, h)
		}
	}
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
	for _, t := range u.q.Tokens {
		if whichWords[t.Text] || fillerWords[t.Text] || t.Text == "how" || t.Text == "many" || t.Text == "much" {
			asking = append(asking, t.Text)
		}
	}
	for _, a := range asking {
		for _, w := range tableWords(a) {
			delete(q.Terms, w)
		}
	}
	// Only the sentence that asks: not the answer's form asked after it
	// ("Please write the answer in int format").
	if len(u.q.AskWords) > 0 {
		ask := map[string]bool{}
		for _, w := range u.q.AskWords {
			ask[w] = true
		}
		for w := range q.Terms {
			if !ask[w] {
				delete(q.Terms, w)
			}
		}
	}
	c, ok := tables.Combine(all, tableWords, q)
	if !ok {
		return nil, nil
	}
	items := c.Items
	if op < 0 {
		if len(items) != 2 {
			return nil, nil
		}
		if firstNamed(u.q.Text, items[1].Words) < firstNamed(u.q.Text, items[0].Words) {
			items = []tables.CombinedItem{items[1], items[0]}
		}
	}
	t := all[c.Table]
	ev := u.withEvidence(g, from[c.Table])
	sf := &statedFigure{figs: map[formula.Operand]float64{}}
	var expr *formula.Expr
	for _, it := range items {
		row := t.Rows[it.Row]
		leaf := &formula.Expr{Name: it.Name}
		sf.figs[formula.Operand{Name: it.Name}] = it.Number
		cell := tables.Cell{Table: c.Table, Row: it.Row, Col: it.Col, Label: row.Label, Section: row.Section, Column: t.Columns[it.Col],
			Unit: t.Stub, Value: it.Value, Number: it.Number}
		sf.cells = append(sf.cells, foundCell{Cell: cell, ev: ev, start: row.Start, end: row.End})
		sf.from = append(sf.from, g.evidence[ev])
		switch {
		case expr == nil:
			expr = leaf
		case op > 0:
			expr = &formula.Expr{Op: '+', L: expr, R: leaf}
		default:
			expr = &formula.Expr{Op: '-', L: expr, R: leaf}
		}
	}
	target := "Total of " + c.Measure
	if op < 0 {
		target = "Difference in " + c.Measure
	}
	sf.f = formula.Formula{Target: target, Expr: expr}
	if sf.value, err = expr.Eval(0, sf.figs); err != nil {
		return nil, nil
	}
	ft := &FormulaTrace{Target: target}
	for i, it := range items {
		ft.Found = append(ft.Found, fmt.Sprintf("%s: %s = %s (p. %d)", it.Name, c.Measure, it.Value, sf.from[i].Hit.PageStart))
	}
	u.trace.Formula = ft
	return sf, nil
}

// maxNamingPassages is how many passages naming every name of the
// question are read for a table of the items.
const maxNamingPassages = 3

// passagesNamingAll are the passages (best first by BM25, at most
// maxNamingPassages) that hold every name the question names (its
// anchors), when it names two or more; none otherwise.
func (u *run) passagesNamingAll(ctx context.Context) ([]kb.Hit, error) {
	if len(u.q.Anchors) < 2 {
		return nil, nil
	}
	var must []string
	for _, a := range u.q.Anchors {
		ts := search.MatchTerms(a)
		if len(ts) == 0 {
			continue
		}
		must = append(must, "("+strings.Join(ts, " AND ")+")")
	}
	if len(must) < 2 {
		return nil, nil
	}
	ids, err := u.r.Retriever.MatchProject(ctx, strings.Join(must, " AND "), search.DefaultSettings().ColumnWeights, maxNamingPassages)
	if err != nil {
		// Names the lexical index cannot take as a query add nothing.
		return nil, ctx.Err()
	}
	return u.chunkHits(ctx, ids)
}

// firstNamed is where in text the first of words (word keys, as
// tableWords makes them) stands, case aside; len(text) when none does.
func firstNamed(text string, words []string) int {
	low := strings.ToLower(text)
	at := len(text)
	for _, w := range words {
		if _, stem, ok := strings.Cut(w, ":"); ok {
			w = stem // a word key ("w:lakesid"): its stem
		}
		if i := strings.Index(low, w); i >= 0 && i < at {
			at = i
		}
	}
	return at
}
