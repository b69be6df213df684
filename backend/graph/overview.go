package graph

import (
	"math"
	"slices"
	"sort"
	"strings"

	"cairn/backend/kb"
	"cairn/backend/relphrase"
)

// The explorer at library scale: a skeleton of the graph (ids, names,
// types, the documents each entity and relation comes from, no text), the
// centrality of its entities, their groups, and the bounded views the Graph
// view opens on (the most central entities of a scope, a node's
// neighbourhood, a name search). All pure: the store fills the skeleton.

// Node is an entity of the skeleton: Docs are the documents that mention
// it, each with its number of mentions there.
type Node struct {
	ID   int64
	Name string
	Type string
	Docs []DocCount
}

// Edge is a relation of the skeleton: Stated is false for co-occurrence
// (relphrase.CoOccurs), Docs the documents of its sources with their counts.
type Edge struct {
	ID       int64
	From, To int64
	Stated   bool
	Docs     []DocCount
}

// DocCount is a number of rows (mentions, sources) in one document.
type DocCount struct {
	Doc int64 `json:"doc"`
	N   int   `json:"n"`
}

// Skeleton is the whole graph without text, enough to rank and select.
type Skeleton struct {
	Nodes []Node
	Edges []Edge
}

// IsStated says whether a predicate states something (false: the two
// entities only appear in one sentence).
func IsStated(predicate string) bool { return predicate != relphrase.CoOccurs }

// Kind weights: a relation a sentence states counts ten times a
// co-occurrence, so the view prefers stated relations wherever there are
// any, and a graph of co-occurrences alone still ranks by them.
const (
	StatedWeight       = 1.0
	CoOccurrenceWeight = 0.1
)

// Scope selects part of a skeleton: entities mentioned in one of Docs (none:
// all) whose type is one of Types (none: all); relations with a source in
// Docs between two kept entities.
type Scope struct {
	Docs  []int64  `json:"docs"`
	Types []string `json:"types"`
}

// Scoped is a skeleton restricted to a scope, in index form: entity i's
// arcs are in G (Arcs merges them per neighbour), centrality and group per
// index.
type Scoped struct {
	Nodes   []Node
	Edges   []Edge        // the edges kept, Docs reduced to the scope's
	Mention []int         // mentions per node in scope
	G       CSR           // one arc each way per edge (parallel edges stay apart)
	Index   map[int64]int // entity id → index
	Score   []float64     // centrality (sums to 1 over the nodes)
	Group   []int         // index of the group's leader (its most central member)
	Types   []TypeCount   // entity types in scope, commonest first (before the type filter)
	Docs    []DocCount    // entities per document in scope
	Stated  int           // stated relations in scope

	rank      []int
	groupSize map[int]int
}

// CSR is an undirected weighted graph in compressed rows: node i's arcs
// go to To[Off[i]:Off[i+1]] with weights W and edges E at the same places.
type CSR struct {
	Off []int32
	To  []int32
	W   []float64
	E   []int32
}

// Arc is one neighbour of a node: its index, the weight of all the edges
// between them, and those edges (indices into Scoped.Edges).
type Arc struct {
	To     int
	Weight float64
	Edges  []int
}

// TypeCount is a number of entities of one type.
type TypeCount struct {
	Type string `json:"type"`
	N    int    `json:"n"`
}

func sum(ds []DocCount, in map[int64]bool) int {
	n := 0
	for _, d := range ds {
		if in == nil || in[d.Doc] {
			n += d.N
		}
	}
	return n
}

func keepDocs(ds []DocCount, in map[int64]bool) []DocCount {
	if in == nil {
		return ds
	}
	var out []DocCount
	for _, d := range ds {
		if in[d.Doc] {
			out = append(out, d)
		}
	}
	return out
}

// EdgeWeight is what one relation adds between its ends: its kind's weight
// times one plus the log of its number of sources.
func EdgeWeight(e Edge, in map[int64]bool) float64 {
	w := CoOccurrenceWeight
	if e.Stated {
		w = StatedWeight
	}
	return w * (1 + math.Log(float64(max(1, sum(e.Docs, in)))))
}

