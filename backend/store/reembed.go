package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"cairn/backend/kb"
	"cairn/backend/vecindex"
)

// Re-embedding: moving the chunk vectors to another embedder.
//
// BeginReembed records the target embedder (meta reembed_model/reembed_dim)
// and creates chunks_vec_next beside chunks_vec; search keeps reading
// chunks_vec meanwhile. The job fills chunks_vec_next in batches
// (ChunksToReembed, PutReembedVectors); chunks imported meanwhile get their
// old-embedder vector from the import and are picked up by the job like any
// other; deleted chunks leave both tables through triggers. FinishReembed
// switches in one transaction: it checks that every chunk has a new vector,
// replaces chunks_vec with the new vectors and updates the recorded
// embedder; the switch copies the vectors into a fresh chunks_vec inside
// that transaction (and bumps vec_gen so searches reload). Everything is in the database, so a
// crash at any point resumes where it stopped (BeginReembed with the same
// target is a no-op) or leaves the old vectors in use.

// Meta keys of a re-embed in progress.
const (
	MetaReembedModel = "reembed_model"
	MetaReembedDim   = "reembed_dim"
)

// PendingEmbedder is the target of a re-embed in progress (zero if none).
func (s *Store) PendingEmbedder(ctx context.Context) (kb.EmbedderInfo, error) {
	model, err := s.Meta(ctx, MetaReembedModel)
	if err != nil || model == "" {
		return kb.EmbedderInfo{}, err
	}
	dimS, err := s.Meta(ctx, MetaReembedDim)
	if err != nil {
		return kb.EmbedderInfo{}, err
	}
	dim, err := strconv.Atoi(dimS)
	if err != nil {
		return kb.EmbedderInfo{}, fmt.Errorf("re-embed dimension %q: %w", dimS, err)
	}
	return kb.EmbedderInfo{Model: model, Dim: dim}, nil
}

// BeginReembed starts (or resumes) moving the chunk vectors to want. A
// re-embed towards another target is abandoned first.
func (s *Store) BeginReembed(ctx context.Context, want kb.EmbedderInfo) error {
	if want.Dim <= 0 || want.Model == "" {
		return fmt.Errorf("invalid embedder %+v", want)
	}
	pending, err := s.PendingEmbedder(ctx)
	if err != nil {
		return err
	}
	if pending == want {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := dropNext(ctx, tx); err != nil {
		return err
	}
	for _, q := range chunkVecDDL("chunks_vec_next") {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("create re-embed table: %w", err)
		}
	}
	if err := setMetaTx(ctx, tx, MetaReembedModel, want.Model); err != nil {
		return err
	}
	if err := setMetaTx(ctx, tx, MetaReembedDim, strconv.Itoa(want.Dim)); err != nil {
		return err
	}
	return tx.Commit()
}

type execer interface {
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
}

func dropNext(ctx context.Context, tx execer) error {
	for _, q := range []string{
		"DROP TRIGGER IF EXISTS chunks_vec_next_delete",
		"DROP TABLE IF EXISTS chunks_vec_next",
		"DELETE FROM meta WHERE key IN ('" + MetaReembedModel + "', '" + MetaReembedDim + "')",
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("drop re-embed table: %w", err)
		}
	}
	return nil
}

func setMetaTx(ctx context.Context, tx execer, k, v string) error {
	_, err := tx.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", k, v)
	return err
}

// CancelReembed abandons a re-embed in progress; the old vectors stay.
func (s *Store) CancelReembed(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := dropNext(ctx, tx); err != nil {
		return err
	}
	return tx.Commit()
}

// ReembedItem is one chunk still lacking a vector from the new embedder,
// with what its vector is made from.
type ReembedItem struct {
	ChunkID     int64
	DocTitle    string
	HeadingPath []string
	TableHeader string
	Text        string
}

