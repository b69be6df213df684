package reason

import (
	"context"
	"sort"
	"strings"

	"cairn/backend/analyze"
	"cairn/backend/answerspan"
	"cairn/backend/kb"
	"cairn/backend/question"
	"cairn/backend/retrieve"
)

// HeadingMatch is how well a passage's heading path names what the question
// asks (0–1): the share of the heading's words (function words included,
// content words stemmed) that the question uses, times the share of the
// question's content words the heading holds, leaving out the words of the
// document's title (every passage of the document shares them). The
// deepest heading counts fully, each level above it 0.7 times the one
// below. "Who Must File" matches "Who must file Form 1040NR?" fully in the
// instructions for Form 1040NR; "When To File" does not.
func HeadingMatch(qa *question.Question, docTitle string, path []string) float64 {
	q := headingWordsOf(qa.Tokens)
	if len(q) == 0 || len(path) == 0 {
		return 0
	}
	inTitle := map[string]bool{}
	for _, w := range headingWords(docTitle) {
		inTitle[w] = true
	}
	qSet := map[string]bool{}
	content := 0
	for _, w := range q {
		qSet[w] = true
		if !isStopKey(w) && !inTitle[w] {
			content++
		}
	}
	if content == 0 {
		return 0
	}
	best, weight := 0.0, 1.0
	for i := len(path) - 1; i >= 0; i-- {
		hs := headingWords(path[i])
		if len(hs) == 0 || strings.EqualFold(strings.TrimSpace(path[i]), strings.TrimSpace(docTitle)) {
			weight *= 0.7
			continue
		}
		used, covered := 0, 0
		seen := map[string]bool{}
		for _, w := range hs {
			if qSet[w] {
				used++
			}
			if !seen[w] && qSet[w] && !isStopKey(w) && !inTitle[w] {
				seen[w] = true
				covered++
			}
		}
		m := weight * float64(used) / float64(len(hs)) * float64(covered) / float64(content)
		if m > best {
			best = m
		}
		weight *= 0.7
	}
	return best
}

// headingWords are the lower-cased words of s, content words stemmed and
// function words kept as they are (marked with a leading "_").
func headingWords(s string) []string { return headingWordsOf(analyze.Tokens(s)) }

// headingWordsOf is headingWords of a text already cut into tokens.
func headingWordsOf(toks []analyze.Token) []string {
	var out []string
	for _, t := range toks {
		if t.CJK {
			for _, g := range analyze.Bigrams(t.Text) {
				out = append(out, g)
			}
			continue
		}
		w := strings.ToLower(t.Text)
		if analyze.IsStop(w) {
			out = append(out, "_"+w)
			continue
		}
		out = append(out, analyze.Stem(w))
	}
	return out
}

func isStopKey(w string) bool { return strings.HasPrefix(w, "_") }

// byHeading moves up the passages whose heading path names what the
// question asks (a heading match of at least one half): they come first,
// the better match first, equal matches in reading order, and the order is
// otherwise kept. A heading that
// says what the question asks ("Who Must File") is the section that
// answers it, wherever the fused ranking put it among the passages found.
func byHeading(q *question.Question, hits []kb.Hit) []kb.Hit {
	match := make([]float64, len(hits))
	moved := false
	for i, h := range hits {
		if m := HeadingMatch(q, h.IndexTitle, h.HeadingPath); m >= 0.5 {
			match[i] = m
			moved = true
		}
	}
	if !moved {
		return hits
	}
	idx := make([]int, len(hits))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ma, mb := match[idx[a]], match[idx[b]]
		if ma != mb {
			return ma > mb
		}
		if ma == 0 {
			return false
		}
		// Within the sections that match as well: in reading order, so
		// a section's first passage (what it says first) leads.
		ha, hb := hits[idx[a]], hits[idx[b]]
		if ha.DocID != hb.DocID {
			return ha.DocID < hb.DocID
		}
		return ha.Ordinal < hb.Ordinal
	})
	out := make([]kb.Hit, len(hits))
	for i, k := range idx {
		out[i] = hits[k]
	}
	return out
}

// inSection keeps, when some passage's heading names what the question
// asks, only the candidate answers found in such a section: a short answer
// from elsewhere would contradict the section that answers the question
// (the answer then leads with the section's sentences). Otherwise the
// candidates are returned as they are.
func inSection(q *question.Question, cs []answerspan.Candidate, pool []Evidence) []answerspan.Candidate {
	section := make([]bool, len(pool))
	any := false
	for i, e := range pool {
		if HeadingMatch(q, e.Hit.IndexTitle, e.Hit.HeadingPath) >= 0.5 {
			section[i] = true
			any = true
		}
	}
	if !any {
		return cs
	}
	var out []answerspan.Candidate
	for _, c := range cs {
		if c.Span.Passage >= 0 && c.Span.Passage < len(pool) && section[c.Span.Passage] {
			out = append(out, c)
		}
	}
	return out
}

// sectionDepth is how deep into each retrieval list the passages whose
// heading names the question are sought.
const sectionDepth = 10

// sections are the passages among the first sectionDepth of each retrieval
// list, left out of the fused hits, whose heading names what the question
// asks ("Who Must File" for "Who must file Form 1040NR?"): a section found
// by one list is the answer even when the fusion ranked it low.
func (u *run) sections(ctx context.Context, q *question.Question, res *retrieve.Result) ([]kb.Hit, error) {
	in := map[int64]bool{}
	for _, h := range res.Hits {
		in[h.ID] = true
	}
	var ids []int64
	for _, l := range res.Lists {
		for i, id := range l.IDs {
			if i >= sectionDepth {
				break
			}
			if !in[id] {
				in[id] = true
				ids = append(ids, id)
			}
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	hits, err := u.chunkHits(ctx, ids)
	if err != nil {
		return nil, err
	}
	var out []kb.Hit
	for _, h := range hits {
		if HeadingMatch(q, h.IndexTitle, h.HeadingPath) >= 0.5 {
			out = append(out, h)
		}
	}
	return out, nil
}
