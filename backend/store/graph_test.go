package store

import (
	"context"
	"strings"
	"testing"

	"cairn/backend/kb"
)

// vec1024 is a stand-in vectorizer with the graph tables' dimension: a
// letter histogram, enough for nearest-neighbour tests.
func vec1024(text string) []float32 {
	v := make([]float32, 1024)
	for _, r := range strings.ToLower(text) {
		v[int(r)%1024]++
	}
	return v
}

// src is the span of needle (first occurrence) in chunk c of doc.
func src(t *testing.T, s *Store, chunkID int64, needle string) kb.Source {
	t.Helper()
	var c kb.Chunk
	if err := s.db.QueryRow("SELECT id, doc_id, page_start, page_end, char_start, text FROM chunks WHERE id = ?", chunkID).
		Scan(&c.ID, &c.DocID, &c.PageStart, &c.PageEnd, &c.CharStart, &c.Text); err != nil {
		t.Fatal(err)
	}
	i := strings.Index(c.Text, needle)
	if i < 0 {
		t.Fatalf("%q not in chunk %d", needle, chunkID)
	}
	return kb.Source{DocID: c.DocID, ChunkID: c.ID, PageStart: c.PageStart, PageEnd: c.PageEnd, CharStart: c.CharStart + i, CharEnd: c.CharStart + i + len(needle)}
}

func chunkIDs(t *testing.T, s *Store, doc int64) []int64 {
	t.Helper()
	rows, err := s.db.Query("SELECT id FROM chunks WHERE doc_id = ? ORDER BY ordinal", doc)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		rows.Scan(&id)
		out = append(out, id)
	}
	return out
}

func ent(t *testing.T, s *Store, chunk int64, name, typ, desc string, aliases ...string) GraphEntity {
	return GraphEntity{Name: name, Type: typ, Description: desc, Aliases: aliases, Mentions: []kb.Source{src(t, s, chunk, name)}}
}

func mustCheck(t *testing.T, s *Store) {
	t.Helper()
	probs, err := s.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(probs) > 0 {
		t.Fatalf("check: %v", probs)
	}
}

