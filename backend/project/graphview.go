package project

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"cairn/backend/graph"
	"cairn/backend/kb"
	"cairn/backend/store"
)

// The Graph view at library scale: the graph's skeleton (no text) is read
// once per version of the graph and kept; each scope is ranked once
// (graph.Restrict) and kept too; only what a view shows is loaded with its
// text.

type skeletonCache struct {
	mu      sync.Mutex
	version string
	skel    graph.Skeleton
	scoped  map[string]*graph.Scoped // by scope key; cleared with the skeleton
}

// scoped returns the ranked scope, reading the skeleton again only when
// the graph changed.
func (p *Project) scoped(ctx context.Context, sc graph.Scope) (*graph.Scoped, error) {
	v, err := p.store.GraphVersion(ctx)
	if err != nil {
		return nil, err
	}
	c := &p.skel
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.version != v || c.scoped == nil {
		ents, rels, err := p.store.GraphSkeleton(ctx)
		if err != nil {
			return nil, err
		}
		c.skel = toSkeleton(ents, rels)
		c.version = v
		c.scoped = map[string]*graph.Scoped{}
	}
	key := scopeKey(sc)
	if s, ok := c.scoped[key]; ok {
		return s, nil
	}
	s := graph.Restrict(c.skel, sc)
	if len(c.scoped) >= 8 {
		clear(c.scoped)
	}
	c.scoped[key] = s
	return s, nil
}

func scopeKey(sc graph.Scope) string {
	d := slices.Clone(sc.Docs)
	slices.Sort(d)
	t := slices.Clone(sc.Types)
	slices.Sort(t)
	return fmt.Sprint(d, t)
}

func toSkeleton(ents []store.SkeletonEntity, rels []store.SkeletonRelation) graph.Skeleton {
	s := graph.Skeleton{Nodes: make([]graph.Node, len(ents)), Edges: make([]graph.Edge, len(rels))}
	dc := func(ds []store.DocCount) []graph.DocCount {
		out := make([]graph.DocCount, len(ds))
		for i, d := range ds {
			out[i] = graph.DocCount{Doc: d.Doc, N: d.N}
		}
		return out
	}
	for i, e := range ents {
		s.Nodes[i] = graph.Node{ID: e.ID, Name: e.Name, Type: e.Type, Docs: dc(e.Docs)}
	}
	for i, r := range rels {
		s.Edges[i] = graph.Edge{ID: r.ID, From: r.Subject, To: r.Object, Stated: graph.IsStated(r.Predicate), Docs: dc(r.Docs)}
	}
	return s
}

// GraphOverview is the Graph view's opening: the limit most central
// entities of the scope (the entities named in focus, found by name or
// alias, always among them), their groups, and the relations drawn
// between them (graph.Scoped.Backbone).
func (p *Project) GraphOverview(ctx context.Context, sc graph.Scope, limit int, focus []string) (graph.View, error) {
	s, err := p.scoped(ctx, sc)
	if err != nil {
		return graph.View{}, err
	}
	var fi []int
	for _, name := range focus {
		es, err := p.store.EntitiesByName(ctx, name)
		if err != nil {
			return graph.View{}, err
		}
		for _, e := range es {
			if i, ok := s.Index[e.ID]; ok {
				fi = append(fi, i)
				break
			}
		}
	}
	return p.graphView(ctx, s, s.Top(limit, fi), sc.Docs)
}

// GraphNeighbours is an entity and its limit heaviest neighbours in the
// scope (stated relations first), with the relations drawn between them.
func (p *Project) GraphNeighbours(ctx context.Context, entityID int64, sc graph.Scope, limit int) (graph.View, error) {
	s, err := p.scoped(ctx, sc)
	if err != nil {
		return graph.View{}, err
	}
	i, ok := s.Index[entityID]
	if !ok {
		return graph.View{}, fmt.Errorf("entity %d: %w in this scope", entityID, ErrNoEntity)
	}
	return p.graphView(ctx, s, s.Neighbours(i, limit), sc.Docs)
}

// GraphSearch finds at most limit entities of the scope by name (whole
// name, then its start, then a word's start, then anywhere; the more
// central first).
func (p *Project) GraphSearch(ctx context.Context, query string, sc graph.Scope, limit int) ([]graph.SearchHit, error) {
	s, err := p.scoped(ctx, sc)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(query) == "" {
		return []graph.SearchHit{}, nil
	}
	return s.Hits(s.Search(query, limit)), nil
}

// graphView loads the text of a pick: entities with their mentions and the
// relations with their sources, both kept to the scope's documents and
// trimmed to graph.MaxSources.
func (p *Project) graphView(ctx context.Context, s *graph.Scoped, pick graph.Pick, docs []int64) (graph.View, error) {
	v, eids, rids := s.Describe(pick)
	ents, err := p.store.GraphEntitiesFew(ctx, eids, docs, graph.MaxSources)
	if err != nil {
		return v, err
	}
	byID := map[int64]kb.Entity{}
	for _, e := range ents {
		byID[e.ID] = e
	}
	v.Entities = make([]kb.Entity, 0, len(eids))
	nodes := v.Nodes[:0]
	for k, id := range eids {
		if e, ok := byID[id]; ok { // (an entity removed since the skeleton was read is left out)
			v.Entities = append(v.Entities, e)
			nodes = append(nodes, v.Nodes[k])
		}
	}
	v.Nodes = nodes
	rels, err := p.store.GraphRelations(ctx, rids)
	if err != nil {
		return v, err
	}
	v.Relations = make([]kb.Relation, 0, len(rels))
	for _, r := range rels {
		if _, ok := byID[r.Subject]; !ok {
			continue
		}
		if _, ok := byID[r.Object]; !ok {
			continue
		}
		r.Sources = graph.Trim(r.Sources, docs)
		v.Relations = append(v.Relations, r)
	}
	if v.Groups == nil {
		v.Groups = []graph.ViewGroup{}
	}
	if v.Types == nil {
		v.Types = []graph.TypeCount{}
	}
	if v.Docs == nil {
		v.Docs = []graph.DocCount{}
	}
	return v, nil
}
