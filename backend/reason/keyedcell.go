package reason

import (
	"context"
	"slices"
	"strings"
	"unicode"

	"cairn/backend/analyze"
	"cairn/backend/answerspan"
	"cairn/backend/retrieve"
	"cairn/backend/tables"
)

// Cells of tables of words found by their rows' keys: "What are the fault
// descriptions for fault codes 12 and 112?" is answered from the rows
// keyed "12" and "112" of a fault table, under its "Fault description"
// head; "What happens when you tap twice on the stop button?" from the
// "Tap twice" row of the table titled "Stop button"
// (tables.KeyedLookup). Only for questions no figure, long form, title or
// count answered.

// keyedFound is a cell found by its row's key, with where it stands.
type keyedFound struct {
	tables.KeyedCell
	ev         int // index into the evidence
	start, end int // the row's span in the passage text
}

// keyedCells finds the cells the question asks for by their rows' keys in
// the tables of the best passages (maxCellPassages).
func (u *run) keyedCells(ctx context.Context, ev []Evidence) ([]keyedFound, error) {
	all, from := evidenceTextTables(ev)
	if len(all) == 0 {
		return nil, nil
	}
	switch u.q.Kind.Kind {
	case answerspan.YesNo, answerspan.Choice:
		return nil, nil // a verdict or one of two items, not a cell
	}
	terms, err := u.textTableTerms(ctx, u.q.Words, all)
	if err != nil {
		return nil, err
	}
	q := tables.KeyQuery{Tokens: surfaceWords(u.q.Text), Weight: terms.PlainIDF}
	asked := map[string]bool{}
	for _, w := range q.Tokens {
		asked[w] = true
	}
	var out []keyedFound
	for _, c := range tables.KeyedLookup(q, all, surfaceWords, tableWords) {
		if kind := u.q.Kind.Kind; kind == answerspan.Number && !hasDigit(c.Value) {
			continue // a count is no cell of words
		}
		if quoted(surfaceWords(c.Value), asked) {
			continue // the question says it already: the row is what it names, not what it asks
		}
		r := all[c.Table].Rows[c.Row]
		out = append(out, keyedFound{KeyedCell: c, ev: from[c.Table], start: r.Start, end: r.End})
	}
	return out, nil
}

// textTableTerms looks up the weights of words and of the words of the
// tables' heads and titles in one call.
func (u *run) textTableTerms(ctx context.Context, words []string, all []tables.TextTable) (retrieve.TermStats, error) {
	words = slices.Clone(words)
	for _, t := range all {
		for _, h := range t.Head {
			words = append(words, tableWords(h)...)
		}
		words = append(words, tableWords(t.Title)...)
	}
	return u.r.Retriever.TermStats(ctx, words)
}

// evidenceTextTables reads the tables of the best passages
// (maxCellPassages) as tables of words; from is each one's evidence index.
func evidenceTextTables(ev []Evidence) (all []tables.TextTable, from []int) {
	for i, e := range ev {
		if i >= maxCellPassages {
			break
		}
		if !strings.Contains(e.Hit.Text, " | ") {
			continue
		}
		for _, t := range tables.ParseText(e.Hit.Text, e.Hit.TableHeader, lastHeading(e.Hit.HeadingPath)) {
			all = append(all, t)
			from = append(from, i)
		}
	}
	return all, from
}

// quoted reports whether every word of ws is among the question's.
func quoted(ws []string, asked map[string]bool) bool {
	for _, w := range ws {
		if !asked[w] {
			return false
		}
	}
	return len(ws) > 0
}

// hasDigit reports whether s holds a digit.
func hasDigit(s string) bool { return strings.IndexFunc(s, unicode.IsDigit) >= 0 }

// surfaceWords are a text's words as written, lower-cased, every one
// kept: what a row's key is quoted by.
func surfaceWords(s string) []string {
	var out []string
	for _, t := range analyze.Tokens(s) {
		out = append(out, strings.ToLower(t.Text))
	}
	return out
}

// keyedCandidate is the answer the cells give: the cells, each followed
// by its key when they are of several keys ("Element too hot (12);
// Lid sensor open (112)"), each cited by its row.
func keyedCandidate(cells []keyedFound) answerspan.Candidate {
	keys := map[string]bool{}
	for _, c := range cells {
		keys[c.Key] = true
	}
	var parts []string
	var chain []answerspan.Ref
	for _, c := range cells {
		p := strings.TrimSuffix(c.Value, ".") // the answer's own stop follows
		if len(keys) > 1 {
			p += " (" + c.Key + ")"
		}
		parts = append(parts, p)
		chain = append(chain, answerspan.Ref{Passage: c.ev, Start: c.start, End: c.end})
	}
	return answerspan.Candidate{
		Text:  strings.Join(parts, "; "),
		Type:  answerspan.TPhrase,
		Score: longFormScore,
		Span:  chain[0],
		Chain: chain,
	}
}
