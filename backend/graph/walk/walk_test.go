package walk

import (
	"math"
	"math/rand"
	"testing"
)

func line(n int) *Graph {
	g := NewGraph(n)
	for i := 0; i+1 < n; i++ {
		g.AddEdge(i, i+1, 1, int64(100+i))
	}
	return g
}

func sum(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s
}

func TestPPR(t *testing.T) {
	// Two triangles joined by a bridge 2–3.
	bridge := func() *Graph {
		g := NewGraph(6)
		for _, e := range [][2]int{{0, 1}, {1, 2}, {0, 2}, {2, 3}, {3, 4}, {4, 5}, {3, 5}} {
			g.AddEdge(e[0], e[1], 1, 0)
		}
		return g
	}
	cases := []struct {
		name  string
		g     *Graph
		seeds map[int]float64
		check func(t *testing.T, r []float64)
	}{
		{"no seeds: all zero", line(3), nil, func(t *testing.T, r []float64) {
			if sum(r) != 0 {
				t.Fatalf("sum %v", sum(r))
			}
		}},
		{"invalid seeds ignored", line(3), map[int]float64{-1: 1, 7: 1, 1: math.NaN()}, func(t *testing.T, r []float64) {
			if sum(r) != 0 {
				t.Fatalf("sum %v", sum(r))
			}
		}},
		{"line: mass decays with distance", line(5), map[int]float64{0: 1}, func(t *testing.T, r []float64) {
			if math.Abs(sum(r)-1) > 1e-6 {
				t.Fatalf("sum %v", sum(r))
			}
			for i := 1; i < 5; i++ {
				if r[i] >= r[i-1] {
					t.Fatalf("r[%d]=%v >= r[%d]=%v", i, r[i], i-1, r[i-1])
				}
			}
		}},
		{"bridge: seeded side holds most mass", bridge(), map[int]float64{0: 1}, func(t *testing.T, r []float64) {
			if r[0]+r[1]+r[2] <= r[3]+r[4]+r[5] {
				t.Fatalf("%v", r)
			}
			if math.Abs(r[4]-r[5]) > 1e-9 {
				t.Fatalf("symmetric nodes differ: %v", r)
			}
		}},
		{"isolated seed keeps all mass", NewGraph(3), map[int]float64{1: 2}, func(t *testing.T, r []float64) {
			if math.Abs(r[1]-1) > 1e-9 || r[0] != 0 {
				t.Fatalf("%v", r)
			}
		}},
		{"weights steer the walk", func() *Graph {
			g := NewGraph(3)
			g.AddEdge(0, 1, 9, 0)
			g.AddEdge(0, 2, 1, 0)
			return g
		}(), map[int]float64{0: 1}, func(t *testing.T, r []float64) {
			if r[1] <= 5*r[2] {
				t.Fatalf("%v", r)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, _ := PPR(c.g, c.seeds, DefaultPPR())
			c.check(t, r)
		})
	}
}

// TestPPRStationary checks the fixed point r = (1-d)s + d·Pᵀr directly.
func TestPPRStationary(t *testing.T) {
	g := randomGraph(200, 800, 1)
	opt := PPROptions{Damping: 0.7, Tol: 1e-12, MaxIter: 500}
	r, it := PPR(g, map[int]float64{3: 1, 17: 1}, opt)
	if it >= opt.MaxIter {
		t.Fatalf("did not converge in %d", it)
	}
	next := make([]float64, g.N())
	var dangling float64
	for v := range r {
		if g.out[v] == 0 {
			dangling += r[v]
			continue
		}
		for _, a := range g.adj[v] {
			next[a.To] += opt.Damping * r[v] * a.Weight / g.out[v]
		}
	}
	for _, s := range []int{3, 17} {
		next[s] += ((1 - opt.Damping) + opt.Damping*dangling) / 2
	}
	for i := range r {
		if math.Abs(next[i]-r[i]) > 1e-9 {
			t.Fatalf("node %d: %v vs %v", i, r[i], next[i])
		}
	}
}

func randomGraph(n, m int, seed int64) *Graph {
	rnd := rand.New(rand.NewSource(seed))
	g := NewGraph(n)
	for i := 0; i < m; i++ {
		g.AddEdge(rnd.Intn(n), rnd.Intn(n), 1+rnd.Float64(), int64(i+1))
	}
	return g
}

func TestPaths(t *testing.T) {
	// 0 -a- 1 -b- 2 -c- 3, and a shortcut 0 -d- 4 -e- 3, and a dead end 1 - 5.
	g := NewGraph(6)
	g.AddEdge(0, 1, 1, 1)
	g.AddEdge(1, 2, 1, 2)
	g.AddEdge(2, 3, 1, 3)
	g.AddEdge(0, 4, 1, 4)
	g.AddEdge(4, 3, 1, 5)
	g.AddEdge(1, 5, 1, 6)
	cases := []struct {
		name     string
		from, to []int
		maxLen   int
		want     [][]int
	}{
		{"direct neighbour", []int{0}, []int{1}, 3, [][]int{{0, 1}}},
		{"two hops only", []int{0}, []int{3}, 2, [][]int{{0, 4, 3}}},
		{"both routes within three", []int{0}, []int{3}, 3, [][]int{{0, 4, 3}, {0, 1, 2, 3}}},
		{"no path within one", []int{0}, []int{3}, 1, nil},
		{"unreachable node", []int{5}, []int{4}, 2, nil},
		{"several targets", []int{0}, []int{5, 4}, 2, [][]int{{0, 4}, {0, 1, 5}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Paths(g, c.from, c.to, PathOptions{MaxLen: c.maxLen, PerNode: 8, MaxPaths: 10})
			if len(got) != len(c.want) {
				t.Fatalf("got %d paths %v, want %v", len(got), nodesOf(got), c.want)
			}
			for i, w := range c.want {
				if !equal(got[i].Nodes, w) {
					t.Fatalf("path %d = %v, want %v (all %v)", i, got[i].Nodes, w, nodesOf(got))
				}
				for j, s := range got[i].Steps {
					if s.From != got[i].Nodes[j] || s.To != got[i].Nodes[j+1] {
						t.Fatalf("step %d %+v does not follow nodes %v", j, s, got[i].Nodes)
					}
				}
			}
		})
	}
}

func TestPathsSkip(t *testing.T) {
	g := NewGraph(4)
	g.AddEdge(0, 1, 1, 1) // 1 is a passage node: not to be walked through
	g.AddEdge(1, 3, 1, 2)
	g.AddEdge(0, 2, 1, 3)
	g.AddEdge(2, 3, 1, 4)
	got := Paths(g, []int{0}, []int{3}, PathOptions{MaxLen: 2, Skip: func(v int) bool { return v == 1 }})
	if len(got) != 1 || !equal(got[0].Nodes, []int{0, 2, 3}) {
		t.Fatalf("%v", nodesOf(got))
	}
}

func TestStructuralPrefersAgreedPath(t *testing.T) {
	// Source 0, target 5. Route A: 0-1-5 where 1 is a hub with many leaves
	// (its mass leaks away). Route B: 0-2-5 through a quiet node.
	g := NewGraph(30)
	g.AddEdge(0, 1, 1, 1)
	g.AddEdge(1, 5, 1, 2)
	g.AddEdge(0, 2, 1, 3)
	g.AddEdge(2, 5, 1, 4)
	for leaf := 10; leaf < 30; leaf++ {
		g.AddEdge(1, leaf, 1, int64(leaf))
	}
	got := Structural(g, []int{0}, []int{5}, DefaultPPR(), DefaultPaths())
	if len(got) != 2 {
		t.Fatalf("%v", nodesOf(got))
	}
	if !equal(got[0].Nodes, []int{0, 2, 5}) || got[0].Score <= got[1].Score {
		t.Fatalf("want quiet route first: %+v", got)
	}
	if got[0].Score > 1 || got[1].Score <= 0 {
		t.Fatalf("scores out of (0,1]: %+v", got)
	}
}

func TestAgreement(t *testing.T) {
	a := Agreement([]float64{0.5, 0.25, 0}, []float64{0, 0.25, 0.5})
	if a[0] != 0 || a[2] != 0 || a[1] != 1 {
		t.Fatalf("%v", a)
	}
}

func nodesOf(ps []Path) [][]int {
	var out [][]int
	for _, p := range ps {
		out = append(out, p.Nodes)
	}
	return out
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// BenchmarkPPR: a graph the size of a large project's entity–passage graph.
func BenchmarkPPR(b *testing.B) {
	g := randomGraph(50000, 250000, 2)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		PPR(g, map[int]float64{1: 1, 2: 1, 3: 1}, DefaultPPR())
	}
}

func BenchmarkStructural(b *testing.B) {
	g := randomGraph(20000, 60000, 3)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Structural(g, []int{1, 2}, []int{300, 400, 500}, DefaultPPR(), DefaultPaths())
	}
}
