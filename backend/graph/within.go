package graph

import (
	"cairn/backend/kb"
	"cairn/backend/relphrase"
)

// Within is the part of g that the documents docs state: relations with
// their sources in those documents only, and the entities those documents
// mention (their mentions kept to them). Empty docs: g unchanged.
func Within(g kb.Graph, docs []int64) kb.Graph {
	if len(docs) == 0 {
		return g
	}
	in := make(map[int64]bool, len(docs))
	for _, d := range docs {
		in[d] = true
	}
	keep := func(src []kb.Source) []kb.Source {
		var out []kb.Source
		for _, s := range src {
			if in[s.DocID] {
				out = append(out, s)
			}
		}
		return out
	}
	out := kb.Graph{Entities: []kb.Entity{}, Relations: []kb.Relation{}}
	for _, e := range g.Entities {
		if m := keep(e.Mentions); len(m) > 0 {
			e.Mentions = m
			out.Entities = append(out.Entities, e)
		}
	}
	for _, r := range g.Relations {
		if s := keep(r.Sources); len(s) > 0 {
			r.Sources = s
			out.Relations = append(out.Relations, r)
		}
	}
	return out
}

// Stated is g without its co-occurrence relations (relphrase.CoOccurs: two
// names side by side in a sentence that states nothing between them).
// Co-occurrence stays in the store for retrieval; the graph shown and
// exported holds what the text states, unless co-occurrence is asked for.
func Stated(g kb.Graph) kb.Graph {
	out := kb.Graph{Entities: g.Entities, Relations: make([]kb.Relation, 0, len(g.Relations))}
	for _, r := range g.Relations {
		if r.Predicate != relphrase.CoOccurs {
			out.Relations = append(out.Relations, r)
		}
	}
	return out
}
