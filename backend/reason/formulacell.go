package reason

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"cairn/backend/analyze"
	"cairn/backend/embed"
	"cairn/backend/formula"
	"cairn/backend/kb"
	"cairn/backend/lexicon"
	"cairn/backend/question"
	"cairn/backend/search"
	"cairn/backend/tables"
)

// A figure the question says how to compute ("Turnover is defined as:
// 2019 sales / (average assets between 2018 and 2019)"): each quantity of
// the formula is read from a table row in its year, found among the
// question's passages or by a search of its own (within the question's
// scope and routed documents), and the answer leads with the formula
// written out with every operand's figure and citation. Cairn computes;
// with a model too, the arithmetic is never the model's.

// operandPassages is how many passages each quantity's own search reads,
// quantityPassages how many of those that hold all its words.
const (
	operandPassages  = 8
	quantityPassages = 30
)

// jointRows is how many of each quantity's best rows the formula's
// figures are chosen among (for rows on one page).
const jointRows = 3

// minQuantityCover is the least part of a quantity's words (by weight) a
// row must name to be read for it.
const minQuantityCover = 0.7

// remainderWords say a row is what is left of a category ("Other current
// liabilities"; lexicon remainder_words).
var remainderWords = lexicon.English().Set("remainder_words")

// rowFacts are what orders the rows that may give a figure's operand.
type rowFacts struct {
	split      bool    // the year asked is split over several columns (quarters, segments)
	labelCover float64 // the share of the quantity (by word weight) the row's own label names
	named      float64 // the weight of the question's words naming the row's table
	headed     bool    // the label's head names the quantity (not only after a preposition)
	share      float64 // the share of the label (by word weight) that names the quantity
}

// before reports whether row a gives the operand before row b: a table
// that prints the year in one column; a row whose own label names more
// of the quantity (by more than rowShareSlack: "Total current assets"
// before the "Total" of a note on other current assets, "Total current
// liabilities" before "Changes in current assets and liabilities" of a
// statement whose title holds a word of the question); a row whose label
// and section give the quantity at least minOperandShare; a table the
// question names; a label whose head names the quantity ("Long-term
// debt, excluding current portion" before "Current portion of long-term
// debt"); a label that says least beyond the quantity.
func (a rowFacts) before(b rowFacts) bool {
	if a.split != b.split {
		return b.split
	}
	if math.Abs(a.labelCover-b.labelCover) > rowShareSlack {
		return a.labelCover > b.labelCover
	}
	if ra, rb := a.share >= minOperandShare, b.share >= minOperandShare; ra != rb {
		return ra
	}
	if a.named != b.named {
		return a.named > b.named
	}
	if a.headed != b.headed {
		return a.headed
	}
	return a.share > b.share+rowShareSlack
}

// remainderRow reports whether a row's label names what is left of a
// category (a remainder word the quantity's name does not hold): a part
// of the quantity, never the quantity itself.
func remainderRow(label, quantity string) bool {
	inName := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(quantity)) {
		inName[strings.Trim(w, ",.;:()")] = true
	}
	for _, w := range strings.Fields(strings.ToLower(label)) {
		w = strings.Trim(w, ",.;:()")
		if remainderWords[w] && !inName[w] {
			return true
		}
	}
	return false
}

// labelPrepositions end the head of a row label: the words after one say
// what the head is of, from or for ("Cost of sales" is a cost).
var labelPrepositions = lexicon.English().Set("prepositions")

// headNames reports whether a row label's head, its words before the
// first preposition, holds a word of terms.
func headNames(label string, terms map[string]bool) bool {
	fields := strings.Fields(strings.ToLower(label))
	for i, f := range fields {
		if labelPrepositions[strings.Trim(f, ",.;:()")] {
			fields = fields[:i]
			break
		}
	}
	for _, w := range tableWords(strings.Join(fields, " ")) {
		if terms[w] {
			return true
		}
	}
	return false
}

// minOperandShare is the least share of its label and section (by word
// weight) a row must give the quantity to be read before one that gives
// more, whatever table the question names: a row filed under another
// heading ("Deferred revenues" under "Changes in operating assets and
// liabilities") is a change of the quantity, not the quantity.
const minOperandShare = 0.2

// rowShareSlack is how much less of its label a row may name than
// another's and still rank as naming the quantity alike.
const rowShareSlack = 0.1

// minQuantityShare is the least part of a row's label the quantity must
// name ("cash from operations" names little of "Net cash provided by
// operating activities", but all of its own words are there).
const minQuantityShare = 0.01

