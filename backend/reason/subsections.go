package reason

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"cairn/backend/answerspan"
	"cairn/backend/kb"
	"cairn/backend/lexicon"
	"cairn/backend/tables"
)

// Subsections: "Which subsections does the section 'Cleaning the kettle'
// include?" asks for the headings directly under a heading the
// question quotes. They are read from the heading paths of the passages
// of the best passage's document, in the document's order, each cited by
// the first passage under it.

// subsectionFound is a heading directly under the one asked about, with
// the first passage under it.
type subsectionFound struct {
	title string
	hit   kb.Hit
}

// minSubsections is how few headings under the one quoted answer.
const minSubsections = 2

// subpartNouns are the nouns that ask for a section's parts
// ("subsections"; lexicon subpart_nouns).
var subpartNouns = lexicon.English().Set("subpart_nouns")

// subsections finds the headings under the heading the question quotes,
// in the document of the best passage; nil when the question asks for no
// section's parts or quotes no heading with at least minSubsections under
// it.
func (u *run) subsections(ctx context.Context, ev []Evidence) ([]subsectionFound, string, error) {
	asks := false
	for _, t := range u.q.Tokens {
		if subpartNouns[strings.ToLower(t.Text)] {
			asks = true
		}
	}
	if !asks || len(ev) == 0 {
		return nil, "", nil
	}
	hits, err := u.r.Retriever.DocumentPassages(ctx, ev[0].Hit.DocID)
	if err != nil {
		return nil, "", err
	}
	heading, subs := headingsUnder(surfaceWords(u.q.Text), hits)
	if len(subs) < minSubsections {
		return nil, "", nil
	}
	return subs, heading, nil
}

// headingsUnder finds the heading of the passages' heading paths that the
// question's words (q, as surfaceWords gives them) quote, the longest such
// (at least two words, its section number aside), and the distinct
// headings directly under it, in the passages' order.
func headingsUnder(q []string, hits []kb.Hit) (string, []subsectionFound) {
	best, bestLen := "", 0
	for _, h := range hits {
		for _, head := range h.HeadingPath {
			ws := surfaceWords(sectionNumberRE.ReplaceAllString(head, ""))
			if len(ws) >= 2 && len(ws) > bestLen && tables.PhraseAt(q, ws) >= 0 {
				best, bestLen = head, len(ws)
			}
		}
	}
	if best == "" {
		return "", nil
	}
	var out []subsectionFound
	seen := map[string]bool{}
	for _, h := range hits {
		for i, head := range h.HeadingPath {
			if head == best && i+1 < len(h.HeadingPath) {
				sub := h.HeadingPath[i+1]
				if !seen[sub] {
					seen[sub] = true
					out = append(out, subsectionFound{title: sub, hit: h})
				}
				break
			}
		}
	}
	if len(out) == 0 {
		out = numberedUnder(best, hits)
		out = withNextLabels(out, hits, numbering(best))
	}
	return best, out
}

// withNextLabels adds the parts whose headings start no passage (a short
// part set inside the passage of the one before): lines of the passages
// from the last part's on that start with the next label in its sequence
// ("C." after "A.", "B."), short and with no stop, one after another,
// up to a heading or line numbered as the parent is (parent: its
// numbering).
func withNextLabels(subs []subsectionFound, hits []kb.Hit, parent string) []subsectionFound {
	if len(subs) == 0 {
		return subs
	}
	from := -1
	for i, h := range hits {
		if h.ID == subs[len(subs)-1].hit.ID {
			from = i
		}
	}
	if from < 0 {
		return subs
	}
	for _, h := range hits[from:] {
		if p := h.HeadingPath; len(p) > 0 && numbering(p[len(p)-1]) == parent {
			return subs // the next part of the parent's level
		}
		for _, line := range strings.Split(h.Text, "\n") {
			line = strings.TrimSpace(line)
			if short := len(strings.Fields(line)) <= maxLabelledTitleWords; short && numbering(line) == parent {
				return subs
			}
			next := nextLabel(strings.TrimSpace(sectionNumberRE.FindString(subs[len(subs)-1].title)))
			if next == "" || len(subs) >= maxSubsections {
				return subs
			}
			if strings.HasPrefix(line, next+" ") && len(strings.Fields(line)) <= maxLabelledTitleWords && !endsSentence(line) {
				subs = append(subs, subsectionFound{title: line, hit: h})
			}
		}
	}
	return subs
}

