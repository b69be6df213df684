package store

import (
	"context"
	"path/filepath"
	"testing"
)

// TestInspect: the whole-database reads other packages use instead of SQL.
func TestInspect(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	a := addDoc(t, s, "aaa", "one two three", "four five")
	b := addDoc(t, s, "bbb", "six")
	docs, err := s.DocumentFileNames(ctx)
	if err != nil || docs[a] != "aaa.txt" || docs[b] != "bbb.txt" || len(docs) != 2 {
		t.Fatalf("documents %v %v", docs, err)
	}
	chunks, err := s.ChunkFileNames(ctx)
	if err != nil || len(chunks) != 3 {
		t.Fatalf("chunks %v %v", chunks, err)
	}
	var texts []string
	if err := s.ChunkTexts(ctx, func(x string) error { texts = append(texts, x); return nil }); err != nil || len(texts) != 3 || texts[2] != "six" {
		t.Fatalf("texts %q %v", texts, err)
	}
	n := 0
	if err := s.ChunkVectors(ctx, func(_ int64, v []float32) error {
		if len(v) != testEmbedder.Dim {
			t.Fatalf("vector of %d", len(v))
		}
		n++
		return nil
	}); err != nil || n != 3 {
		t.Fatalf("vectors %d %v", n, err)
	}
	if bytes, err := s.TableBytes(ctx); err != nil || bytes["chunks"] == 0 {
		t.Fatalf("table bytes %v %v", bytes, err)
	}
	before, err := s.Fingerprint(ctx)
	if err != nil {
		t.Fatal(err)
	}
	snap := filepath.Join(t.TempDir(), "snap.db")
	if err := s.Snapshot(ctx, snap); err != nil {
		t.Fatal(err)
	}
	c, err := Open(snap)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	after, err := c.Fingerprint(ctx)
	if err != nil || after != before {
		t.Fatalf("snapshot fingerprint differs (%v):\n%s\n--\n%s", err, before, after)
	}
	if _, err := s.RemoveDocuments(ctx, b); err != nil {
		t.Fatal(err)
	}
	if f, _ := s.Fingerprint(ctx); f == before {
		t.Fatal("fingerprint unchanged after a removal")
	}
}
