package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"cairn/backend/embed"
	"cairn/backend/evalset"
	"cairn/backend/kb"
	"cairn/backend/store"
)

// TestChunksNamed: the title/heading look-up finds chunks whose document
// title names a key (qualifier in parentheses ignored), ignores body text,
// and survives a reopen that fills the index of an older database.
func TestChunksNamed(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cairn.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	corpus := []evalset.Passage{
		{ID: "a", Title: "Eadwald", Text: "Eadwald was King of Tessland from 642."},
		{ID: "b", Title: "Thessalon (painter)", Text: "Thessalon was an Attic potter and vase painter."},
		{ID: "c", Title: "Harrowby Abbey", Text: "Eadwald is buried at Harrowby Abbey."},
	}
	if err := evalset.Build(ctx, st, embed.NewHashed(embed.DefaultDim), corpus); err != nil {
		t.Fatal(err)
	}
	lookup := func(st *store.Store) map[string]bool {
		t.Helper()
		got, err := st.ChunksNamed(ctx, []string{kb.NormKey("Eadwald"), kb.NormKey("Thessalon"), ""}, 10)
		if err != nil {
			t.Fatal(err)
		}
		titles := map[string]bool{}
		for _, c := range got {
			titles[c.Title] = true
			if c.ChunkID == 0 || c.DocID == 0 {
				t.Fatalf("row without ids: %+v", c)
			}
		}
		if len(got) != 2 || !titles["Eadwald"] || !titles["Thessalon (painter)"] {
			t.Fatalf("named chunks %+v (the body mention of Eadwald in c must not count)", got)
		}
		return titles
	}
	lookup(st)
	if none, err := st.ChunksNamed(ctx, nil, 10); err != nil || len(none) != 0 {
		t.Fatalf("no keys: %+v %v", none, err)
	}
	// a database from before migration 0009 gets its keys on the next open
	if _, err := st.Exec("DELETE FROM topic_keys"); err != nil {
		t.Fatal(err)
	}
	if err := st.SetMeta(ctx, "topic_keys", "pending"); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if st, err = store.Open(path); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	lookup(st)
	if v, _ := st.Meta(ctx, "topic_keys"); v != "ready" {
		t.Fatalf("meta topic_keys = %q after the fill", v)
	}
}
