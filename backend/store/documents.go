package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"cairn/backend/embed"
	"cairn/backend/kb"
	"cairn/backend/vecindex"
)

// ErrNotFound is returned for an unknown document.
var ErrNotFound = errors.New("no such document")

const docColumns = `d.id, ` + shownTitle + `, d.file_name, d.stored_path, d.kind, d.hash, d.bytes, d.status, d.error, d.error_code, d.warnings, d.imported_at,
	(SELECT count(*) FROM pages p WHERE p.doc_id = d.id), (SELECT count(*) FROM chunks c WHERE c.doc_id = d.id),
	d.organisation, d.doc_type, d.period, d.identity_user`

// shownTitle is the title a document is shown under: its identity's
// (backend/identity, or the user's) when decided, else the title its
// passages were indexed under.
const shownTitle = `COALESCE(NULLIF(d.display_title, ''), d.title)`

func scanDoc(sc interface{ Scan(...any) error }) (kb.Document, error) {
	var d kb.Document
	var warnings, imported string
	err := sc.Scan(&d.ID, &d.Title, &d.FileName, &d.StoredPath, &d.Kind, &d.Hash, &d.Bytes, &d.Status, &d.Error, &d.ErrorCode, &warnings, &imported, &d.Pages, &d.Chunks,
		&d.Organisation, &d.DocType, &d.Period, &d.IdentityEdited)
	if err != nil {
		return d, err
	}
	_ = json.Unmarshal([]byte(warnings), &d.Warnings)
	d.ImportedAt, _ = time.Parse(time.RFC3339, imported)
	return d, nil
}

// Documents lists all documents, oldest first, with page and chunk counts.
func (s *Store) Documents(ctx context.Context) ([]kb.Document, error) {
	return queryDocs(ctx, s.db, "", nil)
}

