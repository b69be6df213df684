package project

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cairn/backend/embed"
	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/search"
	"cairn/backend/store"
)

// The chunk embedder: which model makes the project's passage vectors.
//
// A project records the embedder of its chunk vectors (store meta
// embed_model/embed_dim): the built-in hashed embedder ("cairn-hash-v1-1024")
// or an Ollama embedding model ("ollama:bge-m3"). SwitchEmbedder moves the
// vectors to another one with a resumable re-embed: new vectors go into a
// second table while search keeps using the old ones, and the switch is one
// transaction once every chunk has its new vector (store.BeginReembed …
// FinishReembed). An interrupted switch resumes where it stopped
// (ResumeEmbedder, or SwitchEmbedder again).
//
// Only the chunk vectors move. Entity, relation and mind-map vectors always
// use the built-in hashed embedder, whatever the chunk embedder is.
//
// With Ollama vectors, a question is embedded by Ollama; when Ollama is not
// connected (SetOllama(nil)) or not reachable, the question vector is zero and
// search ranks by its other lists (BM25, graph) alone. Importing needs the
// real embedder: an import while it is unreachable fails with a message
// instead of storing vectors from another model.

// embedState is the project's chunk-embedder state.
type embedState struct {
	hashed  *embed.Hashed
	current atomic.Pointer[embedderBox] // *embed.Hashed or *ollamaChunks
	ollama  atomic.Pointer[llm.Ollama]

	// switching is held for reading from embedding a document's chunks to
	// saving them, and for writing while the vectors switch, so no import
	// can store vectors of the old embedder into the new table.
	switching sync.RWMutex
	job       sync.Mutex // one re-embed at a time
}

// embedderBox holds an embed.Embedder for atomic swapping.
type embedderBox struct{ e embed.Embedder }

func (es *embedState) set(e embed.Embedder) { es.current.Store(&embedderBox{e}) }

// ollamaChunks is the chunk embedder of a project whose vectors come from an
// Ollama model.
type ollamaChunks struct {
	info kb.EmbedderInfo
	st   *embedState
}

// Info is the recorded embedder.
func (c *ollamaChunks) Info() kb.EmbedderInfo { return c.info }

func (c *ollamaChunks) model() string { return strings.TrimPrefix(c.info.Model, llm.EmbedderPrefix) }

// Embed embeds queries: zero vectors (search then skips the vector list)
// when Ollama is not connected or fails.
func (c *ollamaChunks) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	v, err := c.strict(ctx, texts, 10*time.Second)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		out := make([][]float32, len(texts))
		for i := range out {
			out[i] = make([]float32, c.info.Dim)
		}
		return out, nil
	}
	return v, nil
}

// ErrEmbedderUnavailable says the project's chunk embedder (an Ollama model)
// cannot be reached.
type ErrEmbedderUnavailable struct {
	Model string
	Err   error
}

func (e *ErrEmbedderUnavailable) Error() string {
	return fmt.Sprintf("this project's passages are embedded with %s, which is not available (%v); start Ollama, or switch the project to the built-in embedder: cairn embed-model --project DIR builtin", e.Model, e.Err)
}
func (e *ErrEmbedderUnavailable) Unwrap() error { return e.Err }

