package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"cairn/backend/embed"
	"cairn/backend/extract"
	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/llm/fakeollama"
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
			c.Chunks = append(c.Chunks, store.ChunkRow{Chunk: kb.Chunk{Ordinal: i, PageStart: 1, PageEnd: 1, CharStart: off, CharEnd: off + len(para), Text: para},
				FTS: store.FTSRow{Body: para}, Vector: e.Vector(para)})
		}
		off += len(para) + 1
	}
	if err := s.SaveContent(ctx, id, c); err != nil {
		t.Fatal(err)
	}
	if len(c.Chunks) < 6 {
		t.Fatalf("only %d chunks", len(c.Chunks))
	}
	return s, len(c.Chunks)
}

// job is an offline extraction saving chunk by chunk, so a test can stop
// it after any chunk.
func job(s *store.Store, ctl *Control, progress func(Event)) *Extraction {
	return &Extraction{Store: s, Extractor: &extract.Extractor{Provider: llm.Offline{}}, Vectorize: embed.NewHashed(embed.DefaultDim).Vector, Control: ctl, Progress: progress, SaveBatch: 1}
}

// TestOfflineBatches: offline results are saved a batch per transaction; a
// cancel takes effect at the end of the batch, which is whole, and a
// resumed run does the rest.
func TestOfflineBatches(t *testing.T) {
	s, n := newStore(t)
	ctl := &Control{}
	j := job(s, ctl, func(e Event) {
		if e.Done == 3 {
			ctl.Cancel()
		}
	})
	j.SaveBatch = 4
	sum, err := j.Run(context.Background())
	if !errors.Is(err, context.Canceled) || sum.Done != 4 || sum.Counts.Pending != n-4 {
		t.Fatalf("cancel in a batch of 4: done %d, pending %d of %d, err %v", sum.Done, sum.Counts.Pending, n, err)
	}
	if probs, err := s.Check(context.Background()); err != nil || len(probs) > 0 {
		t.Fatalf("check after cancel: %v %v", probs, err)
	}
	j = job(s, nil, nil)
	j.SaveBatch = 0 // the default
	sum, err = j.Run(context.Background())
	if err != nil || sum.Total != n-4 || sum.Counts.Pending != 0 || sum.Counts.OK+sum.Counts.Empty != n {
		t.Fatalf("resume: %+v %v", sum, err)
	}
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

// heldJob runs an offline extraction job over a fresh store whose progress
// callback pauses it once pauseAt chunks are done (0: paused before it
// starts), and returns when the job is held at that pause.
type heldJob struct {
	s        *store.Store
	n        int
	ctl      *Control
	done     atomic.Int64
	finished chan error
	sum      Summary
}

func startHeld(t *testing.T, pauseAt int) *heldJob {
	t.Helper()
	h := &heldJob{finished: make(chan error, 1)}
	h.s, h.n = newStore(t)
	held := make(chan struct{}, 1)
	h.ctl = &Control{held: held}
	if pauseAt == 0 {
		h.ctl.Pause()
	}
	go func() {
		sum, err := job(h.s, h.ctl, func(e Event) {
			h.done.Store(int64(e.Done))
			if e.Done == pauseAt && e.Done > 0 {
				h.ctl.Pause() // on the job's goroutine: it stops before the next chunk
			}
		}).Run(context.Background())
		h.sum = sum
		h.finished <- err
	}()
	select {
	case <-held:
	case err := <-h.finished:
		t.Fatalf("the job ran to the end instead of pausing: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("the job never reached its pause")
	}
	if got := h.done.Load(); got != int64(pauseAt) || !h.ctl.Paused() {
		t.Fatalf("held after %d chunks (paused %v), want %d", got, h.ctl.Paused(), pauseAt)
	}
	return h
}

func (h *heldJob) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-h.finished:
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("the job did not finish")
	}
	return nil
}

func pending(t *testing.T, s *store.Store) int {
	t.Helper()
	c, err := s.ExtractionCounts(context.Background(), extract.Offline)
	if err != nil {
		t.Fatal(err)
	}
	return c.Pending
}

// TestPauseResume: a paused job holds before its next chunk, with the rest
// still pending, and a resumed one finishes; paused before it starts, it
// does nothing until resumed.
func TestPauseResume(t *testing.T) {
	for _, at := range []int{0, 2} {
		h := startHeld(t, at)
		if p := pending(t, h.s); p != h.n-at {
			t.Fatalf("paused at %d: %d pending, want %d", at, p, h.n-at)
		}
		h.ctl.Resume()
		if err := h.wait(t); err != nil {
			t.Fatal(err)
		}
		if h.sum.Done != h.n || pending(t, h.s) != 0 {
			t.Fatalf("resumed from %d: done %d of %d, %d pending", at, h.sum.Done, h.n, pending(t, h.s))
		}
	}
}

