package walk

import (
	"math"
	"sort"
)

// Step is one edge of a path: from node From to node To over an arc
// labelled Label.
type Step struct {
	From, To int
	Label    int64
}

// Path is a simple path (no repeated node) as its node list and steps.
type Path struct {
	Nodes []int
	Steps []Step
	Score float64
}

// PathOptions bound path enumeration.
type PathOptions struct {
	MaxLen   int // maximum number of edges (1..6)
	PerNode  int // partial paths kept per frontier node on each side
	MaxPaths int // paths returned
	// Skip, when set, excludes nodes the search must not pass through
	// (for example passage nodes in a mixed graph); endpoints are never skipped.
	Skip func(node int) bool
}

// DefaultPaths are the defaults used by reasoning.
func DefaultPaths() PathOptions { return PathOptions{MaxLen: 3, PerNode: 4, MaxPaths: 20} }

type half struct {
	nodes []int
	steps []Step
}

// expand runs a bounded breadth-first search from the given nodes, keeping
// up to perNode partial paths ending at each node, depth at most depth.
func expand(g *Graph, from []int, depth, perNode int, skip func(int) bool, ends map[int]bool) map[int][]half {
	reach := map[int][]half{}
	var frontier []half
	for _, v := range from {
		if v < 0 || v >= g.N() || len(reach[v]) > 0 {
			continue
		}
		h := half{nodes: []int{v}}
		reach[v] = []half{h}
		frontier = append(frontier, h)
	}
	for d := 0; d < depth; d++ {
		var next []half
		for _, h := range frontier {
			v := h.nodes[len(h.nodes)-1]
			for _, a := range g.adj[v] {
				u := int(a.To)
				if contains(h.nodes, u) {
					continue
				}
				if skip != nil && skip(u) && !ends[u] {
					continue
				}
				if len(reach[u]) >= perNode {
					continue
				}
				nh := half{nodes: append(append([]int(nil), h.nodes...), u), steps: append(append([]Step(nil), h.steps...), Step{From: v, To: u, Label: a.Label})}
				reach[u] = append(reach[u], nh)
				next = append(next, nh)
			}
		}
		frontier = next
	}
	return reach
}

func contains(xs []int, v int) bool {
	for _, x := range xs {
		if x == v {
			return true
		}
	}
	return false
}

// Paths enumerates simple paths of at most opt.MaxLen edges from any node
// of from to any node of to, meeting in the middle: a forward search of
// ⌈L/2⌉ hops from the sources and a backward search of ⌊L/2⌋ hops from the
// targets, joined where they meet. Paths are deduplicated, shortest first,
// and capped at opt.MaxPaths (unscored: see ScorePaths).
func Paths(g *Graph, from, to []int, opt PathOptions) []Path {
	if opt.MaxLen <= 0 {
		opt.MaxLen = DefaultPaths().MaxLen
	}
	opt.MaxLen = min(opt.MaxLen, 6)
	if opt.PerNode <= 0 {
		opt.PerNode = DefaultPaths().PerNode
	}
	if opt.MaxPaths <= 0 {
		opt.MaxPaths = DefaultPaths().MaxPaths
	}
	ends := map[int]bool{}
	for _, v := range from {
		ends[v] = true
	}
	for _, v := range to {
		ends[v] = true
	}
	fwd := expand(g, from, (opt.MaxLen+1)/2, opt.PerNode, opt.Skip, ends)
	bwd := expand(g, to, opt.MaxLen/2, opt.PerNode, opt.Skip, ends)
	isFrom := map[int]bool{}
	for _, v := range from {
		isFrom[v] = true
	}
	seen := map[string]bool{}
	var out []Path
	// Deterministic order over meeting nodes.
	meet := make([]int, 0, len(fwd))
	for v := range fwd {
		if _, ok := bwd[v]; ok {
			meet = append(meet, v)
		}
	}
	sort.Ints(meet)
	for _, m := range meet {
		for _, f := range fwd[m] {
			for _, b := range bwd[m] {
				// b runs target → m; reverse it.
				nodes := append([]int(nil), f.nodes...)
				steps := append([]Step(nil), f.steps...)
				ok := true
				for i := len(b.steps) - 1; i >= 0; i-- {
					st := b.steps[i]
					u := st.From // node after st.To on the way to the target
					if contains(nodes, u) {
						ok = false
						break
					}
					nodes = append(nodes, u)
					steps = append(steps, Step{From: st.To, To: st.From, Label: st.Label})
				}
				if !ok || len(steps) == 0 || len(steps) > opt.MaxLen {
					continue
				}
				// A path whose end is also a source is a target reached by a
				// shorter path from that source: keep it (sources and targets
				// may overlap), but skip paths passing through another source
				// (a shorter one exists).
				through := false
				for _, v := range nodes[1 : len(nodes)-1] {
					if isFrom[v] {
						through = true
						break
					}
				}
				if through {
					continue
				}
				k := key(steps)
				if seen[k] {
					continue
				}
				seen[k] = true
				out = append(out, Path{Nodes: nodes, Steps: steps})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].Steps) < len(out[j].Steps) })
	if len(out) > opt.MaxPaths*4 {
		out = out[:opt.MaxPaths*4]
	}
	return out
}

