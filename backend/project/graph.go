package project

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"cairn/backend/embed"
	"cairn/backend/extract"
	"cairn/backend/graph"
	"cairn/backend/jobs"
	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/store"
)

// The knowledge graph of a project: the indexing stage that builds it
// (after the re-reading of outdated documents, see index.go) and the reads
// the UI and CLI use.

// runGraph is the "graph" indexing stage.
func runGraph(ctx context.Context, p *Project, progress func(IndexProgress)) error {
	if err := p.refreshOfflineGraph(ctx, progress); err != nil {
		return err
	}
	exhaustedSaid := false
	_, err := p.BuildGraph(ctx, nil, func(e jobs.Event) {
		u := e.Usage
		pr := IndexProgress{Stage: "graph", DocID: e.DocID, Done: e.Done, Total: e.Total, ETA: e.ETA,
			Note:  fmt.Sprintf("%s: ok %d, empty %d, failed %d", e.Extractor, e.OK, e.Empty, e.Failed),
			Usage: &u}
		if e.Stopped != nil {
			pr.Warning = e.Stopped.Message
		}
		if e.ExhaustedNote != "" && e.Done == e.Total && !exhaustedSaid {
			exhaustedSaid = true
			if pr.Warning != "" {
				pr.Warning += "; "
			}
			pr.Warning += e.ExhaustedNote
		}
		progress(pr)
	})
	return err
}

// offlineVersionKey is the project setting holding the offline
// extractor's rules version (extract.OfflineVersion) its graph was read
// with.
const offlineVersionKey = "offline_extract_version"

// refreshOfflineGraph has the chunks the offline extractor read under
// older rules read again, as documents an older reader read are: what it
// had read is cleared in one transaction and the graph stage reads those
// chunks into the graph a new project gets (with a model, the model reads
// them anyway, so nothing is cleared).
func (p *Project) refreshOfflineGraph(ctx context.Context, progress func(IndexProgress)) error {
	if extract.ModelName(p.Provider()) != store.ExtractorOffline || p.store.ReadOnly() {
		return nil
	}
	v, err := p.store.Meta(ctx, offlineVersionKey)
	if err != nil || v == extract.OfflineVersion {
		return err
	}
	n, err := p.store.ForgetOfflineExtractions(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		from := "an older version"
		if v != "" {
			from = "version " + v
		}
		progress(IndexProgress{Stage: "graph", Note: fmt.Sprintf("the offline extractor's rules changed (%s → version %s): %d passages are read again for the graph", from, extract.OfflineVersion, n)})
	}
	return p.store.SetMeta(ctx, offlineVersionKey, extract.OfflineVersion)
}

// RetryFailed lets the next index run send every chunk that failed with a
// model to it again, however often it failed before (the per-model attempt
// counts are forgotten); it returns how many chunks it released.
func (p *Project) RetryFailed(ctx context.Context) (int, error) {
	return p.store.ResetAttempts(ctx, "")
}

// graphVectors embeds entity and relation texts with the built-in hashed
// embedder, whatever the project's chunk embedder: the graph's vectors
// never need a model (see store/migrations/0003_graph.sql).
var graphVectors = sync.OnceValue(func() func(string) []float32 {
	h := embed.NewHashed(embed.DefaultDim)
	return h.Vector
})

// GraphJob is the extraction job for the project's current provider; ctl
// may be nil. The UI runs it to pause, resume and cancel.
func (p *Project) GraphJob(ctl *jobs.Control, progress func(jobs.Event)) *jobs.Extraction {
	return &jobs.Extraction{Store: p.store, Extractor: &extract.Extractor{Provider: p.Provider()}, Vectorize: graphVectors(),
		Control: ctl, Progress: progress}
}

// BuildGraph extracts every pending chunk into the knowledge graph
// (resumable; see backend/jobs).
func (p *Project) BuildGraph(ctx context.Context, ctl *jobs.Control, progress func(jobs.Event)) (jobs.Summary, error) {
	return p.GraphJob(ctl, progress).Run(ctx)
}

// Graph returns the whole knowledge graph, mentions and sources filled.
func (p *Project) Graph(ctx context.Context) (kb.Graph, error) {
	ents, err := p.store.GraphEntities(ctx, nil)
	if err != nil {
		return kb.Graph{}, err
	}
	rels, err := p.store.GraphRelations(ctx, nil)
	if err != nil {
		return kb.Graph{}, err
	}
	if ents == nil {
		ents = []kb.Entity{}
	}
	if rels == nil {
		rels = []kb.Relation{}
	}
	return kb.Graph{Entities: ents, Relations: rels}, nil
}

// Neighbourhood returns the entities within hops relation steps of one
// entity (at most limit, the entity first) and the relations among them.
func (p *Project) Neighbourhood(ctx context.Context, entityID int64, hops int, limit int) (kb.Graph, error) {
	if hops < 0 {
		hops = 0
	}
	g, err := p.store.Neighbourhood(ctx, entityID, hops, limit)
	if err != nil {
		return g, err
	}
	if len(g.Entities) == 0 {
		return g, fmt.Errorf("entity %d: %w", entityID, ErrNoEntity)
	}
	return g, nil
}

