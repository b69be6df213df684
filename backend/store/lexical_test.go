package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// A project from before migration 0011 gets its lexical index rebuilt with
// the every-row column on open: titles, headings and CJK bigrams are
// searchable again, and every chunk matches MatchEveryRow.
// openAtVersion creates a database at path migrated only to version (a
// project from an older Cairn), opened without Open's migration.
func openAtVersion(t *testing.T, path string, version int) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms[:version] {
		if _, err := db.Exec(m.sql); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
	}
	if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", version)); err != nil {
		t.Fatal(err)
	}
	return db
}

func TestMigrationRebuildsLexicalIndex(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cairn.db")
	db := openAtVersion(t, path, 10)
	for _, q := range []string{
		`INSERT INTO documents(id, title, file_name, stored_path, kind, hash, bytes, status, imported_at, updated_at)
		 VALUES(1, 'Mercury Atlas', 'm.pdf', 'files/m', 'pdf', 'h1', 10, 'ok', '', ''), (2, '水星', 's.pdf', 'files/s', 'pdf', 'h2', 10, 'ok', '', '')`,
		`INSERT INTO chunks(id, doc_id, ordinal, page_start, page_end, char_start, char_end, heading_path, text, tokens)
		 VALUES(7, 1, 0, 1, 1, 0, 20, '["Orbit","Perihelion"]', 'The planet moves fast.', 4),
		       (9, 2, 0, 1, 1, 0, 10, '[]', '水星是最小的行星', 8)`,
		// the old four-column table's rows, which the rebuild replaces
		`INSERT INTO chunks_fts(rowid, title, heading, body, cjk) VALUES(7, 'Mercury Atlas', 'Orbit / Perihelion', 'The planet moves fast.', '')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w := [4]float64{5, 1.5, 1, 1}
	for match, want := range map[string]int64{
		`"mercury"`:          7,
		`"perihelion"`:       7,
		`"moving"`:           7, // porter-stemmed like before
		`cjk : "行星"`:         9,
		`"atlas" AND "fast"`: 7,
	} {
		got, err := s.LexicalSearch(ctx, match, w, 10)
		if err != nil || len(got) != 1 || got[0].ChunkID != want {
			t.Errorf("%s: %v %v, want chunk %d", match, got, err, want)
		}
	}
	if got, err := s.LexicalSearch(ctx, MatchEveryRow, w, 10); err != nil || len(got) != 2 {
		t.Errorf("every row: %v %v", got, err)
	}
	if v, _ := s.Meta(ctx, "chunks_fts"); v != "ready" {
		t.Errorf("meta chunks_fts = %q after the rebuild", v)
	}
	// (The hand-made rows lack pages and vectors; only the index matters.)
	problems, err := s.Check(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		if strings.Contains(p, "lexical") {
			t.Errorf("check after the rebuild: %s", p)
		}
	}
	s.Close()
	// A second open does not rebuild (the flag is ready) and keeps the rows.
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if got, err := s2.LexicalSearch(ctx, `"planet"`, w, 10); err != nil || len(got) != 1 {
		t.Errorf("after reopen: %v %v", got, err)
	}
}
