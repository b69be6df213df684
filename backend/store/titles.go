package store

import "context"

// ChunksTitled returns the ids of the first chunks (at most perDoc each,
// in document order) of the documents titled exactly name, case folded:
// the passages about a bridge entity that retrieval did not rank.
func (s *Store) ChunksTitled(ctx context.Context, name string, perDoc int) ([]int64, error) {
	rows, err := s.DB.QueryContext(ctx, `SELECT id FROM chunks WHERE doc_id IN (SELECT id FROM documents WHERE title = ? COLLATE NOCASE)
		AND ordinal < ? ORDER BY doc_id, ordinal LIMIT 8`, name, perDoc)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}
