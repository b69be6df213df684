package store

import (
	"context"
	"testing"
)

// entityTypes lists the entities of a normalised name with their types.
func entityTypes(t *testing.T, s *Store, key string) map[int64]string {
	t.Helper()
	rows, err := s.db.Query("SELECT id, type FROM entities WHERE norm_key = ?", key)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var typ string
		if err := rows.Scan(&id, &typ); err != nil {
			t.Fatal(err)
		}
		out[id] = typ
	}
	return out
}

// One name, one type: a name typed two ways in two passages is one entity
// whose type is the one with the strongest evidence over all its mentions;
// removing the passages that gave that evidence gives the type back to the
// others.
func TestOneNameOneType(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	a := addDoc(t, s, "aaa", "Varnholt Ridge hosted the fair.")
	b := addDoc(t, s, "bbb", "She was born in Varnholt Ridge.")
	c := addDoc(t, s, "ccc", "Varnholt Ridge is quiet.")
	ca, cb, cc := chunkIDs(t, s, a), chunkIDs(t, s, b), chunkIDs(t, s, c)
	save := func(chunk int64, typ string, w float64) {
		t.Helper()
		e := ent(t, s, chunk, "Varnholt Ridge", typ, "")
		e.TypeWeight = w
		if err := s.SaveChunkGraph(ctx, ChunkGraph{ChunkID: chunk, Status: "ok", Extractor: ExtractorOffline, Entities: []GraphEntity{e}}, vec1024, nil); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		chunk int64
		typ   string
		w     float64
		want  string
	}{
		{ca[0], "person", 0.6, "person"},   // a weak cue first
		{cb[0], "location", 2, "location"}, // "born in": stronger
		{cc[0], "other", 0, "location"},    // nothing said: no vote
	}
	for _, tc := range cases {
		save(tc.chunk, tc.typ, tc.w)
		got := entityTypes(t, s, "varnholt ridge")
		if len(got) != 1 {
			t.Fatalf("after a %s mention: %d entities %v, want one", tc.typ, len(got), got)
		}
		for _, typ := range got {
			if typ != tc.want {
				t.Errorf("after a %s mention: type %s, want %s", tc.typ, typ, tc.want)
			}
		}
	}
	mustCheck(t, s)
	if _, err := s.RemoveDocuments(ctx, b); err != nil {
		t.Fatal(err)
	}
	for _, typ := range entityTypes(t, s, "varnholt ridge") {
		if typ != "person" {
			t.Errorf("after removing the place's evidence: type %s, want person", typ)
		}
	}
	// the chunk extracted again with stronger evidence the other way
	save(ca[0], "location", 3)
	for _, typ := range entityTypes(t, s, "varnholt ridge") {
		if typ != "location" {
			t.Errorf("after re-extraction: type %s, want location", typ)
		}
	}
	mustCheck(t, s)
}

// A passage that defines an abbreviation ("Quarry Rights Protection Act
// (QRPA)") saved after passages that used the abbreviation alone merges the
// abbreviation's entity into the defined name's: one entity, its mentions,
// values and relations moved, the graph consistent.
func TestDefinedAbbreviationMerges(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	a := addDoc(t, s, "aaa", "The QRPA binds Dorvel Mining.")
	b := addDoc(t, s, "bbb", "The Quarry Rights Protection Act (QRPA) passed.")
	ca, cb := chunkIDs(t, s, a), chunkIDs(t, s, b)
	q := ent(t, s, ca[0], "QRPA", "organization", "")
	q.TypeWeight = 0.05
	d := ent(t, s, ca[0], "Dorvel Mining", "organization", "")
	if err := s.SaveChunkGraph(ctx, ChunkGraph{ChunkID: ca[0], Status: "ok", Extractor: ExtractorOffline, Entities: []GraphEntity{q, d},
		Relations: []GraphRelation{{Subject: 0, Object: 1, Predicate: "binds", Confidence: 0.5, Source: src(t, s, ca[0], "The QRPA binds Dorvel Mining.")}}}, vec1024, nil); err != nil {
		t.Fatal(err)
	}
	law := ent(t, s, cb[0], "Quarry Rights Protection Act", "law", "", "QRPA")
	law.TypeWeight = 3
	if err := s.SaveChunkGraph(ctx, ChunkGraph{ChunkID: cb[0], Status: "ok", Extractor: ExtractorOffline, Entities: []GraphEntity{law}}, vec1024, nil); err != nil {
		t.Fatal(err)
	}
	if got := entityTypes(t, s, "qrpa"); len(got) != 0 {
		t.Errorf("the abbreviation's own entity is left: %v", got)
	}
	got := entityTypes(t, s, "quarry rights protection act")
	if len(got) != 1 {
		t.Fatalf("defined name: %v, want one entity", got)
	}
	var id int64
	for k, typ := range got {
		id = k
		if typ != "law" {
			t.Errorf("type %s, want law", typ)
		}
	}
	var n, rels int
	s.db.QueryRow("SELECT count(*) FROM mentions WHERE entity_id = ?", id).Scan(&n)
	s.db.QueryRow("SELECT count(*) FROM relations WHERE subject_id = ? AND predicate = 'binds'", id).Scan(&rels)
	if n != 2 || rels != 1 {
		t.Errorf("merged entity: %d mentions, %d relations, want 2 and 1", n, rels)
	}
	mustCheck(t, s)
}
