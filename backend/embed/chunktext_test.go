package embed_test

import (
	"fmt"
	"testing"

	"cairn/backend/embed"
	"cairn/backend/kb"
	"cairn/backend/search"
)

// TestChunkTextIsSearchEmbedText: the words the store counts for a chunk
// (embed.ChunkWords) are those of the text search embeds it as, so the
// document frequencies the built-in embedder's IDF reads describe the
// vectors it made.
func TestChunkTextIsSearchEmbedText(t *testing.T) {
	for _, c := range []kb.Chunk{
		{Text: "Quillwort grows by the harbour wall."},
		{Text: "Tolls rose.", HeadingPath: []string{"Accounts", "Tolls"}},
		{Text: "| 2024 | 12 |", TableHeader: "| Year | Ships |", HeadingPath: []string{"Accounts"}},
		{Text: "劳动合同期限 and wages"},
		{},
	} {
		if got, want := embed.ChunkText("Harbour ledger", c), search.EmbedText("Harbour ledger", c); got != want {
			t.Errorf("ChunkText %q, search.EmbedText %q", got, want)
		}
		if got, want := embed.ChunkWords("Harbour ledger", c), search.ChunkTerms("Harbour ledger", c); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("ChunkWords %v, search.ChunkTerms %v", got, want)
		}
	}
}