// partialFormula is a formula the question asks whose quantities the
// tables give only in part: what they give (each quantity's best row) and
// what no row gives, for the evidence text.
type partialFormula struct {
	target  string
	names   []string // its quantities, in the formula's order
	found   []partialRow
	missing []string
}

// partialRow is a quantity's figure in one year, from its best row.
type partialRow struct {
	name string
	year int
	cell foundCell
	from Evidence
}

// partialOf is the partial formula of quantities names (their years, and
// the rows found for each; none for a missing one).
func partialOf(target string, names []string, years map[string][]int, cands [][]rowChoice) *partialFormula {
	p := &partialFormula{target: target, names: names}
	for i, name := range names {
		if len(cands[i]) == 0 {
			p.missing = append(p.missing, name)
			continue
		}
		rc := cands[i][0]
		for j, c := range rc.cells {
			y := 0
			if j < len(years[name]) {
				y = years[name][j]
			}
			p.found = append(p.found, partialRow{name: name, year: y, cell: c, from: rc.from[j]})
		}
	}
	return p
}

// text says what the tables give of the formula and what none gives,
// citing each row from n on ("[n]"), and the citations.
func (p *partialFormula) text(n int) (string, []kb.Citation) {
	var b strings.Builder
	var cits []kb.Citation
	target := p.target
	if f := strings.Fields(target); len(f) > 0 && strings.ToUpper(f[0]) != f[0] {
		target = strings.ToLower(target[:1]) + target[1:] // "Fixed asset turnover", not "DPO"
	}
	names := p.names
	if len(names) > 2 {
		names = []string{strings.Join(names[:len(names)-1], ", "), names[len(names)-1]}
	}
	fmt.Fprintf(&b, "The %s is worked out from %s", target, strings.Join(names, " and "))
	if len(p.found) > 0 {
		b.WriteString("; the tables give ")
		for i, r := range p.found {
			if i > 0 {
				b.WriteString("; ")
			}
			name := r.name
			if r.year != 0 {
				name = fmt.Sprintf("%s %d", r.name, r.year)
			}
			fmt.Fprintf(&b, "%s: %s (%s, %s) [%d]", name, r.cell.Value, r.cell.Label, r.cell.Column, n+i)
			c := citation(r.from, r.cell.start, r.cell.end)
			c.N = n + i
			cits = append(cits, c)
		}
	}
	fmt.Fprintf(&b, "; no table row gives %s, so it was not worked out. ", strings.Join(p.missing, " or "))
	return b.String(), cits
}

// statedFigure is a computed figure and its operands, each cited.
type statedFigure struct {
	f     formula.Formula
	year  int
	value float64
	figs  map[formula.Operand]float64
	cells []foundCell // one per operand, in the formula's order
	from  []Evidence  // the passage of each cell
}

