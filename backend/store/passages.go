package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"cairn/backend/kb"
)

// ErrNoChunk is returned for a passage id that does not exist.
var ErrNoChunk = errors.New("no such passage")

// ChunksAround returns the passage chunkID with up to before passages
// preceding it and after passages following it in the same document, in
// document order, with their document titles. ErrNoChunk (wrapped) when
// chunkID does not exist.
func (s *Store) ChunksAround(ctx context.Context, chunkID int64, before, after int) ([]kb.Hit, error) {
	var docID int64
	var ordinal int
	err := s.db.QueryRowContext(ctx, "SELECT doc_id, ordinal FROM chunks WHERE id = ?", chunkID).Scan(&docID, &ordinal)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("passage %d: %w", chunkID, ErrNoChunk)
	}
	if err != nil {
		return nil, err
	}
	return s.mindChunkRows(ctx, "WHERE c.doc_id = ? AND c.ordinal BETWEEN ? AND ? ORDER BY c.ordinal",
		docID, ordinal-max(before, 0), ordinal+max(after, 0))
}
