package reason

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"cairn/backend/analyze"
	"cairn/backend/answerspan"
	"cairn/backend/embed"
	"cairn/backend/formula"
	"cairn/backend/kb"
	"cairn/backend/lexicon"
	"cairn/backend/search"
	"cairn/backend/tables"
)

// A figure read from a table: the offline answer to a question that names
// a table's row (and column group) and a period ("the FY2018 purchases of
// property, plant and equipment") is the cell itself, cited by its row,
// ahead of the sentences that match the question. Passages keep tables as
// rows of cells; tables.Parse reads them back, tables.Lookup finds the
// cell, with the question's words weighted by their rarity in the project.

// maxCellPassages is how many of the best passages are read for tables.
const maxCellPassages = 8

// tableCells finds the cells the question asks for in the table rows of
// the best passages: the best row, in each year the question names. Each
// cell comes with the passage it is in and its row's span there.
func (u *run) tableCells(ctx context.Context, g *gathered) ([]foundCell, error) {
	all, from := u.evidenceTables(g.evidence)
	if len(all) == 0 || asksForThings(u.q.Kind, all) {
		return nil, nil
	}
	all, from, more, err := u.withContinuations(ctx, g.evidence, all, from)
	if err != nil {
		return nil, err
	}
	q, err := u.cellQuery(ctx, all)
	if err != nil || len(q.Terms) == 0 {
		return nil, err
	}
	cells := tables.Lookup(q, all, tableWords)
	if len(cells) == 0 {
		return nil, nil
	}
	// The best row, in each year asked (in the question's order).
	best := cells[0]
	var out []foundCell
	for _, c := range cells {
		if c.Table == best.Table && c.Row == best.Row {
			r := all[c.Table].Rows[c.Row]
			ev := from[c.Table]
			if ev < 0 {
				ev = u.withEvidence(g, more[-1-ev])
			}
			out = append(out, foundCell{Cell: c, ev: ev, start: r.Start, end: r.End})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Year < out[j].Year })
	return out, nil
}

// asksForThings reports whether a question asks for instances of a
// plural noun ("What factors can affect the supply chain?", "What risks
// did it disclose?") that no row of the tables is labelled with: things
// the text names, not one figure of a row that shares its other words.
func asksForThings(k answerspan.Question, ts []tables.Table) bool {
	if k.Kind != answerspan.Thing || !asksForList(k) {
		return false
	}
	focus := tableWords(k.Focus)
	if len(focus) == 0 {
		return false
	}
	for _, t := range ts {
		for _, r := range t.Rows {
			if slices.Contains(tableWords(r.Label), focus[len(focus)-1]) {
				return false
			}
		}
	}
	return true
}

// askedCells finds the figure a question asks by name and states no
// formula for ("What was the 2019 total of accounts payable?"): the name
// is read as a quantity of its own (formula.Asked) and its row searched
// for in the question's scope (quantityRows), not only among the best
// passages, in each year the question names (the first column when it
// names none). The passages of the cells join the evidence.
func (u *run) askedCells(ctx context.Context, g *gathered) ([]foundCell, error) {
	name, ok := formula.Asked(u.q.Text)
	if !ok {
		return nil, nil
	}
	years := slices.Clone(u.q.Years)
	if len(years) == 0 {
		years = []int{0}
	}
	rows, err := u.quantityRows(ctx, name, years, g.evidence)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	rc := rows[0]
	out := make([]foundCell, len(rc.cells))
	for i, c := range rc.cells {
		c.ev = u.withEvidence(g, rc.from[i].Hit)
		out[i] = c
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Year < out[j].Year })
	return out, nil
}

// scaleLookBack is how many passages before a cell's the scale of its
// table is sought in.
const scaleLookBack = 3