// statedFormula computes the figure the question defines, when every
// quantity of its formula is found in a table (nil otherwise).
func (u *run) statedFormula(ctx context.Context, ev []Evidence) (*statedFigure, error) {
	f, ok := formula.Parse(u.q.Text)
	if !ok {
		// Or the one its wording states ("X as a % of Y", "the
		// 3 year average of X").
		if f, ok = formula.AskedFormula(u.q.Text); !ok {
			return nil, nil
		}
	}
	u.formulaAsked = true
	year := 0
	for _, y := range u.q.Years {
		year = max(year, y)
	}
	ops := f.Expr.Operands(year)
	// Each quantity's years are read from one row.
	var names []string
	years := map[string][]int{}
	for _, op := range ops {
		if years[op.Name] == nil {
			names = append(names, op.Name)
		}
		years[op.Name] = append(years[op.Name], op.Year)
	}
	found := map[formula.Operand]int{}
	sf := &statedFigure{f: f, year: year, figs: map[formula.Operand]float64{}}
	ft := &FormulaTrace{Target: f.Target}
	u.trace.Formula = ft
	// A quantity missed is looked for again once the others' searches
	// have found their tables (one statement holds most of them).
	cands := make([][]rowChoice, len(names))
	for pass := 0; pass < 2; pass++ {
		for i, name := range names {
			if cands[i] != nil {
				continue
			}
			rows, err := u.quantityRows(ctx, name, years[name], ev)
			if err != nil {
				return nil, err
			}
			cands[i] = rows
		}
	}
	for i, name := range names {
		if len(cands[i]) > 0 || u.mentioned[name] {
			u.operandsFound = append(u.operandsFound, name)
		}
	}
	for i, name := range names {
		if len(cands[i]) == 0 {
			ft.Missing = name
			u.partial = partialOf(f.Target, names, years, cands)
			return nil, nil
		}
	}
	// A formula's figures are read from one statement where they can be:
	// each quantity's row is, among its best few, the first on the page
	// where most of the quantities have one of theirs.
	namesOn := map[[2]int64]map[int]bool{}
	for i, rows := range cands {
		for _, rc := range rows[:min(len(rows), jointRows)] {
			p := rc.page()
			if namesOn[p] == nil {
				namesOn[p] = map[int]bool{}
			}
			namesOn[p][i] = true
		}
	}
	// A row that names the quantity less well than the best is not taken
	// for the page ("Total current liabilities" on the page of the other
	// operands is not "total liabilities" printed a page further on, nor
	// "Deferred revenues" beside the capital expenditures "Total net
	// revenues").
	for i, name := range names {
		best := cands[i][0]
		for _, rc := range cands[i][1:min(len(cands[i]), jointRows)] {
			if rc.fit < cands[i][0].fit-1e-9 {
				continue
			}
			if len(namesOn[rc.page()]) > len(namesOn[best.page()]) {
				best = rc
			}
		}
		for j, c := range best.cells {
			ft.Found = append(ft.Found, fmt.Sprintf("%s %d: %s = %s, %s (p. %d)", name, years[name][j], c.Label, c.Value, c.Column, best.from[j].Hit.PageStart))
			op := formula.Operand{Name: name, Year: years[name][j]}
			found[op] = len(sf.cells)
			// Statements print outflows in parentheses; a definition
			// names the quantity ("capital spending"): its size is taken.
			sf.figs[op] = math.Abs(c.Number)
			sf.cells = append(sf.cells, c)
			sf.from = append(sf.from, best.from[j])
		}
	}
	v, err := f.Expr.Eval(year, sf.figs)
	if err != nil {
		return nil, nil
	}
	sf.value = v
	// The cells in the formula's order.
	cells, from := make([]foundCell, len(ops)), make([]Evidence, len(ops))
	for i, op := range ops {
		cells[i], from[i] = sf.cells[found[op]], sf.from[found[op]]
	}
	sf.cells, sf.from = cells, from
	return sf, nil
}

// quantityRows finds the rows that name a quantity, best first, with
// their cells in the years given (one per year, in order), among the
// tables of the question's passages and of a search for the quantity:
// the rows that have every year, else the best row for each year. An
// acronym in the name ("PP&E") is read as the words of a row label it
// spells. A name no row prints is read in its WordNet synonyms
// (quantityVariants), the first one a row's label says; the trace
// records which (read_as).
func (u *run) quantityRows(ctx context.Context, name string, years []int, ev []Evidence) ([]rowChoice, error) {
	rows, err := u.quantityRowsNamed(ctx, name, years, ev, minQuantityCover)
	if err != nil || len(rows) > 0 || u.q.Lang != "en" {
		return rows, err
	}
	// No row prints it in the question's words: the words a document may
	// use for it instead, by WordNet ("capital spending"). A synonym is a
	// guess: the row's own label must say it, its words together ("net
	// income" is not "Income taxes, net of refunds").
	variants := quantityVariants(name)
	var words []string
	for _, v := range variants {
		words = append(words, tableWords(v)...)
	}
	held, err := u.r.Retriever.TermStats(ctx, words)
	if err != nil {
		return nil, err
	}
	for _, v := range variants {
		if slices.ContainsFunc(tableWords(v), func(w string) bool { return held.DF[w] == 0 }) {
			continue // a word no passage holds: no row says it
		}
		rows, err := u.quantityRowsNamed(ctx, v, years, ev, 1)
		if err != nil {
			return nil, err
		}
		if len(rows) > 0 {
			u.trace.ReadAs = append(u.trace.ReadAs, ReadAs{Name: name, As: v})
			return rows, nil
		}
	}
	return nil, nil
}

// maxQuantityVariants is how many synonyms of a figure's name are tried.
const maxQuantityVariants = 4

