package store

import (
	"context"

	"cairn/backend/kb"
)

// OutdatedDocs lists the documents of the given kinds whose content was
// produced by a reader older than kb.ReaderVersion and that can be read
// again (ok or needs_ocr), oldest first.
func (s *Store) OutdatedDocs(ctx context.Context, kinds ...string) ([]int64, error) {
	var out []int64
	for _, k := range kinds {
		ids, err := s.queryInt64s(ctx, `SELECT id FROM documents WHERE kind = ? AND reader < ? AND status IN ('ok','needs_ocr') ORDER BY id`, k, kb.ReaderVersion)
		if err != nil {
			return nil, err
		}
		out = append(out, ids...)
	}
	return out, nil
}
