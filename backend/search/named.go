package search

import (
	"context"
	"sort"
	"strings"

	"cairn/backend/analyze"
	"cairn/backend/kb"
	"cairn/backend/question"
)

// Named sections: a question that names the section or table it is about
// ("… as shown in the cash flow statement", "according to the balance
// sheet") is answered there, however few of its other words the section's
// text repeats (a statement is mostly figures). A heading line (or a table
// caption's line) is named when the question holds at least namedMinWords
// of its content words and at least namedMinShare of them; words of the
// document's title do not count (every passage of the document has them).

const (
	namedMinWords = 2
	namedMinShare = 0.6
	// namedDepth is how many of the fused passages are checked for a
	// named section (a third as many more come from the heading column).
	namedDepth = 60
)

// NamedSection is how many content words of the question q name one line
// of the passage's heading path (table captions, whose lines are joined by
// " — ", count line by line): 0 when no line is named.
func NamedSection(q *question.Question, docTitle string, path []string) int {
	return namedSection(stemSet(contentStemsOf(q.Tokens)), docTitle, path)
}

func stemSet(ws []string) map[string]bool {
	q := map[string]bool{}
	for _, w := range ws {
		q[w] = true
	}
	return q
}

// namedSection is NamedSection of the question's content stems q.
func namedSection(q map[string]bool, docTitle string, path []string) int {
	title := map[string]bool{}
	for _, w := range contentStems(docTitle) {
		title[w] = true
	}
	best := 0
	for _, level := range path {
		if strings.EqualFold(strings.TrimSpace(level), strings.TrimSpace(docTitle)) {
			continue
		}
		for _, line := range strings.Split(level, " — ") {
			n, named := 0, 0
			seen := map[string]bool{}
			for _, w := range contentStems(line) {
				if title[w] || seen[w] {
					continue
				}
				seen[w] = true
				n++
				if q[w] {
					named++
				}
			}
			if named >= namedMinWords && float64(named) >= namedMinShare*float64(n) && named > best {
				best = named
			}
		}
	}
	return best
}

// contentStems are the stemmed content words of s: no function words, no
// one-letter words, no numbers.
func contentStems(s string) []string { return contentStemsOf(analyze.Tokens(s)) }

// contentStemsOf is contentStems of a text already cut into tokens.
func contentStemsOf(toks []analyze.Token) []string {
	var out []string
	for _, t := range toks {
		if t.CJK {
			out = append(out, analyze.Bigrams(t.Text)...)
			continue
		}
		w := strings.ToLower(t.Text)
		if analyze.IsStop(w) || len([]rune(w)) < 2 || strings.Trim(w, "0123456789.,") == "" {
			continue
		}
		out = append(out, analyze.Stem(w))
	}
	return out
}

// sectionCandidates are the passages the named and rows lists choose
// from, loaded: the first namedDepth fused passages and the best of a
// search of the heading column alone (termCounts.sections), which finds a
// statement whose text shares little with the question.
func (s *Searcher) sectionCandidates(ctx context.Context, fused []int64, tc termCounts) ([]kb.Hit, error) {
	cand := append([]int64(nil), fused[:min(len(fused), namedDepth)]...)
	in := map[int64]bool{}
	for _, id := range cand {
		in[id] = true
	}
	section, err := tc.sections(ctx, s.Store, namedDepth/3, s.Docs)
	if err != nil {
		return nil, err
	}
	for _, sc := range section {
		if !in[sc.ChunkID] {
			in[sc.ChunkID] = true
			cand = append(cand, sc.ChunkID)
		}
	}
	return s.Store.ChunkHits(ctx, cand)
}

// namedList ranks the candidate passages whose heading path the question
// names, more named words first, each group in the candidates' order.
func namedList(q *question.Question, cand []kb.Hit) []int64 {
	qs := stemSet(contentStemsOf(q.Tokens))
	named := map[int64]int{}
	var out []int64
	for _, h := range cand {
		// The words of both titles, the one shown ("Northwind — Form
		// 10-K 2024") and the reader's, name the document, not a section.
		title := h.DocTitle + " — " + h.IndexTitle
		if n := namedSection(qs, title, h.HeadingPath); n > 0 {
			named[h.ID] = n
			out = append(out, h.ID)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return named[out[a]] > named[out[b]] })
	return out
}
