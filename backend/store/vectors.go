package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"

	"cairn/backend/kb"
)

// Meta keys recording which embedder made the project's vectors.
const (
	MetaEmbedModel = "embed_model"
	MetaEmbedDim   = "embed_dim"
)

// ErrEmbedderChanged says the project's vectors were made by another embedder.
type ErrEmbedderChanged struct{ Have, Want kb.EmbedderInfo }

func (e *ErrEmbedderChanged) Error() string {
	return fmt.Sprintf("project vectors were made by %s (%d dimensions), not %s (%d); re-embed the project to switch", e.Have.Model, e.Have.Dim, e.Want.Model, e.Want.Dim)
}

// Embedder returns the embedder recorded for the project (zero if none yet).
func (s *Store) Embedder(ctx context.Context) (kb.EmbedderInfo, error) {
	model, err := s.Meta(ctx, MetaEmbedModel)
	if err != nil {
		return kb.EmbedderInfo{}, err
	}
	dimS, err := s.Meta(ctx, MetaEmbedDim)
	if err != nil || dimS == "" {
		return kb.EmbedderInfo{Model: model}, err
	}
	dim, err := strconv.Atoi(dimS)
	return kb.EmbedderInfo{Model: model, Dim: dim}, err
}

// EnsureVectors makes sure the project's vector table exists for the given
// embedder. A project with no embedder yet adopts it; a project made with a
// different one gets *ErrEmbedderChanged.
func (s *Store) EnsureVectors(ctx context.Context, want kb.EmbedderInfo) error {
	if want.Dim <= 0 || want.Model == "" {
		return fmt.Errorf("invalid embedder %+v", want)
	}
	have, err := s.Embedder(ctx)
	if err != nil {
		return err
	}
	if have.Dim != 0 {
		if have != want {
			return &ErrEmbedderChanged{Have: have, Want: want}
		}
		return nil
	}
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmts := []string{
		fmt.Sprintf("CREATE VIRTUAL TABLE chunks_vec USING vec0(chunk_id INTEGER PRIMARY KEY, embedding float[%d] distance_metric=cosine)", want.Dim),
		"CREATE TRIGGER chunks_vec_delete AFTER DELETE ON chunks BEGIN DELETE FROM chunks_vec WHERE chunk_id = old.id; END",
	}
	for _, q := range stmts {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("create vector table: %w", err)
		}
	}
	for k, v := range map[string]string{MetaEmbedModel: want.Model, MetaEmbedDim: strconv.Itoa(want.Dim)} {
		if _, err := tx.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", k, v); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// encodeVector packs a vector as little-endian float32, sqlite-vec's BLOB format.
func encodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

// Scored is a chunk id with a score from one ranked list (higher is better).
type Scored struct {
	ChunkID int64
	Score   float64
}

// NearestChunks returns the k chunks whose vectors are closest (cosine) to q.
// Score is 1 - cosine distance.
func (s *Store) NearestChunks(ctx context.Context, q []float32, k int) ([]Scored, error) {
	rows, err := s.DB.QueryContext(ctx, "SELECT chunk_id, distance FROM chunks_vec WHERE embedding MATCH ? AND k = ? ORDER BY distance", encodeVector(q), k)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Scored
	for rows.Next() {
		var sc Scored
		var d float64
		if err := rows.Scan(&sc.ChunkID, &d); err != nil {
			return nil, err
		}
		sc.Score = 1 - d
		out = append(out, sc)
	}
	return out, rows.Err()
}