// ChunksToReembed returns up to limit chunks without a new vector, in id order.
func (s *Store) ChunksToReembed(ctx context.Context, limit int) ([]ReembedItem, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT c.id, d.title, c.heading_path, c.table_header, c.text FROM chunks c JOIN documents d ON d.id = c.doc_id
		WHERE NOT EXISTS (SELECT 1 FROM chunks_vec_next v WHERE v.chunk_id = c.id) ORDER BY c.id LIMIT ?`, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ReembedItem
	for rows.Next() {
		var it ReembedItem
		var hp string
		if err := rows.Scan(&it.ChunkID, &it.DocTitle, &hp, &it.TableHeader, &it.Text); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(hp), &it.HeadingPath); err != nil {
			return nil, fmt.Errorf("chunk %d heading path: %w", it.ChunkID, err)
		}
		out = append(out, it)
	}
	return out, rows.Err()
}

// ReembedCounts returns how many chunks have a new vector and how many exist.
func (s *Store) ReembedCounts(ctx context.Context) (done, total int, err error) {
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM chunks").Scan(&total); err != nil {
		return 0, 0, err
	}
	err = s.db.QueryRowContext(ctx, "SELECT count(*) FROM chunks_vec_next v WHERE EXISTS (SELECT 1 FROM chunks c WHERE c.id = v.chunk_id)").Scan(&done)
	return done, total, err
}

// PutReembedVectors stores new vectors (one transaction); vectors of chunks
// deleted in the meantime are skipped.
func (s *Store) PutReembedVectors(ctx context.Context, ids []int64, vecs [][]float32) error {
	if len(ids) != len(vecs) {
		return fmt.Errorf("%d ids, %d vectors", len(ids), len(vecs))
	}
	want, err := s.PendingEmbedder(ctx)
	if err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	st, err := tx.PrepareContext(ctx, "INSERT OR REPLACE INTO chunks_vec_next(chunk_id, embedding) SELECT ?, ? WHERE EXISTS (SELECT 1 FROM chunks WHERE id = ?)")
	if err != nil {
		return err
	}
	defer st.Close()
	for i, id := range ids {
		if len(vecs[i]) != want.Dim {
			return fmt.Errorf("chunk %d: vector of %d dimensions, the re-embed target %s has %d", id, len(vecs[i]), want.Model, want.Dim)
		}
		if _, err := st.ExecContext(ctx, id, vecindex.EncodeDense(vecs[i]), id); err != nil {
			return fmt.Errorf("store vector of chunk %d: %w", id, err)
		}
	}
	return tx.Commit()
}

// ErrReembedIncomplete says chunks still lack a vector from the new embedder.
type ErrReembedIncomplete struct{ Missing int }

func (e *ErrReembedIncomplete) Error() string {
	return fmt.Sprintf("re-embed incomplete: %d chunks still lack a new vector", e.Missing)
}

// FinishReembed switches search to the new vectors in one transaction, if
// every chunk has one (else *ErrReembedIncomplete and nothing changes).
func (s *Store) FinishReembed(ctx context.Context) (kb.EmbedderInfo, error) {
	want, err := s.PendingEmbedder(ctx)
	if err != nil {
		return kb.EmbedderInfo{}, err
	}
	if want.Dim == 0 {
		return kb.EmbedderInfo{}, errors.New("no re-embed in progress")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return kb.EmbedderInfo{}, err
	}
	defer tx.Rollback()
	var missing int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM chunks_vec_next v WHERE v.chunk_id = c.id)").Scan(&missing); err != nil {
		return kb.EmbedderInfo{}, err
	}
	if missing > 0 {
		return kb.EmbedderInfo{}, &ErrReembedIncomplete{Missing: missing}
	}
	for _, q := range []string{
		"DROP TRIGGER IF EXISTS chunks_vec_delete",
		"DROP TRIGGER IF EXISTS chunks_vec_dim",
		"DROP TABLE IF EXISTS chunks_vec",
		"CREATE TABLE chunks_vec(chunk_id INTEGER PRIMARY KEY, embedding BLOB NOT NULL)",
		"INSERT INTO chunks_vec(chunk_id, embedding) SELECT chunk_id, embedding FROM chunks_vec_next",
		"CREATE TRIGGER chunks_vec_delete AFTER DELETE ON chunks BEGIN DELETE FROM chunks_vec WHERE chunk_id = old.id; END",
		chunkVecDimTrigger,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return kb.EmbedderInfo{}, fmt.Errorf("switch vectors: %w", err)
		}
	}
	if err := dropNext(ctx, tx); err != nil {
		return kb.EmbedderInfo{}, err
	}
	if err := bumpVecGen(ctx, tx, chunkVecs.name); err != nil {
		return kb.EmbedderInfo{}, err
	}
	if err := setMetaTx(ctx, tx, MetaEmbedModel, want.Model); err != nil {
		return kb.EmbedderInfo{}, err
	}
	if err := setMetaTx(ctx, tx, MetaEmbedDim, strconv.Itoa(want.Dim)); err != nil {
		return kb.EmbedderInfo{}, err
	}
	return want, tx.Commit()
}
