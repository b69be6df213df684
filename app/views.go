package app

import (
	"fmt"
	"strings"

	"cairn/backend/graph"
	"cairn/backend/kb"
	"cairn/backend/mindmap"
)

// The knowledge graph and the mind maps, for the explorer and mind-map views.
// Each returns the project's data as is; nothing here invents content.

// graphLimit caps a neighbourhood request from the UI.
const graphLimit = 2000

// EntityDetail is App.Entity's reply: one entity and its relations.
type EntityDetail struct {
	Entity    kb.Entity     `json:"entity"`
	Relations []kb.Relation `json:"relations"`
}

// Graph returns the whole knowledge graph: every entity with its mentions,
// every relation the text states with its sources (co-occurrence, a
// retrieval signal, is not shown).
func (a *App) Graph() (kb.Graph, error) {
	defer a.enter()()
	p, err := a.openProject()
	if err != nil {
		return kb.Graph{}, err
	}
	g, err := p.Graph(a.context())
	return graph.Stated(g), err
}

// Neighbourhood returns the entities within hops (0–3) of an entity and the
// relations between them, at most limit entities (1–2000; 0 means 300).
func (a *App) Neighbourhood(entityID int64, hops, limit int) (kb.Graph, error) {
	defer a.enter()()
	p, err := a.openProject()
	if err != nil {
		return kb.Graph{}, err
	}
	if entityID <= 0 {
		return kb.Graph{}, fmt.Errorf("invalid entity id %d", entityID)
	}
	hops = min(max(hops, 0), 3)
	switch {
	case limit <= 0:
		limit = 300
	case limit > graphLimit:
		limit = graphLimit
	}
	g, err := p.Neighbourhood(a.context(), entityID, hops, limit)
	return graph.Stated(g), err
}

// Entity finds an entity by id or name, with its relations.
func (a *App) Entity(nameOrID string) (EntityDetail, error) {
	defer a.enter()()
	p, err := a.openProject()
	if err != nil {
		return EntityDetail{}, err
	}
	e, rels, err := p.Entity(a.context(), nameOrID)
	if rels == nil {
		rels = []kb.Relation{}
	}
	return EntityDetail{Entity: e, Relations: rels}, err
}

// MindMap returns one document's mind map (topic → routes → facts).
func (a *App) MindMap(docID int64) (kb.MindMap, error) {
	defer a.enter()()
	p, err := a.openProject()
	if err != nil {
		return kb.MindMap{}, err
	}
	if docID <= 0 {
		return kb.MindMap{}, fmt.Errorf("invalid document id %d", docID)
	}
	return p.MindMap(a.context(), docID)
}

// FusedMindMap returns the collection's fused map: every document's map,
// with the nodes shared across documents grouped under supernodes.
func (a *App) FusedMindMap() (kb.MindMap, error) {
	defer a.enter()()
	p, err := a.openProject()
	if err != nil {
		return kb.MindMap{}, err
	}
	return p.FusedMindMap(a.context())
}

// ExportMindMap returns a document's mind map (docID 0: the fused map) as
// the text of a file in format "md" or "opml", written by the same code as
// `cairn mindmap --format` (the Mind map view's export buttons save it).
func (a *App) ExportMindMap(docID int64, format string) (string, error) {
	defer a.enter()()
	p, err := a.openProject()
	if err != nil {
		return "", err
	}
	ctx := a.context()
	title := "Fused mind map"
	var m kb.MindMap
	if docID == 0 {
		m, err = p.FusedMindMap(ctx)
	} else {
		var d kb.Document
		if d, err = a.document(ctx, docID); err != nil {
			return "", err
		}
		title = d.Title
		m, err = p.MindMap(ctx, docID)
	}
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := mindmap.Export(&b, format, title, m); err != nil {
		return "", err
	}
	return b.String(), nil
}

// ExtractionCounts reports knowledge-graph extraction per chunk status
// (pending, ok, empty, failed), for the Library's indexing summary.
func (a *App) ExtractionCounts() (map[string]int, error) {
	defer a.enter()()
	p, err := a.openProject()
	if err != nil {
		return nil, err
	}
	return p.ExtractionCounts(a.context())
}