// statedScales gives the cells whose table states no scale the one
// written above it: a statement continued from an earlier passage has
// its "(in millions)" on the lines before its header, in the passage
// before under the same heading. The first scale found, nearest first,
// in the cell's own passage (not its table's rows) or such a passage.
//
// When nothing above the table states one, and the question asks for the
// figure in a scale, the cell takes the scale the document's other tables
// state (documentScale), marked as assumed: a reconciliation table in a
// report whose statements are all "in millions" is in millions too.
func (u *run) statedScales(ctx context.Context, g *gathered) error {
	stated := map[int64]float64{} // by passage: a row's cells share one
	ofDocument := map[int64]float64{}
	asked := askedScale(u.q.Text) != 0
	for i := range g.cells {
		c := &g.cells[i]
		if c.Scale != 0 || c.ev < 0 || c.ev >= len(g.evidence) {
			continue
		}
		h := g.evidence[c.ev].Hit
		s, ok := stated[h.ID]
		if !ok {
			var err error
			if s, err = u.scaleStatedFor(ctx, h); err != nil {
				return err
			}
			stated[h.ID] = s
		}
		c.Scale = s
		if s != 0 || !asked {
			continue
		}
		d, ok := ofDocument[h.DocID]
		if !ok {
			var err error
			if d, err = u.documentScale(ctx, h.DocID); err != nil {
				return err
			}
			ofDocument[h.DocID] = d
		}
		c.Scale, c.scaleOfDocument = d, d != 0
	}
	return nil
}

// documentScalePassages is how many of a document's passages naming a
// scale are read for the one its tables state.
const documentScalePassages = 40

// documentScale is the scale the document's tables state (prevailingScale
// over its passages that name one); 0 when they do not agree or too few
// state one.
func (u *run) documentScale(ctx context.Context, docID int64) (float64, error) {
	ids, err := u.r.Retriever.MatchDocument(ctx, `"in thousands" OR "in millions" OR "in billions"`, search.DefaultSettings().ColumnWeights, documentScalePassages, docID)
	if err != nil {
		return 0, err
	}
	hits, err := u.r.Retriever.Passages(ctx, ids)
	if err != nil {
		return 0, err
	}
	texts := make([]string, len(hits))
	for i, h := range hits {
		texts[i] = h.Text
	}
	return prevailingScale(texts), nil
}

// minScaleStatements is how many passages must state the prevailing
// scale, and prevailingShare the share of all stated scales it must have.
const (
	minScaleStatements = 3
	prevailingShare    = 0.8
)

// prevailingScale is the scale most of texts state above their tables
// (scaleAbove), when at least minScaleStatements do and it is at least
// prevailingShare of the scales stated; 0 otherwise.
func prevailingScale(texts []string) float64 {
	count := map[float64]int{}
	total := 0
	for _, t := range texts {
		if s := scaleAbove(t); s != 0 {
			count[s]++
			total++
		}
	}
	for s, n := range count {
		if n >= minScaleStatements && float64(n) >= prevailingShare*float64(total) {
			return s
		}
	}
	return 0
}

// scaleStatedFor is the scale stated above the table of passage h: in h
// outside its rows, else in the nearest of the scaleLookBack passages
// before it under the same heading; 0 when none.
func (u *run) scaleStatedFor(ctx context.Context, h kb.Hit) (float64, error) {
	if s := scaleAbove(h.Text); s != 0 {
		return s, nil
	}
	near, err := u.r.Retriever.Around(ctx, h.ID, scaleLookBack, 0)
	if err != nil {
		return 0, err
	}
	for k := len(near) - 1; k >= 0; k-- {
		p := near[k]
		if p.ID == h.ID || p.DocID != h.DocID || !slices.Equal(p.HeadingPath, h.HeadingPath) {
			continue
		}
		if s := scaleAbove(p.Text); s != 0 {
			return s, nil
		}
	}
	return 0, nil
}

// scaleAbove is the scale a passage states outside its table rows ("(in
// millions)" on a line of its own, "Dollars in millions, except per
// share amounts"); 0 when none.
func scaleAbove(text string) float64 {
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, " | ") || len(line) > 80 {
			continue
		}
		if m := scaleLineRE.FindStringSubmatch(line); m != nil {
			return tables.Scale(m[1])
		}
	}
	return 0
}

// scaleLineRE finds a scale stated for figures ("(in millions", "(Millions)",
// "Dollars in thousands"), not a count in prose ("millions of customers").
var scaleLineRE = regexp.MustCompile(`(?i)(?:\(\s*|\bin\s+)(thousands|millions|billions)\b(?:\s*\)|\s*,|\s*$|\s+except\b)`)

// withEvidence is the index of a passage among the evidence, added at its
// end when it is not there yet.
func (u *run) withEvidence(g *gathered, h kb.Hit) int {
	for i, e := range g.evidence {
		if e.Hit.ID == h.ID {
			return i
		}
	}
	g.evidence = append(g.evidence, Evidence{N: len(g.evidence) + 1, Hit: h})
	u.trace.Retrieval.Evidence = append(u.trace.Retrieval.Evidence, h.ID)
	return len(g.evidence) - 1
}

