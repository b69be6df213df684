package store

import (
	"context"
	"strings"
)

// ChunksTitled returns, for each of the names, the ids of the first chunks
// (at most perDoc each, in document order) of the documents titled exactly
// that name, case folded: the passages about bridge entities that
// retrieval did not rank. One query for all the names.
func (s *Store) ChunksTitled(ctx context.Context, names []string, perDoc int) (map[string][]int64, error) {
	out := map[string][]int64{}
	if len(names) == 0 {
		return out, nil
	}
	args := make([]any, 0, len(names)+1)
	for _, n := range names {
		args = append(args, n)
	}
	args = append(args, perDoc)
	ph := strings.TrimSuffix(strings.Repeat("?,", len(names)), ",")
	rows, err := s.db.QueryContext(ctx, `SELECT d.title, c.id FROM chunks c JOIN (SELECT id, title FROM documents WHERE title COLLATE NOCASE IN (`+ph+`)) d ON c.doc_id = d.id
		WHERE c.ordinal < ? ORDER BY c.doc_id, c.ordinal`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var title string
		var id int64
		if err := rows.Scan(&title, &id); err != nil {
			return nil, err
		}
		k := strings.ToLower(title)
		if len(out[k]) < 8 {
			out[k] = append(out[k], id)
		}
	}
	return out, rows.Err()
}