func TestGraphSaveReadRemove(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	a := addDoc(t, s, "aaa", "Frodo Baggins lives in the Shire.", "Alû met Frodo in Bree.")
	b := addDoc(t, s, "bbb", "Frodo carried the Ring to Mordor.")
	ca, cb := chunkIDs(t, s, a), chunkIDs(t, s, b)

	save := func(g ChunkGraph) {
		t.Helper()
		if err := s.SaveChunkGraph(ctx, g, vec1024, nil); err != nil {
			t.Fatal(err)
		}
	}
	e0 := ent(t, s, ca[0], "Frodo Baggins", "person", "a hobbit", "Frodo")
	e1 := ent(t, s, ca[0], "Shire", "location", "")
	save(ChunkGraph{ChunkID: ca[0], Status: kb.ExtractOK, Extractor: "m", Calls: 1, Prompt: 100, Complete: 20,
		Entities:  []GraphEntity{e0, e1},
		Relations: []GraphRelation{{Subject: 0, Object: 1, Predicate: "lives in", Statement: "Frodo Baggins lives in the Shire.", Confidence: 0.9, Source: src(t, s, ca[0], "Frodo Baggins lives in the Shire.")}},
		Facts:     []kb.Fact{{Text: "Frodo lives in the Shire", Source: src(t, s, ca[0], "Frodo Baggins lives in the Shire.")}}})
	// "Frodo" resolves through the alias given in chunk 0.
	save(ChunkGraph{ChunkID: ca[1], Status: kb.ExtractOK, Extractor: "m",
		Entities:  []GraphEntity{ent(t, s, ca[1], "Alû", "person", "an elf"), ent(t, s, ca[1], "Frodo", "person", "")},
		Relations: []GraphRelation{{Subject: 0, Object: 1, Predicate: "met", Statement: "Alû met Frodo in Bree.", Confidence: 0.7, Source: src(t, s, ca[1], "Alû met Frodo in Bree.")}}})
	save(ChunkGraph{ChunkID: cb[0], Status: kb.ExtractOK, Extractor: "m",
		Entities:  []GraphEntity{ent(t, s, cb[0], "Frodo", "person", "ring-bearer"), ent(t, s, cb[0], "Mordor", "location", "")},
		Relations: []GraphRelation{{Subject: 0, Object: 1, Predicate: "went to", Statement: "Frodo carried the Ring to Mordor.", Confidence: 0.8, Source: src(t, s, cb[0], "Frodo carried the Ring to Mordor.")}}})
	mustCheck(t, s)

	frodo, ok, err := s.EntityByName(ctx, "frodo")
	if err != nil || !ok {
		t.Fatalf("frodo: %v %v", ok, err)
	}
	// "Frodo" (2 mentions) outvotes "Frodo Baggins" (1) for the name.
	if frodo.Name != "Frodo" || len(frodo.Mentions) != 3 || strings.Join(frodo.Aliases, "|") != "Frodo Baggins" {
		t.Fatalf("frodo = %+v", frodo)
	}
	alu, ok, _ := s.EntityByName(ctx, "ALÛ")
	if !ok || alu.Name != "Alû" {
		t.Fatalf("Alû lookup: %+v", alu)
	}
	if _, ok, _ := s.EntityByName(ctx, "Alu"); ok {
		t.Fatal("Alu must not match Alû")
	}
	rels, err := s.GraphRelations(ctx, nil)
	if err != nil || len(rels) != 3 {
		t.Fatalf("relations %v %v", rels, err)
	}
	for _, r := range rels {
		if len(r.Sources) != 1 || r.Sources[0].PageStart < 1 {
			t.Fatalf("relation without a source: %+v", r)
		}
	}
	// The Graph view's skeleton: every entity with its mentions per
	// document, every relation with its sources per document; mentions
	// capped per entity and kept to documents.
	ents, srels, err := s.GraphSkeleton(ctx)
	if err != nil || len(ents) != 4 || len(srels) != 3 {
		t.Fatalf("skeleton: %v, %d entities, %d relations", err, len(ents), len(srels))
	}
	for _, e := range ents {
		if e.ID == frodo.ID && (len(e.Docs) != 2 || e.Docs[0].N+e.Docs[1].N != 3) {
			t.Fatalf("frodo's mentions per document: %+v", e.Docs)
		}
	}
	for _, r := range srels {
		if len(r.Docs) != 1 || r.Docs[0].N != 1 || r.Predicate == "" {
			t.Fatalf("skeleton relation %+v", r)
		}
	}
	few, err := s.GraphEntitiesFew(ctx, []int64{frodo.ID}, nil, 2)
	if err != nil || len(few) != 1 || len(few[0].Mentions) != 2 {
		t.Fatalf("two mentions: %v %+v", err, few)
	}
	few, _ = s.GraphEntitiesFew(ctx, []int64{frodo.ID}, []int64{b}, 5)
	if len(few) != 1 || len(few[0].Mentions) != 1 || few[0].Mentions[0].DocID != b {
		t.Fatalf("mentions in document %d: %+v", b, few)
	}
	v1, _ := s.GraphVersion(ctx)
	nb, err := s.Neighbourhood(ctx, frodo.ID, 1, 10)
	if err != nil || len(nb.Entities) != 4 || len(nb.Relations) != 3 {
		t.Fatalf("neighbourhood: %+v %v", nb, err)
	}
	facts, err := s.FactsByDocument(ctx, a)
	if err != nil || len(facts) != 1 || facts[0].Source.ChunkID != ca[0] {
		t.Fatalf("facts %+v %v", facts, err)
	}
	u, _ := s.ExtractionUsage(ctx)
	if u.Calls != 1 || u.PromptTokens != 100 || u.Chunks != 3 {
		t.Fatalf("usage %+v", u)
	}
	if n, _ := s.NearestEntities(ctx, vec1024("Mordor"), 1); len(n) != 1 {
		t.Fatalf("nearest entity: %v", n)
	}

	// Removing document a: Shire and Alû go, Frodo stays with b's mention only
	// and b's description; the two relations of a go.
	if _, err := s.RemoveDocuments(ctx, a); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, s)
	if v2, _ := s.GraphVersion(ctx); v2 == v1 || v1 == "" {
		t.Fatalf("graph version unchanged by a removal: %q", v1)
	}
	all, _ := s.GraphEntities(ctx, nil)
	if len(all) != 2 {
		t.Fatalf("after remove: %+v", all)
	}
	frodo, _, _ = s.EntityByName(ctx, "Frodo")
	if frodo.Description != "ring-bearer" || len(frodo.Aliases) != 0 || len(frodo.Mentions) != 1 {
		t.Fatalf("frodo after remove = %+v", frodo)
	}
	if _, ok, _ := s.EntityByName(ctx, "Frodo Baggins"); ok {
		t.Fatal("alias of a removed document still resolves")
	}
	if n := count(t, s, "SELECT count(*) FROM relations"); n != 1 {
		t.Fatalf("relations left: %d", n)
	}
	if n := count(t, s, "SELECT count(*) FROM entities WHERE vec_stale = 1"); n != 1 {
		t.Fatalf("stale vectors: %d", n)
	}
	if err := s.RefreshGraphVectors(ctx, vec1024); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, "SELECT count(*) FROM entities WHERE vec_stale = 1"); n != 0 {
		t.Fatalf("stale vectors after refresh: %d", n)
	}
	if _, err := s.RemoveDocuments(ctx, b); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, s)
	for _, tb := range []string{"entities", "relations", "mentions", "relation_sources", "facts", "entity_aliases", "entities_vec", "relations_vec", "concepts", "chunk_extractions"} {
		if n := count(t, s, "SELECT count(*) FROM "+tb); n != 0 {
			t.Errorf("%s: %d rows left after removing every document", tb, n)
		}
	}
}

