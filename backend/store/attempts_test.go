package store

import (
	"context"
	"testing"
)

// TestExtractionAttempts: failed attempts count per chunk and model, a
// success clears them, a reset releases every chunk (or one model's), and
// removing a document removes its chunks' rows.
func TestExtractionAttempts(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	doc := addDoc(t, s, "a", "alpha page", "beta page")
	ids := chunkIDs(t, s, doc)
	steps := []struct {
		name string
		do   func() error
		m    string
		want map[int64]int // chunk → attempts for model m
	}{
		{"first failure", func() error { return s.RecordAttempt(ctx, ids[0], "m1", "cut", "cut: the reply was cut") }, "m1", map[int64]int{ids[0]: 1}},
		{"second failure", func() error { return s.RecordAttempt(ctx, ids[0], "m1", "schema", "schema: bad") }, "m1", map[int64]int{ids[0]: 2}},
		{"another chunk", func() error { return s.RecordAttempt(ctx, ids[1], "m1", "empty", "empty") }, "m1", map[int64]int{ids[0]: 2, ids[1]: 1}},
		{"another model is apart", func() error { return s.RecordAttempt(ctx, ids[0], "m2", "cut", "cut") }, "m1", map[int64]int{ids[0]: 2, ids[1]: 1}},
		{"a success clears", func() error { return s.ClearAttempt(ctx, ids[1], "m1") }, "m1", map[int64]int{ids[0]: 2}},
		{"a chunk that is gone is not recorded", func() error { return s.RecordAttempt(ctx, 99999, "m1", "cut", "cut") }, "m1", map[int64]int{ids[0]: 2}},
		{"reset one model", func() error { _, err := s.ResetAttempts(ctx, "m2"); return err }, "m2", map[int64]int{}},
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		got, err := s.ExtractionAttempts(ctx, st.m)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(st.want) {
			t.Fatalf("%s: %+v", st.name, got)
		}
		for id, n := range st.want {
			if got[id].Attempts != n {
				t.Fatalf("%s: chunk %d has %d attempts, want %d", st.name, id, got[id].Attempts, n)
			}
		}
	}
	if a, _ := s.ExtractionAttempts(ctx, "m1"); a[ids[0]].Kind != "schema" || a[ids[0]].Reason != "schema: bad" {
		t.Fatalf("last failure not kept: %+v", a[ids[0]])
	}
	if _, err := s.RemoveDocuments(ctx, doc); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, "SELECT count(*) FROM extraction_attempts"); n != 0 {
		t.Fatalf("%d attempt rows outlive their chunks", n)
	}
}
