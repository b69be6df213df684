package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"cairn/backend/embed"
	"cairn/backend/evalset"
	"cairn/backend/store"
)

// TestChunksTitled: the title/heading lookup finds chunks by a phrase of
// their document title, ignores body text, and takes names with quotes and
// FTS operators as plain phrases.
func TestChunksTitled(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	corpus := []evalset.Passage{
		{ID: "a", Title: "Oswiu", Text: "Oswiu was King of Bernicia from 642."},
		{ID: "b", Title: "Nearchos (painter)", Text: "Nearchos was an Attic potter and vase painter."},
		{ID: "c", Title: "Whitby Abbey", Text: "Oswiu is buried at Whitby Abbey."},
	}
	if err := evalset.Build(ctx, st, embed.NewHashed(embed.DefaultDim), corpus); err != nil {
		t.Fatal(err)
	}
	got, err := st.ChunksTitled(ctx, []string{"Oswiu", `Say "hi" NEAR*`, "Nearchos", ""}, 10)
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
	if len(got) != 2 || !titles["Oswiu"] || !titles["Nearchos (painter)"] {
		t.Fatalf("titled chunks %+v (the body mention of Oswiu in c must not count)", got)
	}
	if none, err := st.ChunksTitled(ctx, []string{`"`, "*"}, 10); err != nil || len(none) != 0 {
		t.Fatalf("empty phrases: %+v %v", none, err)
	}
}
