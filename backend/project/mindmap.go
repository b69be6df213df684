package project

import (
	"context"
	"fmt"
	"sort"
	"time"

	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/mindmap"
	"cairn/backend/store"
)

// Mind maps (PG-RAG): stage "mindmap" builds every pending document's map
// after the knowledge-graph extraction (whose facts the model organises in
// LLM mode); stage "fusion" links the maps across documents under
// supernodes, incrementally (index.go lists the stages).

// MindMapModel, when set, names the chat model recorded with model-built
// maps (the provider's default otherwise).
var MindMapModel = ""

func (p *Project) mindIndexer() *mindmap.Indexer {
	ix := mindmap.NewIndexer(p.store, p.Provider())
	ix.Model = MindMapModel
	if ix.Model == "" {
		switch o := p.Provider().(type) {
		case interface{ Status() llm.Status }: // llm.Auto: the model chat calls use now
			ix.Model = o.Status().ChatModel
		case interface{ Config() llm.OllamaConfig }:
			ix.Model = o.Config().ChatModel
		}
	}
	return ix
}

func runMindMaps(ctx context.Context, p *Project, progress func(IndexProgress)) error {
	ix := p.mindIndexer()
	start := time.Now()
	return ix.BuildPending(ctx, func(done, total int, docID int64) {
		pr := IndexProgress{Stage: "mindmap", DocID: docID, Done: done, Total: total}
		if done < total {
			pr.ETA = time.Since(start) / time.Duration(done) * time.Duration(total-done)
		}
		progress(pr)
	})
}

func runFusion(ctx context.Context, p *Project, progress func(IndexProgress)) error {
	res, err := p.mindIndexer().FusePending(ctx)
	if err != nil {
		return err
	}
	if res.Considered > 0 {
		progress(IndexProgress{Stage: "fusion", Done: 1, Total: 1,
			Note: fmt.Sprintf("%d nodes considered, %d new supernodes, %d joined", res.Considered, res.Created, res.Joined)})
	}
	return nil
}

// BuildMindMaps runs the mind-map and fusion stages only (Index runs all stages).
func (p *Project) BuildMindMaps(ctx context.Context, progress func(IndexProgress)) error {
	if progress == nil {
		progress = func(IndexProgress) {}
	}
	if err := runMindMaps(ctx, p, progress); err != nil {
		return err
	}
	return runFusion(ctx, p, progress)
}

// MindMap returns one document's mind map: topic, routes and facts (each
// fact with its chunk and pages), and the supernodes its nodes belong to.
// store.ErrNoMindMap (wrapped) when it has not been built yet.
func (p *Project) MindMap(ctx context.Context, docID int64) (kb.MindMap, error) {
	if _, err := p.store.Document(ctx, docID); err != nil {
		return kb.MindMap{}, err
	}
	rows, err := p.store.MindNodes(ctx, docID)
	if err != nil {
		return kb.MindMap{}, err
	}
	m := kb.MindMap{Nodes: make([]kb.MindNode, len(rows)), Supernodes: []kb.Supernode{}}
	used := map[int64]bool{}
	for i, r := range rows {
		m.Nodes[i] = r.MindNode
		if r.Supernode != 0 {
			used[r.Supernode] = true
		}
	}
	if len(used) > 0 {
		all, err := p.store.Supernodes(ctx)
		if err != nil {
			return kb.MindMap{}, err
		}
		for _, s := range all {
			if used[s.ID] {
				m.Supernodes = append(m.Supernodes, s)
			}
		}
	}
	return m, nil
}

// FusedMindMap returns the pseudo-graph of the whole project, kept readable
// at a hundred documents: every document's topic, every node that belongs to
// a supernode together with its ancestors (so each shared node shows where
// it sits), and all supernodes with their members. Facts that link nothing
// are left out; MindMap(docID) shows a document in full.
func (p *Project) FusedMindMap(ctx context.Context) (kb.MindMap, error) {
	rows, err := p.store.AllMindNodes(ctx)
	if err != nil {
		return kb.MindMap{}, err
	}
	supers, err := p.store.Supernodes(ctx)
	if err != nil {
		return kb.MindMap{}, err
	}
	parent := map[int64]int64{}
	for _, r := range rows {
		parent[r.ID] = r.Parent
	}
	keep := map[int64]bool{}
	for _, r := range rows {
		if r.Kind == kb.MindTopic {
			keep[r.ID] = true
		}
		if r.Supernode != 0 {
			for id := r.ID; id != 0 && !keep[id]; id = parent[id] {
				keep[id] = true
			}
		}
	}
	m := kb.MindMap{Nodes: []kb.MindNode{}, Supernodes: supers}
	if m.Supernodes == nil {
		m.Supernodes = []kb.Supernode{}
	}
	for _, r := range rows {
		if keep[r.ID] {
			m.Nodes = append(m.Nodes, r.MindNode)
		}
	}
	sort.SliceStable(m.Supernodes, func(a, b int) bool {
		return len(m.Supernodes[a].DocIDs) > len(m.Supernodes[b].DocIDs)
	})
	return m, nil
}

// MindMapStatuses says, per document, how its map was made (offline, by
// which model, or the model's failure with the offline tree kept).
func (p *Project) MindMapStatuses(ctx context.Context) (map[int64]store.MindMapStatus, error) {
	return p.store.MindMapStatuses(ctx)
}
