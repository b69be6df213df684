package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"cairn/backend/kb"
)

// Check verifies the database: SQLite's own integrity and foreign-key checks,
// that the lexical and vector indexes hold exactly one row per chunk, that
// every chunk's text is the slice of its document text its char span names,
// and that page and chunk spans are in range. It returns one line per problem.
func (s *Store) Check(ctx context.Context) ([]string, error) {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	lines, err := integrityCheck(ctx, conn)
	conn.Close()
	if err != nil {
		return nil, err
	}
	for _, line := range lines {
		add("sqlite integrity: %s", line)
	}

	var fk int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM pragma_foreign_key_check").Scan(&fk); err != nil {
		return nil, err
	}
	if fk > 0 {
		add("%d rows violate foreign keys", fk)
	}
	// FTS5's own check is a command written as an INSERT, refused on a
	// read-only connection; SQLite's integrity check above ran its
	// integrity method already.
	if !s.readOnly {
		if _, err := s.db.ExecContext(ctx, "INSERT INTO chunks_fts(chunks_fts, rank) VALUES('integrity-check', 0)"); err != nil {
			add("lexical index integrity: %v", err)
		}
	}

	counts := []struct{ what, q string }{
		{"chunks missing from the lexical index", "SELECT count(*) FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM chunks_fts f WHERE f.rowid = c.id)"},
		{"lexical rows without a chunk", "SELECT count(*) FROM chunks_fts f WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = f.rowid)"},
		{"chunks of documents that are not indexed (failed or pending)", "SELECT count(*) FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE d.status NOT IN ('ok','needs_ocr')"},
		{"indexed documents without pages", "SELECT count(*) FROM documents d WHERE d.status IN ('ok','needs_ocr') AND NOT EXISTS (SELECT 1 FROM pages p WHERE p.doc_id = d.id)"},
		{"chunks whose page span is outside their document", "SELECT count(*) FROM chunks c LEFT JOIN " + lastPages + " m ON m.doc_id = c.doc_id WHERE c.page_start < 1 OR c.page_end > m.last"},
	}
	var hasVec int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE name = 'chunks_vec'").Scan(&hasVec); err != nil {
		return nil, err
	}
	if hasVec == 1 {
		counts = append(counts,
			struct{ what, q string }{"chunks without a vector", "SELECT count(*) FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM chunks_vec v WHERE v.chunk_id = c.id)"},
			struct{ what, q string }{"vectors without a chunk", "SELECT count(*) FROM chunks_vec v WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = v.chunk_id)"})
	} else {
		var n int
		if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM chunks").Scan(&n); err != nil {
			return nil, err
		}
		if n > 0 {
			add("%d chunks but no vector table", n)
		}
	}
	for _, c := range tableChecks {
		counts = append(counts, struct{ what, q string }{c.What, c.Query})
	}
	for _, c := range counts {
		var n int
		if err := s.db.QueryRowContext(ctx, c.q).Scan(&n); err != nil {
			return nil, fmt.Errorf("%s: %w", c.what, err)
		}
		if n > 0 {
			add("%d %s", n, c.what)
		}
	}

	// Provenance: every chunk's text must be exactly its span of the document text.
	docs, err := s.Documents(ctx)
	if err != nil {
		return nil, err
	}
	for _, d := range docs {
		if d.Chunks == 0 {
			continue
		}
		pages, err := s.Pages(ctx, d.ID, 0)
		if err != nil {
			return nil, err
		}
		text := DocumentText(pages)
		for i, p := range pages {
			if p.Number != i+1 {
				add("document %d: page %d missing", d.ID, i+1)
				break
			}
			if p.CharStart < 0 || p.CharStart+len(p.Text) > len(text) || text[p.CharStart:p.CharStart+len(p.Text)] != p.Text {
				add("document %d page %d: page offset %d does not match the document text", d.ID, p.Number, p.CharStart)
			}
		}
		crow, err := s.db.QueryContext(ctx, "SELECT ordinal, char_start, char_end, text FROM chunks WHERE doc_id = ? ORDER BY ordinal", d.ID)
		if err != nil {
			return nil, err
		}
		for crow.Next() {
			var ord, a, b int
			var t string
			if err := crow.Scan(&ord, &a, &b, &t); err != nil {
				crow.Close()
				return nil, err
			}
			if a < 0 || b > len(text) || a > b || text[a:b] != t {
				add("document %d chunk %d: char span %d–%d does not match its text", d.ID, ord, a, b)
			}
		}
		crow.Close()
	}
	return problems, nil
}

// lastPages is each document's last page number, read in one scan of pages.
// (A per-row "SELECT max(number) FROM pages WHERE doc_id = ?" seeks pages'
// WITHOUT ROWID b-tree, and every key comparison of that seek reads a whole
// page row, text included: one 64 MB text page made check quadratic.)
const lastPages = "(SELECT doc_id, max(number) AS last FROM pages GROUP BY doc_id)"

// Invariant is one of Cairn's own consistency rules: Query counts the rows
// that break it (0 means it holds); What describes those rows.
type Invariant struct{ What, Query string }

// tableChecks are the invariants of the tables besides documents, pages and
// chunks, which Check verifies after its own: each list stands in the file
// that owns its tables.
var tableChecks = slices.Concat(graphChecks, mindMapChecks)

// DocumentText joins page texts the way chunk char spans address them.
func DocumentText(pages []kb.Page) string {
	parts := make([]string, len(pages))
	for i, p := range pages {
		parts[i] = p.Text
	}
	return strings.Join(parts, kb.PageSeparator)
}

// integrityCheck runs PRAGMA integrity_check on conn and returns its
// findings (none when the database is sound).
//
// FTS5 caches each table's segment structure per connection and refreshes
// it when a statement opens a cursor on the table or writes to it, but not
// when PRAGMA integrity_check calls the table's integrity method (SQLite
// 3.54). A connection that last read an FTS5 table before another connection
// merged its segments would report "corruption found reading blob" for a
// segment that no longer exists, a false alarm (TestIntegrityCheckStaleFTS).
// So each FTS5 table is read once on conn first, which refreshes the cache.
func integrityCheck(ctx context.Context, conn *sql.Conn) ([]string, error) {
	tables, err := queryColumn[string](ctx, conn, "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%USING fts5%'")
	if err != nil {
		return nil, err
	}
	for _, t := range tables {
		var one int
		err := conn.QueryRowContext(ctx, "SELECT 1 FROM "+quoteIdent(t)+" LIMIT 1").Scan(&one)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("read %s before the integrity check: %w", t, err)
		}
	}
	lines, err := queryColumn[string](ctx, conn, "PRAGMA integrity_check")
	if err != nil {
		return nil, err
	}
	var problems []string
	for _, l := range lines {
		if l != "ok" {
			problems = append(problems, l)
		}
	}
	return problems, nil
}

// quoteIdent quotes an SQL identifier.
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}
