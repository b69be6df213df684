package graph

import (
	"testing"

	"cairn/backend/kb"
	"cairn/backend/relphrase"
)

func TestWithin(t *testing.T) {
	src := func(doc int64) kb.Source { return kb.Source{DocID: doc, ChunkID: doc * 10} }
	g := kb.Graph{
		Entities: []kb.Entity{
			{ID: 1, Name: "Lanternworks", Mentions: []kb.Source{src(1), src(2)}},
			{ID: 2, Name: "Orrin Mills", Mentions: []kb.Source{src(3)}},
		},
		Relations: []kb.Relation{
			{ID: 7, Subject: 1, Object: 2, Predicate: "supplies", Sources: []kb.Source{src(2), src(3)}},
			{ID: 8, Subject: 2, Object: 1, Predicate: "bought", Sources: []kb.Source{src(3)}},
		},
	}
	got := Within(g, []int64{2})
	if len(got.Entities) != 1 || got.Entities[0].ID != 1 || len(got.Entities[0].Mentions) != 1 || got.Entities[0].Mentions[0].DocID != 2 {
		t.Errorf("entities %+v", got.Entities)
	}
	if len(got.Relations) != 1 || got.Relations[0].ID != 7 || len(got.Relations[0].Sources) != 1 {
		t.Errorf("relations %+v", got.Relations)
	}
	if all := Within(g, nil); len(all.Entities) != 2 || len(all.Relations) != 2 {
		t.Errorf("no scope changed the graph: %+v", all)
	}
}

func TestStated(t *testing.T) {
	g := kb.Graph{
		Entities: []kb.Entity{{ID: 1, Name: "Lanternworks"}, {ID: 2, Name: "Orrin Mills"}},
		Relations: []kb.Relation{
			{ID: 7, Subject: 1, Object: 2, Predicate: "supplies"},
			{ID: 8, Subject: 2, Object: 1, Predicate: relphrase.CoOccurs},
		},
	}
	got := Stated(g)
	if len(got.Entities) != 2 || len(got.Relations) != 1 || got.Relations[0].ID != 7 {
		t.Errorf("stated %+v", got)
	}
	if len(g.Relations) != 2 {
		t.Error("the input changed")
	}
}
