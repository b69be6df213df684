package jobs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"cairn/backend/embed"
	"cairn/backend/extract"
	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/store"
)

// newStore holds the sample project's README, one chunk per paragraph.
func newStore(t *testing.T) (*store.Store, int) {
	t.Helper()
	ctx := context.Background()
	b, err := os.ReadFile("../../assets/sample/README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	s, err := store.Open(filepath.Join(t.TempDir(), "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	e := embed.NewHashed(embed.DefaultDim)
	if err := s.EnsureVectors(ctx, e.Info()); err != nil {
		t.Fatal(err)
	}
	id, err := s.AddDocument(ctx, kb.Document{Title: "Sample README", FileName: "README.md", StoredPath: "files/x", Kind: "md", Hash: "h"})
	if err != nil {
		t.Fatal(err)
	}
	c := store.Content{Title: "Sample README", Kind: "md", Pages: []kb.Page{{Number: 1, Text: text}}}
	off := 0
	for i, para := range strings.Split(text, "\n") {
		if strings.TrimSpace(para) != "" {
			c.Chunks = append(c.Chunks, kb.Chunk{Ordinal: i, PageStart: 1, PageEnd: 1, CharStart: off, CharEnd: off + len(para), Text: para})
			c.FTS = append(c.FTS, store.FTSRow{Body: para})
			c.Vectors = append(c.Vectors, e.Vector(para))
		}
		off += len(para) + 1
	}
	if err := s.SaveContent(ctx, id, c, nil); err != nil {
		t.Fatal(err)
	}
	if len(c.Chunks) < 6 {
		t.Fatalf("only %d chunks", len(c.Chunks))
	}
	return s, len(c.Chunks)
}

func job(s *store.Store, ctl *Control, progress func(Event)) *Extraction {
	return &Extraction{Store: s, Extractor: &extract.Extractor{Provider: llm.Offline{}}, Vectorize: embed.NewHashed(embed.DefaultDim).Vector, Control: ctl, Progress: progress}
}

func TestCancelResume(t *testing.T) {
	s, n := newStore(t)
	ctl := &Control{}
	var events []Event
	sum, err := job(s, ctl, func(e Event) {
		events = append(events, e)
		if e.Done == 3 {
			ctl.Cancel()
		}
	}).Run(context.Background())
	if !errors.Is(err, context.Canceled) || sum.Done != 3 {
		t.Fatalf("cancel: done %d, err %v", sum.Done, err)
	}
	if events[0].Total != n || events[3].ETA <= 0 || events[3].Elapsed <= 0 {
		t.Fatalf("events: %+v", events[:4])
	}
	if probs, err := s.Check(context.Background()); err != nil || len(probs) > 0 {
		t.Fatalf("check after cancel: %v %v", probs, err)
	}
	if sum.Counts.Pending != n-3 {
		t.Fatalf("pending after cancel %+v", sum.Counts)
	}
	sum, err = job(s, nil, nil).Run(context.Background())
	if err != nil || sum.Total != n-3 || sum.Counts.Pending != 0 || sum.Counts.OK+sum.Counts.Empty != n {
		t.Fatalf("resume: %+v %v", sum, err)
	}
}

func TestPauseResume(t *testing.T) {
	s, n := newStore(t)
	ctl := &Control{}
	ctl.Pause()
	var mu sync.Mutex
	done := 0
	finished := make(chan error, 1)
	go func() {
		_, err := job(s, ctl, func(e Event) { mu.Lock(); done = e.Done; mu.Unlock() }).Run(context.Background())
		finished <- err
	}()
	time.Sleep(300 * time.Millisecond)
	mu.Lock()
	held := done
	mu.Unlock()
	if held != 0 || !ctl.Paused() {
		t.Fatalf("paused job did %d chunks", held)
	}
	ctl.Resume()
	select {
	case err := <-finished:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("resumed job did not finish")
	}
	if done != n {
		t.Fatalf("done %d of %d", done, n)
	}
	// a paused job can still be cancelled
	ctl.Pause()
	go func() { time.Sleep(50 * time.Millisecond); ctl.Cancel() }()
	if _, err := job(s, ctl, nil).Run(context.Background()); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
}
