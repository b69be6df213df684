package search

import (
	"maps"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"cairn/backend/analyze"
	"cairn/backend/kb"
	"cairn/backend/question"
	"cairn/backend/tables"
)

// Named rows: a question about a figure ("what is the current ratio?",
// "goodwill at the end of the year", "inventory turnover") is answered
// from a table whose row labels hold its words ("Total current assets",
// "Goodwill", "Inventories"), though the table is mostly figures and its
// passage, long and without the question's other words, ranks below
// prose that repeats them. A table passage is ranked by the question's
// words its row labels hold, each weighed by its rarity in the project
// (IDF), so a label word shared by every table ("total", "net") counts
// little; words of the document's titles and numbers do not count.

// rowLabel is the label of a table row as passages print them ("Goodwill
// 242 | 223", "Accounts receivable, net $ 4,463 | $ 2,749"): the text
// before the first cell mark, without the figures at its end. "" for a
// line that is no table row.
func rowLabel(line string) string {
	i := strings.Index(line, " | ")
	if i < 0 {
		return ""
	}
	fields := strings.Fields(line[:i])
	for len(fields) > 0 && !hasLetter(fields[len(fields)-1]) {
		fields = fields[:len(fields)-1]
	}
	return strings.Join(fields, " ")
}

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// rowList ranks the candidate table passages by the question's weight
// their row labels hold, best first (those that hold none are left out);
// idf weighs a stem.
func rowList(q *question.Question, hits []kb.Hit, idf func(string) float64) []int64 {
	qw := map[string]float64{}
	var total float64
	period := periodStems(q.Text)
	for _, w := range contentStemsOf(q.Tokens) {
		if _, ok := qw[w]; !ok && !period[w] {
			qw[w] = idf(w)
			total += qw[w]
		}
	}
	if total == 0 {
		return nil
	}
	score := map[int64]float64{}
	var out []int64
	for _, h := range hits {
		if !strings.Contains(h.Text, " | ") {
			continue
		}
		title := titleStems(h)
		held := map[string]float64{} // stem → best share of a label naming it
		for _, line := range strings.Split(h.Text, "\n") {
			label := contentStems(rowLabel(line))
			var named, all float64
			for _, w := range label {
				if title[w] {
					continue
				}
				all += idf(w)
				if _, ok := qw[w]; ok {
					named += idf(w)
				}
			}
			if named == 0 {
				continue
			}
			share := named / all
			for _, w := range label {
				if _, ok := qw[w]; ok && !title[w] && share > held[w] {
					held[w] = share
				}
			}
		}
		// Summed in one order: in map order equal sums differ in their
		// last bits from run to run, and ties must fall alike.
		var sum float64
		for _, w := range slices.Sorted(maps.Keys(held)) {
			sum += qw[w] * held[w]
		}
		if sum > 0 {
			score[h.ID] = sum
			out = append(out, h.ID)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return score[out[a]] > score[out[b]] })
	return out
}

// titleStems are the content stems of the titles of h's document: words
// every passage of the document holds, which name no row.
func titleStems(h kb.Hit) map[string]bool {
	return stemSet(contentStems(h.DocTitle + " " + h.IndexTitle))
}

// stemIDF returns a stem's IDF over the project's passages from the
// question's counted terms (0 for a stem no term has: a CJK bigram).
func (tc termCounts) stemIDF() func(string) float64 {
	df := map[string]int{}
	for i, t := range tc.terms {
		if strings.HasPrefix(t, "cjk :") {
			continue
		}
		w := analyze.Stem(strings.ToLower(strings.Trim(t, `"`)))
		if n, ok := df[w]; !ok || tc.rows[i] > n {
			df[w] = tc.rows[i]
		}
	}
	return func(w string) float64 {
		n, ok := df[w]
		if !ok {
			return 0
		}
		return math.Log(1 + float64(tc.total)/float64(n+1))
	}
}

// A question's period ("for the fiscal year ending January 28, 2023",
// "in the quarter ended June 30") names a table's column, not its rows:
// the words of such a phrase are left out of what a row label is matched
// on, or every table headed "Fiscal Years Ended" would name the question.
var periodPhraseRE = regexp.MustCompile(`(?i)\b(?:(?:fiscal\s+)?(?:years?|quarters?|months?|weeks?|periods?)\s+(?:ended|ending)\b|fiscal\s+years?\b|` +
	tables.MonthPattern + `\s+\d{1,2}\b|` + tables.MonthPattern + `\s+(?:19|20)\d\d\b)`)

// periodStems are the content stems of the period phrases of text.
func periodStems(text string) map[string]bool {
	out := map[string]bool{}
	for _, m := range periodPhraseRE.FindAllString(text, -1) {
		for _, w := range contentStems(m) {
			out[w] = true
		}
	}
	return out
}
