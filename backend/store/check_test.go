package store

import (
	"context"
	"fmt"
	"testing"
)

// A connection that searched the lexical index before another connection
// rewrote it must not report the rewritten index as corrupt. Without the
// refresh in integrityCheck, PRAGMA integrity_check on the stale connection
// says "fts5: corruption found reading blob …" (SQLite 3.54).
func TestIntegrityCheckStaleFTS(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	var docs []int64
	for i := range 30 { // one segment per document
		docs = append(docs, addDoc(t, s, fmt.Sprintf("h%02d", i), fmt.Sprintf("fox and hound number %d", i)))
	}
	reader, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	var n int
	if err := reader.QueryRowContext(ctx, "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'fox'").Scan(&n); err != nil || n != 30 {
		t.Fatalf("search on the reader: n=%d err=%v", n, err)
	}
	// another connection removes documents and merges the segments the
	// reader has cached
	writer, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	for _, id := range docs[:15] {
		if _, err := writer.ExecContext(ctx, "DELETE FROM documents WHERE id = ?", id); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := writer.ExecContext(ctx, "INSERT INTO chunks_fts(chunks_fts) VALUES('optimize')"); err != nil {
		t.Fatal(err)
	}
	problems, err := integrityCheck(ctx, reader)
	if err != nil || len(problems) != 0 {
		t.Fatalf("integrity check on the connection that searched before the merge: %v %v", problems, err)
	}
	if err := reader.QueryRowContext(ctx, "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'fox'").Scan(&n); err != nil || n != 15 {
		t.Fatalf("search after the merge: n=%d err=%v", n, err)
	}
}
