package reason

import (
	"math"
	"sort"
	"strings"

	"cairn/backend/embed"
	"cairn/backend/graph/walk"
	"cairn/backend/kb"
	"cairn/backend/relphrase"
	"cairn/backend/vecindex"
)

// Chain is a relation chain the model proposes for a question (semantic
// path), e.g. ["director of", "mother of"].
type Chain struct {
	Predicates []string `json:"predicates"`
}

// entityGraph is the subgraph as a walk.Graph with entity nodes.
type entityGraph struct {
	g     *walk.Graph
	node  map[int64]int
	ids   []int64
	names map[int64]string
	rel   map[int64]kb.Relation
}

func newEntityGraph(sub kb.Graph) *entityGraph {
	eg := &entityGraph{g: walk.NewGraph(0), node: map[int64]int{}, names: map[int64]string{}, rel: map[int64]kb.Relation{}}
	add := func(id int64) int {
		if v, ok := eg.node[id]; ok {
			return v
		}
		v := eg.g.AddNode()
		eg.node[id] = v
		eg.ids = append(eg.ids, id)
		return v
	}
	for _, e := range sub.Entities {
		add(e.ID)
		eg.names[e.ID] = e.Name
	}
	for _, r := range sub.Relations {
		if len(r.Sources) == 0 {
			continue // an edge without a source is never shown
		}
		eg.rel[r.ID] = r
		if eg.names[r.Subject] == "" {
			eg.names[r.Subject] = r.SubjectName
		}
		if eg.names[r.Object] == "" {
			eg.names[r.Object] = r.ObjectName
		}
		eg.g.AddEdge(add(r.Subject), add(r.Object), math.Max(r.Confidence, 0.1), r.ID)
	}
	return eg
}

func (eg *entityGraph) nodes(ids []int64) []int {
	var out []int
	for _, id := range ids {
		if v, ok := eg.node[id]; ok {
			out = append(out, v)
		}
	}
	return out
}

// pathOf turns a walk path into a kb.Path: node names in walk order, each
// edge the relation as stated (subject → object) with its source, preferring
// a source among the evidence chunks.
func (eg *entityGraph) pathOf(p walk.Path, evidence map[int64]bool) (kb.Path, bool) {
	out := kb.Path{Nodes: []string{}, Edges: []kb.PathEdge{}}
	for _, v := range p.Nodes {
		out.Nodes = append(out.Nodes, eg.names[eg.ids[v]])
	}
	for _, st := range p.Steps {
		r, ok := eg.rel[st.Label]
		if !ok || len(r.Sources) == 0 {
			return out, false
		}
		src := r.Sources[0]
		for _, s := range r.Sources {
			if evidence[s.ChunkID] {
				src = s
				break
			}
		}
		e := kb.PathEdge{From: r.SubjectName, To: r.ObjectName, Predicate: r.Predicate, Relation: r.ID, Source: src}
		if r.Predicate == relphrase.CoOccurs && r.Statement != "" {
			// No phrase states the relation: the joining sentence labels it.
			e.Predicate, e.Sentence = relphrase.Quote(r.Statement), kb.OneLine(r.Statement)
		}
		out.Edges = append(out.Edges, e)
	}
	return out, len(out.Edges) > 0
}

// structuralPaths finds paths from the question entities to the candidate
// answer entities over the subgraph, scored by walk agreement.
func structuralPaths(eg *entityGraph, from, to []int64, evidence map[int64]bool, max int) []kb.Path {
	src, dst := eg.nodes(from), eg.nodes(to)
	if len(src) == 0 || len(dst) == 0 {
		return nil
	}
	opt := walk.DefaultPaths()
	opt.MaxPaths = max * 2
	var out []kb.Path
	for _, p := range walk.Structural(eg.g, src, dst, walk.DefaultPPR(), opt) {
		if kp, ok := eg.pathOf(p, evidence); ok {
			kp.Structural = p.Score
			out = append(out, kp)
		}
	}
	return out
}

// predicateSim is the fuzzy match of a proposed predicate and a relation's
// predicate: the larger of stemmed-word Jaccard and hashed-vector cosine.
func predicateSim(h *embed.Hashed, a, b string) float64 {
	wa, wb := embed.Words(a), embed.Words(b)
	inter := 0
	set := map[string]bool{}
	for _, w := range wa {
		set[w] = true
	}
	for _, w := range wb {
		if set[w] {
			inter++
		}
	}
	jac := 0.0
	if u := len(wa) + len(wb) - inter; u > 0 {
		jac = float64(inter) / float64(u)
	}
	return math.Max(jac, vecindex.Dot(h.Vector(a), h.Vector(b)))
}

