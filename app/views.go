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

// Bounds of the library-scale Graph view's requests.
const (
	overviewMax   = 200 // entities an overview may show
	overviewDef   = 150
	neighboursMax = 100
	neighboursDef = 30
	searchMax     = 50
	searchDef     = 20
)

func bound(n, def, most int) int {
	if n <= 0 {
		return def
	}
	return min(n, most)
}

// GraphOverview opens the Graph view at any project size: the limit
// (1–200, 0 means 150) most central entities of the scope — the documents
// scope.Docs (none: all) and the types scope.Types (none: all) —, their
// groups, and the relations drawn between them, stated ones first; focus
// names entities to include (an answer's path).
func (a *App) GraphOverview(scope graph.Scope, limit int, focus []string) (graph.View, error) {
	defer a.enter()()
	p, err := a.openProject()
	if err != nil {
		return graph.View{}, err
	}
	if len(focus) > overviewMax {
		focus = focus[:overviewMax]
	}
	return p.GraphOverview(a.context(), scope, bound(limit, overviewDef, overviewMax), focus)
}

// GraphNeighbours is an entity and its heaviest neighbours in the scope
// (1–100, 0 means 30), for expanding a node of the Graph view.
func (a *App) GraphNeighbours(entityID int64, scope graph.Scope, limit int) (graph.View, error) {
	defer a.enter()()
	p, err := a.openProject()
	if err != nil {
		return graph.View{}, err
	}
	if entityID <= 0 {
		return graph.View{}, fmt.Errorf("invalid entity id %d", entityID)
	}
	return p.GraphNeighbours(a.context(), entityID, scope, bound(limit, neighboursDef, neighboursMax))
}

// GraphSearch finds entities of the scope by name (1–50, 0 means 20).
func (a *App) GraphSearch(query string, scope graph.Scope, limit int) ([]graph.SearchHit, error) {
	defer a.enter()()
	p, err := a.openProject()
	if err != nil {
		return nil, err
	}
	return p.GraphSearch(a.context(), query, scope, bound(limit, searchDef, searchMax))
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
