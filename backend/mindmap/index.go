package mindmap

import (
	"context"
	"errors"
	"fmt"
	"math"

	"cairn/backend/analyze"
	"cairn/backend/embed"
	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/store"
)

// Indexer builds, stores and fuses the mind maps of a project store.
type Indexer struct {
	Store    *store.Store
	Provider llm.Provider // nil or offline: offline trees only
	Model    string       // the chat model's name, recorded with model-built maps
	Options  Options
	LLM      LLMOptions
	Fuse     FuseParams
}

// NewIndexer returns an indexer with the default settings.
func NewIndexer(st *store.Store, p llm.Provider) *Indexer {
	return &Indexer{Store: st, Provider: p, Options: DefaultOptions(), LLM: DefaultLLMOptions(), Fuse: DefaultFuseParams()}
}

// vectors are always the built-in hashed embedder (store.MindVecDim), see
// migration 0004: a project's chunk embedder may change, these do not.
var pathEmbedder = embed.NewHashed(store.MindVecDim)

// VectorOf embeds a node's path context (or a question) as mind_vec does.
func VectorOf(text string) []float32 { return pathEmbedder.Vector(text) }

func (ix *Indexer) online() bool {
	return ix.Provider != nil && ix.Provider.Mode() != llm.ModeOffline
}

// Pending lists the documents BuildPending would build: those without a
// map, and, with a model, those whose map was made offline or whose model
// call failed (their offline tree stands in until the model succeeds).
func (ix *Indexer) Pending(ctx context.Context) ([]int64, error) {
	ids, err := ix.Store.DocsWithoutMindMap(ctx)
	if err != nil || !ix.online() {
		return ids, err
	}
	for _, mode := range []string{store.MindModeOffline, store.MindModeFailed} {
		more, err := ix.Store.DocsWithMindMapMode(ctx, mode)
		if err != nil {
			return nil, err
		}
		ids = append(ids, more...)
	}
	return ids, nil
}

// BuildPending builds every pending document's map; progress (may be nil)
// is called after each.
func (ix *Indexer) BuildPending(ctx context.Context, progress func(done, total int, docID int64)) error {
	ids, err := ix.Pending(ctx)
	if err != nil {
		return err
	}
	for i, id := range ids {
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, err := ix.Build(ctx, id); err != nil {
			return fmt.Errorf("mind map of document %d: %w", id, err)
		}
		if progress != nil {
			progress(i+1, len(ids), id)
		}
	}
	return nil
}

// LoadDoc reads what the builders need of a document, with an IDF over the
// project's chunks.
func LoadDoc(ctx context.Context, st *store.Store, docID int64) (Doc, error) {
	d, err := st.Document(ctx, docID)
	if err != nil {
		return Doc{}, err
	}
	chunks, err := st.ChunksOfDocument(ctx, docID)
	if err != nil {
		return Doc{}, err
	}
	pages, err := st.Pages(ctx, docID, 0)
	if err != nil {
		return Doc{}, err
	}
	doc := Doc{ID: docID, Title: d.Title, Chunks: chunks, Pages: pages}
	keys := map[string]bool{}
	for _, c := range chunks {
		for _, w := range words(c.Text) {
			for _, k := range wordKeys(w) {
				keys[k] = true
			}
		}
	}
	list := make([]string, 0, len(keys))
	for k := range keys {
		list = append(list, k)
	}
	df, n, err := st.TermDF(ctx, list)
	if err != nil {
		return Doc{}, err
	}
	if n > len(chunks) {
		doc.IDF = func(k string) float64 { return math.Log(1+float64(n)/float64(df[k]+1)) + 0.1 }
	}
	return doc, nil
}

// Build makes and stores one document's map: the offline tree, then, with a
// model, the model-organised tree. A failed model call is recorded (mode
// "failed" with the reason) and the offline tree kept.
func (ix *Indexer) Build(ctx context.Context, docID int64) (store.MindMapStatus, error) {
	d, err := LoadDoc(ctx, ix.Store, docID)
	if err != nil {
		return store.MindMapStatus{}, err
	}
	tree := Offline(d, ix.Options)
	status := store.MindMapStatus{DocID: docID, Mode: store.MindModeOffline}
	if ix.online() {
		facts, err := ix.groundedFacts(ctx, d)
		if err != nil {
			return status, err
		}
		if len(facts) == 0 {
			facts = FactsOf(tree)
		}
		o := ix.LLM
		o.Model = ix.Model
		o.Fallback = RouteOfChunk(tree)
		res, err := LLM(ctx, ix.Provider, d, facts, Headings(d, 40), o)
		switch {
		case err == nil:
			tree = res.Tree
			status = store.MindMapStatus{DocID: docID, Mode: store.MindModeLLM, Model: ix.modelName()}
		case ctx.Err() != nil:
			return status, ctx.Err()
		default:
			status = store.MindMapStatus{DocID: docID, Mode: store.MindModeFailed, Model: ix.modelName(), Error: err.Error()}
		}
	}
	if len(tree.Nodes) == 0 {
		return status, errors.New("empty mind map")
	}
	if err := Save(ctx, ix.Store, status, tree); err != nil {
		return status, err
	}
	return status, nil
}