// byCellsDirection answers a yes/no question that asks whether a figure
// went up or down ("Has the debt increased between 2022 and 2023?") by the
// cells of the row it names over the years asked: the yes or no candidate
// that agrees with the change from the first year to the last goes first,
// above any other, supported by the cells rather than sentences.
// want is the way the question asks the figure moved (question.Moved).
// Candidates are left as they are when the question asks no direction or
// the cells are not of two years or more.
func byCellsDirection(want int, cs []answerspan.Candidate, cells []foundCell) []answerspan.Candidate {
	if want == 0 || len(cells) < 2 || cells[0].Year == 0 || cells[0].Year == cells[len(cells)-1].Year {
		return cs
	}
	d := cells[len(cells)-1].Number - cells[0].Number
	if d == 0 {
		return cs
	}
	verdict := "no"
	if (d > 0) == (want > 0) {
		verdict = "yes"
	}
	top := 0.0
	for _, c := range cs {
		top = max(top, c.Score)
	}
	out := make([]answerspan.Candidate, 0, len(cs))
	for _, c := range cs {
		if c.Text == verdict {
			// The cells, which follow it, are its support.
			c.Score, c.Chain = top+cellVerdictMargin, nil
			out = append([]answerspan.Candidate{c}, out...)
			continue
		}
		out = append(out, c)
	}
	return out
}

// cellVerdictMargin is how far a verdict the cells give scores above the
// best candidate the sentences gave.
const cellVerdictMargin = 0.1

// withContinuations marks each table of the passages that goes on in the
// passage after its own (tables.Table.GoesOn: its last row there is no
// total) and adds that passage's first table, continued, when the passage
// is not among them: a table split between two passages is read whole.
// Such a table's index in from is -1-i, more[i] its passage.
func (u *run) withContinuations(ctx context.Context, ev []Evidence, all []tables.Table, from []int) ([]tables.Table, []int, []kb.Hit, error) {
	in := map[int64]bool{}
	for _, e := range ev {
		in[e.Hit.ID] = true
	}
	var more []kb.Hit
	n := len(all)
	for ti := 0; ti < n; ti++ {
		if ti+1 < n && from[ti+1] == from[ti] {
			continue // not the passage's last table
		}
		next, ok, err := u.continuation(ctx, ev[from[ti]].Hit)
		if err != nil {
			return nil, nil, nil, err
		}
		if !ok {
			continue
		}
		all[ti].GoesOn = true
		if in[next.ID] {
			continue
		}
		if ts := u.tablesOf(next); len(ts) > 0 {
			in[next.ID] = true
			more = append(more, next)
			all = append(all, ts[0])
			from = append(from, -len(more))
		}
	}
	return all, from, more, nil
}

// continuation is the passage after h when it continues the table h ends
// in: h's last line is a table row, the next passage of its document
// starts with one and carries the table's header row.
func (u *run) continuation(ctx context.Context, h kb.Hit) (kb.Hit, bool, error) {
	if !endsInRow(h.Text) {
		return kb.Hit{}, false, nil
	}
	near, err := u.r.Retriever.Around(ctx, h.ID, 0, 1)
	if err != nil || len(near) == 0 {
		return kb.Hit{}, false, err
	}
	next := near[len(near)-1]
	if next.ID == h.ID || next.DocID != h.DocID || next.TableHeader == "" || !startsWithRow(next.Text) {
		return kb.Hit{}, false, nil
	}
	return next, true, nil
}

// endsInRow and startsWithRow say whether a passage's last (first) line
// with text is a table row.
func endsInRow(text string) bool {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	return strings.Contains(lines[len(lines)-1], " | ")
}

func startsWithRow(text string) bool {
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	return strings.Contains(line, " | ")
}

// evidenceTables are the tables of the best passages (maxCellPassages),
// with the passage of each.
func (u *run) evidenceTables(ev []Evidence) (all []tables.Table, from []int) {
	for i, e := range ev {
		if i >= maxCellPassages {
			break
		}
		if !strings.Contains(e.Hit.Text, " | ") {
			continue
		}
		for _, t := range u.tablesOf(e.Hit) {
			all = append(all, t)
			from = append(from, i)
		}
	}
	return all, from
}