// quantityVariants are other names of a figure, from WordNet's first
// sense (lexicon.Synonyms): the whole name's synonyms of as many words or
// more ("net profit": "net income"; a one-word name takes one-word
// synonyms too), then the name with its last word, the head noun, put in
// another word for it ("capital expenditure": "capital spending", "net
// profit": "net earnings"; not one that repeats a word of the name). No
// variant that holds a digit or stems like the name or one before it; at
// most maxQuantityVariants.
func quantityVariants(name string) []string {
	words := strings.Fields(strings.ToLower(name))
	if len(words) == 0 {
		return nil
	}
	own := map[string]bool{}
	for _, w := range words {
		own[w] = true
	}
	seen := map[string]bool{strings.Join(embed.Words(name), " "): true}
	var out []string
	add := func(v string) {
		key := strings.Join(embed.Words(v), " ")
		if len(out) < maxQuantityVariants && !seen[key] && !strings.ContainsAny(v, "0123456789") {
			seen[key] = true
			out = append(out, v)
		}
	}
	repeats := func(syn string) bool {
		for _, w := range strings.Fields(syn) {
			if own[w] {
				return true
			}
		}
		return false
	}
	for _, s := range lexicon.Synonyms(strings.Join(words, " ")) {
		if len(strings.Fields(s)) >= min(len(words), 2) {
			add(s)
		}
	}
	if len(words) > 1 {
		head, lead := words[len(words)-1], strings.Join(words[:len(words)-1], " ")
		for _, s := range lexicon.Synonyms(head) {
			if !strings.Contains(s, " ") && !repeats(s) {
				add(lead + " " + s)
			}
		}
	}
	return out
}

