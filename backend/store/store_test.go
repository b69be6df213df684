package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/kb"
)

var testEmbedder = kb.EmbedderInfo{Model: "test-3", Dim: 3}

func openTemp(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.EnsureVectors(context.Background(), testEmbedder); err != nil {
		t.Fatal(err)
	}
	return s
}

// addDoc stores a document of the given pages, one chunk per page.
func addDoc(t *testing.T, s *Store, hash string, pages ...string) int64 {
	t.Helper()
	ctx := context.Background()
	id, err := s.AddDocument(ctx, kb.Document{Title: "T " + hash, FileName: hash + ".txt", StoredPath: "files/" + hash, Kind: "txt", Hash: hash})
	if err != nil {
		t.Fatal(err)
	}
	var c Content
	c.Title, c.Kind = "T "+hash, "txt"
	off := 0
	for i, p := range pages {
		c.Pages = append(c.Pages, kb.Page{Number: i + 1, CharStart: off, Text: p})
		ch := kb.Chunk{Ordinal: i, PageStart: i + 1, PageEnd: i + 1, CharStart: off, CharEnd: off + len(p), Text: p}
		c.Chunks = append(c.Chunks, ChunkRow{Chunk: ch, FTS: FTSRow{Title: c.Title, Body: p},
			Vector: []float32{float32(i + 1), 1, 0}})
		off += len(p) + len(kb.PageSeparator)
	}
	if err := s.SaveContent(ctx, id, c); err != nil {
		t.Fatal(err)
	}
	return id
}

func count(t *testing.T, s *Store, q string) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(q).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSaveSearchRemove(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	a := addDoc(t, s, "aaa", "the quick brown fox", "jumps over the lazy dog")
	b := addDoc(t, s, "bbb", "a fox in the henhouse")

	got, err := s.LexicalSearch(ctx, `"fox"`, [4]float64{1, 1, 1, 1}, 10)
	if err != nil || len(got) != 2 {
		t.Fatalf("lexical fox: %v %v", got, err)
	}
	near, err := s.NearestChunks(ctx, []float32{1, 1, 0}, 1)
	if err != nil || len(near) != 1 {
		t.Fatalf("nearest: %v %v", near, err)
	}
	df, n, err := s.TermDF(ctx, []string{"w:fox", "w:dog"})
	if err != nil || df["w:fox"] != 2 || df["w:dog"] != 1 || n != 3 {
		t.Fatalf("term df %v n=%d err=%v", df, n, err)
	}
	if p, err := s.Check(ctx); err != nil || len(p) != 0 {
		t.Fatalf("check: %v %v", p, err)
	}

	removed, err := s.RemoveDocuments(ctx, a)
	if err != nil || len(removed) != 1 || removed[0].ID != a {
		t.Fatalf("remove: %v %v", removed, err)
	}
	for q, want := range map[string]int{
		"SELECT count(*) FROM chunks":                                  1,
		"SELECT count(*) FROM pages":                                   1,
		"SELECT count(*) FROM chunks_vec":                              1,
		"SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'dog'": 0,
		"SELECT count(*) FROM term_df WHERE term = 'w:dog'":            0,
		"SELECT df FROM term_df WHERE term = 'w:fox'":                  1,
	} {
		if got := count(t, s, q); got != want {
			t.Errorf("%s = %d, want %d", q, got, want)
		}
	}
	if _, err := s.RemoveDocuments(ctx, b, 9999); !errors.Is(err, ErrNotFound) {
		t.Fatalf("remove unknown: %v", err)
	}
	if got := count(t, s, "SELECT count(*) FROM documents"); got != 1 {
		t.Fatalf("a failed removal must change nothing; %d documents left", got)
	}
	if p, err := s.Check(ctx); err != nil || len(p) != 0 {
		t.Fatalf("check after remove: %v %v", p, err)
	}
}

