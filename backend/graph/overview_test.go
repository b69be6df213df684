package graph

import (
	"fmt"
	"math"
	"testing"
)

func node(id int64, name, typ string, docs ...int64) Node {
	n := Node{ID: id, Name: name, Type: typ}
	for _, d := range docs {
		n.Docs = append(n.Docs, DocCount{d, 1})
	}
	return n
}

func edge(id, from, to int64, stated bool, docs ...int64) Edge {
	e := Edge{ID: id, From: from, To: to, Stated: stated}
	for _, d := range docs {
		e.Docs = append(e.Docs, DocCount{d, 1})
	}
	return e
}

// star: 1 is joined to 2..5 by stated relations; 6..9 form a clique of
// co-occurrences among themselves; 10 stands alone.
func star() Skeleton {
	s := Skeleton{}
	for i := int64(1); i <= 10; i++ {
		s.Nodes = append(s.Nodes, node(i, fmt.Sprintf("N%d", i), map[bool]string{true: "person", false: "place"}[i%2 == 0], 1+i%2))
	}
	id := int64(1)
	for i := int64(2); i <= 5; i++ {
		s.Edges = append(s.Edges, edge(id, 1, i, true, 1+i%2))
		id++
	}
	for a := int64(6); a <= 9; a++ {
		for b := a + 1; b <= 9; b++ {
			s.Edges = append(s.Edges, edge(id, a, b, false, 1+a%2))
			id++
		}
	}
	return s
}

func TestCentralityPrefersStatedHub(t *testing.T) {
	sc := Restrict(star(), Scope{})
	if len(sc.Nodes) != 10 || len(sc.Edges) != 10 || sc.Stated != 4 {
		t.Fatalf("restrict: %d nodes %d edges %d stated", len(sc.Nodes), len(sc.Edges), sc.Stated)
	}
	total := 0.0
	for _, x := range sc.Score {
		total += x
	}
	if math.Abs(total-1) > 1e-6 {
		t.Errorf("scores sum to %v", total)
	}
	top := byScore(sc.Score)
	if sc.Nodes[top[0]].ID != 1 {
		t.Errorf("most central is %d, want the stated hub 1 (scores %v)", sc.Nodes[top[0]].ID, sc.Score)
	}
	// the lone node ranks last
	if sc.Nodes[top[len(top)-1]].ID != 10 {
		t.Errorf("least central is %d, want 10", sc.Nodes[top[len(top)-1]].ID)
	}
}

func TestCentralityTable(t *testing.T) {
	cases := []struct {
		name string
		adj  [][]Arc
		want []int // expected order by score
	}{
		{"empty", nil, nil},
		{"pair", [][]Arc{{{To: 1, Weight: 1}}, {{To: 0, Weight: 1}}}, []int{0, 1}},
		{"path of three: the middle first", [][]Arc{{{To: 1, Weight: 1}}, {{To: 0, Weight: 1}, {To: 2, Weight: 1}}, {{To: 1, Weight: 1}}}, []int{1, 0, 2}},
		{"heavier edge wins", [][]Arc{{{To: 1, Weight: 0.1}, {To: 2, Weight: 1}}, {{To: 0, Weight: 0.1}}, {{To: 0, Weight: 1}}}, []int{0, 2, 1}},
	}
	for _, c := range cases {
		got := byScore(Centrality(toCSR(c.adj), nil))
		if fmt.Sprint(got) != fmt.Sprint(c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("%s: order %v, want %v", c.name, got, c.want)
		}
	}
}

func TestGroupsSplitComponents(t *testing.T) {
	sc := Restrict(star(), Scope{})
	g := map[int64]int64{}
	for i, n := range sc.Nodes {
		g[n.ID] = sc.Nodes[sc.Group[i]].ID
	}
	for i := int64(2); i <= 5; i++ {
		if g[i] != g[1] {
			t.Errorf("node %d in group %d, want %d's group %d", i, g[i], 1, g[1])
		}
	}
	for i := int64(7); i <= 9; i++ {
		if g[i] != g[6] {
			t.Errorf("node %d in group %d, want %d's group", i, g[i], g[6])
		}
	}
	if g[1] == g[6] || g[10] != 10 {
		t.Errorf("groups: %v", g)
	}
}