// maxLabelledTitleWords is the longest line read as a part's heading.
const maxLabelledTitleWords = 10

// nextLabel is the label after a letter label ("B." after "A.", "b)"
// after "a)"), "" for others.
func nextLabel(label string) string {
	if len(label) == 2 && (label[1] == '.' || label[1] == ')') && label[0] >= 'A' && label[0] < 'Z' {
		return string(label[0]+1) + label[1:]
	}
	return ""
}

// numberedUnder reads the parts of a numbered heading whose parts the
// reader set at its own level: the headings after it, in the passages'
// order, numbered another way ("A. Descaling" after "V. CLEANING THE
// KETTLE"), up to the next heading numbered as it is
// (maxSubsections at most).
func numberedUnder(head string, hits []kb.Hit) []subsectionFound {
	scheme := numbering(head)
	if scheme == "" {
		return nil
	}
	var out []subsectionFound
	seen := map[string]bool{}
	after := false
	for _, h := range hits {
		if len(h.HeadingPath) == 0 {
			continue
		}
		last := h.HeadingPath[len(h.HeadingPath)-1]
		switch {
		case last == head:
			after = true
		case !after || seen[last]:
		case numbering(last) == scheme:
			return out
		case numbering(last) != "" && len(out) < maxSubsections:
			seen[last] = true
			out = append(out, subsectionFound{title: last, hit: h})
		}
	}
	return out
}

// maxSubsections is the most headings given as a section's parts.
const maxSubsections = 20

// numbering is how a heading is numbered: "roman" ("V."), "letter"
// ("A."), "digits" with its depth ("3.2" is "digits2"), "" for none.
func numbering(head string) string {
	m := sectionNumberRE.FindString(head)
	m = strings.TrimSpace(m)
	switch {
	case m == "":
		return ""
	case romanRE.MatchString(m):
		return "roman"
	case letterRE.MatchString(m):
		return "letter"
	}
	return "digits" + strconv.Itoa(strings.Count(strings.TrimRight(m, "."), ".")+1)
}

var (
	// romanRE: section numbers run to a few dozen ("XXXIX."); a lone
	// "C." or "L." is a letter.
	romanRE  = regexp.MustCompile(`^[IVX]+\.$`)
	letterRE = regexp.MustCompile(`^[A-Z][.)]$`)
)

// sectionNumberRE is a heading's number or letter ("VI.", "3.2", "A)").
var sectionNumberRE = regexp.MustCompile(`^\s*(?:[0-9]+(?:\.[0-9]+)*\.?|[IVX]+\.|[A-Z][.)])\s+`)

// subsectionsCandidate is the answer the headings give, each cited by the
// first line of the first passage under it (at evidence index at[i]).
func subsectionsCandidate(subs []subsectionFound, at []int) answerspan.Candidate {
	var titles []string
	var chain []answerspan.Ref
	for i, s := range subs {
		titles = append(titles, s.title)
		end := strings.IndexByte(s.hit.Text, '\n')
		if end < 0 {
			end = len(s.hit.Text)
		}
		chain = append(chain, answerspan.Ref{Passage: at[i], Start: 0, End: end})
	}
	return answerspan.Candidate{
		Text:  strings.Join(titles, "; "),
		Type:  answerspan.TPhrase,
		Score: longFormScore,
		Span:  chain[0],
		Chain: chain,
	}
}