// TestCancelWhilePaused: a job held at a pause can be cancelled; what it
// did is kept, the rest stays pending, and the next run does the rest.
func TestCancelWhilePaused(t *testing.T) {
	h := startHeld(t, 3)
	h.ctl.Cancel()
	if err := h.wait(t); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled while paused: err %v", err)
	}
	if h.sum.Done != 3 || pending(t, h.s) != h.n-3 {
		t.Fatalf("after cancel: done %d, %d pending, want 3 and %d", h.sum.Done, pending(t, h.s), h.n-3)
	}
	if probs, err := h.s.Check(context.Background()); err != nil || len(probs) > 0 {
		t.Fatalf("check after cancel: %v %v", probs, err)
	}
	sum, err := job(h.s, nil, nil).Run(context.Background())
	if err != nil || sum.Total != h.n-3 || pending(t, h.s) != 0 {
		t.Fatalf("resume: %+v %v", sum, err)
	}
}

// answerPassages answers an extraction request for every passage id
// except those in skip, with what the offline extractor finds in the
// passage (names as written, its salient sentences as facts).
func answerPassages(r fakeollama.Request, skip map[string]bool) string {
	ids, texts := extract.Passages(r.Messages[1].Content)
	out := map[string]any{}
	for _, id := range ids {
		if skip[id] {
			continue
		}
		text := texts[id]
		off := extract.ExtractOffline(extract.Input{Chunk: kb.Chunk{ID: 1, DocID: 1, PageStart: 1, PageEnd: 1, CharEnd: len(text), Text: text}})
		ents := []map[string]string{}
		for _, e := range off.Entities {
			if len(ents) < 15 {
				// The offline extractor has types the model schema lacks
				// (money, percent, quantity, abbreviation): a model says "other".
				ents = append(ents, map[string]string{"name": e.Name, "type": extract.SchemaType(e.Type), "description": e.Name + " as named here."})
			}
		}
		facts := []string{}
		for _, f := range off.Facts {
			if len(facts) < 8 {
				facts = append(facts, f.Text)
			}
		}
		out[id] = map[string]any{"entities": ents, "relations": []any{}, "facts": facts}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

func modelJob(t *testing.T, s *store.Store, srv *fakeollama.Server, progress func(Event)) *Extraction {
	t.Helper()
	o, err := llm.NewOllama(llm.OllamaConfig{Host: srv.URL(), Retries: 0})
	if err != nil {
		t.Fatal(err)
	}
	return &Extraction{Store: s, Extractor: &extract.Extractor{Provider: o}, Vectorize: embed.NewHashed(embed.DefaultDim).Vector, Progress: progress,
		Pack: extract.PackBudget{Tokens: 400, Chunks: 3}}
}

func serverCount(srv *fakeollama.Server) (calls, prompt, completion int) {
	for _, r := range srv.RequestsTo("/api/chat") {
		calls++
		prompt += r.PromptTokens
	}
	return calls, prompt, 0
}

// TestModelPacks: with a model, the job extracts packs of chunks in one
// call each; a passage the reply leaves out is extracted again alone in
// the same run; progress comes per chunk; the usage recorded per chunk and
// per job adds up to what the server counted.
func TestModelPacks(t *testing.T) {
	ctx := context.Background()
	s, n := newStore(t)
	pending, err := s.PendingExtraction(ctx, llm.DefaultChatModel, 0)
	if err != nil {
		t.Fatal(err)
	}
	packs := extract.Pack(pending, extract.PackBudget{Tokens: 400, Chunks: 3})
	multi := 0
	for _, p := range packs {
		if len(p) > 1 {
			multi++
		}
	}
	if multi < 2 || len(packs) >= n {
		t.Fatalf("the README should make several packs of several chunks: %d chunks in %d packs", n, len(packs))
	}
	srv := fakeollama.Start(t)
	// every pack of several chunks: the reply leaves out its second passage
	srv.On(fakeollama.Rule{Schema: "extract", Func: func(r fakeollama.Request) string {
		ids, _ := extract.Passages(r.Messages[1].Content)
		if len(ids) > 1 {
			return answerPassages(r, map[string]bool{"P2": true})
		}
		return answerPassages(r, nil)
	}})
	var events []Event
	sum, err := modelJob(t, s, srv, func(e Event) { events = append(events, e) }).Run(ctx)
	if err != nil || sum.Stopped != nil {
		t.Fatalf("%+v %v", sum, err)
	}
	calls, prompt, _ := serverCount(srv)
	if calls != len(packs)+multi {
		t.Fatalf("%d calls for %d packs, %d of them missing a passage", calls, len(packs), multi)
	}
	if sum.Failed != 0 || sum.OK+sum.Empty != n || sum.Counts.Pending != 0 || sum.Counts.Failed != 0 {
		t.Fatalf("summary %+v", sum)
	}
	u, err := s.ExtractionUsage(ctx)
	if err != nil || sum.Usage.Calls != calls || sum.Usage.PromptTokens != prompt || u.Calls != calls || u.PromptTokens != prompt ||
		u.CompletionTokens != sum.Usage.CompletionTokens {
		t.Fatalf("usage per job %+v, per chunk %+v; the server counted %d calls, %d prompt tokens", sum.Usage, u, calls, prompt)
	}
	// one event at the start, then one per chunk
	if len(events) != n+1 {
		t.Fatalf("%d events for %d chunks", len(events), n)
	}
	for i, e := range events {
		if e.Done != i || e.Total != n || (i > 0 && e.ETA < 0) {
			t.Fatalf("event %d: %+v", i, e)
		}
	}
	// every chunk is recorded by the model, with its own provenance
	sts, err := s.ExtractionStatuses(ctx, 0)
	if err != nil || len(sts) != n {
		t.Fatalf("%d statuses, %v", len(sts), err)
	}
	for _, st := range sts {
		if st.Extractor != llm.DefaultChatModel {
			t.Fatalf("chunk %d: %+v", st.ChunkID, st)
		}
	}
	if probs, err := s.Check(ctx); err != nil || len(probs) > 0 {
		t.Fatalf("check: %v %v", probs, err)
	}
	// resume: nothing is sent again
	again, err := modelJob(t, s, srv, nil).Run(ctx)
	if c, _, _ := serverCount(srv); err != nil || again.Total != 0 || c != calls {
		t.Fatalf("second run: %+v %v, %d calls", again.Event, err, c-calls)
	}
}

// TestModelPacksStop: a model that fails every call with a fault of its
// side is given up after DefaultStopAfter calls (not chunks): the chunks
// of those calls keep the offline extraction, failed; the rest get it
// offline; all stay pending for the model.
func TestModelPacksStop(t *testing.T) {
	ctx := context.Background()
	s, n := newStore(t)
	pending, _ := s.PendingExtraction(ctx, llm.DefaultChatModel, 0)
	packs := extract.Pack(pending, extract.PackBudget{Tokens: 400, Chunks: 3})
	srv := fakeollama.Start(t)
	srv.On(fakeollama.Rule{Schema: "extract", Fault: fakeollama.FaultHTTP500})
	var failedEvents int
	sum, err := modelJob(t, s, srv, func(e Event) {
		if e.Extractor == llm.DefaultChatModel && e.LastError != "" && e.Stopped == nil {
			failedEvents++
		}
	}).Run(ctx)
	if err != nil || sum.Stopped == nil {
		t.Fatalf("%+v %v", sum, err)
	}
	three := len(packs[0]) + len(packs[1]) + len(packs[2])
	st := sum.Stopped
	prompts := map[string]bool{} // the transport retries a 5xx: count distinct requests
	for _, r := range srv.RequestsTo("/api/chat") {
		prompts[r.Messages[1].Content] = true
	}
	calls := len(prompts)
	if calls != DefaultStopAfter || st.Kind != llm.FailHTTP || st.First != 1 || st.At != three || st.Left != n || st.Filled != n-three || failedEvents != three {
		t.Fatalf("%d calls; stop %+v; %d failed chunk events; packs %d,%d,%d", calls, st, failedEvents, len(packs[0]), len(packs[1]), len(packs[2]))
	}
	if !strings.Contains(st.Message, fmt.Sprintf("for chunks 1–%d of %d", three, n)) {
		t.Fatalf("message %q", st.Message)
	}
	// pending for the model: the chunks it failed, and those filled offline
	if sum.Counts.Failed != three || sum.Counts.Pending != n-three {
		t.Fatalf("counts %+v", sum.Counts)
	}
}
