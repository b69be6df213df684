package reason

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/analyze"
	"cairn/backend/embed"
	"cairn/backend/kb"
	"cairn/backend/search"
	"cairn/backend/store"
)

// oneDocStore is a store holding one PDF document titled title whose
// passages are chunks (their Ordinal, CharStart, CharEnd and Tokens are
// filled in here, the texts joined by newlines), on pages (one per
// passage's PageStart), with the built-in embedder; closed when the test
// ends. It returns the store, the embedder and the passages as stored.
func oneDocStore(t *testing.T, title string, chunks []kb.Chunk, pages []kb.Page) (*store.Store, embed.Embedder, []kb.Chunk) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e := embed.NewHashed(embed.DefaultDim)
	if err := st.EnsureVectors(ctx, e.Info()); err != nil {
		t.Fatal(err)
	}
	texts := make([]string, len(chunks))
	for i, c := range chunks {
		texts[i] = c.Text
	}
	full := strings.Join(texts, "\n")
	sum := sha256.Sum256([]byte(full))
	id, err := st.AddDocument(ctx, kb.Document{Title: title, FileName: "w.pdf", Kind: "pdf", Hash: hex.EncodeToString(sum[:]), Bytes: int64(len(full))})
	if err != nil {
		t.Fatal(err)
	}
	at := 0
	for i := range chunks {
		c := &chunks[i]
		c.Ordinal, c.CharStart, c.CharEnd, c.Tokens = i, at, at+len(c.Text), len(analyze.Tokens(c.Text))
		at += len(c.Text) + 1
	}
	rows, embedTexts := search.ChunkRows(title, chunks)
	vecs, err := e.Embed(ctx, embedTexts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		rows[i].Vector = vecs[i]
	}
	if err := st.SaveContent(ctx, id, store.Content{Title: title, Kind: "pdf", Status: kb.StatusOK, Pages: pages, Chunks: rows}); err != nil {
		t.Fatal(err)
	}
	stored, err := st.ChunksOfDocument(ctx, id)
	if err != nil || len(stored) != len(chunks) {
		t.Fatalf("chunks %d, %v", len(stored), err)
	}
	return st, e, stored
}

// onePassagePerPage makes one passage of each text, each on a page of its
// own (page i+1), and those pages, for oneDocStore.
func onePassagePerPage(texts []string) ([]kb.Chunk, []kb.Page) {
	var chunks []kb.Chunk
	var pages []kb.Page
	for i, tx := range texts {
		chunks = append(chunks, kb.Chunk{PageStart: 1 + i, PageEnd: 1 + i, Text: tx})
		pages = append(pages, kb.Page{Number: 1 + i, Text: tx})
	}
	return chunks, pages
}
