package project

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cairn/backend/llm/fakeollama"
)

// TestReadsWhileIndexing asks and browses while indexing writes: one
// goroutine indexes (model mode against the fake Ollama), two readers
// search passages and read the graph, entities, facts, counts and mind
// maps in a loop, one through the indexing handle, one through a second
// handle on the same folder (a second window or a CLI). No read may fail,
// "database is locked" least of all, and every read sees a consistent
// state (the integrity check passes afterwards).
func TestReadsWhileIndexing(t *testing.T) {
	ctx := context.Background()
	srv := fakeollama.Start(t)
	srv.On(fakeollama.Rule{Schema: "extract", Func: extractModel})
	srv.On(fakeollama.Rule{Schema: "mindmap", Func: mindMapModel})
	p := modelProject(t, srv)
	sample, _ := filepath.Abs("../../assets/sample")
	importAll(t, p, filepath.Join(sample, "en-report-dmca-summary.pdf"))
	other, err := Open(p.Dir())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	docs, err := p.Documents(ctx)
	if err != nil || len(docs) != 1 {
		t.Fatalf("documents: %v %d", err, len(docs))
	}

	done := make(chan struct{})
	var indexErr error
	go func() {
		defer close(done)
		indexErr = p.Index(ctx, nil)
	}()
	var reads atomic.Int64
	var mu sync.Mutex
	var failures []string
	fail := func(what string, err error) {
		mu.Lock()
		defer mu.Unlock()
		if len(failures) < 10 {
			failures = append(failures, what+": "+err.Error())
		}
	}
	reader := func(q *Project, name string) {
		queries := []string{"anti-circumvention technological measures", "online service provider liability"}
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			default:
			}
			if _, err := q.Search(ctx, queries[i%len(queries)], 5); err != nil {
				fail(name+" search", err)
			}
			if g, err := q.Graph(ctx); err != nil {
				fail(name+" graph", err)
			} else if len(g.Entities) > 0 {
				if _, _, err := q.Entity(ctx, g.Entities[i%len(g.Entities)].Name); err != nil {
					fail(name+" entity", err)
				}
			}
			if _, err := q.ExtractionCounts(ctx); err != nil {
				fail(name+" counts", err)
			}
			d := docs[i%len(docs)].ID
			if _, err := q.Facts(ctx, d); err != nil {
				fail(name+" facts", err)
			}
			if _, err := q.MindMap(ctx, d); err != nil && !strings.Contains(err.Error(), "no mind map") {
				fail(name+" mind map", err)
			}
			if _, err := q.Documents(ctx); err != nil {
				fail(name+" documents", err)
			}
			reads.Add(1)
		}
	}
	var wg sync.WaitGroup
	for i, q := range []*Project{p, other} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			reader(q, []string{"same handle", "second handle"}[i])
		}()
	}
	start := time.Now()
	<-done
	wg.Wait()
	if indexErr != nil {
		t.Fatalf("index: %v", indexErr)
	}
	for _, f := range failures {
		t.Error(f)
	}
	c, _ := p.ExtractionCounts(ctx)
	if c["pending"] != 0 || c["failed"] != 0 || c["ok"] == 0 {
		t.Fatalf("counts after indexing %v", c)
	}
	t.Logf("%d read rounds (search, graph, entity, counts, facts, mind map, documents) during %v of indexing; %d failures",
		reads.Load(), time.Since(start).Round(time.Millisecond), len(failures))
	if reads.Load() < 8 {
		t.Fatalf("only %d read rounds overlapped the indexing", reads.Load())
	}
	check(t, p)
}