func TestRestrictScope(t *testing.T) {
	cases := []struct {
		name         string
		scope        Scope
		nodes, edges int
	}{
		{"all", Scope{}, 10, 10},
		{"document 1 (even ids)", Scope{Docs: []int64{1}}, 5, 1},
		{"document 2 (odd ids)", Scope{Docs: []int64{2}}, 5, 3},
		{"persons", Scope{Types: []string{"person"}}, 5, 1},
		{"unknown document", Scope{Docs: []int64{99}}, 0, 0},
	}
	for _, c := range cases {
		sc := Restrict(star(), c.scope)
		if len(sc.Nodes) != c.nodes || len(sc.Edges) != c.edges {
			t.Errorf("%s: %d nodes %d edges, want %d %d", c.name, len(sc.Nodes), len(sc.Edges), c.nodes, c.edges)
		}
	}
	// the type list is counted before the type filter, so the view can offer the other types
	sc := Restrict(star(), Scope{Types: []string{"person"}})
	if len(sc.Types) != 2 {
		t.Errorf("types %v", sc.Types)
	}
}

func TestTopAndNeighboursAreBounded(t *testing.T) {
	sc := Restrict(star(), Scope{})
	p := sc.Top(3, nil)
	if len(p.Nodes) != 3 || p.Of != 10 || sc.Nodes[p.Nodes[0]].ID != 1 {
		t.Fatalf("top: %+v", p)
	}
	for _, ei := range p.Edges {
		e := sc.Edges[ei]
		in := false
		for _, a := range p.Nodes {
			for _, b := range p.Nodes {
				in = in || sc.Nodes[a].ID == e.From && sc.Nodes[b].ID == e.To
			}
		}
		if !in {
			t.Errorf("edge %d leaves the picked nodes", e.ID)
		}
	}
	// focus is kept first
	p = sc.Top(2, []int{sc.Index[10]})
	if sc.Nodes[p.Nodes[0]].ID != 10 || len(p.Nodes) != 2 {
		t.Errorf("focus: %+v", p)
	}
	n := sc.Neighbours(sc.Index[1], 2)
	if len(n.Nodes) != 3 || n.Of != 4 || len(n.Edges) != 2 {
		t.Errorf("neighbours: %+v", n)
	}
}

func TestBackboneStatedFirstAndCapped(t *testing.T) {
	s := Skeleton{Nodes: []Node{node(1, "a", "x", 1), node(2, "b", "x", 1), node(3, "c", "x", 1)},
		Edges: []Edge{edge(1, 1, 2, false, 1), edge(2, 1, 2, true, 1), edge(3, 2, 3, false, 1), edge(4, 1, 3, false, 1)}}
	sc := Restrict(s, Scope{})
	all := []int{0, 1, 2}
	got := sc.Backbone(all, 10)
	if len(got) != 3 {
		t.Fatalf("one edge per pair: got %v", got)
	}
	if sc.Edges[got[0]].ID != 2 {
		t.Errorf("the stated relation first: got %d", sc.Edges[got[0]].ID)
	}
	if got := sc.Backbone(all, 1); len(got) != 1 {
		t.Errorf("cap: %v", got)
	}
}

func TestSearch(t *testing.T) {
	s := Skeleton{Nodes: []Node{node(1, "Bank of Lumen", "organisation", 1), node(2, "Lumen", "place", 1), node(3, "Lumenfield Inc", "organisation", 1), node(4, "Volumen", "other", 1)}}
	sc := Restrict(s, Scope{})
	cases := []struct {
		q    string
		want []int64
	}{
		{"lumen", []int64{2, 3, 1, 4}},
		{"  LUMEN  ", []int64{2, 3, 1, 4}},
		{"bank of", []int64{1}},
		{"", nil},
		{"zzz", nil},
	}
	for _, c := range cases {
		var got []int64
		for _, h := range sc.Search(c.q, 10) {
			got = append(got, sc.Nodes[h.Node].ID)
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%q: %v, want %v", c.q, got, c.want)
		}
	}
	if len(sc.Search("lumen", 2)) != 2 {
		t.Error("limit")
	}
}