// Restrict applies a scope to a skeleton and ranks what is left: weighted
// PageRank centrality (Centrality) and groups (Groups).
func Restrict(s Skeleton, sc Scope) *Scoped {
	var in map[int64]bool
	if len(sc.Docs) > 0 {
		in = make(map[int64]bool, len(sc.Docs))
		for _, d := range sc.Docs {
			in[d] = true
		}
	}
	types := map[string]bool{}
	for _, t := range sc.Types {
		types[t] = true
	}
	out := &Scoped{Index: map[int64]int{}}
	typeN := map[string]int{}
	docN := map[int64]int{}
	for _, n := range s.Nodes {
		m := sum(n.Docs, in)
		if m == 0 {
			continue
		}
		t := n.Type
		if t == "" {
			t = "other"
		}
		typeN[t]++
		ds := keepDocs(n.Docs, in)
		for _, d := range ds {
			docN[d.Doc]++
		}
		if len(types) > 0 && !types[t] {
			continue
		}
		n.Type = t
		n.Docs = ds
		out.Index[n.ID] = len(out.Nodes)
		out.Nodes = append(out.Nodes, n)
		out.Mention = append(out.Mention, m)
	}
	deg := make([]int32, len(out.Nodes)+1)
	type arc struct {
		a, b int32
		w    float64
	}
	var kept []arc
	for _, e := range s.Edges {
		a, ok1 := out.Index[e.From]
		b, ok2 := out.Index[e.To]
		if !ok1 || !ok2 || a == b || sum(e.Docs, in) == 0 {
			continue
		}
		w := EdgeWeight(e, in)
		e.Docs = keepDocs(e.Docs, in)
		out.Edges = append(out.Edges, e)
		if e.Stated {
			out.Stated++
		}
		kept = append(kept, arc{int32(a), int32(b), w})
		deg[a+1]++
		deg[b+1]++
	}
	for i := 1; i < len(deg); i++ {
		deg[i] += deg[i-1]
	}
	g := CSR{Off: deg, To: make([]int32, deg[len(deg)-1]), W: make([]float64, deg[len(deg)-1]), E: make([]int32, deg[len(deg)-1])}
	fill := append([]int32(nil), deg[:len(deg)-1]...)
	put := func(a, b int32, w float64, ei int) {
		k := fill[a]
		fill[a]++
		g.To[k], g.W[k], g.E[k] = b, w, int32(ei)
	}
	for ei, k := range kept {
		put(k.a, k.b, k.w, ei)
		put(k.b, k.a, k.w, ei)
	}
	out.G = g
	for t, n := range typeN {
		out.Types = append(out.Types, TypeCount{t, n})
	}
	sort.Slice(out.Types, func(i, j int) bool {
		a, b := out.Types[i], out.Types[j]
		return a.N > b.N || a.N == b.N && a.Type < b.Type
	})
	for d, n := range docN {
		out.Docs = append(out.Docs, DocCount{d, n})
	}
	sort.Slice(out.Docs, func(i, j int) bool { return out.Docs[i].Doc < out.Docs[j].Doc })
	out.Score = Centrality(out.G, out.Mention)
	out.Group = out.ownLeaders(Groups(out.G, out.Score))
	return out
}

// ownLeaders names each group led by an entity most of the scope's
// documents mention after its most central member that is not one (the
// group around "U.S." in a library of filings is led by the company it
// gathers), when it has such a member.
func (s *Scoped) ownLeaders(group []int) []int {
	own := map[int]int{} // leader → most central member that is not common
	for _, i := range byScore(s.Score) {
		if _, ok := own[group[i]]; !ok && !s.common(i) {
			own[group[i]] = i
		}
	}
	for i, l := range group {
		if o, ok := own[l]; ok && s.common(l) {
			group[i] = o
		}
	}
	return group
}

// Centrality is weighted PageRank over an undirected graph (damping 0.85,
// 40 rounds or until it moves less than 1e-7): a node is central when
// central nodes are joined to it by heavy edges. A node's teleport share is
// proportional to its mentions (an entity named often matters even with
// few relations); a node without edges gives its rank back to all by that
// share. The scores sum to 1.
func Centrality(g CSR, mentions []int) []float64 {
	n := len(g.Off) - 1
	if n <= 0 {
		return nil
	}
	tele := make([]float64, n)
	total := 0.0
	for i := range tele {
		m := 1.0
		if i < len(mentions) && mentions[i] > 0 {
			m = float64(mentions[i])
		}
		tele[i] = math.Log1p(m)
		total += tele[i]
	}
	for i := range tele {
		tele[i] /= total
	}
	wsum := make([]float64, n)
	for i := 0; i < n; i++ {
		for k := g.Off[i]; k < g.Off[i+1]; k++ {
			wsum[i] += g.W[k]
		}
	}
	out := make([]float64, n)
	copy(out, tele)
	next := make([]float64, n)
	const d = 0.85
	for round := 0; round < 40; round++ {
		dangling := 0.0
		for i := range next {
			next[i] = 0
			if wsum[i] == 0 {
				dangling += out[i]
			}
		}
		for i := 0; i < n; i++ {
			if wsum[i] == 0 {
				continue
			}
			share := out[i] / wsum[i]
			to, w := g.To[g.Off[i]:g.Off[i+1]], g.W[g.Off[i]:g.Off[i+1]]
			for k, j := range to {
				next[j] += share * w[k]
			}
		}
		diff := 0.0
		for i := range next {
			v := (1-d)*tele[i] + d*(next[i]+dangling*tele[i])
			diff += math.Abs(v - out[i])
			next[i] = v
		}
		out, next = next, out
		if diff < 1e-7 {
			break
		}
	}
	return out
}

