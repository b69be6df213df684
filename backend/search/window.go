package search

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"cairn/backend/analyze"
	"cairn/backend/kb"
	"cairn/backend/question"
)

// Close words: BM25 scores a passage by how often it holds each of the
// question's words, wherever they stand, so in a long document a passage
// that repeats two of them far apart outranks the one sentence holding
// them all ("At the end of 2022 the cooperative ran 41 seedling
// greenhouses" for "how many seedling greenhouses did the cooperative run
// in 2022?"). The window list ranks each document's candidate passages by
// their best stretch of windowWords words, scored by the rarity (IDF) of
// the distinct question words it holds (of two such stretches, the one
// where they stand closer together). Numbers count (a year asked about
// is a word the stretch should hold); words of the document's titles do
// not (every passage of the document has them). Only passages of the same
// document are ranked against each other: which document comes first
// stays the lexical and vector lists' say (over all passages, a passage
// naming both people of a comparison would rise above each one's own).

const (
	// windowWords is the stretch's length in words: about a clause.
	windowWords = 12
	// windowMinWords is how many distinct question words a stretch
	// must hold for its passage to be listed.
	windowMinWords = 2
)

// windowList ranks the candidate passages by their best stretch's weight
// within their documents (see withinDocuments); idf weighs a stem.
func windowList(q *question.Question, hits []kb.Hit, idf func(string) float64) []int64 {
	qw := map[string]float64{}
	// A word stems to a question word's stem only if it starts as the
	// stem does: the passages' other words are not stemmed.
	heads := map[string]bool{}
	for _, t := range q.Tokens {
		if w, ok := windowStem(t); ok {
			qw[w] = idf(w)
			heads[stemHead(w)] = true
		}
	}
	titles := map[string]map[string]bool{}
	score := map[int64]float64{}
	for _, h := range hits {
		key := h.DocTitle + "\x00" + h.IndexTitle
		title, ok := titles[key]
		if !ok {
			title = map[string]bool{}
			for _, t := range analyze.Tokens(h.DocTitle + " " + h.IndexTitle) {
				if w, ok := windowStem(t); ok {
					title[w] = true
				}
			}
			titles[key] = title
		}
		toks := analyze.Tokens(h.Text)
		stems := make([]string, len(toks))
		for i, t := range toks {
			if !heads[stemHead(t.Text)] {
				continue
			}
			if w, ok := windowStem(t); ok && qw[w] > 0 && !title[w] {
				stems[i] = w
			}
		}
		if best, n := bestWindow(stems, qw, windowWords, windowMinWords); n > 0 {
			score[h.ID] = best
		}
	}
	return withinDocuments(hits, score)
}

// stemHead is the first two bytes of a word (lower-cased) or stem, which
// stemming keeps.
func stemHead(w string) string {
	if len(w) > 2 {
		w = w[:2]
	}
	return strings.ToLower(w)
}

// withinDocuments lists the candidates that have a score, of documents
// with more than one such (a passage alone in its document has none to be
// ranked against), each document's sorted by score (higher first, equal ones in the candidates'
// order) among the places the document's scored passages hold in the
// candidates' order: which document comes first stays the lexical and
// vector lists' say.
func withinDocuments(hits []kb.Hit, score map[int64]float64) []int64 {
	n := map[int64]int{}
	for _, h := range hits {
		if _, ok := score[h.ID]; ok {
			n[h.DocID]++
		}
	}
	places := map[int64][]int{}
	var scored []int64
	for _, h := range hits {
		if _, ok := score[h.ID]; ok && n[h.DocID] > 1 {
			places[h.DocID] = append(places[h.DocID], len(scored))
			scored = append(scored, h.ID)
		}
	}
	out := make([]int64, len(scored))
	for _, at := range places {
		ids := make([]int64, len(at))
		for j, i := range at {
			ids[j] = scored[i]
		}
		sort.SliceStable(ids, func(a, b int) bool { return score[ids[a]] > score[ids[b]] })
		for j, i := range at {
			out[i] = ids[j]
		}
	}
	return out
}

// windowStem is the stem a token is matched by here: lower-cased and
// stemmed; not a function word, a one-letter word or a CJK run.
func windowStem(t analyze.Token) (string, bool) {
	if t.CJK {
		return "", false
	}
	w := strings.ToLower(t.Text)
	if analyze.IsStop(w) || len([]rune(w)) < 2 {
		return "", false
	}
	return analyze.Stem(w), true
}

// bestWindow is the highest weight of the distinct stems found in any run
// of n consecutive entries of stems ("" for a word that is no question
// word), and how many distinct stems that run holds; runs holding fewer
// than least are not counted. Weights are summed in sorted order so equal
// runs weigh exactly alike.
func bestWindow(stems []string, weight map[string]float64, n, least int) (float64, int) {
	count := map[string]int{}
	var best float64
	bestN := 0
	for i, w := range stems {
		if w != "" {
			count[w]++
		}
		if j := i - n; j >= 0 && stems[j] != "" {
			if count[stems[j]]--; count[stems[j]] == 0 {
				delete(count, stems[j])
			}
		}
		if w == "" || len(count) < least {
			continue
		}
		var sum float64
		for _, s := range slices.Sorted(maps.Keys(count)) {
			sum += weight[s]
		}
		// Of runs holding the same words, the tighter one is better: the
		// words together in a phrase, not spread over the run.
		sum += tightness * float64(n-spanOf(stems, i, n, count))
		if sum > best {
			best, bestN = sum, len(count)
		}
	}
	return best, bestN
}

// tightness is what each word of a run left unused adds to its weight:
// small enough to decide only between runs holding the same words.
const tightness = 1e-6

// spanOf is how many entries the words counted in count take in the run
// of at most n entries ending at end (itself a word): from the first
// entry whose word does not come again before end.
func spanOf(stems []string, end, n int, count map[string]int) int {
	left := map[string]int{}
	for w, c := range count {
		left[w] = c
	}
	for j := max(0, end-n+1); j < end; j++ {
		w := stems[j]
		if w == "" {
			continue
		}
		if left[w] == 1 {
			return end - j + 1
		}
		left[w]--
	}
	return 1
}
