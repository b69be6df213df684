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
	title string         // a contents entry's title ("Water and Grain"), else ""
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
		if part == "" || !onlyFillers(words[i+3:], fillers) {
			return ""
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
	hits, err := u.soleDocumentPassages(ctx)
	if err != nil || hits == nil {
		return nil, err
	}
	parts := partLabels(part, hits)
	sort.SliceStable(parts, func(i, j int) bool { return labelBefore(parts[i].key, parts[j].key) })
	if listed := contentsParts(part, hits); len(listed) > len(parts) {
		return listed, nil
	}
	return parts, nil
}

// Parts a contents page lists: many documents number their chapters only
// in the contents ("CHAPTERS" over "1. Brewing at Home ....... 3", "2.
// Water and Grain ....... 27"), their chapter pages open on the title alone. The
// entries numbered 1, 2, 3 … under a line naming the part in the plural
// are its parts, counted as labelled ones are.

// contentsEntryRE matches a numbered contents entry: its number (with a
// period, a colon or a parenthesis, or none), a title and, after an
// optional dot leader, the page number it ends on (digits or Roman
// numerals).
var contentsEntryRE = regexp.MustCompile(`^[ \t#*]*(\d{1,2})[.:)]?[ \t]+(\pL.*?)[ \t.·…]*[ \t.·…](\d{1,4}|[ivxlc]{1,6}|[IVXLC]{1,6})[ \t]*$`)

// maxContentsPreamble is how many entries without a number (an executive
// summary, a foreword) may stand between the line naming the part and its
// first numbered entry.
const maxContentsPreamble = 2

// contentsParts are the parts a contents list sets out in the passages
// (a document's, in order; a list may run on from one passage into the
// next): the entries numbered from 1 on under a line that is the part's
// plural name alone ("CHAPTERS", "Chapters:"), each cited by its line;
// the longest such list (nil when none has two entries).
func contentsParts(part string, hits []kb.Hit) []partFound {
	names := map[string]bool{}
	for _, n := range lexicon.English().Groups("document_parts")[part] {
		if n != part {
			names[n] = true // the plural: a list's heading names its parts
		}
	}
	label := strings.ToUpper(part[:1]) + part[1:]
	type line struct {
		text string
		hit  kb.Hit
		at   int // byte offset in hit.Text
	}
	var lines []line
	for _, h := range hits {
		at := 0
		for _, l := range strings.Split(h.Text, "\n") {
			lines = append(lines, line{l, h, at})
			at += len(l) + 1
		}
	}
	var best []partFound
	for i, l := range lines {
		if !names[strings.ToLower(strings.Trim(strings.TrimSpace(l.text), "#*: \t"))] {
			continue
		}
		var found []partFound
		skipped := 0
		for _, e := range lines[i+1:] {
			m := contentsEntryRE.FindStringSubmatch(e.text)
			if m != nil && len(found) > 0 && m[1] == found[len(found)-1].key && e.hit.ID != found[len(found)-1].hit.ID {
				continue // the next passage opens on the line the last one closed (passages overlap)
			}
			if m == nil || m[1] != strconv.Itoa(len(found)+1) {
				if len(found) == 0 && skipped < maxContentsPreamble && strings.TrimSpace(e.text) != "" {
					skipped++
					continue
				}
				break
			}
			ref := answerspan.Ref{Start: e.at, End: e.at + len(e.text)}
			found = append(found, partFound{label: label + " " + m[1], key: m[1], hit: e.hit, line: ref, title: strings.TrimSpace(m[2])})
		}
		if len(found) >= 2 && len(found) > len(best) {
			best = found
		}
	}
	return best
}

// soleDocumentPassages are the passages of the scope's only document, in
// order; nil when the scope holds several documents.
func (u *run) soleDocumentPassages(ctx context.Context) ([]kb.Hit, error) {
	doc, err := u.r.Retriever.SoleDocument(ctx)
	if err != nil || doc == 0 {
		return nil, err
	}
	return u.r.Retriever.DocumentPassages(ctx, doc)
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
	for _, p := range parts {
		labels = append(labels, p.label)
	}
	chain := partLines(parts, at)
	return answerspan.Candidate{
		Text:  fmt.Sprintf("%d (%s)", len(parts), strings.Join(labels, ", ")),
		Type:  answerspan.TNumber,
		Score: longFormScore,
		Span:  chain[0],
		Chain: chain,
	}
}