// tablesOf reads the tables of a passage (tables.Parse), each told the day
// its document's fiscal years end on when the reasoner knows it.
func (u *run) tablesOf(h kb.Hit) []tables.Table {
	ts := tables.Parse(h.Text, h.TableHeader, lastHeading(h.HeadingPath))
	if end, ok := u.r.FiscalEnds[h.DocID]; ok {
		for i := range ts {
			ts[i].FiscalEnd = end
		}
	}
	return ts
}

// foundCell is a cell and where it stands among the passages.
type foundCell struct {
	tables.Cell
	ev         int // index into the evidence
	start, end int // the row's span in the passage text
	// scaleOfDocument says Scale is no scale its table states but the
	// one the document's other tables do (documentScale): an assumption
	// the answer says it makes.
	scaleOfDocument bool
}

// tableWords cuts a label into the words term weights are kept for.
func tableWords(s string) []string { return embed.Words(s) }

// cellQuery is the question as tables.Lookup reads it: its words (years
// apart: periods are matched by column), the years it names, and every
// word weighed by its inverse document frequency among the project's
// passages (one look-up for the question's words and the tables').
func (u *run) cellQuery(ctx context.Context, ts []tables.Table) (tables.Query, error) {
	q := tables.Query{Terms: map[string]bool{}, Years: slices.Clone(u.q.Years)}
	seen := map[string]bool{}
	var words []string
	add := func(ws []string) {
		for _, w := range ws {
			if !seen[w] {
				seen[w] = true
				words = append(words, w)
			}
		}
	}
	row, table := tableNaming(u.q.Tokens)
	q.Context = table
	for w := range row {
		if !tables.IsYear(w) {
			q.Terms[w] = true
		}
	}
	add(u.q.Words)
	for _, t := range ts {
		for _, c := range t.Columns {
			add(tableWords(c))
		}
		for _, r := range t.Rows {
			add(tableWords(r.Label))
			add(tableWords(r.Section))
		}
	}
	terms, err := u.r.Retriever.TermStats(ctx, words)
	if err != nil {
		return q, err
	}
	q.Weight = terms.PlainIDF
	return q, nil
}

// docParts are the nouns that name a part of a document ("statement",
// "sheet", "table").
var docParts = lexicon.English().Set("document_parts")

// maxPartWords is how many words before a document-part noun ("the cash
// flow statement"), or after its "of" ("the statement of cash flows"),
// belong to the phrase that names the part.
const maxPartWords = 3

// tableNaming splits a question's words (as embed.Words cuts them) into
// those that may name a table's row and those that name only the table:
// the words of a phrase around a document-part noun ("the cash flow
// statement", "the statement of income", "the balance sheet"), the noun
// included. A word said
// both in such a phrase and elsewhere ("net income … in the income
// statement") names a row too.
func tableNaming(toks []analyze.Token) (row, table map[string]bool) {
	inPart := make([]bool, len(toks))
	content := func(i int) bool {
		t := toks[i].Text
		return !analyze.IsStop(t) && !docParts[t] && !tables.IsYear(t)
	}
	for i, t := range toks {
		if !docParts[t.Text] {
			continue
		}
		inPart[i] = true
		before := 0
		for j := i - 1; j >= 0 && j >= i-maxPartWords && content(j); j-- {
			inPart[j] = true
			before++
		}
		// Its words stand on one side: "the statement of cash flows",
		// but "the balance sheet of the group".
		if before == 0 && i+1 < len(toks) && toks[i+1].Text == "of" {
			for j := i + 2; j < len(toks) && j <= i+1+maxPartWords && content(j); j++ {
				inPart[j] = true
			}
		}
	}
	row, table = map[string]bool{}, map[string]bool{}
	for i, t := range toks {
		for _, w := range embed.Words(t.Text) {
			if inPart[i] {
				table[w] = true
			} else {
				row[w] = true
			}
		}
	}
	for w := range row {
		delete(table, w)
	}
	return row, table
}