// ErrNoEntity is returned for an unknown entity id or name.
var ErrNoEntity = fmt.Errorf("no such entity")

// Entity finds an entity by id (digits) or by name or alias (normalised,
// see kb.NormKey) and returns it with the relations it takes part in.
func (p *Project) Entity(ctx context.Context, nameOrID string) (kb.Entity, []kb.Relation, error) {
	s := strings.TrimSpace(nameOrID)
	var e kb.Entity
	found := false
	if id, err := strconv.ParseInt(s, 10, 64); err == nil {
		es, err := p.store.GraphEntities(ctx, []int64{id})
		if err != nil {
			return e, nil, err
		}
		if len(es) == 1 {
			e, found = es[0], true
		}
	}
	if !found {
		var err error
		e, found, err = p.store.EntityByName(ctx, s)
		if err != nil {
			return e, nil, err
		}
	}
	if !found {
		return e, nil, fmt.Errorf("%q: %w", s, ErrNoEntity)
	}
	vals, err := p.store.EntityValues(ctx, e.ID)
	if err != nil {
		return e, nil, err
	}
	e.Values = vals
	rels, err := p.store.RelationsOf(ctx, []int64{e.ID})
	if rels == nil {
		rels = []kb.Relation{}
	}
	return e, rels, err
}

// EntityConcepts returns the classes an entity belongs to, most specific first.
func (p *Project) EntityConcepts(ctx context.Context, entityID int64) ([]string, error) {
	return p.store.EntityConcepts(ctx, entityID)
}

// ExtractionCounts counts chunks by extraction status: "ok", "empty",
// "failed" and "pending" (for the current provider: with a model, chunks
// extracted offline are pending re-extraction).
func (p *Project) ExtractionCounts(ctx context.Context) (map[string]int, error) {
	c, err := p.store.ExtractionCounts(ctx, extract.ModelName(p.Provider()))
	if err != nil {
		return nil, err
	}
	return map[string]int{"ok": c.OK, "empty": c.Empty, "failed": c.Failed, "pending": c.Pending}, nil
}

// ModelPending says which chat model the project's provider uses or would
// use once Ollama is back (the configured one while offline; "" when there
// is no model at all, as with --offline), and how many chunks still wait to
// be extracted by it: extracted offline, failed, or not extracted yet.
func (p *Project) ModelPending(ctx context.Context) (model string, n int, err error) {
	model = targetModel(p.Provider())
	if model == "" {
		return "", 0, nil
	}
	c, err := p.store.ExtractionCounts(ctx, model)
	return model, c.Pending + c.Failed, err
}

// targetModel is the chat model a provider extracts with now or, while
// Ollama is away, would extract with when it is back.
func targetModel(lp llm.Provider) string {
	if lp == nil {
		return ""
	}
	if a, ok := lp.(interface {
		Status() llm.Status
		Ollama() *llm.Ollama
	}); ok {
		s := a.Status()
		if s.ChatModel != "" {
			return s.ChatModel
		}
		if s.Reason == "--offline" {
			return ""
		}
		return a.Ollama().Config().ChatModel
	}
	if lp.Mode() == llm.ModeOffline {
		return ""
	}
	return extract.ModelName(lp)
}

// ExtractionUsage sums the model usage recorded for extraction.
func (p *Project) ExtractionUsage(ctx context.Context) (store.ExtractionUsage, error) {
	return p.store.ExtractionUsage(ctx)
}

// Facts returns a document's atomic facts in reading order.
func (p *Project) Facts(ctx context.Context, docID int64) ([]kb.Fact, error) {
	return p.store.FactsByDocument(ctx, docID)
}

// GraphML writes the whole graph as GraphML: the relations the text
// states, and co-occurrence too when cooc is set.
func (p *Project) GraphML(ctx context.Context, w io.Writer, cooc bool, docs ...int64) error {
	g, err := p.graphWithin(ctx, docs)
	if err != nil {
		return err
	}
	if !cooc {
		g = graph.Stated(g)
	}
	return graph.WriteGraphML(w, g)
}

// graphWithin is the graph, or the part of it the documents docs state.
func (p *Project) graphWithin(ctx context.Context, docs []int64) (kb.Graph, error) {
	for _, id := range docs {
		if _, err := p.store.Document(ctx, id); err != nil {
			return kb.Graph{}, err
		}
	}
	g, err := p.Graph(ctx)
	if err != nil {
		return g, err
	}
	return graph.Within(g, docs), nil
}

// GraphJSON writes the whole graph (or the part the documents docs
// state) in the stable export format: the relations the text states, and
// co-occurrence too when cooc is set.
func (p *Project) GraphJSON(ctx context.Context, w io.Writer, cooc bool, docs ...int64) error {
	g, err := p.graphWithin(ctx, docs)
	if err != nil {
		return err
	}
	if !cooc {
		g = graph.Stated(g)
	}
	return graph.WriteJSON(w, g)
}