func key(steps []Step) string {
	b := make([]byte, 0, len(steps)*24)
	for _, s := range steps {
		b = appendInt(b, int64(s.From))
		b = append(b, '>')
		b = appendInt(b, s.Label)
		b = append(b, '>')
		b = appendInt(b, int64(s.To))
		b = append(b, ';')
	}
	return string(b)
}

func appendInt(b []byte, v int64) []byte {
	if v < 0 {
		b = append(b, '-')
		v = -v
	}
	var tmp [20]byte
	i := len(tmp)
	for {
		i--
		tmp[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			break
		}
	}
	return append(b, tmp[i:]...)
}

// Agreement is, per node, √(forward·backward) random-walk mass normalised
// to a maximum of 1: high where the walk from the question side and the walk
// from the answer side both arrive.
func Agreement(forward, backward []float64) []float64 {
	out := make([]float64, len(forward))
	var mx float64
	for i := range forward {
		if i < len(backward) {
			out[i] = math.Sqrt(forward[i] * backward[i])
			mx = max(mx, out[i])
		}
	}
	if mx > 0 {
		for i := range out {
			out[i] /= mx
		}
	}
	return out
}

// ScorePaths sets each path's Score to the geometric mean of the nodes'
// agreement (see Agreement), so a path scores high only when every node on
// it carries mass from both ends, and sorts the paths best first (ties:
// shorter first). It keeps at most max paths (all when max ≤ 0).
func ScorePaths(paths []Path, agreement []float64, max int) []Path {
	for i := range paths {
		var logSum float64
		for _, v := range paths[i].Nodes {
			a := 0.0
			if v >= 0 && v < len(agreement) {
				a = agreement[v]
			}
			logSum += math.Log(a + 1e-9)
		}
		paths[i].Score = math.Exp(logSum / float64(len(paths[i].Nodes)))
	}
	sort.SliceStable(paths, func(i, j int) bool {
		if paths[i].Score != paths[j].Score {
			return paths[i].Score > paths[j].Score
		}
		return len(paths[i].Steps) < len(paths[j].Steps)
	})
	if max > 0 && len(paths) > max {
		paths = paths[:max]
	}
	return paths
}

// Structural finds and scores paths between from and to: PPR seeded by
// from (forward) and by to (backward), each divided by node degree, paths by
// Paths, scores by ScorePaths over their Agreement.
func Structural(g *Graph, from, to []int, ppr PPROptions, opt PathOptions) []Path {
	paths := Paths(g, from, to, opt)
	if len(paths) == 0 {
		return nil
	}
	seed := func(vs []int) map[int]float64 {
		m := map[int]float64{}
		for _, v := range vs {
			m[v] = 1
		}
		return m
	}
	f, _ := PPR(g, seed(from), ppr)
	b, _ := PPR(g, seed(to), ppr)
	// Undirected PageRank mass grows with degree (hubs collect it); divide
	// by the weighted degree so a generic hub does not look like agreement.
	for v := range f {
		if g.out[v] > 0 {
			f[v] /= g.out[v]
			b[v] /= g.out[v]
		}
	}
	if opt.MaxPaths <= 0 {
		opt.MaxPaths = DefaultPaths().MaxPaths
	}
	return ScorePaths(paths, Agreement(f, b), opt.MaxPaths)
}
