package retrieve

import (
	"math"
	"reflect"
	"slices"
	"testing"
)

// Tests of the pure parts of retrieval: the fusion arithmetic, the ranking
// helper every graph list uses, and the question's name-like spans. They
// need no store.

// TestFuseLists pins FuseLists: score(id) = Σ weight / (rrfK + rank), rank
// 1-based; ids by descending score, ties in order of first appearance
// (list order, then rank); a list of weight 0, or named in no entry of a
// non-nil weights map, takes no part (no score, no rank); the weights map
// replaces the lists' own weights.
func TestFuseLists(t *testing.T) {
	passage := List{Name: "passage", Weight: 1, IDs: []int64{1, 2, 3}}
	topic := List{Name: "topic", Weight: 1.5, IDs: []int64{3, 4}}
	for _, tc := range []struct {
		name    string
		k       float64
		lists   []List
		weights map[string]float64
		ids     []int64
		score   map[int64]float64
		ranks   map[int64]map[string]int
	}{
		{name: "one list", k: 10, lists: []List{passage},
			ids:   []int64{1, 2, 3},
			score: map[int64]float64{1: 1.0 / 11, 2: 1.0 / 12, 3: 1.0 / 13},
			ranks: map[int64]map[string]int{1: {"passage": 1}, 2: {"passage": 2}, 3: {"passage": 3}}},
		{name: "rrfK 0", k: 0, lists: []List{passage},
			ids:   []int64{1, 2, 3},
			score: map[int64]float64{1: 1, 2: 0.5, 3: 1.0 / 3},
			ranks: map[int64]map[string]int{1: {"passage": 1}, 2: {"passage": 2}, 3: {"passage": 3}}},
		// 3: 1/13 + 1.5/11 ≈ .2133, 4: 1.5/12 = .125, 1: 1/11 ≈ .0909, 2: 1/12 ≈ .0833.
		{name: "weighted sum", k: 10, lists: []List{passage, topic},
			ids:   []int64{3, 4, 1, 2},
			score: map[int64]float64{1: 1.0 / 11, 2: 1.0 / 12, 3: 1.0/13 + 1.5/11, 4: 1.5 / 12},
			ranks: map[int64]map[string]int{1: {"passage": 1}, 2: {"passage": 2}, 3: {"passage": 3, "topic": 1}, 4: {"topic": 2}}},
		{name: "weight 0 takes no part", k: 10, lists: []List{{Name: "entity", Weight: 0, IDs: []int64{9, 1}}, passage},
			ids:   []int64{1, 2, 3},
			score: map[int64]float64{1: 1.0 / 11, 2: 1.0 / 12, 3: 1.0 / 13},
			ranks: map[int64]map[string]int{1: {"passage": 1}, 2: {"passage": 2}, 3: {"passage": 3}}},
		// The map gives topic 2 and names no passage: passage weighs 0.
		{name: "weights map replaces", k: 10, lists: []List{passage, topic}, weights: map[string]float64{"topic": 2, "ppr": 1},
			ids:   []int64{3, 4},
			score: map[int64]float64{3: 2.0 / 11, 4: 2.0 / 12},
			ranks: map[int64]map[string]int{3: {"topic": 1}, 4: {"topic": 2}}},
		{name: "weights map revives a weight-0 list", k: 10, lists: []List{{Name: "entity", Weight: 0, IDs: []int64{9}}}, weights: map[string]float64{"entity": 0.2},
			ids:   []int64{9},
			score: map[int64]float64{9: 0.2 / 11},
			ranks: map[int64]map[string]int{9: {"entity": 1}}},
		{name: "tie keeps first-list order", k: 10, lists: []List{{Name: "a", Weight: 1, IDs: []int64{5}}, {Name: "b", Weight: 1, IDs: []int64{6}}},
			ids:   []int64{5, 6},
			score: map[int64]float64{5: 1.0 / 11, 6: 1.0 / 11},
			ranks: map[int64]map[string]int{5: {"a": 1}, 6: {"b": 1}}},
		{name: "tie, lists swapped", k: 10, lists: []List{{Name: "b", Weight: 1, IDs: []int64{6}}, {Name: "a", Weight: 1, IDs: []int64{5}}},
			ids:   []int64{6, 5},
			score: map[int64]float64{5: 1.0 / 11, 6: 1.0 / 11},
			ranks: map[int64]map[string]int{5: {"a": 1}, 6: {"b": 1}}},
		{name: "no lists", k: 10, lists: []List{{Name: "passage", Weight: 1}},
			score: map[int64]float64{}, ranks: map[int64]map[string]int{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ids, score, ranks := FuseLists(tc.k, tc.lists, tc.weights)
			if !slices.Equal(ids, tc.ids) {
				t.Errorf("ids %v, want %v", ids, tc.ids)
			}
			if len(score) != len(tc.score) {
				t.Errorf("scores %v, want %v", score, tc.score)
			}
			for id, want := range tc.score {
				if got, ok := score[id]; !ok || math.Abs(got-want) > 1e-12 {
					t.Errorf("score[%d] = %v, want %v", id, got, want)
				}
			}
			if !reflect.DeepEqual(ranks, tc.ranks) {
				t.Errorf("ranks %v, want %v", ranks, tc.ranks)
			}
		})
	}
}

// TestTopByScore pins the ranking every graph list goes through: by
// descending score, ties to the id earlier in tiebreak (ids absent from it
// after those in it), then to the smaller id; ids scoring 0 or less are
// dropped; n > 0 caps the list.
func TestTopByScore(t *testing.T) {
	for _, tc := range []struct {
		name     string
		score    map[int64]float64
		n        int
		tiebreak []int64
		want     []int64
	}{
		{"by score", map[int64]float64{1: 0.2, 2: 0.9, 3: 0.5}, 0, nil, []int64{2, 3, 1}},
		{"tie by smaller id", map[int64]float64{7: 1, 3: 1, 5: 1}, 0, nil, []int64{3, 5, 7}},
		{"tie by tiebreak rank", map[int64]float64{7: 1, 3: 1, 5: 1}, 0, []int64{5, 7, 3}, []int64{5, 7, 3}},
		{"ids in tiebreak first", map[int64]float64{7: 1, 3: 1, 5: 1}, 0, []int64{7}, []int64{7, 3, 5}},
		{"score before tiebreak", map[int64]float64{1: 0.5, 2: 1}, 0, []int64{1, 2}, []int64{2, 1}},
		{"zero and negative dropped", map[int64]float64{1: 0, 2: -1, 3: 0.1}, 0, nil, []int64{3}},
		{"capped", map[int64]float64{1: 3, 2: 2, 3: 1}, 2, nil, []int64{1, 2}},
		{"empty", map[int64]float64{}, 5, nil, []int64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := topByScore(tc.score, tc.n, tc.tiebreak); !slices.Equal(got, tc.want) {
				t.Errorf("topByScore = %v, want %v", got, tc.want)
			}
		})
	}
}
