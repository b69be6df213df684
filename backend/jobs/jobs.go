// Package jobs runs knowledge-graph extraction over a project's chunks as a
// resumable job: it asks the store for the chunks still pending for the
// current extractor, extracts each one (offline or with one model call),
// aligns the entities with the graph and stores the chunk's whole result in
// one transaction. A run killed at any moment leaves every chunk either
// fully extracted or pending, so the next run resumes where it stopped and
// a chunk's extraction is stored once. Passage search never waits for it:
// chunks are searchable from import on.
//
// A Control pauses, resumes and cancels a running job between chunks;
// progress events carry counts, usage and an ETA.
package jobs

import (
	"context"
	"errors"
	"fmt"
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
}

// Control pauses, resumes and cancels a running job. The zero value is
// ready; one Control may be shared by the UI and the job.
type Control struct {
	mu     sync.Mutex
	paused bool
	wake   chan struct{}
	cancel context.CancelFunc
}

// Pause makes the job stop before its next chunk until Resume.
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

// Cancel stops the job after the chunk in hand (its transaction either
// commits or rolls back; nothing is half-written).
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
	w := c.wake
	c.mu.Unlock()
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
}

// Summary is what a run did.
type Summary struct {
	Event
	Counts kb.ExtractCounts `json:"counts"` // over the whole project after the run
}

// Run extracts every pending chunk. It returns ctx's error when cancelled
// (what was done stays done).
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
	name := j.Extractor.Name()
	// shared entities recomputed by a removal since the last run get fresh vectors
	if err := j.Store.RefreshGraphVectors(ctx, j.Vectorize); err != nil {
		return Summary{}, err
	}
	pending, err := j.Store.PendingExtraction(ctx, name, j.Limit)
	if err != nil {
		return Summary{}, err
	}
	ev := Event{Stage: "extract", Extractor: name, Total: len(pending)}
	start := time.Now()
	progress(ev)
	titles := map[int64][2]string{}
	align := j.aligner()
	for _, c := range pending {
		if err := ctl.wait(ctx); err != nil {
			return j.summary(ev, err)
		}
		if err := ctx.Err(); err != nil {
			return j.summary(ev, err)
		}
		t, ok := titles[c.DocID]
		if !ok {
			title, file, err := j.Store.DocumentTitle(ctx, c.DocID)
			if err != nil {
				return j.summary(ev, fmt.Errorf("chunk %d: %w", c.ID, err))
			}
			t = [2]string{title, file}
			titles[c.DocID] = t
		}
		res, err := j.Extractor.Extract(ctx, extract.Input{Chunk: c, DocTitle: t[0], FileName: t[1]})
		if err != nil {
			return j.summary(ev, err)
		}
		if err := j.Store.SaveChunkGraph(ctx, toChunkGraph(c.ID, res), j.Vectorize, align); err != nil {
			if ctx.Err() != nil {
				return j.summary(ev, ctx.Err())
			}
			return j.summary(ev, fmt.Errorf("save chunk %d: %w", c.ID, err))
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
		progress(ev)
	}
	return j.summary(ev, nil)
}

func (j *Extraction) summary(ev Event, err error) (Summary, error) {
	s := Summary{Event: ev}
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
		return graph.Align(graph.Mention{Name: e.Name, Type: e.Type, Description: e.Description, Aliases: e.Aliases}, gc, j.Vectorize)
	}
}

// toChunkGraph converts an extraction result to the store's form, adding the
// aliases that descriptions name.
func toChunkGraph(chunkID int64, r extract.Result) store.ChunkGraph {
	g := store.ChunkGraph{ChunkID: chunkID, Status: r.Status, Reason: r.Reason, Extractor: r.Extractor,
		Calls: r.Usage.Calls, Prompt: r.Usage.PromptTokens, Complete: r.Usage.CompletionTokens, Wall: r.Usage.Wall, Facts: r.Facts}
	for _, e := range r.Entities {
		aliases := append(append([]string(nil), e.Aliases...), graph.DescriptionAliases(e.Name, e.Description)...)
		g.Entities = append(g.Entities, store.GraphEntity{Name: e.Name, Type: e.Type, SemanticType: e.SemanticType, Description: e.Description,
			Aliases: aliases, Concepts: e.Concepts, Mentions: e.Mentions})
	}
	for _, rel := range r.Relations {
		g.Relations = append(g.Relations, store.GraphRelation{Subject: rel.Subject, Object: rel.Object, Predicate: rel.Predicate,
			Statement: rel.Statement, Confidence: rel.Confidence, Source: rel.Source})
	}
	return g
}
