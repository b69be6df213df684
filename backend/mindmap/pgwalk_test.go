package mindmap

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/analyze"
	"cairn/backend/embed"
	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/search"
	"cairn/backend/store"
)

// unit returns a 2-d unit vector whose dot product with (1, 0) is sim.
func unit(sim float64) []float32 { return []float32{float32(sim), float32(math.Sqrt(1 - sim*sim))} }

// tree: topic(.30) → A(.62) → a1(.64) a2(.61) a3(.40); topic → B(.10) → b1(.63)
func pgTree() []pgNode {
	spec := []struct {
		parent int
		kind   kb.MindKind
		sim    float64
	}{{-1, kb.MindTopic, .30}, {0, kb.MindRoute, .62}, {1, kb.MindFact, .64}, {1, kb.MindFact, .61}, {1, kb.MindFact, .40}, {0, kb.MindRoute, .10}, {5, kb.MindFact, .63}}
	nodes := make([]pgNode, len(spec))
	for i, s := range spec {
		nodes[i] = pgNode{MindNodeRow: store.MindNodeRow{MindNode: kb.MindNode{ID: int64(i + 1), Kind: s.kind, ChunkID: int64(10 + i)}}, vec: unit(s.sim), parent: s.parent}
		if s.parent >= 0 {
			nodes[s.parent].children = append(nodes[s.parent].children, i)
		}
	}
	return nodes
}

func TestPGWalkControlMatrix(t *testing.T) {
	q := [][]float32{{1, 0}}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-6 }
	cases := []struct {
		name           string
		anchors        int
		support, fuzzy float64
		a1, a2, a3, b1 float64
	}{
		// anchor a1 (.64): A differs by .02 → support, u = A; topic rejected.
		// a2 differs by .03 → support; a3 rejected after A's cell.
		{"paper 0.03/0.05", 1, .03, .05, .62 + .64, .62 + .61, .62, 0},
		// HEAD thresholds: A is only fuzzy (.5 × .62), a2 rejected.
		{"code 0.01/0.02", 1, .01, .02, .31 + .64, .31, .31, 0},
		// two anchors: b1 anchors its own row; B (.10) is rejected, so u = b1.
		{"two anchors", 2, .03, .05, .62 + .64, .62 + .61, .62, .63},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			row := pgWalk(pgTree(), q, PGSettings{Anchors: c.anchors, Support: c.support, Fuzzy: c.fuzzy})
			for i, want := range map[int]float64{2: c.a1, 3: c.a2, 4: c.a3, 6: c.b1} {
				if !near(row[i], want) {
					t.Errorf("row of node %d = %.4f, want %.4f", i+1, row[i], want)
				}
			}
		})
	}
	hits := pgHits(pgTree(), pgWalk(pgTree(), q, PGSettings{Anchors: 1, Support: .03, Fuzzy: .05}), 10)
	if len(hits) != 3 || hits[0].ChunkID != 12 || len(hits[0].Path) != 3 || hits[0].Path[0].Kind != kb.MindTopic || hits[0].Path[2].NodeID != 3 {
		t.Fatalf("hits %+v", hits)
	}
}

// TestPseudoGraphOnAStore builds a small real project store (passages as
// documents), offline mind maps and fusion, and checks that the walk finds
// the passage that answers, with a fact path inside it.
func TestPseudoGraphOnAStore(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	corpus := []passage{
		{ID: "p1", Title: "Lion Air Flight 610", Text: "Lion Air Flight 610 crashed into the Java Sea in October 2018. The Boeing 737 MAX had an erroneous angle of attack sensor. The MCAS system repeatedly pushed the nose down."},
		{ID: "p2", Title: "Digital Millennium Copyright Act", Text: "The Digital Millennium Copyright Act was signed in 1998. Section 1201 prohibits circumvention of technological measures. Service providers get a safe harbor."},
		{ID: "p3", Title: "Heat pump", Text: "A heat pump moves heat from outside air into a building. Heat pumps use less electricity than resistive heaters. Ground source heat pumps use buried pipes."},
		{ID: "p4", Title: "Boeing 737 MAX groundings", Text: "The Boeing 737 MAX was grounded worldwide in March 2019 after two crashes. The FAA required changes to MCAS and new crew procedures before the return to service."},
	}
	buildPassages(t, st, corpus)
	ix := NewIndexer(st, llm.Offline{})
	if err := ix.BuildPending(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.FusePending(ctx); err != nil {
		t.Fatal(err)
	}
	if problems, err := st.Check(ctx); err != nil || len(problems) > 0 {
		t.Fatalf("check: %v %v", err, problems)
	}
	for q, want := range map[string]string{
		"Which sensor failed on Lion Air Flight 610?":      "Lion Air Flight 610",
		"What does section 1201 prohibit?":                 "Digital Millennium Copyright Act",
		"Why do heat pumps use less electricity?":          "Heat pump",
		"When was the 737 MAX grounded after the crashes?": "Boeing 737 MAX groundings",
	} {
		hits, err := PseudoGraph(ctx, st, q, DefaultPGSettings())
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 {
			t.Fatalf("%q: no hits", q)
		}
		top := hits[0]
		if top.Path[0].Label != want || top.Path[0].Kind != kb.MindTopic {
			t.Errorf("%q: best path starts at %q, want %q", q, top.Path[0].Label, want)
		}
		last := top.Path[len(top.Path)-1]
		if last.Kind != kb.MindFact || last.ChunkID != top.ChunkID || last.PageStart != 1 {
			t.Errorf("%q: path does not end in a fact of chunk %d: %+v", q, top.ChunkID, last)
		}
		t.Logf("%q → %s", q, strings.Join(labels(top.Path), " › "))
	}
	// An empty project: no maps, no hits, no error.
	empty, _ := store.Open(filepath.Join(t.TempDir(), "e.db"))
	defer empty.Close()
	if hits, err := PseudoGraph(ctx, empty, "anything at all", DefaultPGSettings()); err != nil || len(hits) != 0 {
		t.Fatalf("empty store: %v %v", hits, err)
	}
}

func labels(p []PGStep) []string {
	out := make([]string, len(p))
	for i, s := range p {
		out[i] = s.Label
	}
	return out
}

type passage struct{ ID, Title, Text string }

// buildPassages stores one document with one page and one chunk per passage.
func buildPassages(t *testing.T, st *store.Store, corpus []passage) {
	t.Helper()
	ctx := context.Background()
	e := embed.NewHashed(embed.DefaultDim)
	if err := st.EnsureVectors(ctx, e.Info()); err != nil {
		t.Fatal(err)
	}
	for _, p := range corpus {
		id, err := st.AddDocument(ctx, kb.Document{Title: p.Title, FileName: p.ID, Kind: "txt", Hash: p.ID, Bytes: int64(len(p.Text))})
		if err != nil {
			t.Fatal(err)
		}
		c := kb.Chunk{PageStart: 1, PageEnd: 1, CharEnd: len(p.Text), Text: p.Text, Tokens: len(analyze.Tokens(p.Text))}
		rows, texts := search.ChunkRows(p.Title, []kb.Chunk{c})
		vec, _ := e.Embed(ctx, texts)
		rows[0].Vector = vec[0]
		if err := st.SaveContent(ctx, id, store.Content{Title: p.Title, Kind: "txt", Status: kb.StatusOK,
			Pages: []kb.Page{{Number: 1, Text: p.Text}}, Chunks: rows}); err != nil {
			t.Fatal(err)
		}
	}
}
