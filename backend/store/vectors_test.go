package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"cairn/backend/kb"
	"cairn/backend/vecindex"
)

// The in-memory index follows every write: new chunks are found by the
// next search, removed ones disappear, and a re-embed switch reloads it.
func TestNearestChunksFollowsWrites(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	a := addDoc(t, s, "a", "one", "two", "three") // vectors (1,1,0), (2,1,0), (3,1,0)
	got, err := s.NearestChunks(ctx, []float32{1, 1, 0}, 2)
	if err != nil || len(got) != 2 {
		t.Fatalf("search: %v %v", got, err)
	}
	first := got[0].ChunkID
	if got[0].Score < 0.9999 {
		t.Fatalf("exact match scored %v", got[0].Score)
	}
	addDoc(t, s, "b", "four") // vector (1,1,0) again: ties break by id
	got, err = s.NearestChunks(ctx, []float32{1, 1, 0}, 10)
	if err != nil || len(got) != 4 {
		t.Fatalf("after insert: %v %v", got, err)
	}
	if _, err := s.RemoveDocuments(ctx, a); err != nil {
		t.Fatal(err)
	}
	got, err = s.NearestChunks(ctx, []float32{1, 1, 0}, 10)
	if err != nil || len(got) != 1 || got[0].ChunkID == first {
		t.Fatalf("after removal: %v %v", got, err)
	}
	if n, err := s.WarmVectors(ctx); err != nil || n == 0 {
		t.Fatalf("warm: %d bytes, %v", n, err)
	}
	// a zero or wrong-sized query
	if got, err := s.NearestChunks(ctx, []float32{0, 0, 0}, 5); err != nil || len(got) != 0 {
		t.Fatalf("zero query: %v %v", got, err)
	}
	if _, err := s.NearestChunks(ctx, []float32{1, 0}, 5); err == nil {
		t.Fatal("2-dimensional query accepted against 3-dimensional vectors")
	}

	// re-embed to 2 dimensions: searches keep the old vectors until the switch
	want := kb.EmbedderInfo{Model: "test-2", Dim: 2}
	if err := s.BeginReembed(ctx, want); err != nil {
		t.Fatal(err)
	}
	items, err := s.ChunksToReembed(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	var vecs [][]float32
	for _, it := range items {
		ids = append(ids, it.ChunkID)
		vecs = append(vecs, []float32{0, 1})
	}
	if err := s.PutReembedVectors(ctx, ids, vecs); err != nil {
		t.Fatal(err)
	}
	if _, err := s.FinishReembed(ctx); err != nil {
		t.Fatal(err)
	}
	got, err = s.NearestChunks(ctx, []float32{0, 2}, 5)
	if err != nil || len(got) != 1 || got[0].Score < 0.9999 {
		t.Fatalf("after re-embed: %v %v", got, err)
	}
}

// Graph and mind-map vectors are kept sparse and found by exact cosine.
func TestGraphVectorsSparseAndSearched(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	doc := addDoc(t, s, "g", "Marie Curie worked in Paris with Pierre Curie.")
	ch := chunkIDs(t, s, doc)[0]
	g := ChunkGraph{ChunkID: ch, Status: kb.ExtractOK, Extractor: "m", Entities: []GraphEntity{
		ent(t, s, ch, "Marie Curie", "person", ""),
		ent(t, s, ch, "Paris", "place", ""),
		ent(t, s, ch, "Pierre Curie", "person", ""),
	}}
	if err := s.SaveChunkGraph(ctx, g, vec1024, nil); err != nil {
		t.Fatal(err)
	}
	var blob []byte
	if err := s.db.QueryRow("SELECT embedding FROM entities_vec LIMIT 1").Scan(&blob); err != nil {
		t.Fatal(err)
	}
	if len(blob) >= 4*1024/4 {
		t.Fatalf("entity vector takes %d bytes, want the sparse format", len(blob))
	}
	got, err := s.NearestEntities(ctx, vec1024(EntityVectorText("Paris", "")), 2)
	if err != nil || len(got) != 2 {
		t.Fatalf("nearest entities: %v %v", got, err)
	}
	es, err := s.EntitiesByName(ctx, "Paris")
	if err != nil || len(es) != 1 || got[0].ID != es[0].ID || got[0].Score < 0.9999 {
		t.Fatalf("nearest to Paris: %v (Paris is %v) %v", got, es, err)
	}
	mustCheck(t, s)
}

// Migration 0006 turns the vec0 graph and mind-map tables of a schema-5
// project into sparse plain tables with the same vectors.
func TestMigrationCompactsVectors(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cairn.db")
	db := openAtVersion(t, path, 5)
	want := map[int64][]float32{}
	for i := int64(1); i <= 40; i++ {
		v := vec1024(fmt.Sprintf("entity number %d", i))
		if i == 7 {
			v = make([]float32, 1024) // a text without features
		}
		want[i] = v
		for _, tbl := range []string{"entities_vec(entity_id", "relations_vec(relation_id", "mind_vec(node_id"} {
			if _, err := db.Exec("INSERT INTO "+tbl+", embedding) VALUES(?, ?)", i, vecindex.EncodeDense(v)); err != nil {
				t.Fatal(err)
			}
		}
	}
	db.Close()

	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, tbl := range []vecTable{entityVecs, relationVecs, mindVecs} {
		got, err := s.fetchVectors(ctx, tbl, []int64{1, 7, 40})
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []int64{1, 7, 40} {
			if fmt.Sprint(got[id]) != fmt.Sprint(want[id]) {
				t.Fatalf("%s %d changed in migration", tbl.name, id)
			}
		}
		var kind string
		if err := s.db.QueryRow("SELECT sql FROM sqlite_master WHERE name = ?", tbl.name).Scan(&kind); err != nil {
			t.Fatal(err)
		}
		if want := "CREATE TABLE"; kind[:len(want)] != want {
			t.Fatalf("%s is still %q", tbl.name, kind)
		}
		hits, err := s.searchVectors(ctx, tbl, want[40], 3)
		if err != nil || len(hits) != 3 || hits[0].ID != 40 {
			t.Fatalf("%s search after migration: %v %v", tbl.name, hits, err)
		}
		for _, h := range hits {
			if h.ID == 7 {
				t.Fatal("zero vector found")
			}
		}
		ids := make([]int64, 0, len(want))
		vecs := make([][]float32, 0, len(want))
		for id, v := range want {
			ids = append(ids, id)
			vecs = append(vecs, v)
		}
		exact := vecindex.Exact(want[40], ids, vecs, 3)
		for i := range exact {
			if exact[i].ID != hits[i].ID {
				t.Fatalf("%s: %v, exact search %v", tbl.name, hits, exact)
			}
		}
	}
}

// chunks_vec is a plain table since migration 0008; it still refuses a
// vector of another dimension than the project's embedder.
func TestChunkVectorDimensionEnforced(t *testing.T) {
	s := openTemp(t)
	addDoc(t, s, "ok", "fine")
	var n int
	if err := s.db.QueryRow("SELECT count(*) FROM sqlite_master WHERE name = 'chunks_vec' AND sql LIKE 'CREATE TABLE%'").Scan(&n); err != nil || n != 1 {
		t.Fatalf("chunks_vec is not a plain table (%d, %v)", n, err)
	}
	if _, err := s.db.Exec("INSERT INTO chunks_vec(chunk_id, embedding) VALUES(9999, ?)", vecindex.EncodeDense([]float32{1, 2})); err == nil {
		t.Fatal("2-dimensional vector stored for a 3-dimensional embedder")
	}
	if _, err := s.db.Exec("INSERT INTO chunks_vec(chunk_id, embedding) VALUES(9999, ?)", vecindex.EncodeDense([]float32{1, 2, 3})); err != nil {
		t.Fatalf("3-dimensional vector refused: %v", err)
	}
}
