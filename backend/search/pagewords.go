package search

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"cairn/backend/analyze"
	"cairn/backend/kb"
	"cairn/backend/question"
	"cairn/backend/store"
)

// Page words: a passage is cut from a page, and the page as a whole may
// hold what the question asks where no one passage does: the heading at
// its top and the figure in the table below, a byline and the title over
// it, a count in one paragraph and the thing counted in the next. BM25
// over whole pages finds such a page (a classic of long-document search:
// score the passage with its page); this list ranks the candidate
// passages by their page's BM25 score for the question's words, so a
// passage on the page that holds them all rises. Only passages that are
// part of a page take part: a page that is one passage (a short document,
// a passage of its own) would only repeat the lexical list. Word rarity
// is the passages' (IDF over the project); page lengths are weighed
// against the candidates' pages.

// BM25 constants of the page score (the usual ones).
const (
	pageK1 = 1.2
	pageB  = 0.75
)

// pageRefs are the pages the hits lie on, each once.
func pageRefs(hits []kb.Hit) []store.PageRef {
	seen := map[store.PageRef]bool{}
	var out []store.PageRef
	for _, h := range hits {
		for n := h.PageStart; n <= h.PageEnd && n > 0; n++ {
			r := store.PageRef{Doc: h.DocID, Number: n}
			if !seen[r] {
				seen[r] = true
				out = append(out, r)
			}
		}
	}
	return out
}

// pageWordsList ranks the hits that are part of a longer page by the
// best BM25 score of the pages they lie on (pages: their texts), best
// first, equal ones in the hits' order; idf weighs a stem.
func pageWordsList(q *question.Question, hits []kb.Hit, pages map[store.PageRef]kb.Page, idf func(string) float64) []int64 {
	qw := map[string]float64{}
	// A word stems to a question word's stem only if it starts as the
	// stem does: the pages' other words are counted, not stemmed.
	heads := map[string]bool{}
	for _, t := range q.Tokens {
		if w, ok := windowStem(t); ok {
			if v := idf(w); v > 0 {
				qw[w] = v
				heads[stemHead(w)] = true
			}
		}
	}
	if len(qw) == 0 || len(pages) == 0 {
		return nil
	}
	// Term frequencies of the question's stems on each page, and the
	// pages' lengths in words.
	tf := make(map[store.PageRef]map[string]int, len(pages))
	length := make(map[store.PageRef]int, len(pages))
	var total int
	for r, p := range pages {
		counts := map[string]int{}
		n := 0
		for _, t := range analyze.Tokens(p.Text) {
			if t.CJK || len(t.Text) < 2 || analyze.IsStop(strings.ToLower(t.Text)) {
				continue
			}
			n++
			if !heads[stemHead(t.Text)] {
				continue
			}
			if w, ok := windowStem(t); ok {
				if _, ok := qw[w]; ok {
					counts[w]++
				}
			}
		}
		tf[r], length[r] = counts, n
		total += n
	}
	avg := max(float64(total)/float64(len(pages)), 1)
	// Each page scored once, its words summed in one order: in map order
	// equal sums differ in their last bits, and ties must fall alike.
	pageScore := make(map[store.PageRef]float64, len(pages))
	for r, counts := range tf {
		var s float64
		for _, w := range slices.Sorted(maps.Keys(counts)) {
			f := float64(counts[w])
			s += qw[w] * f * (pageK1 + 1) / (f + pageK1*(1-pageB+pageB*float64(length[r])/avg))
		}
		pageScore[r] = s
	}
	score := map[int64]float64{}
	var out []int64
	for _, h := range hits {
		var best float64
		for n := h.PageStart; n <= h.PageEnd && n > 0; n++ {
			r := store.PageRef{Doc: h.DocID, Number: n}
			p, ok := pages[r]
			if !ok || !partOfPage(h, p) {
				continue
			}
			best = max(best, pageScore[r])
		}
		if best > 0 {
			score[h.ID] = best
			out = append(out, h.ID)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return score[out[a]] > score[out[b]] })
	return out
}

// partOfPage says whether the page holds text outside the passage h.
func partOfPage(h kb.Hit, p kb.Page) bool {
	pageEnd := p.CharStart + len(p.Text)
	return p.CharStart < h.CharStart || pageEnd > h.CharEnd
}
