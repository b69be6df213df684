package store

import (
	"context"
	"database/sql"
	"fmt"

	"cairn/backend/kb"
)

// SnapshotDocuments lists the documents of a database snapshot (Snapshot's
// output) without changing it: opened read-only and immutable, so its
// journal mode and bytes stay what the backup will hold. A backup's stored
// copies are chosen from these rows, the ones the snapshot will restore.
func SnapshotDocuments(ctx context.Context, path string) ([]kb.Document, error) {
	dsn, err := connStringMode(path, true, true)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	docs, err := queryDocs(ctx, db, "", nil)
	if err != nil {
		return nil, fmt.Errorf("read the snapshot's documents: %w", err)
	}
	return docs, nil
}
