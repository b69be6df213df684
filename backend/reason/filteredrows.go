package reason

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"cairn/backend/answerspan"
	"cairn/backend/kb"
	"cairn/backend/lexicon"
	"cairn/backend/tables"
)

// Rows picked by a condition the question sets (tables.FilterRows):
// "Which members rowed more than 8 races?" is answered by the keys of the
// rows of a table of words whose figure under "Races rowed" is above 8,
// each with its figure and cited by its row; "Who are the honorary
// members?" by the rows whose "Membership" cell is "Honorary"; "How many
// members rowed more than 8 races?" by their count. Only for questions no
// figure or ranking answered. The bound is read in English (lexicon
// bound_* categories).

// boundForm is one way a question writes a bound: the pattern (its last
// group the figure) and the side it sets.
type boundForm struct {
	re               *regexp.Regexp
	above, inclusive bool
}

// figurePattern is a bound's figure: digits (with thousands' commas and a
// decimal part) or a number written as a word (lexicon number_words).
var figurePattern = `(\d[\d,]*(?:\.\d+)?|` + lexicon.English().Alt("number_words") + `)`

// boundForms are the ways a bound is written, the inclusive ones first
// ("no more than 6" holds "more than 6").
var boundForms = func() []boundForm {
	en := lexicon.English()
	var out []boundForm
	for _, p := range en.Pairs("bound_inclusive") {
		out = append(out, boundForm{re: regexp.MustCompile(`\b` + regexp.QuoteMeta(p[0]) + `\s+` + figurePattern + `\b`), above: p[1] == "above", inclusive: true})
	}
	above, below := en.Alt("bound_above_comparatives"), en.Alt("bound_below_comparatives")
	out = append(out,
		boundForm{re: regexp.MustCompile(`\b` + figurePattern + `\s+or\s+(?:` + above + `)\b`), above: true, inclusive: true},
		boundForm{re: regexp.MustCompile(`\b` + figurePattern + `\s+or\s+(?:` + below + `)\b`), inclusive: true},
		boundForm{re: regexp.MustCompile(`\b(?:` + above + `)\s+than\s+` + figurePattern + `\b`), above: true},
		boundForm{re: regexp.MustCompile(`\b(?:` + below + `)\s+than\s+` + figurePattern + `\b`)},
		boundForm{re: regexp.MustCompile(`\b(?:` + en.Alt("bound_above_words") + `)\s+` + figurePattern + `\b`), above: true},
		boundForm{re: regexp.MustCompile(`\b(?:` + en.Alt("bound_below_words") + `)\s+` + figurePattern + `\b`)},
	)
	return out
}()

// boundAsked reads the bound a question sets on a figure ("more than 6",
// "at least six", "10 or more") and the question's text without it (its
// words name nothing in a table); nil when it sets none.
func boundAsked(text string) (*tables.Bound, string) {
	lower := strings.ToLower(text)
	for _, f := range boundForms {
		m := f.re.FindStringSubmatchIndex(lower)
		if m == nil {
			continue
		}
		v, ok := figureValue(lower[m[2]:m[3]])
		if !ok {
			continue
		}
		return &tables.Bound{Above: f.above, Inclusive: f.inclusive, Value: v}, text[:m[0]] + " " + text[m[1]:]
	}
	return nil, text
}

// figureValue is a bound's figure: digits, or a number word by its place
// in number_words (one to twenty come first, in order).
func figureValue(s string) (float64, bool) {
	if v, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64); err == nil {
		return v, true
	}
	for i, w := range lexicon.English().Words("number_words") {
		if w == s && i < 20 {
			return float64(i + 1), true
		}
	}
	return 0, false
}

// filteredFound is the rows a question picks, with where they stand.
type filteredFound struct {
	tables.Filtered
	table tables.TextTable
	ev    int // index into the evidence
	bound *tables.Bound
	// count: the question asks how many rows there are ("How many members
	// …"), not which.
	count bool
}

