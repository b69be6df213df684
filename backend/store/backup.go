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
	rows, err := db.QueryContext(ctx, "SELECT "+docColumns+" FROM documents d ORDER BY d.id")
	if err != nil {
		return nil, fmt.Errorf("read the snapshot's documents: %w", err)
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
