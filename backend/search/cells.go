package search

import (
	"sort"
	"strings"

	"cairn/backend/answerspan"
	"cairn/backend/kb"
	"cairn/backend/question"
	"cairn/backend/tables"
)

// Named cells: a question that names a table's row and its period ("the
// goodwill for the fiscal year ending January 28, 2023", "long-term debt
// in FY2021") is answered by the cell where that row meets that column.
// The rows list matches row labels alone; this list reads each candidate
// table passage as a table (tables.Parse) and ranks it by its best cell
// for the question (tables.Lookup: the row's label named by the
// question's weightiest words, in the column of a year the question
// names), so the statement that prints the figure for the asked period
// rises above tables that only share a word with the question. The
// question's period phrase names columns, not rows (periodStems), and the
// document's title names every passage, so neither is matched on labels.
// Only questions that name a year and ask for a figure take part: without
// a year every table's first column would stand for the question's
// period, and a question asking who, where or whether ("is the company
// spinning off a segment in Q2 2023?") is not answered by a cell.

// cellList ranks the candidate table passages by the score of the best
// cell tables.Lookup finds in them for q, best first; passages with no
// such cell are left out. idf weighs a stem.
func cellList(q *question.Question, hits []kb.Hit, idf func(string) float64) []int64 {
	if len(q.Years) == 0 {
		return nil
	}
	switch q.Kind.Kind {
	case answerspan.Person, answerspan.Place, answerspan.Demonym, answerspan.YesNo:
		return nil
	}
	period := periodStems(q.Text)
	terms := map[string]bool{}
	for _, w := range contentStemsOf(q.Tokens) {
		if !period[w] && !tables.IsYear(w) {
			terms[w] = true
		}
	}
	if len(terms) == 0 {
		return nil
	}
	score := map[int64]float64{}
	var out []int64
	for _, h := range hits {
		if !strings.Contains(h.Text, " | ") {
			continue
		}
		rowTerms := map[string]bool{}
		title := titleStems(h)
		for w := range terms {
			if !title[w] {
				rowTerms[w] = true
			}
		}
		heading := ""
		if n := len(h.HeadingPath); n > 0 {
			heading = h.HeadingPath[n-1]
		}
		ts := tables.Parse(h.Text, h.TableHeader, heading)
		cells := tables.Lookup(tables.Query{Terms: rowTerms, Weight: idf, Years: q.Years}, ts, contentStems)
		if len(cells) == 0 {
			continue
		}
		score[h.ID] = cells[0].Score
		out = append(out, h.ID)
	}
	sort.SliceStable(out, func(a, b int) bool { return score[out[a]] > score[out[b]] })
	return out
}