// filteredRows picks the rows of a table of the best passages by the
// condition the question sets; nil when it sets none a table meets.
func (u *run) filteredRows(ctx context.Context, ev []Evidence) (*filteredFound, error) {
	switch u.q.Kind.Kind {
	case answerspan.YesNo, answerspan.Choice:
		return nil, nil // a verdict or one of two items, not rows
	}
	bound, rest := boundAsked(u.q.Text)
	all, from := evidenceTextTables(ev)
	if len(all) == 0 {
		return nil, nil
	}
	asked := tableWords(rest)
	terms, err := u.textTableTerms(ctx, asked, all)
	if err != nil {
		return nil, err
	}
	q := tables.FilterQuery{Tokens: surfaceWords(rest), Words: asked, Weight: terms.PlainIDF, Bound: bound}
	f, ok := tables.FilterRows(q, all, surfaceWords, tableWords)
	if !ok {
		return nil, nil
	}
	t := all[f.Table]
	return &filteredFound{Filtered: f, table: t, ev: from[f.Table], bound: bound, count: u.q.Kind.Kind == answerspan.Number && countsRowsOf(u.q.Text, t.Head[0])}, nil
}

// countsRowsOf reports whether a question asks how many of the things
// head names there are ("How many members …" for the head "Member"): a
// word of head within the three words after "how many".
func countsRowsOf(question, head string) bool {
	hw := map[string]bool{}
	for _, w := range tableWords(head) {
		hw[w] = true
	}
	toks := surfaceWords(question)
	for i := 0; i+1 < len(toks); i++ {
		if toks[i] != "how" || toks[i+1] != "many" {
			continue
		}
		for _, t := range toks[i+2 : min(len(toks), i+5)] {
			for _, w := range tableWords(t) {
				if hw[w] {
					return true
				}
			}
		}
	}
	return false
}

// condition writes the condition the rows meet: "Membership: Honorary,
// Races rowed > 8".
func (f *filteredFound) condition() string {
	var parts []string
	if f.Category >= 0 {
		parts = append(parts, f.table.Head[f.Category]+": "+f.Value)
	}
	if f.Col >= 0 {
		op := map[[2]bool]string{{true, false}: ">", {true, true}: "≥", {false, false}: "<", {false, true}: "≤"}[[2]bool{f.bound.Above, f.bound.Inclusive}]
		parts = append(parts, fmt.Sprintf("%s %s %s", f.table.Head[f.Col], op, strconv.FormatFloat(f.bound.Value, 'f', -1, 64)))
	}
	return strings.Join(parts, ", ")
}

// candidate is the answer the rows give: their keys, each with its figure
// when a bound picked them ("Ada Lind (9); Di Holm (15)"), then the
// condition and how many rows of the table meet it; a count leads with
// the number. Each row is cited.
func (f *filteredFound) candidate() answerspan.Candidate {
	var keys []string
	var chain []answerspan.Ref
	for _, ri := range f.Rows {
		r := f.table.Rows[ri]
		k := r.Cells[0]
		if f.Col >= 0 {
			k += " (" + r.Cells[f.Col] + ")"
		}
		keys = append(keys, k)
		chain = append(chain, answerspan.Ref{Passage: f.ev, Start: r.Start, End: r.End})
	}
	text := fmt.Sprintf("%s — %d of %d rows with %s", strings.Join(keys, "; "), len(f.Rows), f.Read, f.condition())
	kind := answerspan.TPhrase
	if f.count {
		text = fmt.Sprintf("%d (%s)", len(f.Rows), text)
		kind = answerspan.TNumber
	}
	return answerspan.Candidate{Text: text, Type: kind, Score: longFormScore, Span: chain[0], Chain: chain}
}

// answerCells are the cells the rows were picked by, as the answer
// carries them, each row's under the bound's column (or the phrase's),
// cited by n.
func (f *filteredFound) answerCells(n int) []kb.TableCell {
	col := f.Col
	if col < 0 {
		col = f.Category
	}
	var out []kb.TableCell
	for _, ri := range f.Rows {
		r := f.table.Rows[ri]
		c := kb.TableCell{N: n, Row: r.Cells[0], Column: f.table.Head[col], Value: r.Cells[col], Rank: f.condition()}
		if v, ok := tables.Number(r.Cells[col]); ok && f.Col >= 0 {
			c.Number = v
		}
		out = append(out, c)
	}
	return out
}