func TestCheckFindsDamage(t *testing.T) {
	s := openTemp(t)
	addDoc(t, s, "aaa", "hello world", "second page")
	if _, err := s.db.Exec("UPDATE chunks SET char_end = char_end - 1 WHERE ordinal = 0"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec("DELETE FROM chunks_vec WHERE chunk_id = (SELECT max(id) FROM chunks)"); err != nil {
		t.Fatal(err)
	}
	p, err := s.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(p, "\n")
	if !strings.Contains(joined, "char span") || !strings.Contains(joined, "without a vector") {
		t.Fatalf("check missed damage: %q", joined)
	}
}

func TestNewerDatabaseRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cairn.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err = Open(path)
	var tooNew *ErrTooNew
	if !errors.As(err, &tooNew) || tooNew.Have != 99 || !strings.Contains(err.Error(), "newer version of Cairn") {
		t.Fatalf("want ErrTooNew, got %v", err)
	}
}

func TestMigrationsAreSequentialAndIdempotent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cairn.db")
	for i := 0; i < 2; i++ {
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if v := count(t, s, "PRAGMA user_version"); v != SchemaVersion() {
			t.Fatalf("user_version %d, want %d", v, SchemaVersion())
		}
		var fk, wal string
		s.db.QueryRow("PRAGMA foreign_keys").Scan(&fk)
		s.db.QueryRow("PRAGMA journal_mode").Scan(&wal)
		if fk != "1" || wal != "wal" {
			t.Fatalf("foreign_keys=%s journal_mode=%s", fk, wal)
		}
		s.Close()
	}
}

func TestEmbedderChangeDetected(t *testing.T) {
	s := openTemp(t)
	err := s.EnsureVectors(context.Background(), kb.EmbedderInfo{Model: "other", Dim: 768})
	var ch *ErrEmbedderChanged
	if !errors.As(err, &ch) {
		t.Fatalf("want ErrEmbedderChanged, got %v", err)
	}
	if e, _ := s.Embedder(context.Background()); e != testEmbedder {
		t.Fatalf("recorded embedder %+v", e)
	}
}

// Topic keys: the document title names only its first chunk, every heading
// names the chunks under it, and removal takes the keys with the chunks.
func TestTopicKeysFollowChunks(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	id, err := s.AddDocument(ctx, kb.Document{Title: "Mercury (planet)", FileName: "m.txt", StoredPath: "files/m", Kind: "txt", Hash: "m"})
	if err != nil {
		t.Fatal(err)
	}
	var c Content
	c.Title, c.Kind = "Mercury (planet)", "txt"
	texts := []string{"Mercury is the smallest planet.", "Its orbit is eccentric.", "Caloris is a crater."}
	heads := [][]string{nil, {"Orbit"}, {"Geology", "Caloris Basin"}}
	off := 0
	for i, p := range texts {
		c.Pages = append(c.Pages, kb.Page{Number: i + 1, CharStart: off, Text: p})
		ch := kb.Chunk{Ordinal: i, PageStart: i + 1, PageEnd: i + 1, CharStart: off, CharEnd: off + len(p), Text: p, HeadingPath: heads[i]}
		c.Chunks = append(c.Chunks, ChunkRow{Chunk: ch, FTS: FTSRow{Title: c.Title, Body: p},
			Vector: []float32{1, 0, 0}})
		off += len(p) + len(kb.PageSeparator)
	}
	if err := s.SaveContent(ctx, id, c); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		key  string
		want []int // ordinals
	}{
		{"mercury", []int{0}},
		{"orbit", []int{1}},
		{"caloris basin", []int{2}},
		{"geology", []int{2}},
		{"caloris", nil},
		{"mercury planet", nil},
	} {
		got, err := s.ChunksNamed(ctx, []string{tc.key}, 10)
		if err != nil {
			t.Fatal(err)
		}
		var ords []int
		for _, g := range got {
			ords = append(ords, g.Ordinal)
		}
		if fmt.Sprint(ords) != fmt.Sprint(tc.want) {
			t.Errorf("%q: ordinals %v, want %v", tc.key, ords, tc.want)
		}
	}
	if _, err := s.RemoveDocuments(ctx, id); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, "SELECT count(*) FROM topic_keys"); n != 0 {
		t.Fatalf("%d topic keys left after removal", n)
	}
}
