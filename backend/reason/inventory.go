package reason

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"cairn/backend/answerspan"
	"cairn/backend/kb"
	"cairn/backend/lexicon"
	"cairn/backend/question"
)

// A question that counts the parts of a document — its tables, figures,
// appendices or chapters ("How many tables are included in the report?")
// — is answered from the document's own labels: the distinct labels
// ("Table 3", "Appendix B") that start lines of its passages, each cited
// by the first line that carries it. It is asked of one document, the
// only one in the scope. The cue words are English (lexicon
// document_parts, document_part_fillers); a question that narrows what it
// counts ("figures of trains", "tables related to costs") is no such
// question, and a document whose lines label no such part gets no answer
// this way (its tables may still be unlabelled: counting what the reader
// found as tables would be only as good as its table finding).

// maxCitedParts bounds the labels cited, the first ones in the document.
const maxCitedParts = 12

// partFound is a labelled part and the line that first carries it.
type partFound struct {
	label string // "Table 3"
	key   string // its number or letter, in capitals: "3"
	hit   kb.Hit
	line  answerspan.Ref // the line (Passage unset)
}

// countedPart is the part a question counts ("table", "figure",
// "appendix", "chapter": the word its labels start with), "" when it
// counts none: "how many" followed by a part's name and then only words
// that do not narrow it.
func countedPart(q *question.Question) string {
	if q.Lang != "en" {
		return ""
	}
	lex := lexicon.English()
	var words []string
	for _, t := range q.Tokens {
		if !t.CJK {
			words = append(words, strings.ToLower(t.Text))
		}
	}
	fillers := lex.Set("document_part_fillers")
	for i := 0; i+2 < len(words); i++ {
		if words[i] != "how" || words[i+1] != "many" {
			continue
		}
		part := ""
		for key, names := range lex.Groups("document_parts") {
			for _, n := range names {
				if words[i+2] == n {
					part = key
				}
			}
		}
		if part == "" {
			return ""
		}
		for _, w := range words[i+3:] {
			if !fillers[w] {
				return ""
			}
		}
		return part
	}
	return ""
}

// partLabelRE matches a line that starts with a part's label: the part's
// word (capitalised or in capitals; "Fig." for a figure) and its number,
// numeral or letter, then a separator or the line's end.
func partLabelRE(part string) *regexp.Regexp {
	word := strings.ToUpper(part[:1]) + part[1:]
	alts := []string{regexp.QuoteMeta(word), regexp.QuoteMeta(strings.ToUpper(part))}
	if part == "figure" {
		alts = append(alts, `Fig\.`, `FIG\.`)
	}
	return regexp.MustCompile(`(?m)(?:^|\f)[ \t#*>]*(` + strings.Join(alts, "|") + `)[ \t]+([0-9]+(?:\.[0-9]+)*|[IVXLC]+|[A-Z])(?:[ \t]*[.:–—-]|[ \t]+[A-Z(]|[ \t]*$)`)
}

// partLabels are the distinct labels of a part that start lines of the
// passages, in the order first met, each with its first line; the key is
// the label's number or letter, so "Table 2" and "TABLE 2" are one.
// countParts puts them in their numbers' order.
func partLabels(part string, hits []kb.Hit) []partFound {
	re := partLabelRE(part)
	seen := map[string]bool{}
	var out []partFound
	for _, h := range hits {
		for _, m := range re.FindAllStringSubmatchIndex(h.Text, -1) {
			key := strings.ToUpper(h.Text[m[4]:m[5]])
			if seen[key] {
				continue
			}
			seen[key] = true
			label := strings.ToUpper(part[:1]) + part[1:] + " " + h.Text[m[4]:m[5]]
			out = append(out, partFound{label: label, key: key, hit: h, line: lineAround(h.Text, m[2], m[5])})
		}
	}
	return out
}

// countParts finds the labelled parts the question counts in the scope's
// only document; nil when it counts none, the scope holds several
// documents, or no line labels such a part.
func (u *run) countParts(ctx context.Context) ([]partFound, error) {
	part := countedPart(u.q)
	if part == "" {
		return nil, nil
	}
	doc, err := u.r.Retriever.SoleDocument(ctx)
	if err != nil || doc == 0 {
		return nil, err
	}
	hits, err := u.r.Retriever.DocumentPassages(ctx, doc)
	if err != nil {
		return nil, err
	}
	parts := partLabels(part, hits)
	sort.SliceStable(parts, func(i, j int) bool { return labelBefore(parts[i].key, parts[j].key) })
	return parts, nil
}

// labelBefore orders labels by their numbers ("2" before "10", "2.1"
// after "2"), labels without one ("B", "IV") by their text, after those
// with one.
func labelBefore(a, b string) bool {
	na, ea := labelNumbers(a)
	nb, eb := labelNumbers(b)
	switch {
	case ea == nil && eb == nil:
		return slices.Compare(na, nb) < 0
	case ea == nil:
		return true
	case eb == nil:
		return false
	}
	return a < b
}

// labelNumbers are the numbers of a label such as "2.1"; an error for a
// label that is no such number.
func labelNumbers(s string) ([]int, error) {
	var out []int
	for _, p := range strings.Split(s, ".") {
		n, err := strconv.Atoi(p)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// partsCandidate is the count as the short answer ("3 (Table 1, Table 2,
// Table 3)"), stated by the first maxCitedParts labels' lines; at[i] is
// the evidence index of part i's passage.
func partsCandidate(parts []partFound, at []int) answerspan.Candidate {
	var labels []string
	var chain []answerspan.Ref
	for i, p := range parts {
		labels = append(labels, p.label)
		if i < len(at) {
			line := p.line
			line.Passage = at[i]
			chain = append(chain, line)
		}
	}
	return answerspan.Candidate{
		Text:  fmt.Sprintf("%d (%s)", len(parts), strings.Join(labels, ", ")),
		Type:  answerspan.TNumber,
		Score: longFormScore,
		Span:  answerspan.Ref{Passage: at[0], Start: parts[0].line.Start, End: parts[0].line.End},
		Chain: chain,
	}
}
