package reason

import (
	"fmt"
	"testing"

	"cairn/backend/kb"
)

func step(from, to string, rel int64, sentence string, chunk int64, a, b int) kb.PathEdge {
	return kb.PathEdge{From: from, To: to, Predicate: "p", Relation: rel, Sentence: sentence, Source: kb.Source{ChunkID: chunk, CharStart: a, CharEnd: b}}
}

func path(edges ...kb.PathEdge) kb.Path {
	p := kb.Path{Edges: edges}
	for i, e := range edges {
		if i == 0 {
			p.Nodes = append(p.Nodes, e.From)
		}
		p.Nodes = append(p.Nodes, e.To)
	}
	return p
}

func TestPathKind(t *testing.T) {
	cases := []struct {
		p    kb.Path
		want string
	}{
		{path(step("A", "B", 1, "", 1, 0, 5)), KindRelations},
		{path(step("A", "B", 0, "A met B.", 1, 0, 5)), KindSentences},
		{path(step("A", "B", 3, "A and B.", 1, 0, 5)), KindSentences}, // a co-occurrence quoting its sentence
		{path(step("A", "B", 1, "", 1, 0, 5), step("B", "C", 0, "B and C.", 2, 0, 5)), KindMixed},
		{kb.Path{}, KindSentences},
	}
	for i, c := range cases {
		if got := PathKind(c.p); got != c.want {
			t.Errorf("%d: %s, want %s", i, got, c.want)
		}
	}
}

func TestDrawnPaths(t *testing.T) {
	a := Anchors{
		Question:  "What did Orvale Mining spend on capital expenditure in 2019?",
		Entities:  []string{"Orvale Mining Corp"},
		Documents: []string{"Orvale Mining — Form 10-K FY2019"},
		Answer:    "$1,577 million",
		Cited:     []kb.Source{{ChunkID: 7, CharStart: 100, CharEnd: 180}},
	}
	cases := []struct {
		name     string
		p        kb.Path
		q, ans   bool
		drawn    bool
		describe string
	}{
		{"names the question's entity", path(step("Orvale Mining", "Pit 4", 1, "", 3, 0, 9)), true, false, true, ""},
		{"linked entity named inside a longer node", path(step("Orvale Mining Corp Ltd", "Pit 4", 1, "", 3, 0, 9)), true, false, true, ""},
		{"ends at the answer", path(step("Pit 4", "$1,577 million", 0, "x", 3, 0, 9)), false, true, true, ""},
		{"a step stated in a cited sentence", path(step("Pit 4", "Ships", 0, "x", 7, 150, 170)), false, true, true, ""},
		{"same chunk, outside the cited span", path(step("Pit 4", "Ships", 0, "x", 7, 0, 90)), false, false, false, ""},
		{"touches neither", path(step("Peter D", "Fasolo", 1, "", 9, 0, 9), step("Ships", "Cyber", 1, "", 9, 10, 20)), false, false, false, ""},
		{"a word inside another word is no name", path(step("Orv", "Ale", 1, "", 9, 0, 9)), false, false, false, ""},
		{"one letter is no name", path(step("W", "A", 1, "", 9, 0, 9)), false, false, false, ""},
		{"a routed document's organisation", path(step("Form 10-K", "Pit 4", 1, "", 3, 0, 9)), true, false, true, ""},
	}
	for _, c := range cases {
		got := a.Touches(c.p)
		if got.Question != c.q || got.Answer != c.ans {
			t.Errorf("%s: touches %+v, want question %v answer %v", c.name, got, c.q, c.ans)
		}
		kept, n := DrawnPaths(a, []kb.Path{c.p})
		if (len(kept) == 1) != c.drawn || n.Dropped+len(kept) != 1 || len(kept) == 1 && (n.Question == 1) != c.q {
			t.Errorf("%s: drawn %d, counts %+v", c.name, len(kept), n)
		}
		if len(kept) == 1 && kept[0].Kind == "" {
			t.Errorf("%s: no kind", c.name)
		}
	}
}

func TestNamed(t *testing.T) {
	cases := []struct {
		text, name string
		want       bool
	}{
		{"Who founded Lumen Bank?", "lumen bank", true},
		{"Who founded Lumen  Bank?", "Lumen Bank", true},
		{"Who founded Lumenbank?", "Lumen", false},
		{"the 2019 report", "2019", true},
		{"the 20190 report", "2019", false},
		{"Zürich's lake", "zürich", true},
		{"anything", "", false},
		{"a b", "a", false},
	}
	for _, c := range cases {
		if got := named(c.text, c.name); got != c.want {
			t.Errorf("%s", fmt.Sprintf("named(%q, %q) = %v", c.text, c.name, got))
		}
	}
}
