package app

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"cairn/backend/extract"
	"cairn/backend/kb"
	"cairn/backend/llm/fakeollama"
	"cairn/backend/project"
)

// echoModel answers an extraction request with extract.EchoReply.
func echoModel(r fakeollama.Request) string { return extract.EchoReply(r.Messages[1].Content) }

// stoppedAt is the start of the warning of a run that lost Ollama.
var stoppedAt = regexp.MustCompile(`Ollama stopped responding (at chunk \d+|for chunks \d+–\d+) of \d+`)

// TestIndexResumesWhenOllamaComesBack: Ollama stops in the middle of the
// indexing an import started; the run ends with a warning saying where it
// stopped and what was kept (index:done), and when the mode turns back to
// ollama the app resumes by itself and the model redoes exactly the rest.
func TestIndexResumesWhenOllamaComesBack(t *testing.T) {
	srv := fakeollama.Start(t)
	srv.On(fakeollama.Rule{Schema: "extract", Func: echoModel})
	a, p := openReal(t)
	defer a.stop()
	var mu sync.Mutex
	var dones []IndexDone
	stopped := false
	a.subscribe(func(name string, data any) {
		switch name {
		case EventIndexProgress:
			if pr, ok := data.(project.IndexProgress); ok && pr.Stage == "graph" && pr.Done == 3 && !stopped {
				stopped = true
				srv.Stop()
			}
		case EventIndexDone:
			mu.Lock()
			dones = append(dones, data.(IndexDone))
			mu.Unlock()
		}
	})
	waitDone := func(n int) IndexDone {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for time.Now().Before(deadline) {
			mu.Lock()
			if len(dones) >= n {
				d := dones[n-1]
				mu.Unlock()
				return d
			}
			mu.Unlock()
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("index run %d did not finish", n)
		return IndexDone{}
	}
	a.SetOllamaHost(srv.URL(), false)
	a.runReady()
	waitFor(t, "ollama mode", func() bool { return a.Mode() == "ollama" })

	src := filepath.Join("..", "assets", "sample", "en-report-dmca-summary.pdf")
	res, err := a.ImportPaths([]string{src})
	if err != nil || len(res) != 1 || res[0].Status != kb.StatusOK {
		t.Fatalf("import: %v %+v", err, res)
	}
	first := waitDone(1)
	// one call extracts a pack of chunks: the call after the one that
	// extracted chunk 3 finds Ollama gone
	if first.Error != "" || !stoppedAt.MatchString(first.Warning) ||
		!strings.Contains(first.Warning, "will be redone with qwen2.5:7b-instruct when it is back") {
		t.Fatalf("first run: %+v", first)
	}
	if a.Mode() != "offline" {
		t.Fatalf("mode %s after Ollama stopped", a.Mode())
	}
	model, left, err := p.ModelPending(a.context())
	byModel := 0
	sts, _ := p.Store().ExtractionStatuses(a.context(), 0)
	for _, s := range sts {
		if s.Extractor == model {
			byModel++
		}
	}
	if err != nil || model != "qwen2.5:7b-instruct" || byModel < 3 || left != res[0].Chunks-byModel {
		t.Fatalf("pending for the model: %q %d (%d by it) %v", model, left, byModel, err)
	}
	leftChunks, err := p.Store().PendingExtraction(a.context(), model, 0)
	if err != nil || len(leftChunks) != left {
		t.Fatalf("%d chunks pending, %d counted: %v", len(leftChunks), left, err)
	}
	leftCalls := len(extract.Pack(leftChunks, extract.DefaultPack))
	calls := len(srv.RequestsTo("/api/chat"))

	// Ollama is back: the mode flips (here on a Models call; the probe
	// loop does the same every few seconds) and indexing resumes.
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Models(); err != nil {
		t.Fatal(err)
	}
	second := waitDone(2)
	if second.Error != "" || second.Warning != "" {
		t.Fatalf("resumed run: %+v", second)
	}
	if _, n, _ := p.ModelPending(a.context()); n != 0 {
		c, _ := p.ExtractionCounts(a.context())
		sts, _ := p.Store().ExtractionStatuses(a.context(), 0)
		t.Fatalf("%d chunks still wait for the model after the resumed run: %v %+v", n, c, sts[:3])
	}
	extractCalls := 0
	for _, r := range srv.RequestsTo("/api/chat")[calls:] {
		if r.SchemaTitle == "extract" {
			extractCalls++
		}
	}
	if extractCalls != leftCalls {
		t.Fatalf("the resumed run made %d extraction calls for the %d chunks left (%d packs)", extractCalls, left, leftCalls)
	}
	// nothing more to resume: another flip starts no run
	a.Models()
	time.Sleep(100 * time.Millisecond)
	mu.Lock()
	n := len(dones)
	mu.Unlock()
	if n != 2 {
		t.Fatalf("%d index runs, want 2", n)
	}
}
