// Package jobs runs knowledge-graph extraction over a project's chunks as a
// resumable job: it asks the store for the chunks still pending for the
// current extractor, extracts them (offline chunk by chunk, or with one
// model call per pack of consecutive chunks of a document: extract.Pack),
// aligns the entities with the graph and stores each chunk's whole result
// in one transaction. A run killed at any moment leaves every chunk either
// fully extracted or pending, so the next run resumes where it stopped and
// a chunk's extraction is stored once. Passage search never waits for it:
// chunks are searchable from import on.
//
// A Control pauses, resumes and cancels a running job between calls
// (offline: between chunks); progress events, one per chunk, carry counts,
// usage and an ETA.
package jobs

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"cairn/backend/extract"
	"cairn/backend/graph"
	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/store"
)

// Event is a progress report: after each chunk, and once at the start.
type Event struct {
	Stage     string        `json:"stage"`     // "extract"
	Extractor string        `json:"extractor"` // offline or the model name
	DocID     int64         `json:"doc_id,omitempty"`
	Done      int           `json:"done"`  // chunks finished in this run
	Total     int           `json:"total"` // chunks pending at the start of this run
	OK        int           `json:"ok"`
	Empty     int           `json:"empty"`
	Failed    int           `json:"failed"`
	Elapsed   time.Duration `json:"elapsed_ns"`
	ETA       time.Duration `json:"eta_ns"`
	Usage     llm.Usage     `json:"usage"`
	Paused    bool          `json:"paused,omitempty"`
	// LastError is why the chunk just finished failed ("" when it did not).
	LastError string `json:"last_error,omitempty"`
	// Stopped is set on the last event of a run that stopped asking the
	// model (see Stop).
	Stopped *Stop `json:"stopped,omitempty"`
	// Exhausted counts the chunks this run did not send to the model
	// because they already failed MaxAttempts times with it; they stay
	// failed (offline extraction kept) until ResetAttempts or another model.
	Exhausted     int    `json:"exhausted,omitempty"`
	ExhaustedNote string `json:"exhausted_note,omitempty"`
}

// Control pauses, resumes and cancels a running job. The zero value is
// ready; one Control may be shared by the UI and the job.
type Control struct {
	mu     sync.Mutex
	paused bool
	wake   chan struct{}
	cancel context.CancelFunc
	held   chan<- struct{} // tests: told (without blocking) when a job stops at a pause
}

// Pause makes the job stop before its next call (offline: chunk) until
// Resume.
func (c *Control) Pause() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.paused {
		c.paused = true
		c.wake = make(chan struct{})
	}
}

// Resume lets a paused job go on.
func (c *Control) Resume() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.paused {
		c.paused = false
		close(c.wake)
	}
}

// Paused says whether the job is held.
func (c *Control) Paused() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.paused
}

// Cancel stops the job: a model call in flight is abandoned (its chunks
// stay pending), the results of a call that came back are all saved first.
// Each chunk's transaction either commits or rolls back; nothing is
// half-written.
func (c *Control) Cancel() {
	c.mu.Lock()
	cancel := c.cancel
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	c.Resume()
}