// Groups labels each node with the index of its group's leader by weighted
// label propagation: nodes in order of centrality (most central first) take
// the label that weighs most among their neighbours (ties: the label whose
// leader is more central), until nothing changes or 6 sweeps; a group's
// leader is then its most central member. Deterministic.
func Groups(g CSR, score []float64) []int {
	n := len(g.Off) - 1
	if n <= 0 {
		return nil
	}
	order := byScore(score)
	label := make([]int, n)
	for i := range label {
		label[i] = i
	}
	better := func(a, b int) bool { // label a's seed ranks before label b's
		return score[a] > score[b] || score[a] == score[b] && a < b
	}
	w := make([]float64, n) // weight per label, reset through touched
	var touched []int
	for sweep := 0; sweep < 6; sweep++ {
		changed := false
		for _, i := range order {
			if g.Off[i] == g.Off[i+1] {
				continue
			}
			touched = touched[:0]
			for k := g.Off[i]; k < g.Off[i+1]; k++ {
				l := label[g.To[k]]
				if w[l] == 0 {
					touched = append(touched, l)
				}
				w[l] += g.W[k]
			}
			best, bw := label[i], w[label[i]]
			for _, l := range touched {
				x := w[l]
				if x > bw+1e-12 || math.Abs(x-bw) <= 1e-12 && better(l, best) {
					best, bw = l, x
				}
			}
			for _, l := range touched {
				w[l] = 0
			}
			if best != label[i] {
				label[i] = best
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	// the leader of a group is its most central member
	lead := map[int]int{}
	for _, i := range order {
		if _, ok := lead[label[i]]; !ok {
			lead[label[i]] = i
		}
	}
	out := make([]int, n)
	for i := range out {
		out[i] = lead[label[i]]
	}
	return out
}

// byScore is the node indices, highest score first (ties: lower index).
func byScore(score []float64) []int {
	order := make([]int, len(score))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool {
		x, y := score[order[a]], score[order[b]]
		return x > y || x == y && order[a] < order[b]
	})
	return order
}

// Arcs is node i's neighbours, one Arc per neighbour with the summed
// weight and every edge between them.
func (s *Scoped) Arcs(i int) []Arc {
	at := map[int32]int{}
	var out []Arc
	for k := s.G.Off[i]; k < s.G.Off[i+1]; k++ {
		j := s.G.To[k]
		x, ok := at[j]
		if !ok {
			x = len(out)
			at[j] = x
			out = append(out, Arc{To: int(j)})
		}
		out[x].Weight += s.G.W[k]
		out[x].Edges = append(out[x].Edges, int(s.G.E[k]))
	}
	return out
}

// Pick is a bounded view: the nodes chosen (indices into Scoped.Nodes, most
// central first) and the edges drawn between them (indices into
// Scoped.Edges).
type Pick struct {
	Nodes []int
	Edges []int
	// Of is how many candidates there were (the scope's entities for an
	// overview, a node's neighbours for a neighbourhood).
	Of int
}

// Top picks the limit most central nodes, plus the nodes of focus (always
// kept, at the front), and the edges among them (Backbone).
func (s *Scoped) Top(limit int, focus []int) Pick {
	p := Pick{Of: len(s.Nodes)}
	seen := map[int]bool{}
	for _, i := range focus {
		if i >= 0 && i < len(s.Nodes) && !seen[i] && len(p.Nodes) < limit {
			seen[i] = true
			p.Nodes = append(p.Nodes, i)
		}
	}
	// An entity most documents of a library mention (the country every
	// filing names, the form it is filed on) tells none of them apart:
	// the overview opens on the others, those come after them.
	order := byScore(s.Score)
	for _, common := range []bool{false, true} {
		for _, i := range order {
			if len(p.Nodes) >= limit {
				break
			}
			if !seen[i] && s.common(i) == common {
				seen[i] = true
				p.Nodes = append(p.Nodes, i)
			}
		}
	}
	p.Edges = s.Backbone(p.Nodes, 2*len(p.Nodes))
	return p
}

// commonDocs: in a scope of at least this many documents, an entity
// mentioned in more than half of them is the library's, not one
// document's.
const commonDocs = 4

// common reports whether node i is mentioned in more than half of the
// scope's documents, and the scope holds at least commonDocs.
func (s *Scoped) common(i int) bool {
	return len(s.Docs) >= commonDocs && 2*len(s.Nodes[i].Docs) > len(s.Docs)
}

// Neighbours picks node i and its limit heaviest neighbours (weight of the
// edges between them, stated relations first by their kind weight; ties:
// the more central), plus the edges among them.
func (s *Scoped) Neighbours(i, limit int) Pick {
	arcs := s.Arcs(i)
	sort.SliceStable(arcs, func(a, b int) bool {
		x, y := arcs[a], arcs[b]
		if x.Weight != y.Weight {
			return x.Weight > y.Weight
		}
		return s.Score[x.To] > s.Score[y.To]
	})
	p := Pick{Nodes: []int{i}, Of: len(arcs)}
	for _, a := range arcs[:min(limit, len(arcs))] {
		p.Nodes = append(p.Nodes, a.To)
	}
	p.Edges = s.Backbone(p.Nodes, 2*len(p.Nodes))
	return p
}

// Backbone chooses at most maxEdges of the edges among nodes so a reader
// sees structure, not a hairball: edges in order of their kind (stated
// first), then weight; first every node gets its two best, then the rest
// fill up to maxEdges. Between two nodes only the best edge is drawn.
func (s *Scoped) Backbone(nodes []int, maxEdges int) []int {
	in := make(map[int]bool, len(nodes))
	for _, i := range nodes {
		in[i] = true
	}
	type cand struct {
		a, b   int
		edge   int
		stated bool
		w      float64
	}
	var cs []cand
	for _, a := range nodes {
		for _, arc := range s.Arcs(a) {
			if !in[arc.To] || arc.To < a {
				continue
			}
			best, stated := arc.Edges[0], false
			for _, ei := range arc.Edges {
				if s.Edges[ei].Stated && !stated {
					best, stated = ei, true
				}
			}
			cs = append(cs, cand{a, arc.To, best, stated, arc.Weight})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool {
		x, y := cs[i], cs[j]
		if x.stated != y.stated {
			return x.stated
		}
		if x.w != y.w {
			return x.w > y.w
		}
		return s.Edges[x.edge].ID < s.Edges[y.edge].ID
	})
	deg := map[int]int{}
	taken := make([]bool, len(cs))
	var out []int
	for k, c := range cs {
		if len(out) >= maxEdges {
			break
		}
		if deg[c.a] < 2 || deg[c.b] < 2 {
			taken[k] = true
			deg[c.a]++
			deg[c.b]++
			out = append(out, c.edge)
		}
	}
	for k, c := range cs {
		if len(out) >= maxEdges {
			break
		}
		if !taken[k] {
			out = append(out, c.edge)
		}
	}
	return out
}

// Hit is a search result: a node index and how well its name matched (0
// exact, 1 prefix, 2 a word's prefix, 3 elsewhere).
type Hit struct {
	Node  int
	Match int
}

// Search finds the nodes whose name contains query (case- and
// space-insensitive), best match first, then the most central; at most
// limit.
func (s *Scoped) Search(query string, limit int) []Hit {
	q := strings.Join(strings.Fields(strings.ToLower(query)), " ")
	if q == "" {
		return nil
	}
	var hs []Hit
	for i, n := range s.Nodes {
		name := strings.Join(strings.Fields(strings.ToLower(n.Name)), " ")
		at := strings.Index(name, q)
		if at < 0 {
			continue
		}
		m := 3
		switch {
		case name == q:
			m = 0
		case at == 0:
			m = 1
		case wordStart(name, q):
			m = 2
		}
		hs = append(hs, Hit{i, m})
	}
	sort.SliceStable(hs, func(a, b int) bool {
		if hs[a].Match != hs[b].Match {
			return hs[a].Match < hs[b].Match
		}
		return s.Score[hs[a].Node] > s.Score[hs[b].Node]
	})
	return hs[:min(limit, len(hs))]
}

// wordStart says whether q begins a word of name (after a space or a
// punctuation mark).
func wordStart(name, q string) bool {
	for i := 1; i < len(name); i++ {
		c := name[i-1]
		if (c == ' ' || c == '-' || c == '(' || c == '/' || c == '.' || c == ',') && strings.HasPrefix(name[i:], q) {
			return true
		}
	}
	return false
}

// View is what the Graph view draws: a bounded set of entities (with at
// most MaxSources mentions each, Mentions counting them all) and the
// relations drawn between them, each entity's place in the scope, its
// group, and what the scope holds in all.
type View struct {
	Entities  []kb.Entity   `json:"entities"`
	Relations []kb.Relation `json:"relations"`
	Nodes     []ViewNode    `json:"nodes"` // one per entity, same order
	Groups    []ViewGroup   `json:"groups"`
	Types     []TypeCount   `json:"types"` // entity types in the scope's documents
	Docs      []DocCount    `json:"docs"`  // entities per document in scope
	// Total is the number of candidates: the scope's entities (overview,
	// search) or the node's neighbours (neighbourhood).
	Total          int `json:"total"`
	TotalRelations int `json:"total_relations"` // relations in scope
	Stated         int `json:"stated"`          // of which stated (not co-occurrence)
}

// ViewNode is an entity's place in its scope.
type ViewNode struct {
	ID       int64   `json:"id"`
	Rank     int     `json:"rank"`  // 1 = most central in the scope
	Score    float64 `json:"score"` // centrality
	Group    int64   `json:"group"` // the id of the group's leader
	Mentions int     `json:"mentions"`
	Degree   int     `json:"degree"` // relations in scope
}

// ViewGroup is a group of entities named after its most central member.
type ViewGroup struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Size int    `json:"size"` // members in the whole scope
}

// MaxSources caps the mentions and sources a view carries per entity and
// relation (their cards list a dozen and say how many more).
const MaxSources = 12

// Rank is each node's 1-based rank by centrality.
func (s *Scoped) Rank() []int {
	if s.rank == nil {
		s.rank = make([]int, len(s.Nodes))
		for r, i := range byScore(s.Score) {
			s.rank[i] = r + 1
		}
	}
	return s.rank
}

// Describe is the pure part of a view: the picked nodes' places, their
// groups (largest first) and the scope's totals; ids are the entity and
// relation ids to load. Entities and Relations are left for the caller.
func (s *Scoped) Describe(p Pick) (v View, entityIDs, relationIDs []int64) {
	rank := s.Rank()
	if s.groupSize == nil {
		s.groupSize = map[int]int{}
		for _, g := range s.Group {
			s.groupSize[g]++
		}
	}
	seen := map[int]bool{}
	for _, i := range p.Nodes {
		n := s.Nodes[i]
		entityIDs = append(entityIDs, n.ID)
		g := s.Group[i]
		v.Nodes = append(v.Nodes, ViewNode{ID: n.ID, Rank: rank[i], Score: s.Score[i], Group: s.Nodes[g].ID,
			Mentions: s.Mention[i], Degree: int(s.G.Off[i+1] - s.G.Off[i])})
		if !seen[g] {
			seen[g] = true
			v.Groups = append(v.Groups, ViewGroup{ID: s.Nodes[g].ID, Name: s.Nodes[g].Name, Size: s.groupSize[g]})
		}
	}
	sort.SliceStable(v.Groups, func(a, b int) bool { return v.Groups[a].Size > v.Groups[b].Size })
	for _, ei := range p.Edges {
		relationIDs = append(relationIDs, s.Edges[ei].ID)
	}
	v.Types, v.Docs = s.Types, s.Docs
	v.Total, v.TotalRelations, v.Stated = p.Of, len(s.Edges), s.Stated
	return v, entityIDs, relationIDs
}

// Trim keeps at most MaxSources of the sources in docs (all docs when
// none).
func Trim(src []kb.Source, docs []int64) []kb.Source {
	out := []kb.Source{}
	for _, x := range src {
		if len(out) >= MaxSources {
			break
		}
		if len(docs) == 0 || slices.Contains(docs, x.DocID) {
			out = append(out, x)
		}
	}
	return out
}

// SearchHit is an entity found by name, with its place in the scope.
type SearchHit struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Type     string `json:"type"`
	Rank     int    `json:"rank"`
	Mentions int    `json:"mentions"`
	Group    int64  `json:"group"`
}

// Hits describes search results.
func (s *Scoped) Hits(hs []Hit) []SearchHit {
	rank := s.Rank()
	out := []SearchHit{}
	for _, h := range hs {
		n := s.Nodes[h.Node]
		out = append(out, SearchHit{ID: n.ID, Name: n.Name, Type: n.Type, Rank: rank[h.Node], Mentions: s.Mention[h.Node], Group: s.Nodes[s.Group[h.Node]].ID})
	}
	return out
}
