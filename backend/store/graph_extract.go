package store

import (
	"context"
	"encoding/json"
	"fmt"

	"cairn/backend/kb"
)

// pendingWhere selects chunks that need extraction: those of indexed
// documents without a status row; with a model (extractor not offline),
// also those that failed, fell back to offline, or were extracted by another
// extractor.
func pendingWhere(extractor string) (string, []any) {
	base := "c.doc_id IN (SELECT id FROM documents WHERE status IN ('ok','needs_ocr'))"
	if extractor == ExtractorOffline || extractor == "" {
		return base + " AND NOT EXISTS (SELECT 1 FROM chunk_extractions x WHERE x.chunk_id = c.id)", nil
	}
	return base + " AND NOT EXISTS (SELECT 1 FROM chunk_extractions x WHERE x.chunk_id = c.id AND x.status <> 'failed' AND x.extractor = ?)", []any{extractor}
}

// PendingExtraction returns the chunks that still need extraction by
// extractor ("offline" or a model name), in document and reading order.
func (s *Store) PendingExtraction(ctx context.Context, extractor string, limit int) ([]kb.Chunk, error) {
	where, args := pendingWhere(extractor)
	q := `SELECT c.id, c.doc_id, c.ordinal, c.page_start, c.page_end, c.char_start, c.char_end, c.heading_path, c.table_header, c.text, c.tokens FROM chunks c WHERE ` + where + " ORDER BY c.doc_id, c.ordinal"
	if limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", limit)
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []kb.Chunk
	for rows.Next() {
		var c kb.Chunk
		var hp string
		if err := rows.Scan(&c.ID, &c.DocID, &c.Ordinal, &c.PageStart, &c.PageEnd, &c.CharStart, &c.CharEnd, &hp, &c.TableHeader, &c.Text, &c.Tokens); err != nil {
			return nil, err
		}
		_ = json.Unmarshal([]byte(hp), &c.HeadingPath)
		out = append(out, c)
	}
	return out, rows.Err()
}

// ForgetOfflineExtractions removes what the offline extractor read from
// the chunks it read (ok or empty; a model's and the fallback's stay):
// their mentions, relation sources and facts, with the entities and
// relations nothing else states, and their extraction records, in one
// transaction, so the next graph stage reads them again into the graph a
// new project would get. It returns how many chunks it released.
func (s *Store) ForgetOfflineExtractions(ctx context.Context) (int64, error) {
	sqlTx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer sqlTx.Rollback()
	tx := cachedTx{sqlTx, s}
	rows, err := tx.QueryContext(ctx, "SELECT chunk_id FROM chunk_extractions WHERE extractor = ? AND status IN ('ok', 'empty')", ExtractorOffline)
	if err != nil {
		return 0, err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	// The entities only these chunks mention go first, whole: their
	// mentions, values, votes, alias keys, facts and relations follow by
	// cascade (migration 0019), without the recomputation each deleted
	// mention of a living entity costs — after a new offline extractor,
	// that is nearly the whole graph. The chunks' rows left (mentions of
	// entities other chunks keep) go chunk by chunk.
	forgotten := "SELECT chunk_id FROM chunk_extractions WHERE extractor = ?1 AND status IN ('ok', 'empty')"
	if _, err := tx.ExecContext(ctx, `DELETE FROM entities WHERE id IN (SELECT m.entity_id FROM mentions m WHERE m.chunk_id IN (`+forgotten+`))
		AND NOT EXISTS (SELECT 1 FROM mentions m WHERE m.entity_id = entities.id AND m.chunk_id NOT IN (`+forgotten+`))`, ExtractorOffline); err != nil {
		return 0, err
	}
	for _, id := range ids {
		if err := clearChunkGraph(ctx, tx, id); err != nil {
			return 0, err
		}
	}
	return int64(len(ids)), tx.Commit()
}

// ExtractionCounts counts chunks per extraction status; pending is what
// PendingExtraction(extractor) would return minus those with a failed row
// (counted as failed).
func (s *Store) ExtractionCounts(ctx context.Context, extractor string) (kb.ExtractCounts, error) {
	var c kb.ExtractCounts
	rows, err := s.db.QueryContext(ctx, `SELECT x.status, count(*) FROM chunk_extractions x JOIN chunks c ON c.id = x.chunk_id GROUP BY x.status`)
	if err != nil {
		return c, err
	}
	for rows.Next() {
		var st string
		var n int
		if err := rows.Scan(&st, &n); err != nil {
			rows.Close()
			return c, err
		}
		switch kb.ExtractStatus(st) {
		case kb.ExtractOK:
			c.OK = n
		case kb.ExtractEmpty:
			c.Empty = n
		case kb.ExtractFailed:
			c.Failed = n
		}
	}
	rows.Close()
	where, args := pendingWhere(extractor)
	err = s.db.QueryRowContext(ctx, "SELECT count(*) FROM chunks c WHERE "+where+" AND NOT EXISTS (SELECT 1 FROM chunk_extractions x WHERE x.chunk_id = c.id AND x.status = 'failed')", args...).Scan(&c.Pending)
	return c, err
}

// ExtractionUsage sums the model usage recorded per chunk.
type ExtractionUsage struct {
	Chunks           int `json:"chunks"`
	ChunkTokens      int `json:"chunk_tokens"`
	Calls            int `json:"calls"`
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// ExtractionUsage returns the recorded usage of extraction over all chunks
// with a status row.
func (s *Store) ExtractionUsage(ctx context.Context) (ExtractionUsage, error) {
	var u ExtractionUsage
	err := s.db.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(c.tokens),0), coalesce(sum(x.calls),0), coalesce(sum(x.prompt_tokens),0), coalesce(sum(x.completion_tokens),0)
		FROM chunk_extractions x JOIN chunks c ON c.id = x.chunk_id`).Scan(&u.Chunks, &u.ChunkTokens, &u.Calls, &u.PromptTokens, &u.CompletionTokens)
	return u, err
}

// ChunkStatus is one chunk's extraction outcome.
type ChunkStatus struct {
	ChunkID   int64            `json:"chunk_id"`
	DocID     int64            `json:"doc_id"`
	Status    kb.ExtractStatus `json:"status"`
	Reason    string           `json:"reason,omitempty"`
	Extractor string           `json:"extractor"`
}

// ExtractionStatuses lists every chunk's status row (docID 0: all documents).
func (s *Store) ExtractionStatuses(ctx context.Context, docID int64) ([]ChunkStatus, error) {
	q := "SELECT x.chunk_id, c.doc_id, x.status, x.reason, x.extractor FROM chunk_extractions x JOIN chunks c ON c.id = x.chunk_id"
	var args []any
	if docID != 0 {
		q += " WHERE c.doc_id = ?"
		args = append(args, docID)
	}
	rows, err := s.db.QueryContext(ctx, q+" ORDER BY c.doc_id, c.ordinal", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ChunkStatus
	for rows.Next() {
		var cs ChunkStatus
		if err := rows.Scan(&cs.ChunkID, &cs.DocID, &cs.Status, &cs.Reason, &cs.Extractor); err != nil {
			return nil, err
		}
		out = append(out, cs)
	}
	return out, rows.Err()
}

// DocumentTitle returns a document's title and file name (for title entities).
func (s *Store) DocumentTitle(ctx context.Context, docID int64) (title, fileName string, err error) {
	err = s.db.QueryRowContext(ctx, "SELECT title, file_name FROM documents WHERE id = ?", docID).Scan(&title, &fileName)
	return
}