// quantityRowsNamed is quantityRows for the name as given, a row naming
// at least minCover of its words (by weight); with 1, its label itself
// says the name, its words one after another.
func (u *run) quantityRowsNamed(ctx context.Context, name string, years []int, ev []Evidence, minCover float64) ([]rowChoice, error) {
	asked := name
	q := name
	for _, y := range years {
		if y != 0 {
			q = fmt.Sprintf("%s %d", name, y)
			break
		}
	}
	res, err := u.r.Retriever.Retrieve(ctx, question.New(q), operandPassages)
	if err != nil {
		return nil, err
	}
	pool := append([]Evidence(nil), ev[:min(len(ev), maxCellPassages)]...)
	seen := map[int64]bool{}
	for _, e := range pool {
		seen[e.Hit.ID] = true
	}
	var all []tables.Table
	var from []int // the pool passage of each table
	addHits := func(hits []kb.Hit) {
		for _, h := range hits {
			if !seen[h.ID] {
				seen[h.ID] = true
				pool = append(pool, Evidence{N: len(pool) + 1, Hit: h})
			}
		}
	}
	parsed := 0
	parse := func() {
		for ; parsed < len(pool); parsed++ {
			e := pool[parsed]
			if !strings.Contains(e.Hit.Text, " | ") {
				continue
			}
			ts := u.tablesOf(e.Hit)
			if len(ts) == 0 {
				continue
			}
			// A table split between two passages is read whole: its
			// part here ends in no total, the next passage is read too.
			if next, ok, err := u.continuation(ctx, e.Hit); err == nil && ok {
				ts[len(ts)-1].GoesOn = true
				addHits([]kb.Hit{next})
			}
			for _, t := range ts {
				all = append(all, t)
				from = append(from, parsed)
			}
		}
	}
	addHits(res.Hits)
	// The tables other quantities of the question were found in.
	addHits(u.quantityHits)
	parse()
	defer func() {
		for _, e := range pool[min(len(pool), maxCellPassages):] {
			if strings.Contains(e.Hit.Text, " | ") && !slices.ContainsFunc(u.quantityHits, func(h kb.Hit) bool { return h.ID == e.Hit.ID }) {
				u.quantityHits = append(u.quantityHits, e.Hit)
			}
		}
	}()
	// The name with its acronyms spelled out by the labels seen; then the
	// passages that hold all its words (a statement's row is one line
	// among many: a search for the phrase may rank its passage low).
	name = spelled(name, all)
	if must := search.MatchTerms(name); len(must) > 0 {
		// All of its words; and all of them with any other word of the
		// question, headings weighing most (the statement the question
		// names).
		in := map[string]bool{}
		for _, t := range must {
			in[t] = true
		}
		var rest []string
		for _, t := range search.MatchTermsOf(u.q.Tokens) {
			if !in[t] {
				rest = append(rest, t)
			}
		}
		matches := []string{strings.Join(must, " AND ")}
		if len(rest) > 0 {
			matches = append(matches, "("+strings.Join(must, " AND ")+") AND ("+strings.Join(rest, " OR ")+")")
		}
		var ids []int64
		for i, m := range matches {
			w := search.DefaultSettings().ColumnWeights
			if i == 1 {
				w[1] *= 4
			}
			found, err := u.r.Retriever.Match(ctx, m, w, quantityPassages)
			if err != nil {
				return nil, ctx.Err()
			}
			if i == 0 && len(found) > 0 {
				if u.mentioned == nil {
					u.mentioned = map[string]bool{}
				}
				u.mentioned[asked] = true
			}
			for _, id := range found {
				if !seen[id] {
					seen[id] = true
					ids = append(ids, id)
				}
			}
		}
		for _, id := range ids {
			delete(seen, id)
		}
		hits, err := u.chunkHits(ctx, ids)
		if err != nil {
			return nil, err
		}
		addHits(hits)
		parse()
	}
	if len(all) == 0 {
		return nil, nil
	}
	query, err := u.wordQuery(ctx, name, all)
	if err != nil || len(query.Terms) == 0 {
		return nil, err
	}
	for _, y := range years {
		if y != 0 {
			query.Years = append(query.Years, y)
		}
	}
	// The row must name most of the quantity; the question's other words
	// may name the table ("the balance sheet").
	query.MinCover, query.MinShare = minCover, minQuantityShare
	query.Context = map[string]bool{}
	for _, w := range u.q.Words {
		query.Context[w] = true
	}
	// The words that name a document (its company: "Acme Corp —
	// Form 10-K") name none of its tables, though statements print it
	// above their title.
	for _, e := range pool {
		for _, w := range tableWords(e.Hit.DocTitle + " " + e.Hit.IndexTitle) {
			delete(query.Context, w)
		}
	}
	cells := tables.Lookup(query, all, tableWords)
	if len(cells) == 0 && len(query.Years) > 0 {
		// A row that names it in a table without those years prints
		// the figures of a row of one with them: the passages that
		// print its figures are read too, and the row found by them.
		anyYear := query
		anyYear.Years = nil
		if named := tables.Lookup(anyYear, all, tableWords); len(named) > 0 {
			if expr := figuresMatch(all[named[0].Table].Rows[named[0].Row].Cells); expr != "" {
				ids, err := u.r.Retriever.Match(ctx, expr, search.DefaultSettings().ColumnWeights, quantityPassages)
				if err != nil {
					return nil, ctx.Err()
				}
				var fresh []int64
				for _, id := range ids {
					if !seen[id] {
						fresh = append(fresh, id)
					}
				}
				hits, err := u.chunkHits(ctx, fresh)
				if err != nil {
					return nil, err
				}
				addHits(hits)
				parse()
			}
		}
		cells = tables.Bridge(query, all, tableWords)
	}
	if minCover >= 1 {
		// the name's words in the row's own label, one after another
		// ("Net earnings including …" for "net earnings"; not "State
		// income taxes, net of …" for "net income")
		phrase := tableWords(name)
		cells = slices.DeleteFunc(cells, func(c tables.Cell) bool {
			label := tableWords(c.Label)
			for i := 0; i+len(phrase) <= len(label); i++ {
				if slices.Equal(label[i:i+len(phrase)], phrase) {
					return false
				}
			}
			return true
		})
	}
	if len(query.Terms) == 1 {
		// A one-word quantity named only after a preposition of the label
		// is what the row is of or from, not the row ("Cost of sales",
		// "Proceeds from sale of investments" are no sales).
		cells = slices.DeleteFunc(cells, func(c tables.Cell) bool { return !headNames(c.Label, query.Terms) })
	}
	if len(cells) == 0 {
		return nil, nil
	}
	type rowKey struct{ t, r int }
	byRow := map[rowKey]map[int]tables.Cell{}
	var order []rowKey
	for _, c := range cells {
		k := rowKey{c.Table, c.Row}
		if byRow[k] == nil {
			byRow[k] = map[int]tables.Cell{}
			order = append(order, k)
		}
		if _, ok := byRow[k][c.Year]; !ok {
			byRow[k][c.Year] = c
		}
	}
	// Rows of a table the question names ("the balance sheet": words of
	// its title beyond the quantity's own) come first. When the question
	// names a part of the document ("in the income statement"), only
	// that phrase's words name the table: its other words ("information",
	// "year") are in many tables' titles.
	naming := query.Context
	if _, part := tableNaming(u.q.Tokens); len(part) > 0 {
		naming = part
	}
	named := make([]float64, len(all))
	for i, t := range all {
		in := map[string]bool{}
		for _, w := range tableWords(t.Title) {
			if naming[w] && !query.Terms[w] && !in[w] {
				in[w] = true
				named[i] += query.Weight(w)
			}
		}
	}
	// Then the row whose label says least beyond the quantity (its share
	// by the project's word weights: "Total revenues" over "Revenues from
	// other segments").
	share := func(k rowKey) float64 {
		if remainderRow(all[k.t].Rows[k.r].Label, name) {
			return 0
		}
		var hit, total float64
		seen := map[string]bool{}
		row := all[k.t].Rows[k.r]
		for _, w := range tableWords(row.Label + " " + row.Section) {
			if seen[w] {
				continue
			}
			seen[w] = true
			v := query.Weight(w)
			total += v
			if query.Terms[w] {
				hit += v
			}
		}
		if total == 0 {
			return 0
		}
		return hit / total
	}
	// How much of the quantity (by word weight) the row's own label names.
	labelCover := func(k rowKey) float64 {
		var hit, total float64
		in := map[string]bool{}
		for _, w := range tableWords(all[k.t].Rows[k.r].Label) {
			in[w] = true
		}
		for w := range query.Terms {
			total += query.Weight(w)
			if in[w] {
				hit += query.Weight(w)
			}
		}
		if total == 0 {
			return 0
		}
		return hit / total
	}
	headed := func(k rowKey) bool { return headNames(all[k.t].Rows[k.r].Label, query.Terms) }
	// A year asked alone is the year's figure: a table that prints it in
	// one column before one that splits it (quarters, segments). Not when
	// the question names a quarter or part of a year.
	split := func(k rowKey) bool {
		if u.q.NamesQuarter || u.q.NamesPartYear {
			return false
		}
		for _, y := range years {
			if y != 0 && all[k.t].YearColumns(y) > 1 {
				return true
			}
		}
		return false
	}
	facts := map[rowKey]rowFacts{}
	for _, k := range order {
		facts[k] = rowFacts{split: split(k), labelCover: labelCover(k), named: named[k.t], headed: headed(k), share: share(k)}
	}
	sort.SliceStable(order, func(i, j int) bool { return facts[order[i]].before(facts[order[j]]) })
	// The total a part adds up to, when it names all the part names of
	// the quantity ("Total assets" is no total of "Total current
	// assets" for current assets).
	namesAll := func(total, part rowKey) bool {
		in := map[string]bool{}
		for _, w := range tableWords(all[total.t].Rows[total.r].Label) {
			in[w] = true
		}
		for _, w := range tableWords(all[part.t].Rows[part.r].Label) {
			if query.Terms[w] && !in[w] {
				return false
			}
		}
		return true
	}
	order = totalsFirst(order, func(k rowKey) (int, int) { return k.t, k.r }, func(total, part rowKey) bool {
		return all[total.t].Sums(total.r) && namesAll(total, part)
	})
	pick := func(k rowKey, y int) (tables.Cell, bool) {
		c, ok := byRow[k][y]
		return c, ok
	}
	// Candidates: each row that has every year, in order; else one
	// made of the best row for each year.
	var out []rowChoice
	choice := func(cs []tables.Cell) rowChoice {
		var rc rowChoice
		for _, c := range cs {
			r := all[c.Table].Rows[c.Row]
			rc.cells = append(rc.cells, foundCell{Cell: c, ev: from[c.Table], start: r.Start, end: r.End})
			rc.from = append(rc.from, pool[from[c.Table]])
		}
		return rc
	}
	for _, k := range order {
		var cs []tables.Cell
		for _, y := range years {
			if c, ok := pick(k, y); ok {
				cs = append(cs, c)
			}
		}
		if len(cs) == len(years) {
			rc := choice(cs)
			rc.fit = share(k)
			out = append(out, rc)
		}
	}
	if len(out) > 0 {
		return out, nil
	}
	var cs []tables.Cell
	for _, y := range years {
		ok := false
		for _, k := range order {
			if c, has := pick(k, y); has {
				cs = append(cs, c)
				ok = true
				break
			}
		}
		if !ok {
			return nil, nil
		}
	}
	return []rowChoice{choice(cs)}, nil
}

