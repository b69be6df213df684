package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"cairn/backend/kb"
)

// Pages awaiting OCR (migration 0017). The "ocr" index stage asks for the
// pending pages (OCRQueue), reads each with tesseract and saves it with
// SaveOCRPage: the page's text, its passages (lexical rows, vectors) and
// its state land in one transaction, and the offsets of everything after
// the page in the document text move by the length the page gained. A page
// that is no longer pending is left alone, so a page redone after a kill
// is stored once.

// OCRJob is one document's pages awaiting OCR, in page order.
type OCRJob struct {
	DocID      int64
	FileName   string
	StoredPath string
	Pages      []int
}

// OCRQueue lists the documents with pages awaiting OCR, oldest first.
func (s *Store) OCRQueue(ctx context.Context) ([]OCRJob, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT p.doc_id, p.number, d.file_name, d.stored_path FROM pages p JOIN documents d ON d.id = p.doc_id
		WHERE p.ocr_status = 'pending' AND d.status IN ('ok','needs_ocr') ORDER BY p.doc_id, p.number`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []OCRJob
	for rows.Next() {
		var id int64
		var n int
		var name, path string
		if err := rows.Scan(&id, &n, &name, &path); err != nil {
			return nil, err
		}
		if len(out) == 0 || out[len(out)-1].DocID != id {
			out = append(out, OCRJob{DocID: id, FileName: name, StoredPath: path})
		}
		out[len(out)-1].Pages = append(out[len(out)-1].Pages, n)
	}
	return out, rows.Err()
}

// OCRPendingPages counts the pages awaiting OCR in the project.
func (s *Store) OCRPendingPages(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM pages p JOIN documents d ON d.id = p.doc_id
		WHERE p.ocr_status = 'pending' AND d.status IN ('ok','needs_ocr')`).Scan(&n)
	return n, err
}

// OCRContext is what indexing a page's OCR text needs to know of its
// document: the title its passages are indexed under and the heading path
// in force where the page begins (the last passage before it).
func (s *Store) OCRContext(ctx context.Context, docID int64, page int) (title string, headingPath []string, err error) {
	if err := s.db.QueryRowContext(ctx, "SELECT title FROM documents WHERE id = ?", docID).Scan(&title); err != nil {
		if err == sql.ErrNoRows {
			return "", nil, fmt.Errorf("document %d: %w", docID, ErrNotFound)
		}
		return "", nil, err
	}
	var hp string
	err = s.db.QueryRowContext(ctx, "SELECT heading_path FROM chunks WHERE doc_id = ? AND page_end < ? ORDER BY ordinal DESC LIMIT 1", docID, page).Scan(&hp)
	if err == sql.ErrNoRows {
		return title, nil, nil
	}
	if err != nil {
		return "", nil, err
	}
	_ = json.Unmarshal([]byte(hp), &headingPath)
	return title, headingPath, nil
}

// OCRPage is the outcome of one page's OCR.
type OCRPage struct {
	Number int
	Status string // kb.OCRDone, kb.OCREmpty or kb.OCRFailed
	Note   string // why it failed
	// Text, Layout and Chunks are the page's new text (OCRDone only), its
	// blocks, and its passages with spans relative to the page text and
	// ordinals from 0; SaveOCRPage places them in the document.
	Text   string
	Layout kb.PageLayout
	Chunks []ChunkRow
	// Doc, when set, is the document's status and warnings once this page
	// is saved (the stage sets it with the document's last pending page).
	Doc *DocOutcome
}

// DocOutcome is a document's status and warnings after its OCR.
type DocOutcome struct {
	Status   kb.DocStatus
	Warnings []string
}

