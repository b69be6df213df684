package store

import (
	"context"

	"cairn/backend/kb"
)

// PendingDocuments lists the documents still marked pending: their stored
// copy is in place but reading them did not finish (an import killed or
// interrupted while it read them). Called with the import lock held, none
// of them is being read by a live import.
func (s *Store) PendingDocuments(ctx context.Context) ([]kb.Document, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+docColumns+" FROM documents d WHERE d.status = ? ORDER BY d.id", kb.StatusPending)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []kb.Document
	for rows.Next() {
		d, err := scanDoc(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}