// maxMatchedFigures is how many of a row's figures the search for the
// passages that print them asks for.
const maxMatchedFigures = 3

// figuresMatch is a search for the passages that print a row's telling
// figures (a decimal or three digits: "460.8", "1,577"), each as the
// phrase of its digit groups, all of them required; "" when the row has
// fewer than two.
func figuresMatch(cells []string) string {
	var parts []string
	for _, c := range cells {
		v, ok := tables.Number(c)
		if !ok || tables.IsYear(c) || math.Abs(v) < 100 && v == math.Trunc(v) {
			continue
		}
		var digits []string
		for _, t := range analyze.Tokens(c) {
			digits = append(digits, t.Text)
		}
		if len(digits) == 0 {
			continue
		}
		parts = append(parts, `"`+strings.Join(digits, " ")+`"`)
		if len(parts) == maxMatchedFigures {
			break
		}
	}
	if len(parts) < 2 {
		return ""
	}
	return strings.Join(parts, " AND ")
}

// rowChoice is a row read for a quantity: its cell in each year asked,
// and the passage of each.
type rowChoice struct {
	cells []foundCell
	from  []Evidence
	// fit is the part of the row's label the quantity names (by word
	// weight; 0 for a remainder row or cells gathered from several rows).
	fit float64
}

// page is where the row's first cell stands (document and page).
func (rc rowChoice) page() [2]int64 {
	h := rc.from[0].Hit
	return [2]int64{h.DocID, int64(h.PageStart)}
}

