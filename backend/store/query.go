package store

import (
	"context"
	"database/sql"
	"strings"

	"cairn/backend/kb"
)

// Small query helpers shared by the store's files.

// placeholders is "?,?,…" with n marks, for IN (…) lists.
func placeholders(n int) string { return strings.TrimSuffix(strings.Repeat("?,", n), ",") }

// int64Args turns ids into query arguments.
func int64Args(ids []int64) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

// queryInt64s runs a query whose rows are one integer each.
func (s *Store) queryInt64s(ctx context.Context, q string, args ...any) ([]int64, error) {
	return queryColumn[int64](ctx, s.db, q, args...)
}

// querier is what runs a query: the pool, one connection or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// queryColumn runs a query whose rows are one value each.
func queryColumn[T any](ctx context.Context, db querier, q string, args ...any) ([]T, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// scanSources reads mutual-index rows — (owner id, doc, chunk, page start,
// page end, char start, char end) — handing each to add, and closes rows.
func scanSources(rows *sql.Rows, add func(owner int64, src kb.Source)) error {
	defer rows.Close()
	for rows.Next() {
		var id int64
		var src kb.Source
		if err := rows.Scan(&id, &src.DocID, &src.ChunkID, &src.PageStart, &src.PageEnd, &src.CharStart, &src.CharEnd); err != nil {
			return err
		}
		add(id, src)
	}
	return rows.Err()
}