func TestGraphStatusAndConcepts(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	a := addDoc(t, s, "aaa", "Paris is in France.", "Nothing here.")
	ca := chunkIDs(t, s, a)
	c, err := s.ExtractionCounts(ctx, ExtractorOffline)
	if err != nil || c.Pending != 2 {
		t.Fatalf("counts %+v %v", c, err)
	}
	e := ent(t, s, ca[0], "Paris", "location", "")
	e.Concepts = []string{"Capital city", "City", "Place"}
	if err := s.SaveChunkGraph(ctx, ChunkGraph{ChunkID: ca[0], Status: kb.ExtractOK, Extractor: "m", Entities: []GraphEntity{e}}, vec1024, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveChunkGraph(ctx, ChunkGraph{ChunkID: ca[1], Status: kb.ExtractFailed, Reason: "malformed", Extractor: ExtractorFallback}, vec1024, nil); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, s)
	cs, _ := s.EntityConcepts(ctx, 1)
	if strings.Join(cs, ">") != "Capital city>City>Place" {
		t.Fatalf("concepts %v", cs)
	}
	if c, _ := s.ExtractionCounts(ctx, ExtractorOffline); c.OK != 1 || c.Failed != 1 || c.Pending != 0 {
		t.Fatalf("offline counts %+v", c)
	}
	// with model m the failed chunk is pending again (counted as failed)
	if p, _ := s.PendingExtraction(ctx, "m", 0); len(p) != 1 || p[0].ID != ca[1] {
		t.Fatalf("pending for m: %+v", p)
	}
	if p, _ := s.PendingExtraction(ctx, "other-model", 0); len(p) != 2 {
		t.Fatalf("pending for another model: %d", len(p))
	}
	// a span outside the chunk is refused and nothing is written
	bad := GraphEntity{Name: "France", Mentions: []kb.Source{{DocID: a, ChunkID: ca[0], CharStart: 0, CharEnd: 500}}}
	if err := s.SaveChunkGraph(ctx, ChunkGraph{ChunkID: ca[0], Status: kb.ExtractOK, Extractor: "m", Entities: []GraphEntity{bad}}, vec1024, nil); err == nil {
		t.Fatal("span outside the chunk accepted")
	}
	if n := count(t, s, "SELECT count(*) FROM entities"); n != 1 {
		t.Fatalf("failed save changed the graph: %d entities", n)
	}
	// re-extracting a chunk replaces its contribution
	if err := s.SaveChunkGraph(ctx, ChunkGraph{ChunkID: ca[0], Status: kb.ExtractEmpty, Reason: "nothing", Extractor: "m"}, vec1024, nil); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, s)
	if n := count(t, s, "SELECT count(*) FROM entities") + count(t, s, "SELECT count(*) FROM concepts"); n != 0 {
		t.Fatalf("re-extraction left %d rows", n)
	}
}

// Values are stored as facts of their entity (never entities), cleared when
// the chunk is extracted again and gone with the document.
func TestEntityValues(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	a := addDoc(t, s, "vvv", "Lanternworks paid $3 million on 4 May 2021.")
	ca := chunkIDs(t, s, a)
	e := ent(t, s, ca[0], "Lanternworks", "organization", "")
	e.Values = []kb.Value{{Kind: "money", Text: "$3 million", Source: src(t, s, ca[0], "$3 million")},
		{Kind: "date", Text: "4 May 2021", Source: src(t, s, ca[0], "4 May 2021")}}
	g := ChunkGraph{ChunkID: ca[0], Status: kb.ExtractOK, Extractor: "offline", Entities: []GraphEntity{e}}
	for range 2 { // saved twice: the second save replaces the first
		if err := s.SaveChunkGraph(ctx, g, vec1024, nil); err != nil {
			t.Fatal(err)
		}
	}
	mustCheck(t, s)
	lw, ok, err := s.EntityByName(ctx, "Lanternworks")
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	vals, err := s.EntityValues(ctx, lw.ID)
	if err != nil || len(vals) != 2 || vals[0].Text != "$3 million" || vals[1].Kind != "date" || vals[0].Source.ChunkID != ca[0] {
		t.Fatalf("values %+v %v", vals, err)
	}
	if _, ok, _ := s.EntityByName(ctx, "4 May 2021"); ok {
		t.Fatal("a date became an entity")
	}
	bad := g
	bad.Entities = []GraphEntity{e}
	bad.Entities[0].Values = []kb.Value{{Kind: "money", Text: "$3 million", Source: kb.Source{DocID: a, ChunkID: ca[0] + 99}}}
	if err := s.SaveChunkGraph(ctx, bad, vec1024, nil); err == nil {
		t.Fatal("a value outside its chunk was stored")
	}
	if _, err := s.RemoveDocuments(ctx, a); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.db.QueryRow("SELECT count(*) FROM entity_facts").Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d values left after removing the document (%v)", n, err)
	}
}
