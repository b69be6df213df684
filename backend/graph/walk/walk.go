// Package walk holds Cairn's pure graph algorithms for answering questions:
// personalised PageRank over a sparse weighted graph (the entity–passage
// graph, HippoRAG/KAG style), bounded bidirectional path enumeration between
// two node sets, and path scoring by random-walk mass from both ends (the
// untrained analogue of RRP's forward/backward agreement). Nodes are dense
// integer indices chosen by the caller; nothing here knows about a database
// or a model.
package walk

import (
	"math"
)

// Arc is one directed half of an edge: the neighbour, the weight and the
// caller's label (a relation id, or 0 for an unlabelled link such as an
// entity mention).
type Arc struct {
	To     int32
	Weight float64
	Label  int64
}

// Graph is a sparse undirected weighted graph over nodes 0..N-1.
type Graph struct {
	adj [][]Arc
	out []float64 // sum of arc weights per node
}

// NewGraph returns an empty graph with n nodes.
func NewGraph(n int) *Graph {
	return &Graph{adj: make([][]Arc, n), out: make([]float64, n)}
}

// N is the number of nodes.
func (g *Graph) N() int { return len(g.adj) }

// AddNode appends a node and returns its index.
func (g *Graph) AddNode() int {
	g.adj = append(g.adj, nil)
	g.out = append(g.out, 0)
	return len(g.adj) - 1
}

// AddEdge adds an undirected edge a–b with weight w (> 0) and label. Self
// loops and non-positive weights are ignored.
func (g *Graph) AddEdge(a, b int, w float64, label int64) {
	if a == b || w <= 0 || a < 0 || b < 0 || a >= len(g.adj) || b >= len(g.adj) {
		return
	}
	g.adj[a] = append(g.adj[a], Arc{To: int32(b), Weight: w, Label: label})
	g.adj[b] = append(g.adj[b], Arc{To: int32(a), Weight: w, Label: label})
	g.out[a] += w
	g.out[b] += w
}

// Neighbours returns the arcs leaving node v.
func (g *Graph) Neighbours(v int) []Arc { return g.adj[v] }

// PPROptions tune personalised PageRank.
type PPROptions struct {
	// Damping is the probability of following an edge at each step (the
	// rest teleports back to the seeds). HippoRAG uses 0.5.
	Damping float64
	// Tol stops the iteration when the L1 change falls below it.
	Tol float64
	// MaxIter bounds the power iteration.
	MaxIter int
}

// DefaultPPR are the defaults used by retrieval.
func DefaultPPR() PPROptions { return PPROptions{Damping: 0.5, Tol: 1e-6, MaxIter: 50} }

// PPR returns the personalised PageRank vector of g for the given seed
// weights (node → weight, normalised here). Mass reaching a node without
// edges returns to the seeds. The result sums to 1 (or is all zero when no
// seed is valid). It also returns the number of iterations run.
func PPR(g *Graph, seeds map[int]float64, opt PPROptions) ([]float64, int) {
	n := g.N()
	r := make([]float64, n)
	s := make([]float64, n)
	var tot float64
	for v, w := range seeds {
		if v >= 0 && v < n && w > 0 && !math.IsInf(w, 0) && !math.IsNaN(w) {
			s[v] += w
			tot += w
		}
	}
	if tot == 0 {
		return r, 0
	}
	for i := range s {
		s[i] /= tot
	}
	if opt.Damping <= 0 || opt.Damping >= 1 {
		opt.Damping = DefaultPPR().Damping
	}
	if opt.MaxIter <= 0 {
		opt.MaxIter = DefaultPPR().MaxIter
	}
	if opt.Tol <= 0 {
		opt.Tol = DefaultPPR().Tol
	}
	copy(r, s)
	next := make([]float64, n)
	d := opt.Damping
	it := 0
	for it < opt.MaxIter {
		it++
		for i := range next {
			next[i] = 0
		}
		var dangling float64
		for v, mass := range r {
			if mass == 0 {
				continue
			}
			if g.out[v] == 0 {
				dangling += mass
				continue
			}
			f := d * mass / g.out[v]
			for _, a := range g.adj[v] {
				next[a.To] += f * a.Weight
			}
		}
		teleport := (1 - d) + d*dangling
		var diff float64
		for i := range next {
			next[i] += teleport * s[i]
			diff += math.Abs(next[i] - r[i])
		}
		r, next = next, r
		if diff < opt.Tol {
			break
		}
	}
	return r, it
}