// partLines are the lines that state the parts, each in the evidence
// passage at[i] (only the first len(at) parts are cited).
func partLines(parts []partFound, at []int) []answerspan.Ref {
	var chain []answerspan.Ref
	for i, p := range parts {
		if i < len(at) {
			line := p.line
			line.Passage = at[i]
			chain = append(chain, line)
		}
	}
	return chain
}

// Listed parts: "What are the chapters of the book?", "List the final
// two appendices in the contents." ask for the titles of the
// parts a contents list sets out (contentsParts), all of them or the
// first or last n (lexicon list_ends).

// listedParts finds the contents entries a list question asks for in the
// scope's only document; nil when it asks for none, the scope holds
// several documents, or no contents list sets out such parts.
func (u *run) listedParts(ctx context.Context) ([]partFound, error) {
	if !asksForList(u.q.Kind) || u.q.Lang != "en" {
		return nil, nil
	}
	part, end, n := listedPart(u.q)
	if part == "" {
		return nil, nil
	}
	hits, err := u.soleDocumentPassages(ctx)
	if err != nil || hits == nil {
		return nil, err
	}
	parts := contentsParts(part, hits)
	if n > 0 && n < len(parts) {
		if end == "last" {
			parts = parts[len(parts)-n:]
		} else {
			parts = parts[:n]
		}
	}
	return parts, nil
}

// listedPart is the part a list question names in the plural
// ("chapters") and, when it asks for the items at one end of the list,
// which end and how many ("last", 4); "" when it names no part.
func listedPart(q *question.Question) (part, end string, n int) {
	lex := lexicon.English()
	var words []string
	for _, t := range q.Tokens {
		if !t.CJK {
			words = append(words, strings.ToLower(t.Text))
		}
	}
	numbers := lex.Words("number_words")
	count := func(w string) int {
		if v, err := strconv.Atoi(w); err == nil {
			return v
		}
		if i := slices.Index(numbers, w); i >= 0 && i < 20 {
			return i + 1
		}
		return 0
	}
	at := -1
	for i, w := range words {
		for key, names := range lex.Groups("document_parts") {
			for _, name := range names {
				if name != key && w == name && part == "" {
					part, at = key, i
				}
			}
		}
		for e, cues := range lex.Groups("list_ends") {
			if slices.Contains(cues, w) && i+1 < len(words) && count(words[i+1]) > 0 {
				end, n = e, count(words[i+1])
			}
		}
	}
	// "Which chapters discuss water?" narrows the parts: no list of them.
	if part == "" || !onlyFillers(words[at+1:], lex.Set("document_part_fillers")) {
		return "", "", 0
	}
	return part, end, n
}

// onlyFillers reports whether words (after a part's name) are all words
// that do not narrow the part (lexicon document_part_fillers) or name the
// contents list (contents_names): "listed in the table of contents" says
// where the parts are listed.
func onlyFillers(words []string, fillers map[string]bool) bool {
	rest := " " + strings.Join(words, " ") + " "
	for _, name := range lexicon.English().Words("contents_names") {
		rest = strings.ReplaceAll(rest, " "+name+" ", " ")
	}
	for _, w := range strings.Fields(rest) {
		if !fillers[w] {
			return false
		}
	}
	return true
}

// partsListCandidate is the titles of the listed parts as the short
// answer ("Water and Grain; Yeast"), each cited by its contents line;
// at[i] is the evidence index of part i's passage.
func partsListCandidate(parts []partFound, at []int) answerspan.Candidate {
	var titles []string
	for _, p := range parts {
		titles = append(titles, p.title)
	}
	chain := partLines(parts, at)
	return answerspan.Candidate{
		Text:  strings.Join(titles, "; "),
		Type:  answerspan.TPhrase,
		Score: longFormScore,
		Span:  chain[0],
		Chain: chain,
	}
}