// cellText writes the cells of one row as the answer's lead: the row (and
// its section), each year's value under its column, the table's unit, and
// the citation of the row.
func cellText(cells []foundCell, n int, asked float64) string {
	c := cells[0]
	var b strings.Builder
	b.WriteString(c.Label)
	if c.Section != "" {
		fmt.Fprintf(&b, " (%s)", c.Section)
	}
	if c.Via != "" {
		fmt.Fprintf(&b, " (the figures of %q in another table)", c.Via)
	}
	b.WriteString(": ")
	for i, x := range cells {
		if i > 0 {
			b.WriteString("; ")
		}
		if x.Column != "" {
			fmt.Fprintf(&b, "%s: ", x.Column)
		}
		b.WriteString(x.Value)
		if asked != 0 && x.Scale != 0 && asked != x.Scale && !strings.Contains(x.Value, "%") {
			fmt.Fprintf(&b, " (= %s %s", figure(x.Number*x.Scale/asked), tables.ScaleName(asked))
			if x.scaleOfDocument {
				fmt.Fprintf(&b, ", if in %ss as the document's other tables are: this one states no scale", tables.ScaleName(x.Scale))
			}
			b.WriteString(")")
		}
	}
	if u := unitOf(c.Unit); u != "" {
		fmt.Fprintf(&b, " %s", u)
	}
	fmt.Fprintf(&b, " [%d]", n)
	if f := cellFormula(cells); f != "" {
		b.WriteString(". " + f)
	}
	return b.String()
}

// unitOf is a table's stub as the unit its figures are in, when it states
// one ("(Millions)", "in thousands", "%"): a scale or a parenthesis; ""
// for a stub that is a heading ("At December 31,").
func unitOf(stub string) string {
	s := strings.TrimSpace(stub)
	if tables.Scale(s) != 0 || strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") || strings.Contains(s, "%") {
		return s
	}
	return ""
}

// askedScaleRE finds the scale a question asks its figure in ("in USD
// millions", "in units of billions", "in thousands").
var askedScaleRE = regexp.MustCompile(`(?i)\bin\s+(?:units\s+of\s+)?(?:USD\s+|US\$\s*|\$\s*|dollars\s+)?(thousands|millions|billions)\b`)

// askedScale is the multiplier of the scale a question asks its figure
// in; 0 when it names none.
func askedScale(question string) float64 {
	m := askedScaleRE.FindStringSubmatch(question)
	if m == nil {
		return 0
	}
	return tables.Scale(m[1])
}

// cellFormula works out what a row's figures over the years asked say
// together, with the work shown: the change from the first year to the
// last and its percentage, and the average of three or more years (""
// for one year, or years without distinct numbers).
func cellFormula(cells []foundCell) string {
	if len(cells) < 2 {
		return ""
	}
	first, last := cells[0], cells[len(cells)-1]
	if first.Year == 0 || first.Year == last.Year {
		return ""
	}
	var parts []string
	d := last.Number - first.Number
	change := fmt.Sprintf("Change %d → %d: %s − %s = %s", first.Year, last.Year, figure(last.Number), figure(first.Number), signed(d))
	if first.Number != 0 {
		change += fmt.Sprintf(" (%s %%)", signed(100*d/math.Abs(first.Number)))
	}
	parts = append(parts, change)
	if len(cells) >= 3 {
		var sum float64
		var terms []string
		for _, c := range cells {
			sum += c.Number
			terms = append(terms, figure(c.Number))
		}
		parts = append(parts, fmt.Sprintf("Average %d–%d: (%s) / %d = %s", first.Year, last.Year, strings.Join(terms, " + "), len(cells), figure(sum/float64(len(cells)))))
	}
	return strings.Join(parts, ". ") + "."
}

// figure prints a number with thousands separators and at most two
// decimals ("1,577", "-3.7", "27.08").
func figure(v float64) string {
	s := strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	out := b.String()
	if frac != "" {
		out += "." + frac
	}
	if neg {
		out = "-" + out
	}
	return out
}

// signed is figure with a plus sign on positive numbers.
func signed(v float64) string {
	if v > 0 {
		return "+" + figure(v)
	}
	return figure(v)
}

// cellCitation cites the cells' row, as citation n.
func cellCitation(cells []foundCell, ev []Evidence, n int) kb.Citation {
	c := cells[0]
	cit := citation(ev[c.ev], c.start, c.end)
	cit.N = n
	return cit
}

// answerCells are the cells as the answer carries them, each cited by n.
func answerCells(cells []foundCell, n int) []kb.TableCell {
	out := make([]kb.TableCell, len(cells))
	for i, c := range cells {
		out[i] = kb.TableCell{N: n, Row: c.Label, Section: c.Section, Column: c.Column, Unit: unitOf(c.Unit), Value: c.Value, Number: c.Number, Year: c.Year, Via: c.Via}
	}
	return out
}
