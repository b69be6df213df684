package app

import (
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"cairn/backend/llm/fakeollama"
	"cairn/backend/project"
)

// TestSwitchEmbedderWithProgress: the project's passages move to an Ollama
// embedding model with progress events, while search keeps answering.
func TestSwitchEmbedderWithProgress(t *testing.T) {
	t.Setenv("CAIRN_HOME", t.TempDir())
	srv := fakeollama.Start(t)
	a, _ := openReal(t)
	defer a.stop()
	a.SetOllamaHost(srv.URL(), false)
	a.runReady()
	waitFor(t, "ollama mode", func() bool { return a.Mode() == "ollama" })

	file, _ := filepath.Abs("../assets/sample/en-report-dmca-summary.pdf")
	if _, err := a.ImportPaths([]string{file}); err != nil {
		t.Fatal(err)
	}
	waitIndexIdle(t, a)
	before, err := a.EmbedderStatus()
	if err != nil || !strings.HasPrefix(before.Current.Model, "cairn-hash") {
		t.Fatalf("before: %+v %v", before, err)
	}
	events := record(a)

	srv.Delay(20 * time.Millisecond) // slow enough to search meanwhile
	stop := make(chan struct{})
	var searches, failures atomic.Int32
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			res, err := a.Search("copyright infringement", 5)
			searches.Add(1)
			if err != nil || len(res.Hits) == 0 {
				failures.Add(1)
			}
		}
	}()
	err = a.SwitchEmbedder("bge-m3")
	close(stop)
	if err != nil {
		t.Fatal(err)
	}
	if failures.Load() != 0 {
		t.Fatalf("%d of %d searches failed during the switch", failures.Load(), searches.Load())
	}
	after, _ := a.EmbedderStatus()
	if !strings.Contains(after.Current.Model, "bge-m3") || after.Pending.Dim != 0 {
		t.Fatalf("after: %+v", after)
	}
	var progress, done int
	var last project.ReembedProgress
	for _, e := range events() {
		switch e.name {
		case EventEmbedProgress:
			progress++
			last = e.data.(project.ReembedProgress)
		case EventEmbedDone:
			done++
			if d := e.data.(EmbedDone); d.Error != "" {
				t.Fatalf("done with %q", d.Error)
			}
		}
	}
	if progress == 0 || done != 1 || !last.Finished || last.Done != last.Total {
		t.Fatalf("%d progress events (last %+v), %d done", progress, last, done)
	}
	if res, err := a.Search("copyright infringement", 5); err != nil || len(res.Hits) == 0 {
		t.Fatalf("search after the switch: %v %v", res.Hits, err)
	}
	t.Logf("%d searches during the switch, %d progress events", searches.Load(), progress)

	if err := a.SwitchEmbedder("nonexistent-embedder"); err == nil {
		t.Fatal("switch to a missing model succeeded")
	}

	// The Search view's note: the query embedded by the project's model,
	// then, with Ollama gone, not embedded (keywords only) and saying why.
	res, err := a.Search("copyright infringement", 5)
	if err != nil || !res.Info.Vectors || res.Info.Note != "" || !strings.Contains(res.Info.Embedder, "bge-m3") {
		t.Fatalf("search with Ollama up: %+v %v", res.Info, err)
	}
	srv.Stop()
	res, err = a.Search("copyright infringement", 5)
	if err != nil || res.Info.Vectors || !strings.Contains(res.Info.Note, "keywords only") || len(res.Hits) == 0 {
		t.Fatalf("search with Ollama gone: %+v, %d hits, %v", res.Info, len(res.Hits), err)
	}
	t.Logf("note: %s", res.Info.Note)
}
