package evalset

import (
	"fmt"
	"sort"
	"strings"
)

// Tuning of retrieval fusion: every question's ranked lists are gathered
// once (retrieve.Retriever.Gather), then many fusion settings (list weights,
// reciprocal-rank constant) are scored on them in memory.

// BM25Recall5 is the BM25 Recall@5 reference of ../shared/eval/README.md
// (k1=1.2, b=0.75, title+text) on each DEV set.
var BM25Recall5 = map[string]float64{"2wikimultihopqa": 65.2, "hotpotqa": 70.0, "musique": 46.9}

// TuneList is one retriever's ranked list for a question, as indexes into
// TuneQuestion.Passages (best first, no repeats).
type TuneList struct {
	Name string
	Idx  []int32
}

// TuneQuestion is one question's gathered lists.
type TuneQuestion struct {
	Passages []string // the passage id of each local index
	Lists    []TuneList
	Gold     []string
}

// NewTuneQuestion maps lists of chunk ids to passage ids (passage(chunk);
// chunks of one passage count once, at their best rank).
func NewTuneQuestion(names []string, lists [][]int64, passage func(int64) string, gold []string) TuneQuestion {
	q := TuneQuestion{Gold: gold}
	local := map[string]int32{}
	for li, ids := range lists {
		l := TuneList{Name: names[li]}
		seen := map[int32]bool{}
		for _, c := range ids {
			p := passage(c)
			if p == "" {
				continue
			}
			i, ok := local[p]
			if !ok {
				i = int32(len(q.Passages))
				local[p] = i
				q.Passages = append(q.Passages, p)
			}
			if !seen[i] {
				seen[i] = true
				l.Idx = append(l.Idx, i)
			}
		}
		q.Lists = append(q.Lists, l)
	}
	return q
}

// Fusion is one setting under test: the weight of each list by name (a
// missing name weighs 0) and the reciprocal-rank constant.
type Fusion struct {
	RRFK    float64
	Weights map[string]float64
}

func (f Fusion) String() string {
	names := make([]string, 0, len(f.Weights))
	for n := range f.Weights {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%s=%g", n, f.Weights[n]))
	}
	return fmt.Sprintf("k=%g %s", f.RRFK, strings.Join(parts, " "))
}

// TopK fuses q's lists under f and returns the best k passage ids. Ties keep
// the order in which passages first appear (lists in order), as search.Fuse.
func (q *TuneQuestion) TopK(f Fusion, k int, score []float64) []string {
	if cap(score) < len(q.Passages) {
		score = make([]float64, len(q.Passages))
	}
	score = score[:len(q.Passages)]
	for i := range score {
		score[i] = 0
	}
	for _, l := range q.Lists {
		w := f.Weights[l.Name]
		if w <= 0 {
			continue
		}
		for r, i := range l.Idx {
			score[i] += w / (f.RRFK + float64(r+1))
		}
	}
	// Selection of the k best; local indexes are numbered in first-appearance
	// order, so the smaller index wins a tie.
	var top []int32
	for i, s := range score {
		if s <= 0 {
			continue
		}
		pos := len(top)
		for pos > 0 && score[top[pos-1]] < s {
			pos--
		}
		if pos >= k {
			continue
		}
		top = append(top, 0)
		copy(top[pos+1:], top[pos:])
		top[pos] = int32(i)
		if len(top) > k {
			top = top[:k]
		}
	}
	out := make([]string, len(top))
	for i, t := range top {
		out[i] = q.Passages[t]
	}
	return out
}

// MeanRecall is the mean Recall@k (×100) of qs under f.
func MeanRecall(qs []TuneQuestion, f Fusion, k int) float64 {
	if len(qs) == 0 {
		return 0
	}
	var sum float64
	buf := make([]float64, 0, 512)
	for i := range qs {
		sum += Recall(qs[i].TopK(f, k, buf), qs[i].Gold, k)
	}
	return 100 * sum / float64(len(qs))
}

// Grid lists every fusion with a weight from values for each named list
// (fixed lists keep their weight) and each reciprocal-rank constant.
func Grid(rrfKs []float64, fixed map[string]float64, names []string, values []float64) []Fusion {
	out := []Fusion{}
	var rec func(i int, w map[string]float64)
	rec = func(i int, w map[string]float64) {
		if i == len(names) {
			for _, k := range rrfKs {
				c := map[string]float64{}
				for n, v := range w {
					c[n] = v
				}
				out = append(out, Fusion{RRFK: k, Weights: c})
			}
			return
		}
		for _, v := range values {
			w[names[i]] = v
			rec(i+1, w)
		}
		delete(w, names[i])
	}
	base := map[string]float64{}
	for n, v := range fixed {
		base[n] = v
	}
	rec(0, base)
	return out
}