// queryDocs lists the documents of db matching where (a condition on
// documents d, "" for all), oldest first.
func queryDocs(ctx context.Context, db interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, where string, args []any) ([]kb.Document, error) {
	if where != "" {
		where = " WHERE " + where
	}
	rows, err := db.QueryContext(ctx, "SELECT "+docColumns+" FROM documents d"+where+" ORDER BY d.id", args...)
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

// Document returns one document.
func (s *Store) Document(ctx context.Context, id int64) (kb.Document, error) {
	d, err := scanDoc(s.db.QueryRowContext(ctx, "SELECT "+docColumns+" FROM documents d WHERE d.id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return d, fmt.Errorf("document %d: %w", id, ErrNotFound)
	}
	return d, err
}

// DocumentByHash finds a document by content hash (ok=false if none).
func (s *Store) DocumentByHash(ctx context.Context, hash string) (kb.Document, bool, error) {
	d, err := scanDoc(s.db.QueryRowContext(ctx, "SELECT "+docColumns+" FROM documents d WHERE d.hash = ?", hash))
	if errors.Is(err, sql.ErrNoRows) {
		return d, false, nil
	}
	return d, err == nil, err
}

func nowText() string { return time.Now().UTC().Format(time.RFC3339) }

func warningsJSON(w []string) string {
	if len(w) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(w)
	return string(b)
}

// AddDocument records a new document (status pending unless set) and returns its id.
func (s *Store) AddDocument(ctx context.Context, d kb.Document) (int64, error) {
	if d.Status == "" {
		d.Status = kb.StatusPending
	}
	now := nowText()
	res, err := s.db.ExecContext(ctx, `INSERT INTO documents(title, file_name, stored_path, kind, hash, bytes, status, error, error_code, warnings, imported_at, updated_at)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		d.Title, d.FileName, d.StoredPath, d.Kind, d.Hash, d.Bytes, d.Status, d.Error, d.ErrorCode, warningsJSON(d.Warnings), now, now)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

// SetStatus records a document's outcome without content (failures, or
// status changes such as needs_password).
func (s *Store) SetStatus(ctx context.Context, id int64, st kb.DocStatus, code, msg string, warnings []string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE documents SET status = ?, error_code = ?, error = ?, warnings = ?, updated_at = ? WHERE id = ?",
		st, code, msg, warningsJSON(warnings), nowText(), id)
	return err
}

// Content is everything indexed for one document.
type Content struct {
	Title     string
	MetaTitle string // the file's metadata title ("" when none)
	Kind      string
	Status    kb.DocStatus // ok or needs_ocr
	Warnings  []string
	Pages     []kb.Page
	Chunks    []ChunkRow
}

// ChunkRow is a chunk with its index rows: the lexical row, the vector and
// the distinct words counted for document frequencies.
type ChunkRow struct {
	kb.Chunk
	FTS    FTSRow
	Vector []float32
	// Terms are the chunk's words as embed.ChunkWords gives them under the
	// document's title (search.ChunkRows sets them so); nil: the store
	// computes them. The store counts a chunk's words into the document
	// frequencies when it saves the chunk and computes them again, from the
	// stored chunk, when it removes or replaces it, so Terms other than
	// ChunkWords' would leave counts behind.
	Terms []string
}

// terms are the words ch adds to the document frequencies.
func (ch ChunkRow) terms(docTitle string) []string {
	if ch.Terms != nil {
		return ch.Terms
	}
	return embed.ChunkWords(docTitle, ch.Chunk)
}

// storedTerms counts the words of stored chunks (negatively) into into:
// the chunks are the rows of q (document title, heading path, table
// header, text).
func storedTerms(ctx context.Context, tx *sql.Tx, into map[string]int, q string, args ...any) error {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var title, hp string
		var c kb.Chunk
		if err := rows.Scan(&title, &hp, &c.TableHeader, &c.Text); err != nil {
			return err
		}
		_ = json.Unmarshal([]byte(hp), &c.HeadingPath)
		for _, t := range embed.ChunkWords(title, c) {
			into[t]--
		}
	}
	return rows.Err()
}

func addTermDF(ctx context.Context, tx *sql.Tx, terms map[string]int) error {
	if len(terms) == 0 {
		return nil
	}
	up, err := tx.PrepareContext(ctx, "INSERT INTO term_df(term, df) VALUES(?, ?) ON CONFLICT(term) DO UPDATE SET df = max(0, df + excluded.df)")
	if err != nil {
		return err
	}
	defer up.Close()
	del, err := tx.PrepareContext(ctx, "DELETE FROM term_df WHERE term = ? AND df <= 0")
	if err != nil {
		return err
	}
	defer del.Close()
	for t, n := range terms {
		if n == 0 {
			continue
		}
		if _, err := up.ExecContext(ctx, t, n); err != nil {
			return err
		}
		if n < 0 {
			if _, err := del.ExecContext(ctx, t); err != nil {
				return err
			}
		}
	}
	return nil
}

// removedTerms counts the words of a document's stored chunks (negatively).
func removedTerms(ctx context.Context, tx *sql.Tx, docID int64, into map[string]int) error {
	return storedTerms(ctx, tx, into, `SELECT d.title, c.heading_path, c.table_header, c.text FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE c.doc_id = ?`, docID)
}

// TermDF returns the document frequencies of terms and the number of chunks.
func (s *Store) TermDF(ctx context.Context, terms []string) (map[string]int, int, error) {
	out := map[string]int{}
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM chunks").Scan(&n); err != nil {
		return nil, 0, err
	}
	for len(terms) > 0 {
		batch := terms[:min(len(terms), 500)]
		terms = terms[len(batch):]
		args := make([]any, len(batch))
		for i, t := range batch {
			args[i] = t
		}
		rows, err := s.db.QueryContext(ctx, "SELECT term, df FROM term_df WHERE term IN ("+strings.TrimSuffix(strings.Repeat("?,", len(batch)), ",")+")", args...)
		if err != nil {
			return nil, 0, err
		}
		for rows.Next() {
			var t string
			var df int
			if err := rows.Scan(&t, &df); err != nil {
				rows.Close()
				return nil, 0, err
			}
			out[t] = df
		}
		rows.Close()
	}
	return out, n, nil
}

// SaveContent replaces a document's pages, chunks, lexical rows and vectors
// in one transaction and sets its status: either all of it lands or none.
// The vector table must exist (EnsureVectors). The document frequencies
// lose the words of the chunks replaced (the store recomputes a stored
// chunk's words itself) and gain those of the new ones.
func (s *Store) SaveContent(ctx context.Context, docID int64, c Content) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	df := map[string]int{}
	if err := removedTerms(ctx, tx, docID, df); err != nil {
		return err
	}
	for _, ch := range c.Chunks {
		for _, t := range ch.terms(c.Title) {
			df[t]++
		}
	}
	if err := addTermDF(ctx, tx, df); err != nil {
		return err
	}
	for _, q := range []string{"DELETE FROM chunks WHERE doc_id = ?", "DELETE FROM pages WHERE doc_id = ?"} {
		if _, err := tx.ExecContext(ctx, q, docID); err != nil {
			return err
		}
	}
	insPage, err := tx.PrepareContext(ctx, "INSERT INTO pages(doc_id, number, char_start, text, no_text, ocr, layout, ocr_status, ocr_note) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)")
	if err != nil {
		return err
	}
	defer insPage.Close()
	for _, p := range c.Pages {
		layout, err := encodePageLayout(p.PageLayout)
		if err != nil {
			return fmt.Errorf("save page %d: %w", p.Number, err)
		}
		if _, err := insPage.ExecContext(ctx, docID, p.Number, p.CharStart, p.Text, p.NoText, p.OCR, layout, p.OCRStatus, p.OCRNote); err != nil {
			return fmt.Errorf("save page %d: %w", p.Number, err)
		}
	}
	firstOrdinal := 0
	for i, ch := range c.Chunks {
		if i == 0 || ch.Ordinal < firstOrdinal {
			firstOrdinal = ch.Ordinal
		}
	}
	if err := insertChunks(ctx, tx, docID, c.Title, c.Chunks, firstOrdinal); err != nil {
		return err
	}
	st := c.Status
	if st == "" {
		st = kb.StatusOK
	}
	if _, err := tx.ExecContext(ctx, "UPDATE documents SET reader = ? WHERE id = ?", kb.ReaderVersion, docID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE documents SET title = ?, meta_title = ?, kind = ?, status = ?, error = '', error_code = '', warnings = ?, updated_at = ? WHERE id = ?",
		c.Title, c.MetaTitle, c.Kind, st, warningsJSON(c.Warnings), nowText(), docID); err != nil {
		return err
	}
	return tx.Commit()
}

// insertChunks inserts chunks of a document with their lexical rows,
// vectors and topic keys; the chunk whose ordinal is firstOrdinal is the
// document's first (it carries the title's topic keys).
func insertChunks(ctx context.Context, tx *sql.Tx, docID int64, title string, chunks []ChunkRow, firstOrdinal int) error {
	insChunk, err := tx.PrepareContext(ctx, `INSERT INTO chunks(doc_id, ordinal, page_start, page_end, char_start, char_end, heading_path, table_header, text, tokens)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer insChunk.Close()
	insFTS, err := tx.PrepareContext(ctx, insertChunkFTS)
	if err != nil {
		return err
	}
	defer insFTS.Close()
	insVec, err := tx.PrepareContext(ctx, "INSERT INTO chunks_vec(chunk_id, embedding) VALUES(?, ?)")
	if err != nil {
		return err
	}
	defer insVec.Close()
	insTopic, err := tx.PrepareContext(ctx, "INSERT OR IGNORE INTO topic_keys(key, chunk_id) VALUES(?, ?)")
	if err != nil {
		return err
	}
	defer insTopic.Close()
	for _, ch := range chunks {
		hp, _ := json.Marshal(ch.HeadingPath)
		if ch.HeadingPath == nil {
			hp = []byte("[]")
		}
		res, err := insChunk.ExecContext(ctx, docID, ch.Ordinal, ch.PageStart, ch.PageEnd, ch.CharStart, ch.CharEnd, string(hp), ch.TableHeader, ch.Text, ch.Tokens)
		if err != nil {
			return fmt.Errorf("save chunk %d: %w", ch.Ordinal, err)
		}
		id, err := res.LastInsertId()
		if err != nil {
			return err
		}
		f := ch.FTS
		if _, err := insFTS.ExecContext(ctx, id, f.Title, f.Heading, f.Body, f.CJK); err != nil {
			return fmt.Errorf("index chunk %d: %w", ch.Ordinal, err)
		}
		if _, err := insVec.ExecContext(ctx, id, vecindex.EncodeDense(ch.Vector)); err != nil {
			return fmt.Errorf("embed chunk %d: %w", ch.Ordinal, err)
		}
		for _, k := range topicKeys(title, ch.Ordinal == firstOrdinal, ch.HeadingPath) {
			if _, err := insTopic.ExecContext(ctx, k, id); err != nil {
				return fmt.Errorf("topic keys of chunk %d: %w", ch.Ordinal, err)
			}
		}
	}
	return nil
}

// RemoveDocuments deletes documents and everything derived from them (pages,
// chunks, lexical rows and vectors, via cascades and triggers) in one
// transaction; the document frequencies lose their chunks' words. Unknown
// ids fail the whole call.
func (s *Store) RemoveDocuments(ctx context.Context, ids ...int64) ([]kb.Document, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	df := map[string]int{}
	var removed []kb.Document
	for _, id := range ids {
		d, err := scanDoc(tx.QueryRowContext(ctx, "SELECT "+docColumns+" FROM documents d WHERE d.id = ?", id))
		if errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("document %d: %w", id, ErrNotFound)
		}
		if err != nil {
			return nil, err
		}
		if err := removedTerms(ctx, tx, id, df); err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM chunks WHERE doc_id = ?", id); err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM documents WHERE id = ?", id); err != nil {
			return nil, err
		}
		removed = append(removed, d)
	}
	if err := addTermDF(ctx, tx, df); err != nil {
		return nil, err
	}
	return removed, tx.Commit()
}

// Pages returns a document's pages in order (only page n when n > 0).
func (s *Store) Pages(ctx context.Context, docID int64, n int) ([]kb.Page, error) {
	q := "SELECT doc_id, number, char_start, text, no_text, ocr, layout, ocr_status, ocr_note FROM pages WHERE doc_id = ?"
	args := []any{docID}
	if n > 0 {
		q += " AND number = ?"
		args = append(args, n)
	}
	rows, err := s.db.QueryContext(ctx, q+" ORDER BY number", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []kb.Page
	for rows.Next() {
		var p kb.Page
		var layout string
		if err := rows.Scan(&p.DocID, &p.Number, &p.CharStart, &p.Text, &p.NoText, &p.OCR, &layout, &p.OCRStatus, &p.OCRNote); err != nil {
			return nil, err
		}
		if p.PageLayout, err = decodePageLayout(layout); err != nil {
			return nil, fmt.Errorf("page %d of document %d: %w", p.Number, p.DocID, err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// ChunkHits loads chunks by id, with their document titles, in the order given.
func (s *Store) ChunkHits(ctx context.Context, ids []int64) ([]kb.Hit, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	ph := strings.TrimSuffix(strings.Repeat("?,", len(ids)), ",")
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := s.db.QueryContext(ctx, `SELECT c.id, c.doc_id, c.ordinal, c.page_start, c.page_end, c.char_start, c.char_end, c.heading_path, c.table_header, c.text, c.tokens, `+shownTitle+`, d.title
		FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE c.id IN (`+ph+`)`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	byID := map[int64]kb.Hit{}
	for rows.Next() {
		var h kb.Hit
		var hp string
		if err := rows.Scan(&h.ID, &h.DocID, &h.Ordinal, &h.PageStart, &h.PageEnd, &h.CharStart, &h.CharEnd, &hp, &h.TableHeader, &h.Text, &h.Tokens, &h.DocTitle, &h.IndexTitle); err != nil {
			return nil, err
		}
		_ = json.Unmarshal([]byte(hp), &h.HeadingPath)
		byID[h.ID] = h
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]kb.Hit, 0, len(ids))
	for _, id := range ids {
		if h, ok := byID[id]; ok {
			out = append(out, h)
		}
	}
	return out, nil
}

// Counts returns the number of documents and chunks.
func (s *Store) Counts(ctx context.Context) (docs, chunks int, err error) {
	err = s.db.QueryRowContext(ctx, "SELECT (SELECT count(*) FROM documents), (SELECT count(*) FROM chunks)").Scan(&docs, &chunks)
	return
}

// TermsFrom returns up to limit of the project's counted words (the keys
// of TermDF) from lo up to, not including, hi, in order: the words spelled
// with a given start, for a look-up of near spellings.
func (s *Store) TermsFrom(ctx context.Context, lo, hi string, limit int) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT term FROM term_df WHERE term >= ? AND term < ? ORDER BY term LIMIT ?", lo, hi, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// PageRef names one page of a document.
type PageRef struct {
	Doc    int64
	Number int
}

// PageTexts returns the text of the pages named, with their documents'
// character offsets (CharStart), keyed by page; pages gone are left out.
// Layout and OCR fields are not loaded.
func (s *Store) PageTexts(ctx context.Context, refs []PageRef) (map[PageRef]kb.Page, error) {
	byDoc := map[int64][]any{}
	var docs []int64
	for _, r := range refs {
		if _, ok := byDoc[r.Doc]; !ok {
			docs = append(docs, r.Doc)
		}
		byDoc[r.Doc] = append(byDoc[r.Doc], r.Number)
	}
	out := make(map[PageRef]kb.Page, len(refs))
	for _, doc := range docs {
		nums := byDoc[doc]
		ph := strings.TrimSuffix(strings.Repeat("?,", len(nums)), ",")
		rows, err := s.db.QueryContext(ctx, "SELECT number, char_start, text FROM pages WHERE doc_id = ? AND number IN ("+ph+")", append([]any{doc}, nums...)...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			p := kb.Page{DocID: doc}
			if err := rows.Scan(&p.Number, &p.CharStart, &p.Text); err != nil {
				rows.Close()
				return nil, err
			}
			out[PageRef{doc, p.Number}] = p
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
