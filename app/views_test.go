package app

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/graph"
	"cairn/backend/kb"
)

// TestViewsOverARealProject imports a real PDF, indexes it offline and
// checks what the graph, mind-map and ask views receive: real entities with
// their sources, a mind map whose facts point at pages, and a streamed,
// cited answer.
func TestViewsOverARealProject(t *testing.T) {
	if testing.Short() {
		t.Skip("imports and indexes a real document")
	}
	a, _ := openReal(t)
	get := record(a)
	res, err := a.ImportPaths([]string{filepath.Join("..", "assets", "sample", "en-report-dmca-summary.pdf")})
	if err != nil || len(res) != 1 || res[0].Status != kb.StatusOK {
		t.Fatalf("import: %v %+v", err, res)
	}
	if s := waitIndexIdle(t, a); s.Done.Error != "" {
		t.Fatalf("index: %s", s.Done.Error)
	}
	doc := res[0].DocID

	g, err := a.Graph()
	if err != nil || len(g.Entities) == 0 || len(g.Relations) == 0 {
		t.Fatalf("graph: %v, %d entities, %d relations", err, len(g.Entities), len(g.Relations))
	}
	for _, e := range g.Entities[:min(20, len(g.Entities))] {
		if len(e.Mentions) == 0 || e.Mentions[0].DocID != doc || e.Mentions[0].PageStart < 1 {
			t.Fatalf("entity %q without a sourced mention: %+v", e.Name, e.Mentions)
		}
	}
	n, err := a.Neighbourhood(g.Relations[0].Subject, 1, 0)
	if err != nil || len(n.Entities) == 0 {
		t.Fatalf("neighbourhood: %v %d", err, len(n.Entities))
	}
	if _, err := a.Neighbourhood(0, 1, 10); err == nil {
		t.Fatal("entity 0 accepted")
	}
	ov, err := a.GraphOverview(graph.Scope{}, 0, nil)
	if err != nil || len(ov.Entities) == 0 || len(ov.Entities) > 200 || len(ov.Nodes) != len(ov.Entities) || ov.Total != len(g.Entities) {
		t.Fatalf("overview: %v, %d entities (%d nodes) of %d", err, len(ov.Entities), len(ov.Nodes), ov.Total)
	}
	if ov.Nodes[0].Rank != 1 || len(ov.Groups) == 0 || len(ov.Types) == 0 {
		t.Fatalf("overview: first rank %d, %d groups, %d types", ov.Nodes[0].Rank, len(ov.Groups), len(ov.Types))
	}
	for _, e := range ov.Entities {
		if len(e.Mentions) == 0 || len(e.Mentions) > graph.MaxSources {
			t.Fatalf("overview entity %q with %d mentions", e.Name, len(e.Mentions))
		}
	}
	// A focus named by a name only one entity has (a name typed two ways
	// is two entities, and a name focuses the one with more mentions).
	named := map[string]int{}
	for _, e := range g.Entities {
		named[kb.NormKey(e.Name)]++
	}
	focus := ov.Entities[0]
	for _, e := range ov.Entities {
		if named[kb.NormKey(e.Name)] == 1 {
			focus = e // the least central such entity of the overview
		}
	}
	if small, _ := a.GraphOverview(graph.Scope{Docs: []int64{doc}}, 5, []string{focus.Name}); len(small.Entities) != 5 || small.Entities[0].ID != focus.ID {
		t.Fatalf("overview of 5 with a focus on %q: %+v", focus.Name, small.Nodes)
	}
	if none, err := a.GraphOverview(graph.Scope{Docs: []int64{doc + 1000}}, 0, nil); err != nil || len(none.Entities) != 0 {
		t.Fatalf("overview of an unknown document: %v %d", err, len(none.Entities))
	}
	nb, err := a.GraphNeighbours(ov.Entities[0].ID, graph.Scope{}, 5)
	if err != nil || len(nb.Entities) < 2 || len(nb.Entities) > 6 || nb.Entities[0].ID != ov.Entities[0].ID {
		t.Fatalf("neighbours: %v %d", err, len(nb.Entities))
	}
	hits, err := a.GraphSearch(strings.ToLower(ov.Entities[0].Name), graph.Scope{}, 0)
	if err != nil || len(hits) == 0 || hits[0].ID != ov.Entities[0].ID {
		t.Fatalf("search %q: %v %+v", ov.Entities[0].Name, err, hits)
	}
	d, err := a.Entity(g.Entities[0].Name)
	if err != nil || d.Entity.ID == 0 {
		t.Fatalf("entity by name: %v %+v", err, d)
	}

	m, err := a.MindMap(doc)
	if err != nil || len(m.Nodes) == 0 {
		t.Fatalf("mind map: %v, %d nodes", err, len(m.Nodes))
	}
	facts := 0
	for _, nd := range m.Nodes {
		if nd.Kind == kb.MindFact {
			facts++
			if nd.ChunkID == 0 || nd.PageStart < 1 || nd.CharEnd <= nd.CharStart {
				t.Fatalf("fact without a source: %+v", nd)
			}
		}
	}
	if facts == 0 {
		t.Fatal("mind map has no facts")
	}
	// The fused map keeps every document's topic (and the nodes shared
	// across documents; with one document there are none).
	f, err := a.FusedMindMap()
	if err != nil || len(f.Nodes) == 0 || f.Nodes[0].Kind != kb.MindTopic || f.Nodes[0].DocID != doc {
		t.Fatalf("fused map: %v, %+v", err, f.Nodes)
	}
	if _, err := a.MindMap(0); err == nil {
		t.Fatal("document 0 accepted")
	}
	// The export buttons save what `cairn mindmap --format` prints.
	md, err := a.ExportMindMap(doc, "md")
	if err != nil || !strings.HasPrefix(md, "# ") || !strings.Contains(md, "\n- **") {
		t.Fatalf("Markdown export: %v\n%.300s", err, md)
	}
	opml, err := a.ExportMindMap(0, "opml")
	if err != nil || !strings.Contains(opml, `<opml version="2.0">`) || !strings.Contains(opml, "<title>Fused mind map</title>") {
		t.Fatalf("OPML export of the fused map: %v\n%.300s", err, opml)
	}
	if _, err := a.ExportMindMap(doc, "docx"); err == nil {
		t.Fatal("unknown export format accepted")
	}

	ans, err := a.Ask("What does the DMCA say about circumvention of copyright protection systems?", false)
	if err != nil {
		t.Fatal(err)
	}
	if ans.ID == 0 || len(ans.Citations) == 0 || !strings.Contains(ans.Answer, "[") {
		t.Fatalf("answer: id %d, %d citations, %q", ans.ID, len(ans.Citations), ans.Answer)
	}
	var streamed strings.Builder
	for _, e := range get() {
		if e.name == EventAskToken {
			streamed.WriteString(e.data.(AskToken).Token)
		}
	}
	if streamed.String() != ans.Answer {
		t.Fatalf("streamed %q, answer %q", streamed.String(), ans.Answer)
	}
	past, err := a.Answers()
	if err != nil || len(past) != 1 || past[0].Question != ans.Question {
		t.Fatalf("answers: %v %+v", err, past)
	}
	one, err := a.Answer(ans.ID)
	if err != nil || !json.Valid(one.Trace) {
		t.Fatalf("answer %d: %v", ans.ID, err)
	}
	tr, err := a.AnswerTrace(ans.ID)
	if err != nil || tr.Mode != "quick" || len(tr.Retrieval.Evidence) == 0 {
		t.Fatalf("trace of answer %d: %v, mode %q, %d evidence", ans.ID, err, tr.Mode, len(tr.Retrieval.Evidence))
	}
	if _, err := a.AnswerTrace(ans.ID + 100); err == nil {
		t.Fatal("trace of an unknown answer")
	}
	if _, err := a.Ask("  ", false); err == nil {
		t.Fatal("empty question accepted")
	}
}

func TestViewsWithoutAProject(t *testing.T) {
	a := newApp(&fakeBackend{})
	if _, err := a.Graph(); err == nil {
		t.Fatal("Graph without a project")
	}
	if _, err := a.MindMap(1); err == nil {
		t.Fatal("MindMap without a project")
	}
	if _, err := a.ExportMindMap(1, "md"); err == nil {
		t.Fatal("ExportMindMap without a project")
	}
	if _, err := a.Ask("q", false); err == nil {
		t.Fatal("Ask without a project")
	}
}
