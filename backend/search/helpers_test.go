package search

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/kb"
	"cairn/backend/store"
)

// testStore is a fresh project store for a test, with 2-dimensional
// vectors, closed when the test ends.
func testStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.EnsureVectors(context.Background(), kb.EmbedderInfo{Model: "t", Dim: 2}); err != nil {
		t.Fatal(err)
	}
	return st
}

// saveDoc adds a document of the given kind with its pages and passages
// (each passage indexed under the title, one vector for all) and returns
// its id.
func saveDoc(t *testing.T, st *store.Store, title, kind string, pages []kb.Page, chunks []kb.Chunk) int64 {
	t.Helper()
	ctx := context.Background()
	id, err := st.AddDocument(ctx, kb.Document{Title: title, FileName: title + "." + kind, Kind: kind, Hash: title})
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]store.ChunkRow, len(chunks))
	for i, c := range chunks {
		rows[i] = store.ChunkRow{Chunk: c, FTS: store.ChunkFTS(title, c), Vector: []float32{1, 0}, Terms: strings.Fields(strings.ToLower(c.Text))}
	}
	if err := st.SaveContent(ctx, id, store.Content{Title: title, Kind: kind, Status: kb.StatusOK, Pages: pages, Chunks: rows}); err != nil {
		t.Fatal(err)
	}
	return id
}

// rankOfPage is the place (1-based) in the top k that search with set
// gives the first passage starting on page for q; 0 when none is there.
func rankOfPage(t *testing.T, st *store.Store, set Settings, q string, k, page int) int {
	t.Helper()
	hits, err := (&Searcher{Store: st, Settings: set}).Search(context.Background(), q, k)
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range hits {
		if h.PageStart == page {
			return i + 1
		}
	}
	return 0
}