// groundChains instantiates each proposed relation chain on the graph from
// the question entities, following at each hop the edges whose predicate
// matches fuzzily (≥ minSim); a grounded path's semantic score is the mean
// match. Beam of 5 per chain.
func groundChains(h *embed.Hashed, eg *entityGraph, chains []Chain, from []int64, evidence map[int64]bool, minSim float64) []kb.Path {
	type partial struct {
		p   walk.Path
		sim float64
	}
	var out []kb.Path
	for _, ch := range chains {
		if len(ch.Predicates) == 0 || len(ch.Predicates) > 4 {
			continue
		}
		var beam []partial
		for _, v := range eg.nodes(from) {
			beam = append(beam, partial{p: walk.Path{Nodes: []int{v}}})
		}
		for _, pred := range ch.Predicates {
			var next []partial
			for _, b := range beam {
				last := b.p.Nodes[len(b.p.Nodes)-1]
				for _, a := range eg.g.Neighbours(last) {
					if containsInt(b.p.Nodes, int(a.To)) {
						continue
					}
					r := eg.rel[a.Label]
					s := predicateSim(h, pred, r.Predicate)
					if s < minSim {
						continue
					}
					np := walk.Path{Nodes: append(append([]int(nil), b.p.Nodes...), int(a.To)),
						Steps: append(append([]walk.Step(nil), b.p.Steps...), walk.Step{From: last, To: int(a.To), Label: a.Label})}
					next = append(next, partial{p: np, sim: b.sim + s})
				}
			}
			sort.SliceStable(next, func(i, j int) bool { return next[i].sim > next[j].sim })
			if len(next) > 5 {
				next = next[:5]
			}
			beam = next
		}
		for _, b := range beam {
			if kp, ok := eg.pathOf(b.p, evidence); ok {
				kp.Semantic = b.sim / float64(len(ch.Predicates))
				out = append(out, kp)
			}
		}
	}
	return out
}

func containsInt(xs []int, v int) bool {
	for _, x := range xs {
		if x == v {
			return true
		}
	}
	return false
}

func pathText(p kb.Path) string {
	var b strings.Builder
	for i, e := range p.Edges {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(e.From + " " + e.Predicate + " " + e.To)
	}
	return b.String()
}

func pathKey(p kb.Path) string {
	var b strings.Builder
	for _, e := range p.Edges {
		b.WriteString(strings.ToLower(e.From + "|" + e.Predicate + "|" + e.To + ";"))
	}
	return b.String()
}

// Rethink scores every path S = λ1·semantic + λ2·structural, where a path
// without a model-given semantic score gets the cosine between the question
// and the path's text, merges duplicates (keeping the best parts of each),
// drops paths under θ and returns the rest best first (at most max), each
// through other nodes than the ones before it (of paths with the same
// nodes, on other relations, the best stands for all).
func Rethink(h *embed.Hashed, question string, paths []kb.Path, lambda1, lambda2, theta float64, max int) []kb.Path {
	return rethink(h, h.Vector(question), paths, lambda1, lambda2, theta, max)
}

// rethink is Rethink with the question's vector qv.
func rethink(h *embed.Hashed, qv []float32, paths []kb.Path, lambda1, lambda2, theta float64, max int) []kb.Path {
	merged := map[string]*kb.Path{}
	var order []string
	for _, p := range paths {
		k := pathKey(p)
		if m, ok := merged[k]; ok {
			m.Semantic = math.Max(m.Semantic, p.Semantic)
			m.Structural = math.Max(m.Structural, p.Structural)
			continue
		}
		cp := p
		merged[k] = &cp
		order = append(order, k)
	}
	var out []kb.Path
	for _, k := range order {
		p := merged[k]
		sem := math.Max(p.Semantic, vecindex.Dot(qv, h.Vector(pathText(*p))))
		p.Semantic = round3(sem)
		p.Structural = round3(p.Structural)
		p.Score = round3(lambda1*sem + lambda2*p.Structural)
		if p.Score >= theta {
			out = append(out, *p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return len(out[i].Edges) < len(out[j].Edges)
	})
	out = distinctNodes(out)
	if max > 0 && len(out) > max {
		out = out[:max]
	}
	return out
}

// distinctNodes keeps the first of the paths through the same nodes.
func distinctNodes(paths []kb.Path) []kb.Path {
	seen := map[string]bool{}
	var out []kb.Path
	for _, p := range paths {
		k := nodesKey(p)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, p)
	}
	return out
}

// nodesKey is a path's node chain, case and spacing folded.
func nodesKey(p kb.Path) string {
	var b strings.Builder
	for _, n := range p.Nodes {
		b.WriteString(strings.ToLower(strings.Join(strings.Fields(n), " ")))
		b.WriteString("\x00")
	}
	return b.String()
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
