package store

import (
	"context"
	"testing"
)

// TestForgetOfflineKeepsModelGraph: forgetting the offline extractions
// takes the entities only they mention away whole (mentions, relations,
// alias keys), and leaves an entity a model's chunk also mentions with
// that chunk's mention, name and aliases only; the model's relation
// stays, the offline chunk is pending again.
func TestForgetOfflineKeepsModelGraph(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	a := addDoc(t, s, "aaa", "Orla Venn founded Tessary Works in Port Alder.")
	b := addDoc(t, s, "bbb", "Ms. Venn sold Tessary Works to Greyhaven Holdings.")
	ca, cb := chunkIDs(t, s, a), chunkIDs(t, s, b)
	venn := ent(t, s, ca[0], "Orla Venn", "person", "")
	works := ent(t, s, ca[0], "Tessary Works", "organization", "")
	if err := s.SaveChunkGraph(ctx, ChunkGraph{ChunkID: ca[0], Status: "ok", Extractor: "model:test", Entities: []GraphEntity{venn, works},
		Relations: []GraphRelation{{Subject: 0, Object: 1, Predicate: "founded", Confidence: 0.9, Source: src(t, s, ca[0], "Orla Venn founded Tessary Works in Port Alder.")}}}, vec1024, nil); err != nil {
		t.Fatal(err)
	}
	works2 := ent(t, s, cb[0], "Tessary Works", "organization", "", "the Works")
	grey := ent(t, s, cb[0], "Greyhaven Holdings", "organization", "")
	if err := s.SaveChunkGraph(ctx, ChunkGraph{ChunkID: cb[0], Status: "ok", Extractor: ExtractorOffline, Entities: []GraphEntity{works2, grey},
		Relations: []GraphRelation{{Subject: 0, Object: 1, Predicate: "sold to", Confidence: 0.5, Source: src(t, s, cb[0], "Ms. Venn sold Tessary Works to Greyhaven Holdings.")}}}, vec1024, nil); err != nil {
		t.Fatal(err)
	}
	n, err := s.ForgetOfflineExtractions(ctx)
	if err != nil || n != 1 {
		t.Fatalf("forgot %d chunks (%v), want 1", n, err)
	}
	count := func(q string, args ...any) int {
		t.Helper()
		var c int
		if err := s.db.QueryRow(q, args...).Scan(&c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	if got := entityTypes(t, s, "greyhaven holdings"); len(got) != 0 {
		t.Errorf("an entity only the offline chunk named is left: %v", got)
	}
	got := entityTypes(t, s, "tessary works")
	if len(got) != 1 {
		t.Fatalf("Tessary Works: %v, want one entity", got)
	}
	for id := range got {
		if c := count("SELECT count(*) FROM mentions WHERE entity_id = ?", id); c != 1 {
			t.Errorf("Tessary Works has %d mentions, want the model chunk's one", c)
		}
		var aliases string
		s.db.QueryRow("SELECT aliases FROM entities WHERE id = ?", id).Scan(&aliases)
		if aliases != "[]" {
			t.Errorf("Tessary Works keeps aliases %s, want none (the offline chunk's alias is gone)", aliases)
		}
		if c := count("SELECT count(*) FROM entity_aliases WHERE entity_id = ? AND alias_norm LIKE '%works%' AND alias_norm <> 'tessary works'", id); c != 0 {
			t.Errorf("Tessary Works keeps %d alias keys of the offline chunk", c)
		}
	}
	if c := count("SELECT count(*) FROM relations WHERE predicate = 'founded'"); c != 1 {
		t.Errorf("the model's relation: %d rows, want 1", c)
	}
	if c := count("SELECT count(*) FROM relations WHERE predicate = 'sold to'"); c != 0 {
		t.Errorf("the offline relation is left (%d rows)", c)
	}
	if c := count("SELECT count(*) FROM chunk_extractions WHERE chunk_id = ?", cb[0]); c != 0 {
		t.Errorf("the offline chunk keeps its extraction record")
	}
	if c := count("SELECT count(*) FROM mentions WHERE chunk_id = ?", cb[0]); c != 0 {
		t.Errorf("the offline chunk keeps %d mentions", c)
	}
	mustCheck(t, s)
}
