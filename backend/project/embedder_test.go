package project

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"cairn/backend/embed"
	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/llm/fakeollama"
	"cairn/backend/search"
)

func importSample(t *testing.T, p *Project, names ...string) {
	t.Helper()
	for _, n := range names {
		path, _ := filepath.Abs(filepath.Join("../../assets/sample", n))
		res, err := p.Import(context.Background(), []string{path}, nil)
		if err != nil || len(res) != 1 || res[0].Status != kb.StatusOK {
			t.Fatalf("import %s: %v %+v", n, err, res)
		}
	}
}

func checkClean(t *testing.T, p *Project) {
	t.Helper()
	probs, err := p.Check(context.Background())
	if err != nil || len(probs) > 0 {
		t.Fatalf("check: %v %v", err, probs)
	}
}

func TestSwitchEmbedderToOllamaAndBack(t *testing.T) {
	ctx := context.Background()
	srv := fakeollama.Start(t)
	o, err := llm.NewOllama(llm.OllamaConfig{Host: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "proj")
	p, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { p.Close() }()
	p.SetOllama(o)
	importSample(t, p, "en-report-dmca-summary.pdf")
	before, err := p.Search(ctx, "safe harbor for online service providers", 5)
	if err != nil || len(before) == 0 {
		t.Fatalf("search before: %v %d", err, len(before))
	}

	// built-in → bge-m3
	var last ReembedProgress
	calls := 0
	if err := p.SwitchEmbedder(ctx, o.Embedder("bge-m3"), func(pr ReembedProgress) {
		if pr.Done < last.Done {
			t.Errorf("progress went backwards")
		}
		last = pr
		calls++
	}); err != nil {
		t.Fatal(err)
	}
	want := kb.EmbedderInfo{Model: "ollama:bge-m3", Dim: 1024}
	st, err := p.EmbedderStatus(ctx)
	if err != nil || st.Current != want || st.Pending.Dim != 0 || st.Done != st.Total || !last.Finished || last.Total == 0 {
		t.Fatalf("status %+v %v, last %+v", st, err, last)
	}
	if p.Embedder().Info() != want {
		t.Errorf("live embedder %+v", p.Embedder().Info())
	}
	checkClean(t, p)
	embeds := len(srv.RequestsTo("/api/embed"))
	after, err := p.Search(ctx, "safe harbor for online service providers", 5)
	if err != nil || len(after) == 0 {
		t.Fatalf("search after: %v", err)
	}
	if len(srv.RequestsTo("/api/embed")) != embeds+1 {
		t.Errorf("the question was not embedded by the project's model")
	}
	// the vectors are the model's: the nearest chunk to a chunk's own text is itself
	items, _ := p.store.ChunkHits(ctx, []int64{before[0].ID})
	q := fakeollama.Vector(search.EmbedText(items[0].DocTitle, items[0].Chunk), 1024)
	near, err := p.store.NearestChunks(ctx, q, 1)
	if err != nil || len(near) != 1 || near[0].ChunkID != before[0].ID || near[0].Score < 0.999 {
		t.Errorf("nearest to chunk %d's own vector: %+v %v", before[0].ID, near, err)
	}

	// Ollama gone: search still answers (lexical), importing refuses clearly
	p.SetOllama(nil)
	if hits, err := p.Search(ctx, "safe harbor", 5); err != nil || len(hits) == 0 {
		t.Fatalf("search without Ollama: %v", err)
	}
	path, _ := filepath.Abs("../../assets/sample/zh-civil-code.docx")
	_, err = p.Import(ctx, []string{path}, nil)
	var ue *ErrEmbedderUnavailable
	if !errors.As(err, &ue) {
		t.Fatalf("import without the project's embedder: %v", err)
	}
	p.SetOllama(o)

	// reopen: the recorded embedder is used
	p.Close()
	if p, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	if p.Embedder().Info() != want {
		t.Fatalf("reopened with %+v", p.Embedder().Info())
	}
	p.SetOllama(o)
	importSample(t, p, "zh-civil-code.docx")
	checkClean(t, p)

	reembedBatch = 8
	defer func() { reembedBatch = 64 }()
	// back to built-in, interrupted after the first batch, then resumed
	// after a reopen (as after a crash)
	cctx, cancel := context.WithCancel(ctx)
	err = p.SwitchEmbedder(cctx, embed.NewHashed(embed.DefaultDim), func(pr ReembedProgress) {
		if pr.Done > 0 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted switch: %v", err)
	}
	st, _ = p.EmbedderStatus(ctx)
	if st.Current != want || st.Pending.Model != "cairn-hash-v1-1024" || st.Done == 0 || st.Done >= st.Total {
		t.Fatalf("after interruption: %+v", st)
	}
	if hits, err := p.Search(ctx, "民法典", 5); err != nil || len(hits) == 0 {
		t.Fatalf("search during the switch: %v", err)
	}
	checkClean(t, p)
	p.Close()
	if p, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	p.SetOllama(o)
	// a document imported mid-switch is covered too
	importSample(t, p, "en-report-tables-irs-i1040nr.pdf")
	pending, err := p.ResumeEmbedder(ctx, o, nil)
	if err != nil || !pending {
		t.Fatalf("resume: %v %v", pending, err)
	}
	st, _ = p.EmbedderStatus(ctx)
	if st.Current != (kb.EmbedderInfo{Model: "cairn-hash-v1-1024", Dim: 1024}) || st.Pending.Dim != 0 {
		t.Fatalf("after resume: %+v", st)
	}
	if _, ok := p.Embedder().(*embed.Hashed); !ok {
		t.Errorf("live embedder is %T", p.Embedder())
	}
	checkClean(t, p)
	// the vectors are the built-in ones again
	hv, _ := embed.NewHashed(embed.DefaultDim).Embed(ctx, []string{search.EmbedText(items[0].DocTitle, items[0].Chunk)})
	near, err = p.store.NearestChunks(ctx, hv[0], 1)
	if err != nil || len(near) != 1 || near[0].ChunkID != before[0].ID || near[0].Score < 0.999 {
		t.Errorf("nearest to chunk %d's built-in vector: %+v %v", before[0].ID, near, err)
	}
}
