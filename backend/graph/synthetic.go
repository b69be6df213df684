package graph

import (
	"fmt"
	"math/rand/v2"
)

// SyntheticSkeleton is a generated graph shaped like extracted ones, for
// benchmarks at sizes real libraries reach: n entities over docs documents,
// about perNode relations per entity by preferential attachment (a few hubs,
// many leaves), one in ten of them stated, the rest co-occurrences.
// Deterministic for a seed.
func SyntheticSkeleton(n int, perNode float64, docs int, seed uint64) Skeleton {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	types := []string{"organisation", "person", "place", "concept", "law", "event", "other"}
	s := Skeleton{Nodes: make([]Node, 0, n)}
	var ends []int64
	for i := 1; i <= n; i++ {
		d := int64(1 + r.IntN(max(1, docs)))
		t := types[int(float64(len(types))*r.Float64()*r.Float64())]
		s.Nodes = append(s.Nodes, Node{ID: int64(i), Name: fmt.Sprintf("%s %d", t, i), Type: t, Docs: []DocCount{{d, 1 + r.IntN(4)}}})
		if i == 1 {
			continue
		}
		m := max(1, int(perNode*(0.5+r.Float64())+0.5))
		for k := 0; k < m; k++ {
			j := int64(1 + r.IntN(i-1))
			if len(ends) > 0 && r.Float64() < 0.8 {
				j = ends[r.IntN(len(ends))]
			}
			if j == int64(i) {
				continue
			}
			s.Edges = append(s.Edges, Edge{ID: int64(len(s.Edges) + 1), From: int64(i), To: j, Stated: r.IntN(10) == 0, Docs: []DocCount{{d, 1}}})
			ends = append(ends, int64(i), j)
		}
	}
	return s
}
