package store

import (
	"context"
	"fmt"
)

// Extraction attempts (migration 0013): how often a chunk's extraction
// with a model has failed, so retries can change what they send and stop
// after a few attempts instead of repeating an identical failing call on
// every run.

// Attempt is a chunk's failed extraction attempts with one model.
type Attempt struct {
	ChunkID  int64  `json:"chunk_id"`
	Attempts int    `json:"attempts"`
	Kind     string `json:"kind"`
	Reason   string `json:"reason"`
}

// ExtractionAttempts returns the failed attempts recorded for model, by
// chunk id.
func (s *Store) ExtractionAttempts(ctx context.Context, model string) (map[int64]Attempt, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT chunk_id, attempts, kind, reason FROM extraction_attempts WHERE model = ?`, model)
	if err != nil {
		return nil, fmt.Errorf("extraction attempts: %w", err)
	}
	defer rows.Close()
	out := map[int64]Attempt{}
	for rows.Next() {
		var a Attempt
		if err := rows.Scan(&a.ChunkID, &a.Attempts, &a.Kind, &a.Reason); err != nil {
			return nil, err
		}
		out[a.ChunkID] = a
	}
	return out, rows.Err()
}

// RecordAttempt counts one failed extraction of chunkID with model.
func (s *Store) RecordAttempt(ctx context.Context, chunkID int64, model, kind, reason string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO extraction_attempts(chunk_id, model, attempts, kind, reason, updated_at)
		SELECT ?, ?, 1, ?, ?, ? WHERE EXISTS (SELECT 1 FROM chunks WHERE id = ?)
		ON CONFLICT(chunk_id, model) DO UPDATE SET attempts = attempts + 1, kind = excluded.kind, reason = excluded.reason, updated_at = excluded.updated_at`,
		chunkID, model, kind, reason, nowText(), chunkID)
	if err != nil {
		return fmt.Errorf("record attempt of chunk %d: %w", chunkID, err)
	}
	return nil
}

// ClearAttempt forgets chunkID's failed attempts with model (it succeeded).
func (s *Store) ClearAttempt(ctx context.Context, chunkID int64, model string) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM extraction_attempts WHERE chunk_id = ? AND model = ?`, chunkID, model)
	return err
}

// ResetAttempts forgets the failed attempts with model ("" for every
// model), so the next run tries those chunks again; it returns how many
// chunks it released.
func (s *Store) ResetAttempts(ctx context.Context, model string) (int, error) {
	q, args := `DELETE FROM extraction_attempts`, []any{}
	if model != "" {
		q, args = q+` WHERE model = ?`, append(args, model)
	}
	res, err := s.db.ExecContext(ctx, q, args...)
	if err != nil {
		return 0, fmt.Errorf("reset attempts: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}