// SaveOCRPage stores one page's OCR outcome in one transaction. A page
// with new text replaces its old text (a scan may carry a few characters,
// a page number) and that text's passages, which lie on the page alone
// (chunk.Split never lets a passage cross into an image-only page); every
// span after the page, in every table that keeps spans of the document
// text, moves by the difference, and the passages after it move down in
// order. saved is false when the page is not awaiting OCR (done by an
// earlier run, or the document is gone): nothing is written then.
func (s *Store) SaveOCRPage(ctx context.Context, docID int64, pg OCRPage) (saved bool, err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	var at int
	var old, status, layout string
	err = tx.QueryRowContext(ctx, "SELECT char_start, text, ocr_status, layout FROM pages WHERE doc_id = ? AND number = ?", docID, pg.Number).Scan(&at, &old, &status, &layout)
	if err == sql.ErrNoRows || err == nil && status != kb.OCRPending {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if pg.Status == kb.OCRDone {
		// The page keeps its size, label and furniture; its blocks are
		// the OCR text's.
		if l, err := decodePageLayout(layout); err == nil {
			l.Blocks = pg.Layout.Blocks
			pg.Layout = l
		}
		if err := replacePageText(ctx, tx, docID, pg, at, len(old)); err != nil {
			return false, fmt.Errorf("page %d: %w", pg.Number, err)
		}
	} else if _, err := tx.ExecContext(ctx, "UPDATE pages SET ocr_status = ?, ocr_note = ? WHERE doc_id = ? AND number = ?", pg.Status, pg.Note, docID, pg.Number); err != nil {
		return false, err
	}
	if d := pg.Doc; d != nil {
		if _, err := tx.ExecContext(ctx, "UPDATE documents SET status = ?, warnings = ?, updated_at = ? WHERE id = ?", d.Status, warningsJSON(d.Warnings), nowText(), docID); err != nil {
			return false, err
		}
	} else if _, err := tx.ExecContext(ctx, "UPDATE documents SET updated_at = ? WHERE id = ?", nowText(), docID); err != nil {
		return false, err
	}
	return true, tx.Commit()
}

// replacePageText puts pg's text and passages in place of page pg.Number's
// old text (oldLen bytes from at) and its passages.
func replacePageText(ctx context.Context, tx *sql.Tx, docID int64, pg OCRPage, at, oldLen int) error {
	// The page's own passages go, with their words' document frequencies.
	var oldIDs []int64
	var base int
	if err := tx.QueryRowContext(ctx, "SELECT COALESCE(max(ordinal) + 1, 0) FROM chunks WHERE doc_id = ? AND char_end <= ? AND page_end < ?", docID, at, pg.Number).Scan(&base); err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, "SELECT id, page_start, page_end, char_start, char_end FROM chunks WHERE doc_id = ? AND char_end >= ? AND char_start <= ?", docID, at, at+oldLen)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id int64
		var ps, pe, cs, ce int
		if err := rows.Scan(&id, &ps, &pe, &cs, &ce); err != nil {
			rows.Close()
			return err
		}
		if ps != pg.Number || pe != pg.Number {
			if ce == at && pe < pg.Number || cs == at+oldLen && ps > pg.Number {
				continue // touches the page's edge from a neighbour (an empty page)
			}
			rows.Close()
			return fmt.Errorf("passage %d spans pages %d–%d across the page awaiting OCR", id, ps, pe)
		}
		oldIDs = append(oldIDs, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	var title string
	if err := tx.QueryRowContext(ctx, "SELECT title FROM documents WHERE id = ?", docID).Scan(&title); err != nil {
		return err
	}
	df := map[string]int{}
	for _, id := range oldIDs {
		if err := storedTerms(ctx, tx, df, "SELECT d.title, c.heading_path, c.table_header, c.text FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE c.id = ?", id); err != nil {
			return err
		}
	}
	for _, id := range oldIDs {
		if _, err := tx.ExecContext(ctx, "DELETE FROM chunks WHERE id = ?", id); err != nil {
			return err
		}
	}
	// Everything after the page moves by the bytes the page gained.
	delta := len(pg.Text) - oldLen
	if delta != 0 {
		tables, err := spanTables(ctx, tx)
		if err != nil {
			return err
		}
		for _, t := range tables {
			if _, err := tx.ExecContext(ctx, "UPDATE "+t+" SET char_start = char_start + ?, char_end = char_end + ? WHERE doc_id = ? AND char_start > ?", delta, delta, docID, at+oldLen); err != nil {
				return fmt.Errorf("move spans in %s: %w", t, err)
			}
		}
		if _, err := tx.ExecContext(ctx, "UPDATE pages SET char_start = char_start + ? WHERE doc_id = ? AND number > ?", delta, docID, pg.Number); err != nil {
			return err
		}
	}
	// The passages after the page move down by the passages it gained;
	// through negative ordinals, since UNIQUE (doc_id, ordinal) is checked
	// row by row.
	if shift := len(pg.Chunks) - len(oldIDs); shift != 0 {
		if _, err := tx.ExecContext(ctx, "UPDATE chunks SET ordinal = -(ordinal + ?) - 1 WHERE doc_id = ? AND ordinal >= ?", shift, docID, base); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE chunks SET ordinal = -ordinal - 1 WHERE doc_id = ? AND ordinal < 0", docID); err != nil {
			return err
		}
	}
	chunks := make([]ChunkRow, len(pg.Chunks))
	for i, ch := range pg.Chunks {
		ch.Ordinal = base + i
		ch.PageStart, ch.PageEnd = pg.Number, pg.Number
		ch.CharStart += at
		ch.CharEnd += at
		chunks[i] = ch
		for _, t := range ch.terms(title) {
			df[t]++
		}
	}
	if err := insertChunks(ctx, tx, docID, title, chunks, 0); err != nil {
		return err
	}
	if err := addTermDF(ctx, tx, df); err != nil {
		return err
	}
	layout, err := encodePageLayout(pg.Layout)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE pages SET text = ?, no_text = 0, ocr = 1, layout = ?, ocr_status = ?, ocr_note = ? WHERE doc_id = ? AND number = ?",
		pg.Text, layout, kb.OCRDone, pg.Note, docID, pg.Number); err != nil {
		return err
	}
	// The document's mind map is drawn again with the new passages.
	_, err = tx.ExecContext(ctx, "DELETE FROM mind_maps WHERE doc_id = ?", docID)
	return err
}

// spanTables names the tables that keep spans of a document's text: every
// ordinary table with doc_id, char_start and char_end columns (chunks, and
// the graph's and mind maps' rows that point into the text), found in the
// schema so that a table added later moves too.
func spanTables(ctx context.Context, tx *sql.Tx) ([]string, error) {
	names, err := queryColumn[string](ctx, tx, "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range names {
		cols, err := queryColumn[string](ctx, tx, "SELECT name FROM pragma_table_info(?)", n)
		if err != nil {
			return nil, err
		}
		have := map[string]bool{}
		for _, c := range cols {
			have[c] = true
		}
		if have["doc_id"] && have["char_start"] && have["char_end"] {
			out = append(out, `"`+n+`"`)
		}
	}
	return out, nil
}

// RetryFailedOCR puts the pages whose OCR failed back in the queue and
// returns how many.
func (s *Store) RetryFailedOCR(ctx context.Context) (int, error) {
	res, err := s.db.ExecContext(ctx, "UPDATE pages SET ocr_status = 'pending', ocr_note = '' WHERE ocr_status = 'failed'")
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}
