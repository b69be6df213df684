package store

// Whole-database reads and copies for backup, evaluation, benchmarks and
// tests: what they used to ask SQLite directly.

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"cairn/backend/vecindex"
)

// Snapshot writes a consistent copy of the database to dst (SQLite's VACUUM
// INTO: safe while other connections write).
func (s *Store) Snapshot(ctx context.Context, dst string) error {
	_, err := s.db.ExecContext(ctx, "VACUUM INTO ?", dst)
	return err
}

// DocumentFileNames maps every document id to its file name.
func (s *Store) DocumentFileNames(ctx context.Context) (map[int64]string, error) {
	return idNames(ctx, s.db, "SELECT id, file_name FROM documents")
}

// ChunkFileNames maps every chunk id to its document's file name (the
// evaluation projects name each passage's document after the passage).
func (s *Store) ChunkFileNames(ctx context.Context) (map[int64]string, error) {
	return idNames(ctx, s.db, "SELECT c.id, d.file_name FROM chunks c JOIN documents d ON d.id = c.doc_id")
}

func idNames(ctx context.Context, db *sql.DB, q string) (map[int64]string, error) {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var n string
		if err := rows.Scan(&id, &n); err != nil {
			return nil, err
		}
		out[id] = n
	}
	return out, rows.Err()
}

// ChunkTokens is the sum of the chunks' token counts.
func (s *Store) ChunkTokens(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT coalesce(sum(tokens), 0) FROM chunks").Scan(&n)
	return n, err
}

// ChunkTexts calls fn with every chunk's text, in id order.
func (s *Store) ChunkTexts(ctx context.Context, fn func(text string) error) error {
	rows, err := s.db.QueryContext(ctx, "SELECT text FROM chunks ORDER BY id")
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return err
		}
		if err := fn(t); err != nil {
			return err
		}
	}
	return rows.Err()
}

// ChunkVectors calls fn with every stored chunk vector.
func (s *Store) ChunkVectors(ctx context.Context, fn func(chunkID int64, v []float32) error) error {
	rows, err := s.db.QueryContext(ctx, "SELECT chunk_id, embedding FROM chunks_vec")
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var b []byte
		if err := rows.Scan(&id, &b); err != nil {
			return err
		}
		v, err := vecindex.Decode(b)
		if err != nil {
			return fmt.Errorf("chunk %d: %w", id, err)
		}
		if err := fn(id, v); err != nil {
			return err
		}
	}
	return rows.Err()
}

// EntityCount is the number of knowledge-graph entities.
func (s *Store) EntityCount(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM entities").Scan(&n)
	return n, err
}

// ExtractedChunks is the number of chunks with an extraction status (done,
// whatever the outcome).
func (s *Store) ExtractedChunks(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM chunk_extractions").Scan(&n)
	return n, err
}

// TableBytes is the bytes of database pages each table and index uses
// (SQLite's dbstat), by name.
func (s *Store) TableBytes(ctx context.Context) (map[string]int64, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT name, sum(pgsize) FROM dbstat GROUP BY name")
	if err != nil {
		return nil, fmt.Errorf("dbstat: %w", err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var name string
		var n int64
		if err := rows.Scan(&name, &n); err != nil {
			return nil, err
		}
		out[name] = n
	}
	return out, rows.Err()
}

// Fingerprint describes the database's content independently of row ids
// and timestamps: for every table, its row count and a hash of its sorted
// rows' TEXT columns (except *_at), so documents, chunks, pages, entities,
// relations, mind-map nodes, ... are all compared by content. Shadow tables
// of virtual tables are left out.
func (s *Store) Fingerprint(ctx context.Context) (string, error) {
	var tables []string
	rows, err := s.db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		return "", err
	}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return "", err
		}
		tables = append(tables, n)
	}
	rows.Close()
	var out []string
	for _, tb := range tables {
		if strings.Contains(tb, "_fts_") || strings.Contains(tb, "_vec_") {
			continue
		}
		var n int
		if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM "`+tb+`"`).Scan(&n); err != nil {
			return "", fmt.Errorf("%s: %w", tb, err)
		}
		line := fmt.Sprintf("%s: %d rows", tb, n)
		cols, err := s.textColumns(ctx, tb)
		if err != nil {
			return "", err
		}
		if len(cols) > 0 && tb != "meta" {
			h, err := s.hashRows(ctx, tb, cols)
			if err != nil {
				return "", err
			}
			line += " " + h
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n"), nil
}

func (s *Store) textColumns(ctx context.Context, table string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, type FROM pragma_table_info(?)`, table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var name, typ string
		if err := rows.Scan(&name, &typ); err != nil {
			return nil, err
		}
		if strings.EqualFold(typ, "TEXT") && !strings.HasSuffix(name, "_at") {
			cols = append(cols, `"`+name+`"`)
		}
	}
	return cols, rows.Err()
}

func (s *Store) hashRows(ctx context.Context, table string, cols []string) (string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+strings.Join(cols, ", ")+` FROM "`+table+`"`)
	if err != nil {
		return "", fmt.Errorf("%s: %w", table, err)
	}
	defer rows.Close()
	var lines []string
	vals := make([]sql.NullString, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return "", err
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = v.String
		}
		lines = append(lines, strings.Join(parts, "\x1f"))
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	sort.Strings(lines)
	h := sha256.Sum256([]byte(strings.Join(lines, "\x1e")))
	return hex.EncodeToString(h[:8]), nil
}