func (ix *Indexer) modelName() string {
	if ix.Model != "" {
		return ix.Model
	}
	return "default chat model"
}

// groundedFacts are the knowledge-graph extraction's facts of the document
// whose spans lie inside their chunk (others cannot be traced and are left out).
func (ix *Indexer) groundedFacts(ctx context.Context, d Doc) ([]FactSpan, error) {
	ext, err := ix.Store.FactsByDocument(ctx, d.ID)
	if err != nil {
		return nil, err
	}
	byID := map[int64]kb.Chunk{}
	for _, c := range d.Chunks {
		byID[c.ID] = c
	}
	var out []FactSpan
	for _, kf := range ext {
		f := kf.Source
		c, ok := byID[f.ChunkID]
		if !ok || f.CharStart < c.CharStart || f.CharEnd > c.CharEnd || f.CharEnd <= f.CharStart || f.PageStart < c.PageStart || f.PageEnd > c.PageEnd {
			continue
		}
		out = append(out, FactSpan{ChunkID: f.ChunkID, Text: kf.Text, CharStart: f.CharStart, CharEnd: f.CharEnd, PageStart: f.PageStart, PageEnd: f.PageEnd})
	}
	return out, nil
}

// Save stores a tree with its path vectors and lexical rows.
func Save(ctx context.Context, st *store.Store, status store.MindMapStatus, t Tree) error {
	paths := t.Paths()
	rows := make([]store.MindNodeRow, len(t.Nodes))
	for i, n := range t.Nodes {
		n.DocID = status.DocID
		pt := PathText(paths[i])
		rows[i] = store.MindNodeRow{MindNode: n, PathText: pt, Vector: VectorOf(pt),
			FTS: store.MindFTSRow{Label: n.Label, Path: pt, CJK: analyze.CJKBigramText(pt)}}
	}
	_, err := st.SaveMindMap(ctx, status, rows)
	return err
}

// FuseResult counts what a fusion pass did.
type FuseResult struct {
	Considered, Created, Joined int
}

// FusePending runs one incremental fusion pass over the nodes not yet considered.
func (ix *Indexer) FusePending(ctx context.Context) (FuseResult, error) {
	pending, err := ix.Store.PendingFusion(ctx)
	if err != nil || len(pending) == 0 {
		return FuseResult{}, err
	}
	all, err := ix.Store.AllMindNodes(ctx)
	if err != nil {
		return FuseResult{}, err
	}
	items := make([]Item, len(all))
	paths := rowPaths(all)
	for i, n := range all {
		items[i] = Item{ID: n.ID, DocID: n.DocID, Kind: n.Kind, Text: FusionText(n.Kind, paths[i]), Super: n.Supernode}
	}
	if err := ctx.Err(); err != nil {
		return FuseResult{}, err
	}
	clusters, joins := Fuse(items, pending, ix.Fuse)
	sc := make([]store.FusionCluster, len(clusters))
	for i, c := range clusters {
		sc[i] = store.FusionCluster{Kind: c.Kind, Label: c.Label, Members: c.Members, Sims: c.Sims}
	}
	sj := make([]store.FusionJoin, len(joins))
	for i, j := range joins {
		sj[i] = store.FusionJoin{NodeID: j.NodeID, Supernode: j.Super, Sim: j.Sim}
	}
	if err := ix.Store.SaveFusion(ctx, sc, sj, pending); err != nil {
		return FuseResult{}, err
	}
	return FuseResult{Considered: len(pending), Created: len(clusters), Joined: len(joins)}, nil
}

func rowPaths(rows []store.MindNodeRow) [][]string {
	nodes := make([]kb.MindNode, len(rows))
	for i, r := range rows {
		nodes[i] = r.MindNode
	}
	return Paths(nodes)
}