// strict embeds with the model or fails.
func (c *ollamaChunks) strict(ctx context.Context, texts []string, timeout time.Duration) ([][]float32, error) {
	o := c.st.ollama.Load()
	if o == nil {
		return nil, &ErrEmbedderUnavailable{Model: c.info.Model, Err: errors.New("Ollama is not connected")}
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	v, _, err := o.EmbedWith(ctx, c.model(), texts)
	if err != nil {
		return nil, &ErrEmbedderUnavailable{Model: c.info.Model, Err: err}
	}
	for _, x := range v {
		if len(x) != c.info.Dim {
			return nil, fmt.Errorf("%s returned %d dimensions; the project's vectors have %d (was the model replaced? switch the project's embedder again)", c.info.Model, len(x), c.info.Dim)
		}
	}
	return v, nil
}

// openEmbedder reads the project's recorded chunk embedder (adopting the
// built-in one in a new project).
func openEmbedder(ctx context.Context, st *store.Store) (*embedState, error) {
	es := &embedState{hashed: embed.NewHashed(embed.DefaultDim)}
	have, err := st.Embedder(ctx)
	if err != nil {
		return nil, err
	}
	switch {
	case have.Dim == 0 || have == es.hashed.Info():
		if err := st.EnsureVectors(ctx, es.hashed.Info()); err != nil {
			return nil, err
		}
		es.set(es.hashed)
	case strings.HasPrefix(have.Model, llm.EmbedderPrefix):
		es.set(&ollamaChunks{info: have, st: es})
	default:
		return nil, &store.ErrEmbedderChanged{Have: have, Want: es.hashed.Info()}
	}
	return es, nil
}

// SetOllama connects the project to an Ollama server (nil: none), used to
// embed questions and new passages when the project's vectors come from an
// Ollama model. The app calls it when its mode changes.
func (p *Project) SetOllama(o *llm.Ollama) { p.emb.ollama.Store(o) }

// holdEmbedder keeps the chunk embedder from switching until the returned
// function is called (from embedding a document's chunks to saving them).
func (p *Project) holdEmbedder() func() {
	p.emb.switching.RLock()
	return p.emb.switching.RUnlock
}

// embedChunks embeds passages for storage with the project's embedder; it
// never substitutes another model.
func (p *Project) embedChunks(ctx context.Context, texts []string) ([][]float32, error) {
	switch e := p.Embedder().(type) {
	case *ollamaChunks:
		return e.strict(ctx, texts, 0)
	default:
		return e.Embed(ctx, texts)
	}
}

// EmbedderStatus says which embedder made the chunk vectors and how far a
// switch has got.
type EmbedderStatus struct {
	Current kb.EmbedderInfo `json:"current"`
	Pending kb.EmbedderInfo `json:"pending,omitzero"` // target of an unfinished switch
	Done    int             `json:"done"`             // chunks with a vector from Pending
	Total   int             `json:"total"`
}

// EmbedderStatus reports the chunk embedder and any unfinished switch.
func (p *Project) EmbedderStatus(ctx context.Context) (EmbedderStatus, error) {
	cur, err := p.store.Embedder(ctx)
	if err != nil {
		return EmbedderStatus{}, err
	}
	pend, err := p.store.PendingEmbedder(ctx)
	if err != nil {
		return EmbedderStatus{}, err
	}
	s := EmbedderStatus{Current: cur, Pending: pend}
	if pend.Dim > 0 {
		s.Done, s.Total, err = p.store.ReembedCounts(ctx)
	} else {
		_, s.Total, err = p.store.Counts(ctx)
		s.Done = s.Total
	}
	return s, err
}

// BuiltinEmbedder is the name of the built-in embedder for SwitchEmbedder's
// callers ("builtin" on the command line).
const BuiltinEmbedder = "builtin"

// EmbedderFor returns the embedder named model: "builtin" (or "") for the
// built-in hashed embedder, else an Ollama embedding model on o.
func (p *Project) EmbedderFor(model string, o *llm.Ollama) (embed.Embedder, error) {
	model = strings.TrimPrefix(strings.TrimSpace(model), llm.EmbedderPrefix)
	if model == "" || model == BuiltinEmbedder || model == p.emb.hashed.Info().Model {
		return p.emb.hashed, nil
	}
	if o == nil {
		return nil, fmt.Errorf("embedding model %s needs Ollama, which is not connected", model)
	}
	return o.Embedder(model), nil
}

// ReembedProgress reports a switch of the chunk embedder.
type ReembedProgress struct {
	Target   kb.EmbedderInfo `json:"target"`
	Done     int             `json:"done"`
	Total    int             `json:"total"`
	ETA      time.Duration   `json:"eta_ns,omitempty"`
	Finished bool            `json:"finished,omitempty"`
}

// reembedBatch is how many chunks are embedded and stored per step.
var reembedBatch = 64

// SwitchEmbedder moves the chunk vectors to target, reporting progress. It
// returns when the switch is complete, or with ctx's error when cancelled
// (the work done is kept; calling it again resumes). Search uses the old
// vectors until the switch commits.
func (p *Project) SwitchEmbedder(ctx context.Context, target embed.Embedder, progress func(ReembedProgress)) error {
	if progress == nil {
		progress = func(ReembedProgress) {}
	}
	p.emb.job.Lock()
	defer p.emb.job.Unlock()
	info := target.Info()
	if oe, ok := target.(*llm.Embedder); ok && info.Dim == 0 {
		var err error
		if info, err = oe.Probe(ctx); err != nil {
			return fmt.Errorf("embedding model %s: %w", oe.Model(), err)
		}
	}
	cur, err := p.store.Embedder(ctx)
	if err != nil {
		return err
	}
	if cur == info {
		// already there; drop an abandoned switch elsewhere
		if pend, err := p.store.PendingEmbedder(ctx); err == nil && pend.Dim > 0 {
			return p.store.CancelReembed(ctx)
		}
		return nil
	}
	if err := p.store.BeginReembed(ctx, info); err != nil {
		return err
	}
	start := time.Now()
	startDone := -1
	for {
		items, err := p.store.ChunksToReembed(ctx, reembedBatch)
		if err != nil {
			return err
		}
		if len(items) == 0 {
			done, err := p.finishSwitch(ctx, target, info)
			if err != nil {
				return err
			}
			if !done {
				continue // chunks were imported meanwhile
			}
			_, total, _ := p.store.Counts(ctx)
			progress(ReembedProgress{Target: info, Done: total, Total: total, Finished: true})
			return nil
		}
		texts := make([]string, len(items))
		ids := make([]int64, len(items))
		for i, it := range items {
			ids[i] = it.ChunkID
			texts[i] = search.EmbedText(it.DocTitle, kb.Chunk{HeadingPath: it.HeadingPath, TableHeader: it.TableHeader, Text: it.Text})
		}
		vecs, err := target.Embed(ctx, texts)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("re-embed with %s: %w", info.Model, err)
		}
		if err := p.store.PutReembedVectors(ctx, ids, vecs); err != nil {
			return err
		}
		done, total, err := p.store.ReembedCounts(ctx)
		if err != nil {
			return err
		}
		if startDone < 0 {
			startDone = done - len(items)
		}
		pr := ReembedProgress{Target: info, Done: done, Total: total}
		if rate := float64(done-startDone) / time.Since(start).Seconds(); rate > 0 && total > done {
			pr.ETA = time.Duration(float64(total-done) / rate * float64(time.Second))
		}
		progress(pr)
	}
}

// finishSwitch commits the switch once no import is between embedding and
// saving; false when chunks still lack a new vector.
func (p *Project) finishSwitch(ctx context.Context, target embed.Embedder, info kb.EmbedderInfo) (bool, error) {
	p.emb.switching.Lock()
	defer p.emb.switching.Unlock()
	_, err := p.store.FinishReembed(ctx)
	var inc *store.ErrReembedIncomplete
	if errors.As(err, &inc) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if h, ok := target.(*embed.Hashed); ok {
		p.emb.set(h)
	} else {
		p.emb.set(&ollamaChunks{info: info, st: p.emb})
	}
	return true, nil
}

// ResumeEmbedder finishes an interrupted switch, if any (o may be nil when
// the target is the built-in embedder). It reports whether one was pending.
func (p *Project) ResumeEmbedder(ctx context.Context, o *llm.Ollama, progress func(ReembedProgress)) (bool, error) {
	pend, err := p.store.PendingEmbedder(ctx)
	if err != nil || pend.Dim == 0 {
		return false, err
	}
	target, err := p.EmbedderFor(pend.Model, o)
	if err != nil {
		return true, err
	}
	return true, p.SwitchEmbedder(ctx, target, progress)
}