// spelled writes a quantity's name with each acronym replaced by the
// words of a row label it spells ("PP&E" → "property, plant and
// equipment"), and each clipped compound no label holds by the two words
// of a label it is clipped from ("capex" → "capital expenditures"), when a
// label of the tables does; a word no label holds, by a label's word of
// its family ("accrual" → "accrued", tables.Kindred).
func spelled(name string, ts []tables.Table) string {
	words := strings.Fields(name)
	inLabels, inStems := map[string]bool{}, map[string]bool{}
	for _, t := range ts {
		for _, r := range t.Rows {
			for _, w := range strings.Fields(strings.ToLower(r.Label)) {
				inLabels[strings.Trim(w, ",.;:()")] = true
			}
			for _, w := range tableWords(r.Label) {
				inStems[w] = true
			}
		}
	}
	find := func(expand func(string) string) string {
		for _, t := range ts {
			for _, r := range t.Rows {
				if s := expand(r.Label); s != "" {
					return s
				}
			}
		}
		return ""
	}
	for i, w := range words {
		var expand, kin func(string) string
		switch {
		case tables.IsAcronym(w):
			expand = func(label string) string { return tables.Spell(w, label, analyze.IsStop) }
		case len(w) >= minClipped && isLetters(w) && !inLabels[strings.ToLower(w)]:
			expand = func(label string) string { return tables.Unclip(w, label) }
			if ws := tableWords(w); len(ws) == 1 && !inStems[ws[0]] {
				kin = func(label string) string { return tables.Kindred(w, label) }
			}
		default:
			continue
		}
		s := find(expand)
		if s == "" && kin != nil {
			s = find(kin)
		}
		if s != "" {
			words[i] = s
		}
	}
	return strings.Join(words, " ")
}

// minClipped is the shortest word read as a clipped compound ("capex").
const minClipped = 4

// isLetters reports whether s is letters only.
func isLetters(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return s != ""
}

// wordQuery is a phrase as tables.Lookup reads it, its words weighed by
// their inverse document frequency among the project's passages.
func (u *run) wordQuery(ctx context.Context, phrase string, ts []tables.Table) (tables.Query, error) {
	q := tables.Query{Terms: map[string]bool{}}
	words := tableWords(phrase)
	for _, w := range words {
		if !tables.IsYear(w) {
			q.Terms[w] = true
		}
	}
	seen := map[string]bool{}
	for _, w := range words {
		seen[w] = true
	}
	for _, t := range ts {
		for _, r := range t.Rows {
			for _, w := range tableWords(r.Label + " " + r.Section) {
				if !seen[w] {
					seen[w] = true
					words = append(words, w)
				}
			}
		}
		for _, c := range t.Columns {
			for _, w := range tableWords(c) {
				if !seen[w] {
					seen[w] = true
					words = append(words, w)
				}
			}
		}
	}
	terms, err := u.r.Retriever.TermStats(ctx, words)
	if err != nil {
		return q, err
	}
	q.Weight = terms.PlainIDF
	return q, nil
}

// percentRE finds a question that asks for a percentage.
var percentRE = regexp.MustCompile(`(?i)%|\bpercent(?:age)?s?\b`)

// text writes the figure's line (formulaLine), then each operand's row
// with its citation (citations numbered from n).
func (sf *statedFigure) text(question string, n int) string {
	var b strings.Builder
	b.WriteString(sf.formulaLine(question))
	b.WriteString(". From the tables: ")
	for i, c := range sf.cells {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s", c.Label)
		if c.Via != "" {
			fmt.Fprintf(&b, " (the figures of %q in another table)", c.Via)
		}
		if c.Column != "" {
			fmt.Fprintf(&b, ", %s", c.Column)
		}
		fmt.Fprintf(&b, ": %s", c.Value)
		if u := unitOf(c.Unit); u != "" {
			fmt.Fprintf(&b, " %s", u)
		}
		fmt.Fprintf(&b, " [%d]", n+i)
	}
	b.WriteString(".")
	return b.String()
}

