package project

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/llm/fakeollama"
	"cairn/backend/mindmap"
	"cairn/backend/store"
)

// depth is the number of levels of a document's tree.
func depth(m kb.MindMap) int {
	parent := map[int64]int64{}
	for _, n := range m.Nodes {
		parent[n.ID] = n.Parent
	}
	d := 0
	for _, n := range m.Nodes {
		k := 1
		for id := n.Parent; id != 0; id = parent[id] {
			k++
		}
		d = max(d, k)
	}
	return d
}

// TestSampleMindMaps imports the sample project and checks the done-means
// of issue 5 in offline mode: every document's map has depth ≥ 3, every fact
// resolves to a chunk of its document and a page whose text holds the fact,
// the fused map links documents, and removing a document leaves no trace.
func TestSampleMindMaps(t *testing.T) {
	ctx := context.Background()
	p := open(t)
	sample, _ := filepath.Abs("../../assets/sample")
	if _, err := p.Import(ctx, []string{sample}, nil); err != nil {
		t.Fatal(err)
	}
	docs, err := p.Documents(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) < 4 {
		t.Fatalf("sample has %d documents", len(docs))
	}
	if _, err := p.MindMap(ctx, docs[0].ID); !errors.Is(err, store.ErrNoMindMap) {
		t.Fatalf("before indexing: %v, want ErrNoMindMap", err)
	}
	if err := p.BuildMindMaps(ctx, nil); err != nil {
		t.Fatal(err)
	}
	check(t, p)
	st, err := p.MindMapStatuses(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if st[d.ID].Mode != store.MindModeOffline {
			t.Errorf("document %d: mode %q, want offline", d.ID, st[d.ID].Mode)
		}
		m, err := p.MindMap(ctx, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got := depth(m); got < 3 {
			t.Errorf("%s: depth %d, want ≥ 3", d.FileName, got)
		}
		pages, err := p.Pages(ctx, d.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		text := store.DocumentText(pages)
		facts := 0
		for _, n := range m.Nodes {
			if n.DocID != d.ID {
				t.Fatalf("node %d of document %d in map of %d", n.ID, n.DocID, d.ID)
			}
			if n.Kind != kb.MindFact {
				continue
			}
			facts++
			hits, err := p.store.ChunkHits(ctx, []int64{n.ChunkID})
			if err != nil || len(hits) != 1 || hits[0].DocID != d.ID {
				t.Fatalf("fact %d: chunk %d does not resolve (%v)", n.ID, n.ChunkID, err)
			}
			c := hits[0]
			if n.CharStart < c.CharStart || n.CharEnd > c.CharEnd || n.PageStart < c.PageStart || n.PageEnd > c.PageEnd {
				t.Fatalf("fact %d: span %d–%d p.%d–%d outside chunk %d–%d p.%d–%d", n.ID, n.CharStart, n.CharEnd, n.PageStart, n.PageEnd, c.CharStart, c.CharEnd, c.PageStart, c.PageEnd)
			}
			pg := pages[n.PageStart-1]
			if n.CharStart < pg.CharStart || n.CharStart >= pg.CharStart+len(pg.Text) {
				t.Fatalf("fact %d starts at %d, not on its page %d (%d–%d)", n.ID, n.CharStart, n.PageStart, pg.CharStart, pg.CharStart+len(pg.Text))
			}
			if len(text[n.CharStart:n.CharEnd]) == 0 {
				t.Fatalf("fact %d: empty span", n.ID)
			}
		}
		if facts == 0 {
			t.Errorf("%s: no facts", d.FileName)
		}
		t.Logf("%s: %d nodes, %d facts, depth %d", d.FileName, len(m.Nodes), facts, depth(m))
	}
	fused, err := p.FusedMindMap(ctx)
	if err != nil {
		t.Fatal(err)
	}
	linked := map[int64]bool{}
	for _, s := range fused.Supernodes {
		if len(s.Members) < 2 || len(s.DocIDs) < 2 {
			t.Errorf("supernode %d %q: %d members in %d documents", s.ID, s.Label, len(s.Members), len(s.DocIDs))
		}
		for _, d := range s.DocIDs {
			linked[d] = true
		}
	}
	t.Logf("fused: %d nodes, %d supernodes, %d documents linked", len(fused.Nodes), len(fused.Supernodes), len(linked))
	if len(linked) < 2 {
		t.Fatalf("the fused map links %d documents", len(linked))
	}
	// Removing a linked document: its nodes leave their clusters, no empty
	// or single-member supernode stays, the rest still checks.
	var victim int64
	for d := range linked {
		victim = max(victim, d)
	}
	if err := p.Remove(ctx, victim); err != nil {
		t.Fatal(err)
	}
	check(t, p)
	fused, err = p.FusedMindMap(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range fused.Nodes {
		if n.DocID == victim {
			t.Fatalf("node %d of removed document %d still in the fused map", n.ID, victim)
		}
	}
	for _, s := range fused.Supernodes {
		for _, d := range s.DocIDs {
			if d == victim {
				t.Fatalf("supernode %d still lists removed document %d", s.ID, victim)
			}
		}
	}
	// Incremental: a second pass with nothing new changes nothing; the
	// re-imported document is fused again.
	before := len(fused.Supernodes)
	if err := p.BuildMindMaps(ctx, nil); err != nil {
		t.Fatal(err)
	}
	after, _ := p.FusedMindMap(ctx)
	if len(after.Supernodes) < before {
		t.Fatalf("supernodes went from %d to %d on an idle pass", before, len(after.Supernodes))
	}
	check(t, p)
}

// TestMindMapsLLMMode runs the mind-map stage against the fake Ollama
// server: one document's reply places the facts and invents an id (dropped,
// nothing invented reaches the map, every fact keeps its chunk and page);
// the other's reply is not JSON (failure recorded, offline tree kept).
func TestMindMapsLLMMode(t *testing.T) {
	ctx := context.Background()
	p := open(t)
	sample, _ := filepath.Abs("../../assets/sample")
	rs, err := p.Import(ctx, []string{filepath.Join(sample, "en-report-dmca-summary.pdf"), filepath.Join(sample, "zh-civil-code.docx")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	dmca, civil := rs[0].DocID, rs[1].DocID
	srv := fakeollama.Start(t)
	srv.On(fakeollama.Rule{Schema: "mindmap", Contains: "Title: zh-civil-code", Fault: fakeollama.FaultMalformed})
	srv.On(fakeollama.Rule{Schema: "mindmap", Func: func(r fakeollama.Request) string {
		var ids []int
		for _, line := range strings.Split(r.Messages[len(r.Messages)-1].Content, "\n") {
			if k := strings.Index(line, ": "); k > 0 {
				if id, err := strconv.Atoi(line[:k]); err == nil {
					ids = append(ids, id)
				}
			}
		}
		half := len(ids) / 2
		b, _ := json.Marshal(map[string]any{"topic": "DMCA summary", "routes": []any{
			map[string]any{"path": []string{"Anticircumvention"}, "facts": ids[:half]},
			map[string]any{"path": []string{"Online liability", "Safe harbors"}, "facts": append(ids[half:], 99999)},
		}})
		return string(b)
	}})
	prov, err := llm.NewOllama(llm.OllamaConfig{Host: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	offline := map[int64]mindmap.Tree{}
	for _, id := range []int64{dmca, civil} {
		d, err := mindmap.LoadDoc(ctx, p.Store(), id)
		if err != nil {
			t.Fatal(err)
		}
		offline[id] = mindmap.Offline(d, mindmap.DefaultOptions())
	}
	p.SetProvider(prov)
	if err := p.BuildMindMaps(ctx, nil); err != nil {
		t.Fatal(err)
	}
	check(t, p)
	st, err := p.MindMapStatuses(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if s := st[dmca]; s.Mode != store.MindModeLLM || s.Model != llm.DefaultChatModel {
		t.Errorf("dmca status %+v, want llm by %s", s, llm.DefaultChatModel)
	}
	if s := st[civil]; s.Mode != store.MindModeFailed || s.Error == "" {
		t.Errorf("civil code status %+v, want a recorded failure", s)
	}
	m, err := p.MindMap(ctx, dmca)
	if err != nil {
		t.Fatal(err)
	}
	facts, offFacts := 0, len(mindmap.FactsOf(offline[dmca]))
	for _, n := range m.Nodes {
		if n.Kind == kb.MindFact {
			facts++
			if n.ChunkID == 0 || n.PageStart == 0 {
				t.Fatalf("fact %d without provenance", n.ID)
			}
		}
	}
	if m.Nodes[0].Label != "DMCA summary" || facts != offFacts {
		t.Errorf("llm map: topic %q, %d facts, want \"DMCA summary\" and the %d given facts (the invented one dropped)", m.Nodes[0].Label, facts, offFacts)
	}
	if depth(m) != 4 {
		t.Errorf("llm map depth %d, want 4 (topic › Online liability › Safe harbors › fact)", depth(m))
	}
	kept, err := p.MindMap(ctx, civil)
	if err != nil {
		t.Fatal(err)
	}
	want := offline[civil].Nodes
	if len(kept.Nodes) != len(want) {
		t.Fatalf("failed build kept %d nodes, the offline tree has %d", len(kept.Nodes), len(want))
	}
	for i := range want {
		if kept.Nodes[i].Label != want[i].Label || kept.Nodes[i].Kind != want[i].Kind {
			t.Fatalf("node %d: %q, offline tree has %q", i, kept.Nodes[i].Label, want[i].Label)
		}
	}
	// The next pass retries the failed document with the model (as failed
	// chunk extractions are), and leaves the built one alone.
	before := map[string]int{}
	for _, r := range srv.RequestsTo("/api/chat") {
		before[mindMapDocOf(r)]++
	}
	if err := p.BuildMindMaps(ctx, nil); err != nil {
		t.Fatal(err)
	}
	after := map[string]int{}
	for _, r := range srv.RequestsTo("/api/chat") {
		after[mindMapDocOf(r)]++
	}
	if after["civil"] <= before["civil"] {
		t.Errorf("the failed map was not retried with the model: %v → %v", before, after)
	}
	if after["dmca"] != before["dmca"] {
		t.Errorf("the model-built map was rebuilt: %v → %v", before, after)
	}
}

// mindMapDocOf says which sample document a recorded mind-map request is about.
func mindMapDocOf(r fakeollama.Request) string {
	for _, m := range r.Messages {
		if strings.Contains(m.Content, "Title: zh-civil-code") {
			return "civil"
		}
	}
	return "dmca"
}
