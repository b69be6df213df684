package store

import (
	"context"
	"fmt"
	"strings"

	"cairn/backend/kb"
)

// IdentitySource is what the identity of one document is decided from (see
// backend/identity): its file name, metadata title and first pages.
type IdentitySource struct {
	ID        int64
	FileName  string
	MetaTitle string
	// ReaderTitle is the title the reader chose at import (metadata
	// title, first heading or file name), which the passages are indexed
	// under.
	ReaderTitle string
	Pages       []kb.Page
}

// DocIdentity is a decided identity to store.
type DocIdentity struct {
	Title, Organisation, DocType, Period string
}

// IdentitySources loads, for every document read from a stored file (not
// the evaluation sets' passages, which have none), its file name, metadata
// title and its first `pages` pages.
func (s *Store) IdentitySources(ctx context.Context, pages int) ([]IdentitySource, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, file_name, meta_title, title FROM documents
		WHERE stored_path <> '' AND status IN ('ok','needs_ocr') ORDER BY id`)
	if err != nil {
		return nil, err
	}
	var out []IdentitySource
	for rows.Next() {
		var d IdentitySource
		if err := rows.Scan(&d.ID, &d.FileName, &d.MetaTitle, &d.ReaderTitle); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		for n := 1; n <= pages; n++ {
			pg, err := s.Pages(ctx, out[i].ID, n)
			if err != nil {
				return nil, err
			}
			out[i].Pages = append(out[i].Pages, pg...)
		}
	}
	return out, nil
}

// SetIdentities stores decided identities, in one transaction, leaving
// documents whose identity the user edited as they are.
func (s *Store) SetIdentities(ctx context.Context, ids map[int64]DocIdentity) error {
	if len(ids) == 0 {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	up, err := tx.PrepareContext(ctx, `UPDATE documents SET display_title = ?, organisation = ?, doc_type = ?, period = ?
		WHERE id = ? AND identity_user = 0`)
	if err != nil {
		return err
	}
	defer up.Close()
	for id, d := range ids {
		if _, err := up.ExecContext(ctx, d.Title, d.Organisation, d.DocType, d.Period, id); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// EditIdentity stores the user's title and fields for a document; later
// recomputations leave them alone. A blank title is refused; blank fields
// are stored blank.
func (s *Store) EditIdentity(ctx context.Context, id int64, d DocIdentity) error {
	d.Title = strings.TrimSpace(d.Title)
	if d.Title == "" {
		return fmt.Errorf("a document's title cannot be empty")
	}
	res, err := s.db.ExecContext(ctx, `UPDATE documents SET display_title = ?, organisation = ?, doc_type = ?, period = ?, identity_user = 1, updated_at = ?
		WHERE id = ?`, d.Title, strings.TrimSpace(d.Organisation), strings.TrimSpace(d.DocType), strings.TrimSpace(d.Period), nowText(), id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("document %d: %w", id, ErrNotFound)
	}
	return nil
}

// ResetIdentity hands a document's identity back to the library's
// recomputation.
func (s *Store) ResetIdentity(ctx context.Context, id int64) error {
	_, err := s.db.ExecContext(ctx, `UPDATE documents SET identity_user = 0 WHERE id = ?`, id)
	return err
}

// DocChunkIDs lists the chunk ids of the given documents.
func (s *Store) DocChunkIDs(ctx context.Context, docs []int64) ([]int64, error) {
	if len(docs) == 0 {
		return nil, nil
	}
	ph, args := inList(docs)
	return s.queryInt64s(ctx, `SELECT id FROM chunks WHERE doc_id IN (`+ph+`) ORDER BY id`, args...)
}

// inList is a SQL placeholder list and its arguments.
func inList(ids []int64) (string, []any) {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return strings.TrimSuffix(strings.Repeat("?,", len(ids)), ","), args
}