// formulaLine is the formula worked out, exactly as the answer's text
// leads with it and as its Formula field states it (the Ask view shows
// the field only when the text does not hold it): the figure's name and
// year, each operand's figure, the result, the result as a percentage when
// the question asks for one, and an amount in the scale the question asks.
func (sf *statedFigure) formulaLine(question string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s", sf.f.Target)
	if sf.year != 0 && !strings.Contains(sf.f.Target, fmt.Sprint(sf.year)) {
		fmt.Fprintf(&b, " %d", sf.year)
	}
	fmt.Fprintf(&b, " = %s = %s", sf.f.Expr.Text(sf.year, sf.figs, figure), precise(sf.value))
	if percentRE.MatchString(question) && sf.f.Expr.Divides() {
		fmt.Fprintf(&b, " (%s %%)", precise(100*sf.value))
	}
	// An amount (no ratio) in the scale the question asks, when its
	// operands share the one their tables state.
	if asked := askedScale(question); asked != 0 && !sf.f.Expr.Divides() {
		scale := sf.cells[0].Scale
		for _, c := range sf.cells {
			if c.Scale != scale {
				scale = 0
			}
		}
		if scale != 0 && scale != asked {
			fmt.Fprintf(&b, " (= %s %s)", figure(sf.value*scale/asked), tables.ScaleName(asked))
		}
	}
	return b.String()
}

// precise prints a computed figure: two decimals, or four below 1 (a
// ratio of 0.0123 keeps its digits).
func precise(v float64) string {
	if math.Abs(v) < 1 && v != 0 {
		return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", v), "0"), ".")
	}
	return figure(v)
}

// citations cites each operand's row, numbered from n.
func (sf *statedFigure) citations(n int) []kb.Citation {
	out := make([]kb.Citation, len(sf.cells))
	for i, c := range sf.cells {
		cit := citation(sf.from[i], c.start, c.end)
		cit.N = n + i
		out[i] = cit
	}
	return out
}

// answerCells are the operands as the answer carries them.
func (sf *statedFigure) answerCells(n int) []kb.TableCell {
	out := make([]kb.TableCell, len(sf.cells))
	for i, c := range sf.cells {
		out[i] = kb.TableCell{N: n + i, Row: c.Label, Section: c.Section, Column: c.Column, Unit: unitOf(c.Unit), Value: c.Value, Number: c.Number, Year: c.Year, Via: c.Via}
	}
	return out
}

// figureLead is what a figure leads the answer with, citations numbered
// from n: the stated formula's result when the question defines one and
// all its operands were found, else the cells of the row the question
// names; ok is false when there is neither.
func figureLead(question string, g *gathered, n int) (text string, cits []kb.Citation, cells []kb.TableCell, formula string, ok bool) {
	if sf := g.stated; sf != nil {
		return sf.text(question, n), sf.citations(n), sf.answerCells(n), sf.formulaLine(question), true
	}
	if rc := g.ranked; rc != nil {
		return rc.text(n), []kb.Citation{cellCitation([]foundCell{rc.foundCell}, g.evidence, n)}, rc.answerCells(n), "", true
	}
	if len(g.cells) > 0 {
		return cellText(g.cells, n, askedScale(question)), []kb.Citation{cellCitation(g.cells, g.evidence, n)}, answerCells(g.cells, n), cellFormula(g.cells), true
	}
	return "", nil, nil, "", false
}

// totalsFirst puts before each candidate row the candidate of the same
// table that adds it up (sums: the sum of the rows right above it, at
// most tables.maxSummedRows below the part): "Net earnings including
// noncontrolling interests" before "Net earnings from continuing
// operations", of which it is the sum. Rows of other tables keep their
// order: a total elsewhere is no total of this row. at gives a
// candidate's table and row.
func totalsFirst[K comparable](order []K, at func(K) (int, int), totalOf func(total, part K) bool) []K {
	out := make([]K, 0, len(order))
	done := map[K]bool{}
	for _, k := range order {
		if done[k] {
			continue
		}
		t, r := at(k)
		for _, k2 := range order {
			t2, r2 := at(k2)
			if !done[k2] && t2 == t && r2 > r && r2-r <= tables.MaxSummedRows && totalOf(k2, k) {
				out = append(out, k2)
				done[k2] = true
				break
			}
		}
		out = append(out, k)
		done[k] = true
	}
	return out
}
