package reason

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"cairn/backend/answerspan"
	"cairn/backend/kb"
	"cairn/backend/lexicon"
	"cairn/backend/tables"
)

// The different values of a column a question counts ("How many distinct
// effects do the kettle's controls have?"): the cells under the
// head it names (tables.DistinctColumn) of a table of the best passages,
// read on into the next passage when the table goes on there, a value
// written on several rows counted once (tables.DistinctValues). English
// only (lexicon distinct_words).

// distinctFound is the values of the column a question counts, each
// value's rows cited where they stand.
type distinctFound struct {
	head   string
	values []tables.ValueRows
	rows   []distinctRow // every row read, in the table's order
}

// distinctRow is a row of the column counted: its passage (evidence
// index) and span there.
type distinctRow struct {
	key        string // the row's first cell
	ev         int
	start, end int
}

// asksDistinct reports whether a question asks how many different values
// there are: a distinct_words word among the three words after "how
// many".
func asksDistinct(question string) bool {
	distinct := lexicon.English().Set("distinct_words")
	toks := surfaceWords(question)
	for i := 0; i+1 < len(toks); i++ {
		if toks[i] != "how" || toks[i+1] != "many" {
			continue
		}
		for _, t := range toks[i+2 : min(len(toks), i+5)] {
			if distinct[t] {
				return true
			}
		}
	}
	return false
}

// distinctValues counts the values of the column of a table of the best
// passages the question names; nil when it asks no such count or names no
// column.
func (u *run) distinctValues(ctx context.Context, g *gathered) (*distinctFound, error) {
	if u.q.Kind.Kind != answerspan.Number || u.q.Lang != "en" || !asksDistinct(u.q.Text) {
		return nil, nil
	}
	all, from := evidenceTextTables(g.evidence)
	if len(all) == 0 {
		return nil, nil
	}
	asked := tableWords(u.q.Text)
	terms, err := u.textTableTerms(ctx, asked, all)
	if err != nil {
		return nil, err
	}
	q := tables.FilterQuery{Tokens: surfaceWords(u.q.Text), Words: asked, Weight: terms.PlainIDF}
	d, ok := tables.DistinctColumn(q, all, tableWords)
	if !ok {
		return nil, nil
	}
	t := all[d.Table]
	rows := slices.Clone(t.Rows)
	var at []distinctRow
	for _, r := range t.Rows {
		at = append(at, distinctRow{key: r.Cells[0], ev: from[d.Table], start: r.Start, end: r.End})
	}
	// The table goes on in the next passage: its rows there, under the
	// same heads, are the table's too.
	if d.Table+1 == len(all) || from[d.Table+1] != from[d.Table] {
		next, ok, err := u.continuation(ctx, g.evidence[from[d.Table]].Hit)
		if err != nil {
			return nil, err
		}
		if ok {
			if more := tables.ParseText(next.Text, next.TableHeader, lastHeading(next.HeadingPath)); len(more) > 0 && len(more[0].Head) == len(t.Head) {
				ev := u.withEvidence(g, next)
				for _, r := range more[0].Rows {
					rows = append(rows, r)
					at = append(at, distinctRow{key: r.Cells[0], ev: ev, start: r.Start, end: r.End})
				}
			}
		}
	}
	values := tables.DistinctValues(rows, d.Col, surfaceWords)
	if len(values) == 0 {
		return nil, nil
	}
	return &distinctFound{head: t.Head[d.Col], values: values, rows: at}, nil
}

// candidate is the count, then the values, each with how many rows hold
// it when more than one, and how many rows were read; each value cited by
// its first row.
func (f *distinctFound) candidate() answerspan.Candidate {
	var parts []string
	var chain []answerspan.Ref
	read := 0
	for _, v := range f.values {
		p := strings.TrimRight(firstSentence(v.Value), ".;,")
		if len(v.Rows) > 1 {
			p += fmt.Sprintf(" (%d rows)", len(v.Rows))
		}
		parts = append(parts, p)
		r := f.rows[v.Rows[0]]
		chain = append(chain, answerspan.Ref{Passage: r.ev, Start: r.start, End: r.end})
		read += len(v.Rows)
	}
	text := fmt.Sprintf("%d (%s — the different values under %q in %d rows)", len(f.values), strings.Join(parts, "; "), f.head, read)
	return answerspan.Candidate{Text: text, Type: answerspan.TNumber, Score: longFormScore, Span: chain[0], Chain: chain}
}

// answerCells are the values as the answer's small table carries them:
// each value's first row, its key and its cell under the column counted,
// cited by n, where it stands among the values in Rank.
func (f *distinctFound) answerCells(n int) []kb.TableCell {
	var out []kb.TableCell
	for i, v := range f.values {
		rank := fmt.Sprintf("value %d of %d", i+1, len(f.values))
		if len(v.Rows) > 1 {
			rank += fmt.Sprintf(", %d rows", len(v.Rows))
		}
		out = append(out, kb.TableCell{N: n, Row: f.rows[v.Rows[0]].key, Column: f.head, Value: v.Value, Rank: rank})
	}
	return out
}

// firstSentence is a cell's first sentence: the text up to a full stop
// followed by a capitalised word ("Wake up the voice assistant. Currently,
// …" is "Wake up the voice assistant."); the whole cell when it has one
// sentence.
func firstSentence(s string) string {
	for i := 0; i+2 < len(s); i++ {
		if s[i] == '.' && s[i+1] == ' ' && s[i+2] >= 'A' && s[i+2] <= 'Z' {
			return s[:i+1]
		}
	}
	return s
}