// BenchmarkRestrict50k ranks a synthetic 50,000-entity, 100,000-relation
// skeleton (the pure part of opening the Graph view).
func BenchmarkRestrict50k(b *testing.B) {
	s := SyntheticSkeleton(50000, 2, 30, 1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sc := Restrict(s, Scope{})
		sc.Top(200, nil)
	}
}

func TestSyntheticSkeleton(t *testing.T) {
	s := SyntheticSkeleton(1000, 2, 5, 1)
	if len(s.Nodes) != 1000 || len(s.Edges) < 1500 {
		t.Fatalf("%d nodes %d edges", len(s.Nodes), len(s.Edges))
	}
	sc := Restrict(s, Scope{})
	if p := sc.Top(200, nil); len(p.Nodes) != 200 || len(p.Edges) == 0 || len(p.Edges) > 600 {
		t.Errorf("top 200: %d nodes %d edges", len(p.Nodes), len(p.Edges))
	}
}

// toCSR packs adjacency lists (one arc per Arc; edges are not tracked).
func toCSR(adj [][]Arc) CSR {
	c := CSR{Off: make([]int32, len(adj)+1)}
	for i, arcs := range adj {
		c.Off[i+1] = c.Off[i] + int32(len(arcs))
		for _, a := range arcs {
			c.To = append(c.To, int32(a.To))
			c.W = append(c.W, a.Weight)
			c.E = append(c.E, 0)
		}
	}
	return c
}

// TestTopOpensOnWhatTellsDocumentsApart: in a library of six reports, the
// country all of them mention is the most central entity, but the
// overview opens on each report's own entities first and shows it only
// when room is left; in a scope of two reports it is as any other.
func TestTopOpensOnWhatTellsDocumentsApart(t *testing.T) {
	var s Skeleton
	var all []DocCount
	for d := int64(1); d <= 6; d++ {
		all = append(all, DocCount{d, 5})
	}
	s.Nodes = append(s.Nodes, Node{ID: 100, Name: "Velmora", Type: "location", Docs: all})
	for d := int64(1); d <= 6; d++ {
		id := 10 * d
		s.Nodes = append(s.Nodes, Node{ID: id, Name: "Mill " + string(rune('A'+d)), Type: "organization", Docs: []DocCount{{d, 3}}})
		s.Edges = append(s.Edges, Edge{ID: id, From: id, To: 100, Stated: true, Docs: []DocCount{{d, 1}}})
	}
	sc := Restrict(s, Scope{})
	if top := byScore(sc.Score)[0]; sc.Nodes[top].ID != 100 {
		t.Fatalf("the country should be the most central: %v", sc.Nodes[top])
	}
	p := sc.Top(6, nil)
	for _, i := range p.Nodes {
		if sc.Nodes[i].ID == 100 {
			t.Errorf("the library-wide entity takes a place among six reports' own: %v", p.Nodes)
		}
	}
	if p = sc.Top(7, nil); sc.Nodes[p.Nodes[6]].ID != 100 {
		t.Errorf("with room left it comes last: %v", p.Nodes)
	}
	// its group is named after the most central of the reports' own
	if lead := sc.Nodes[sc.Group[sc.Index[100]]]; lead.ID == 100 {
		t.Errorf("the group is led by the library-wide entity")
	}
	two := Restrict(s, Scope{Docs: []int64{1, 2}})
	if p = two.Top(1, nil); two.Nodes[p.Nodes[0]].ID != 100 {
		t.Errorf("two reports: the shared entity is as any other: %v", p.Nodes)
	}
}
