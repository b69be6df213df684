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
	return queryDocs(ctx, s.db, "d.status = ?", []any{kb.StatusPending})
}