func (c *Control) wait(ctx context.Context) error {
	c.mu.Lock()
	if !c.paused {
		c.mu.Unlock()
		return nil
	}
	w, held := c.wake, c.held
	c.mu.Unlock()
	if held != nil {
		select {
		case held <- struct{}{}:
		default:
		}
	}
	select {
	case <-w:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Extraction is the graph-building job.
type Extraction struct {
	Store     *store.Store
	Extractor *extract.Extractor
	Vectorize func(text string) []float32 // the built-in hashed embedder (entities_vec, relations_vec)
	Control   *Control                    // optional
	Progress  func(Event)                 // optional
	Limit     int                         // stop after this many chunks (0: all); for tests and batches
	// StopAfter is how many calls in a row may fail with a fault of the
	// model's side — timeout, HTTP error, cut reply, context window too
	// small — before the job stops asking the model (0: DefaultStopAfter).
	// An unreachable server or an unknown model stops it at once.
	StopAfter int
	// Pack bounds the chunks one model call extracts (zero fields:
	// extract.DefaultPack's). Offline extraction goes chunk by chunk.
	Pack extract.PackBudget
	// MaxAttempts is how many runs may fail to extract a chunk with one
	// model before it is left failed (0: DefaultMaxAttempts). Each retry
	// changes what is sent: the first goes alone instead of in a pack, the
	// next with a smaller reply budget and a note on what went wrong
	// (extract.Prior).
	MaxAttempts int
	// SaveBatch is how many chunks' offline extractions are saved per
	// transaction (0: DefaultSaveBatch). A pause or cancel takes effect
	// between batches; a crash loses at most one batch, which the next run
	// redoes. Model extractions are saved chunk by chunk.
	SaveBatch int
}

// DefaultStopAfter is Extraction.StopAfter's default.
const DefaultStopAfter = 3

// DefaultMaxAttempts is Extraction.MaxAttempts's default.
const DefaultMaxAttempts = 3

// DefaultSaveBatch is Extraction.SaveBatch's default: a commit and a vector
// refresh per chunk were most of the offline graph stage's time.
const DefaultSaveBatch = 32

// chunkFault says whether a failure is the chunk's own with this model (a
// reply that was invalid, empty, cut or too big for the window), which a
// retry with a change may fix and which counts as an attempt; faults of
// the server (unreachable, HTTP errors, timeouts, a missing model) do not.
func chunkFault(k llm.FailureKind) bool {
	switch k {
	case llm.FailMalformed, llm.FailSchema, llm.FailEmpty, llm.FailCut, llm.FailContext:
		return true
	}
	return false
}

// Stop says why a run stopped asking the model before its last chunk. The
// chunks it did not extract with the model keep (or, if they had none, get)
// the offline extraction and stay pending for the model: the next run with
// the model redoes them.
type Stop struct {
	Kind   llm.FailureKind `json:"kind"`
	Model  string          `json:"model"`
	At     int             `json:"at"`               // the last chunk of this run (1-based) of the call at which the model was given up
	First  int             `json:"first"`            // the first chunk of the failing streak's first call
	Total  int             `json:"total"`            // chunks this run was to extract with the model
	Left   int             `json:"left"`             // of those, chunks not extracted by the model (the failed one included)
	Filled int             `json:"filled,omitempty"` // chunks that had no extraction and got the offline one
	Detail string          `json:"detail"`           // the last failure, as the provider said it
	// Message says it for a person: what happened, where, what was kept,
	// and when the rest is redone.
	Message string `json:"message"`
}

// Summary is what a run did.
type Summary struct {
	Event
	Counts  kb.ExtractCounts `json:"counts"`            // over the whole project after the run
	Stopped *Stop            `json:"stopped,omitempty"` // the model went away or kept failing
}

// systemic says whether a failure kind is the model's side rather than the
// chunk's: at once (the server is gone, the model is not installed) or
// after StopAfter calls in a row.
func systemic(k llm.FailureKind) (now, repeated bool) {
	switch k {
	case llm.FailUnreachable, llm.FailUnknownModel:
		return true, true
	case llm.FailTimeout, llm.FailHTTP, llm.FailCut, llm.FailContext:
		return false, true
	}
	return false, false
}

// Run extracts every pending chunk. It returns ctx's error when cancelled
// (what was done stays done). When the model goes away or keeps failing
// (see StopAfter), it stops asking it, gives the chunks that have no
// extraction at all the offline one, and says so in Summary.Stopped; the
// error is nil then (nothing was lost, the rest is pending for the model).
func (j *Extraction) Run(ctx context.Context) (Summary, error) {
	if j.Store == nil || j.Extractor == nil || j.Vectorize == nil {
		return Summary{}, errors.New("extraction job: store, extractor and vectorizer are required")
	}
	ctl := j.Control
	if ctl == nil {
		ctl = &Control{}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ctl.mu.Lock()
	ctl.cancel = cancel
	ctl.mu.Unlock()
	progress := j.Progress
	if progress == nil {
		progress = func(Event) {}
	}
	// shared entities recomputed by a removal since the last run get fresh vectors
	if err := j.Store.RefreshGraphVectors(ctx, j.Vectorize); err != nil {
		return Summary{}, err
	}
	name := j.Extractor.Name()
	ev, stop, err := j.pass(ctx, ctl, j.Extractor, name, progress, Event{})
	if err != nil || stop == nil {
		return j.summary(ev, nil, err)
	}
	// the model stopped: chunks without any extraction get the offline one
	off := &extract.Extractor{}
	fill := ev
	fill.Extractor, fill.Done, fill.Total = extract.Offline, 0, 0
	fill, _, err = j.pass(ctx, ctl, off, extract.Offline, progress, fill)
	stop.Filled = fill.Done
	stop.Message = stopMessage(*stop)
	ev.OK, ev.Empty, ev.Failed, ev.Usage, ev.Elapsed = fill.OK, fill.Empty, fill.Failed, fill.Usage, fill.Elapsed
	ev.Done, ev.Total, ev.ETA = ev.Done+fill.Done, ev.Total+fill.Total, 0
	ev.Stopped = stop
	progress(ev)
	return j.summary(ev, stop, err)
}

// pass extracts the chunks pending for name with x: with a model, in
// packs of consecutive chunks of one document (extract.Pack, one call
// each); offline, chunk by chunk. It returns a Stop when x's model went
// away or kept failing (the pass ends there).
func (j *Extraction) pass(ctx context.Context, ctl *Control, x *extract.Extractor, name string, progress func(Event), ev Event) (Event, *Stop, error) {
	pending, err := j.Store.PendingExtraction(ctx, name, j.Limit)
	if err != nil {
		return ev, nil, err
	}
	model := name != extract.Offline
	// Chunks that failed with this model before are retried with a change
	// (extract.Prior), and left alone after MaxAttempts.
	var attempts map[int64]store.Attempt
	if model {
		if attempts, err = j.Store.ExtractionAttempts(ctx, name); err != nil {
			return ev, nil, err
		}
		maxAttempts := j.MaxAttempts
		if maxAttempts <= 0 {
			maxAttempts = DefaultMaxAttempts
		}
		kept := pending[:0:0]
		var lastReason string
		for _, c := range pending {
			if a, ok := attempts[c.ID]; ok && a.Attempts >= maxAttempts {
				ev.Exhausted++
				lastReason = a.Reason
				continue
			}
			kept = append(kept, c)
		}
		pending = kept
		if ev.Exhausted > 0 {
			ev.ExhaustedNote = fmt.Sprintf("%d chunks were not sent to %s again: each failed %d times with it (last: %s); they keep the offline extraction until you retry them (cairn index --retry-failed, or Re-index in the Library) or change the model",
				ev.Exhausted, name, maxAttempts, clipReason(lastReason))
		}
	}
	ev.Stage, ev.Extractor, ev.Total = "extract", name, len(pending)
	start := time.Now().Add(-ev.Elapsed)
	progress(ev)
	stopAfter := j.StopAfter
	if stopAfter <= 0 {
		stopAfter = DefaultStopAfter
	}
	budget := j.Pack
	if !model {
		// the offline extractor reads chunk by chunk; a pack of them is
		// saved in one transaction (see SaveChunkGraphs)
		budget = extract.PackBudget{Chunks: cmp.Or(j.SaveBatch, DefaultSaveBatch), Tokens: math.MaxInt32}
	} else if tf, ok := x.Provider.(interface{ TokenFactor(string) float64 }); ok {
		// a model whose tokenizer splits finer than the estimate (its
		// learnt factor) gets proportionally smaller packs
		if f := tf.TokenFactor(name); f > 1 {
			if budget.Tokens <= 0 {
				budget.Tokens = extract.DefaultPack.Tokens
			}
			budget.Tokens = max(1, int(float64(budget.Tokens)/f))
		}
	}
	titles := map[int64][2]string{}
	// The offline extractor (also a model's fallback) reads a document's
	// lower-case words and its people's surnames with each of its chunks
	// (the last document's are kept: chunks come in order).
	var lowerDoc int64 = -1
	var lowerWords map[string]bool
	var surnames map[string]int
	input := func(c kb.Chunk) (extract.Input, error) {
		t, ok := titles[c.DocID]
		if !ok {
			title, file, err := j.Store.DocumentTitle(ctx, c.DocID)
			if err != nil {
				return extract.Input{}, fmt.Errorf("chunk %d: %w", c.ID, err)
			}
			t = [2]string{title, file}
			titles[c.DocID] = t
		}
		in := extract.Input{Chunk: c, DocTitle: t[0], FileName: t[1]}
		if lowerDoc != c.DocID {
			chunks, err := j.Store.ChunksOfDocument(ctx, c.DocID)
			if err != nil {
				return extract.Input{}, fmt.Errorf("chunk %d: %w", c.ID, err)
			}
			texts := make([]string, len(chunks))
			for i, dc := range chunks {
				texts[i] = dc.Text
			}
			lowerDoc, lowerWords, surnames = c.DocID, extract.LowerWords(texts...), extract.DocSurnames(texts...)
		}
		in.DocLower, in.DocSurnames = lowerWords, surnames
		if a, ok := attempts[c.ID]; ok {
			in.Prior = extract.Prior{Attempts: a.Attempts, Reason: a.Reason}
		}
		return in, nil
	}
	align := j.aligner()
	var saved func(c kb.Chunk, res extract.Result) error
	// save records one chunk's result (a whole transaction) and reports it.
	save := func(c kb.Chunk, res extract.Result) error {
		if model && res.Status != kb.ExtractFailed && res.Extractor != name {
			// answered offline: the mode flipped between the check and the call
			res.Status, res.Extractor, res.Kind = kb.ExtractFailed, extract.Fallback, llm.FailUnreachable
			res.Reason = "unreachable: the language model went offline"
		}
		// a call's results are saved even when the job was cancelled meanwhile:
		// the model's work is paid for, and each chunk is one transaction
		if err := j.Store.SaveChunkGraph(context.WithoutCancel(ctx), toChunkGraph(c.ID, res), j.Vectorize, align); err != nil {
			return fmt.Errorf("save chunk %d: %w", c.ID, err)
		}
		return saved(c, res)
	}
	// saved counts and reports a chunk whose result is stored.
	saved = func(c kb.Chunk, res extract.Result) error {
		if model {
			var aerr error
			if res.Status == kb.ExtractFailed && chunkFault(res.Kind) {
				aerr = j.Store.RecordAttempt(context.WithoutCancel(ctx), c.ID, name, string(res.Kind), res.Reason)
			} else if _, had := attempts[c.ID]; had && res.Status != kb.ExtractFailed {
				aerr = j.Store.ClearAttempt(context.WithoutCancel(ctx), c.ID, name)
			}
			if aerr != nil {
				return aerr
			}
		}
		ev.Done++
		ev.DocID = c.DocID
		switch res.Status {
		case kb.ExtractOK:
			ev.OK++
		case kb.ExtractEmpty:
			ev.Empty++
		case kb.ExtractFailed:
			ev.Failed++
		}
		ev.Usage = ev.Usage.Add(res.Usage)
		ev.Elapsed = time.Since(start)
		ev.ETA = time.Duration(float64(ev.Elapsed) / float64(ev.Done) * float64(ev.Total-ev.Done))
		ev.Paused = ctl.Paused()
		ev.LastError = ""
		if res.Status == kb.ExtractFailed {
			ev.LastError = res.Reason
		}
		progress(ev)
		return nil
	}
	// Streaks count calls, not chunks: a call that fails with a fault of
	// the model's side fails every chunk of its pack at once.
	var streak int // calls in a row failed by a systemic fault
	first := 0     // the first chunk (1-based) of the streak's first call
	var last extract.Result
	// called records the outcome of one call that covered the chunks
	// [from, to] (1-based) of this run; res is the result of its first
	// chunk (a failed call fails them all alike). It returns a Stop when
	// the model is to be given up.
	called := func(res extract.Result, from, to int) *Stop {
		if !model {
			return nil
		}
		now, repeated := systemic(res.Kind)
		failed := res.Status == kb.ExtractFailed && repeated
		if failed {
			if streak == 0 {
				first = from
			}
			streak++
			last = res
		} else {
			streak = 0
		}
		if failed && (now || streak >= stopAfter) {
			return &Stop{Kind: res.Kind, Model: name, At: to, First: first, Total: len(pending), Left: len(pending) - ev.OK - ev.Empty, Detail: res.Reason}
		}
		return nil
	}
	// Offline, the next pack is extracted on another goroutine while this
	// one is saved (extraction and SQLite writes each take about half of
	// the stage). input and ExtractPack run on one such goroutine at a
	// time, each started once the one before has delivered.
	type extracted struct {
		rs  []extract.Result
		err error
	}
	extractAhead := func(pk []kb.Chunk) chan extracted {
		ch := make(chan extracted, 1)
		go func() {
			ins := make([]extract.Input, len(pk))
			for k, c := range pk {
				var err error
				if ins[k], err = input(c); err != nil {
					ch <- extracted{err: err}
					return
				}
			}
			rs, err := x.ExtractPack(ctx, ins)
			ch <- extracted{rs, err}
		}()
		return ch
	}
	var ahead chan extracted
	defer func() {
		if ahead != nil {
			<-ahead // no extraction outlives the run
		}
	}()
	all := packs(pending, budget, attempts)
	next := 0 // index in pending of the pack's first chunk
	for i, pk := range all {
		at := next
		next += len(pk)
		if err := ctl.wait(ctx); err != nil {
			return ev, nil, err
		}
		if err := ctx.Err(); err != nil {
			return ev, nil, err
		}
		if model && x.Name() != name {
			// the provider went offline under us (another call found the
			// server gone): do not record offline results as this model's
			kind, detail := llm.FailUnreachable, "the language model went offline"
			if last.Kind != "" {
				kind, detail = last.Kind, last.Reason
			}
			return ev, &Stop{Kind: kind, Model: name, At: at + 1, First: at + 1, Total: len(pending), Left: len(pending) - ev.OK - ev.Empty, Detail: detail}, nil
		}
		if !model {
			if ahead == nil {
				ahead = extractAhead(pk)
			}
			got := <-ahead
			ahead = nil
			if i+1 < len(all) {
				ahead = extractAhead(all[i+1])
			}
			if got.err != nil {
				return ev, nil, got.err
			}
			rs := got.rs
			// offline results: the whole pack in one transaction
			gs := make([]store.ChunkGraph, len(pk))
			for k, c := range pk {
				gs[k] = toChunkGraph(c.ID, rs[k])
			}
			if err := j.Store.SaveChunkGraphs(context.WithoutCancel(ctx), gs, j.Vectorize, align); err != nil {
				return ev, nil, fmt.Errorf("save chunks %d–%d: %w", pk[0].ID, pk[len(pk)-1].ID, err)
			}
			for k, c := range pk {
				if err := saved(c, rs[k]); err != nil {
					return ev, nil, err
				}
			}
			continue
		}
		ins := make([]extract.Input, len(pk))
		for k, c := range pk {
			if ins[k], err = input(c); err != nil {
				return ev, nil, err
			}
		}
		rs, err := x.ExtractPack(ctx, ins)
		if err != nil {
			return ev, nil, err
		}
		// saveRest records the pack's own results from chunk k on: failed
		// ones carry the offline extraction and stay pending for the model
		saveRest := func(k int) error {
			for ; k < len(pk); k++ {
				if err := save(pk[k], rs[k]); err != nil {
					return err
				}
			}
			return nil
		}
		var stop *Stop
		if !rs[0].Retry || rs[0].Kind != llm.FailContext {
			// the pack's call counts, unless it was too big for the context
			// window and never sent (its chunks go one by one, each a call)
			if stop = called(rs[0], at+1, at+len(pk)); stop != nil {
				if err := saveRest(0); err != nil {
					return ev, nil, err
				}
				stop.Left = len(pending) - ev.OK - ev.Empty
				return ev, stop, nil
			}
		}
		for k, c := range pk {
			res := rs[k]
			if res.Retry && stop == nil {
				// the reply left its passage out, or the pack did not fit the
				// context window: one call for this chunk alone
				err := ctl.wait(ctx)
				var one []extract.Result
				if err == nil {
					one, err = x.ExtractPack(ctx, ins[k:k+1])
				}
				if err != nil {
					// cancelled: the pack's results stand, so its usage is counted
					if serr := saveRest(k); serr != nil {
						return ev, nil, serr
					}
					return ev, nil, err
				}
				carried := res.Usage
				res = one[0]
				res.Usage = res.Usage.Add(carried)
				stop = called(res, at+k+1, at+k+1)
			}
			// after a stop, the pack's other chunks keep the pack's results
			if err := save(c, res); err != nil {
				return ev, nil, err
			}
		}
		if stop != nil {
			stop.Left = len(pending) - ev.OK - ev.Empty
			return ev, stop, nil
		}
	}
	return ev, nil, nil
}

// packs splits the chunks into calls: runs of chunks on their first
// attempt are packed (extract.Pack); a chunk that failed before goes alone.
func packs(chunks []kb.Chunk, b extract.PackBudget, attempts map[int64]store.Attempt) [][]kb.Chunk {
	var out [][]kb.Chunk
	start := 0
	for i, c := range chunks {
		if _, retried := attempts[c.ID]; !retried {
			continue
		}
		out = append(out, extract.Pack(chunks[start:i], b)...)
		out = append(out, chunks[i:i+1:i+1])
		start = i + 1
	}
	return append(out, extract.Pack(chunks[start:], b)...)
}

func clipReason(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 160 {
		return string(r[:160]) + "…"
	}
	return s
}

// stopMessage says what a Stop means, in a person's words.
func stopMessage(s Stop) string {
	var cause string
	detail := strings.TrimSpace(s.Detail)
	if i := strings.Index(detail, ": "); i > 0 && llm.FailureKind(detail[:i]) == s.Kind {
		detail = detail[i+2:]
	}
	if i := strings.Index(detail, "): "); strings.HasPrefix(detail, "model call ") && i > 0 {
		detail = detail[i+3:] // "model call extract failed (timeout): no reply within 400ms"
	}
	switch s.Kind {
	case llm.FailUnreachable:
		cause = "Ollama stopped responding"
	case llm.FailUnknownModel:
		cause = fmt.Sprintf("the model %s is not installed in Ollama", s.Model)
	case llm.FailTimeout:
		cause = fmt.Sprintf("%s did not answer in time (%s)", s.Model, detail)
	case llm.FailHTTP:
		cause = fmt.Sprintf("Ollama kept returning errors (%s)", detail)
	case llm.FailCut:
		cause = "Ollama's replies kept breaking off midway"
	case llm.FailContext:
		cause = fmt.Sprintf("%s's context window is too small for these passages (%s)", s.Model, detail)
	default:
		cause = fmt.Sprintf("%s kept failing (%s)", s.Model, detail)
	}
	msg := fmt.Sprintf("%s at chunk %d of %d; ", cause, s.At, s.Total)
	if s.First > 0 && s.First < s.At {
		msg = fmt.Sprintf("%s for chunks %d–%d of %d; ", cause, s.First, s.At, s.Total)
	}
	switch {
	case s.Left == 1:
		msg += "1 chunk keeps its offline extraction"
	default:
		msg += fmt.Sprintf("%d chunks kept their offline extraction", s.Left)
	}
	if s.Filled > 0 {
		msg += fmt.Sprintf(" (%d of them extracted offline just now)", s.Filled)
	}
	switch s.Kind {
	case llm.FailUnreachable:
		msg += fmt.Sprintf(" and will be redone with %s when it is back", s.Model)
	case llm.FailUnknownModel:
		msg += fmt.Sprintf(" and will be redone with it once it is installed (cairn pull %s, or Settings > Models)", s.Model)
	case llm.FailContext:
		msg += " and will be redone on the next index run; choose a model with a longer context window or a larger context size in Settings"
	case llm.FailTimeout:
		msg += " and will be redone on the next index run; a smaller model or a longer timeout helps"
	default:
		msg += " and will be redone with the model on the next index run"
	}
	return msg
}

func (j *Extraction) summary(ev Event, stop *Stop, err error) (Summary, error) {
	s := Summary{Event: ev, Stopped: stop}
	c, cerr := j.Store.ExtractionCounts(context.WithoutCancel(context.Background()), j.Extractor.Name())
	s.Counts = c
	if err == nil {
		err = cerr
	}
	return s, err
}

// aligner adapts graph.Align to the store's candidate lists.
func (j *Extraction) aligner() store.Aligner {
	return func(e store.GraphEntity, cands []store.Candidate) int64 {
		gc := make([]graph.Candidate, len(cands))
		for i, c := range cands {
			gc[i] = graph.Candidate{Entity: c.Entity, ByName: c.ByName}
		}
		return graph.Align(graph.Mention{Name: e.Name, Type: e.Type, Description: e.Description, Aliases: e.Aliases, TypeWeight: e.TypeWeight}, gc, j.Vectorize)
	}
}

// toChunkGraph converts an extraction result to the store's form, adding the
// aliases that descriptions name.
func toChunkGraph(chunkID int64, r extract.Result) store.ChunkGraph {
	g := store.ChunkGraph{ChunkID: chunkID, Status: r.Status, Reason: r.Reason, Extractor: r.Extractor,
		Calls: r.Usage.Calls, Prompt: r.Usage.PromptTokens, Complete: r.Usage.CompletionTokens, Wall: r.Usage.Wall, Facts: r.Facts}
	for _, e := range r.Entities {
		aliases := append(append([]string(nil), e.Aliases...), graph.DescriptionAliases(e.Name, e.Description)...)
		g.Entities = append(g.Entities, store.GraphEntity{Name: e.Name, Type: e.Type, TypeWeight: e.TypeWeight, SemanticType: e.SemanticType, Description: e.Description,
			Aliases: aliases, Concepts: e.Concepts, Mentions: e.Mentions, Values: e.Values})
	}
	for _, rel := range r.Relations {
		g.Relations = append(g.Relations, store.GraphRelation{Subject: rel.Subject, Object: rel.Object, Predicate: rel.Predicate,
			Statement: rel.Statement, Confidence: rel.Confidence, Source: rel.Source})
	}
	return g
}
