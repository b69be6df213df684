package evalset

import (
	"fmt"
	"math/rand"
	"reflect"
	"testing"

	"cairn/backend/retrieve"
)

// TestTopKMatchesFusion: the tuning harness's in-memory fusion ranks
// exactly as retrieval's (retrieve.FuseLists), ties included, on random
// lists with shared and repeated ids and zero weights.
func TestTopKMatchesFusion(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	names := []string{"passage", "entity", "ppr", "topic"}
	passage := func(c int64) string { return fmt.Sprintf("p%d", c) }
	for trial := 0; trial < 300; trial++ {
		lists := make([][]int64, len(names))
		var rl []retrieve.List
		for i := range names {
			n := rng.Intn(30)
			seen := map[int64]bool{}
			for len(lists[i]) < n {
				c := int64(rng.Intn(40))
				if !seen[c] {
					seen[c] = true
					lists[i] = append(lists[i], c)
				}
			}
			rl = append(rl, retrieve.List{Name: names[i], IDs: lists[i]})
		}
		w := map[string]float64{}
		for _, n := range names {
			w[n] = []float64{0, 0.3, 1}[rng.Intn(3)]
		}
		w["passage"] = 1
		k := []float64{5, 10, 30}[rng.Intn(3)]
		q := NewTuneQuestion(names, lists, passage, nil)
		got := q.TopK(Fusion{RRFK: k, Weights: w}, 5, nil)
		fused, _, _ := retrieve.FuseLists(k, rl, w)
		var want []string
		for _, c := range fused {
			if len(want) == 5 {
				break
			}
			want = append(want, passage(c))
		}
		if len(want) == 0 {
			want = []string{}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d (k=%g, %v): TopK %v, fusion %v", trial, k, w, got, want)
		}
	}
}

func TestTuneQuestionDedupesPassages(t *testing.T) {
	// chunks 1 and 2 are one passage: it counts once, at its best rank.
	passage := map[int64]string{1: "a", 2: "a", 3: "b"}
	q := NewTuneQuestion([]string{"x"}, [][]int64{{2, 3, 1}}, func(c int64) string { return passage[c] }, []string{"a", "b"})
	if got := q.TopK(Fusion{RRFK: 10, Weights: map[string]float64{"x": 1}}, 5, nil); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Fatalf("TopK %v", got)
	}
	if r := MeanRecall([]TuneQuestion{q}, Fusion{RRFK: 10, Weights: map[string]float64{"x": 1}}, 1); r != 50 {
		t.Fatalf("Recall@1 %v, want 50", r)
	}
}

func TestGrid(t *testing.T) {
	g := Grid([]float64{10, 30}, map[string]float64{"passage": 1}, []string{"a", "b"}, []float64{0, 0.5, 1})
	if len(g) != 2*3*3 {
		t.Fatalf("%d settings", len(g))
	}
	seen := map[string]bool{}
	for _, f := range g {
		if f.Weights["passage"] != 1 {
			t.Fatalf("fixed weight lost: %v", f)
		}
		if seen[f.String()] {
			t.Fatalf("duplicate %v", f)
		}
		seen[f.String()] = true
	}
}
