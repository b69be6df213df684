package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strconv"
	"sync"

	"modernc.org/sqlite"

	"cairn/backend/kb"
	"cairn/backend/vecindex"
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
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, q := range chunkVecDDL("chunks_vec") {
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

// chunkVecDDL creates a chunk vector table (plain since migration 0008:
// sqlite-vec-format BLOBs by chunk id) with its delete trigger; chunks_vec
// also refuses vectors of another dimension than the recorded embedder's.
func chunkVecDDL(table string) []string {
	out := []string{
		"CREATE TABLE IF NOT EXISTS " + table + "(chunk_id INTEGER PRIMARY KEY, embedding BLOB NOT NULL)",
		"CREATE TRIGGER IF NOT EXISTS " + table + "_delete AFTER DELETE ON chunks BEGIN DELETE FROM " + table + " WHERE chunk_id = old.id; END",
	}
	if table == "chunks_vec" {
		out = append(out, chunkVecDimTrigger)
	}
	return out
}

const chunkVecDimTrigger = `CREATE TRIGGER IF NOT EXISTS chunks_vec_dim BEFORE INSERT ON chunks_vec
WHEN length(new.embedding) <> 4 * coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'embed_dim'), 0)
BEGIN SELECT RAISE(ABORT, 'chunk vector dimension differs from the project embedder'); END`

// Scored is a chunk id with a score from one ranked list (higher is better).
type Scored struct {
	ChunkID int64
	Score   float64
}

// NearestChunks returns the k chunks whose vectors are closest (cosine) to q.
// Score is the cosine similarity (1 - cosine distance), computed exactly
// for candidates found in the in-memory int8 index.
func (s *Store) NearestChunks(ctx context.Context, q []float32, k int) ([]Scored, error) {
	return s.NearestChunksIf(ctx, q, k, nil)
}

// NearestChunksIf is NearestChunks over the chunks keep accepts (all when
// nil): a search within some documents.
func (s *Store) NearestChunksIf(ctx context.Context, q []float32, k int, keep func(int64) bool) ([]Scored, error) {
	hits, err := s.searchVectorsIf(ctx, chunkVecs, q, k, keep)
	if err != nil {
		return nil, err
	}
	out := make([]Scored, len(hits))
	for i, h := range hits {
		out[i] = Scored{ChunkID: h.ID, Score: h.Score}
	}
	return out, nil
}

// In-memory vector search.
//
// Every vector set (chunks_vec, entities_vec, relations_vec, mind_vec) is
// searched through a vecindex.Index: an int8 copy of its vectors loaded on
// the first search and reloaded when vec_gen says the set changed (any
// process, any connection). A search scans the copy for
// vecindex.DefaultDepth(k) candidates and re-scores them exactly from the
// stored float vectors, so scores are exact cosines. Memory: chunk vectors
// take dim+12 bytes each (10k chunks × 1,024 dims ≈ 10 MB); graph and
// mind-map vectors 2 bytes per non-zero entry + 28 (≈ 95 B per entity,
// 500 per relation, 335 per mind-map node with the built-in embedder;
// vecindex's package comment has the layout).

// vecTable is one searchable vector set.
type vecTable struct {
	name, col string
	sparse    bool // vecindex's sparse format; else sqlite-vec's float32 array
}

var (
	chunkVecs    = vecTable{"chunks_vec", "chunk_id", false}
	entityVecs   = vecTable{"entities_vec", "entity_id", true}
	relationVecs = vecTable{"relations_vec", "relation_id", true}
	mindVecs     = vecTable{"mind_vec", "node_id", true}
)

type vecCaches struct {
	mu sync.Mutex
	m  map[string]*vecCache
}

type vecCache struct {
	mu  sync.Mutex
	gen int64
	x   *vecindex.Index
}

func (c *vecCaches) get(name string) *vecCache {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*vecCache{}
	}
	if c.m[name] == nil {
		c.m[name] = &vecCache{gen: -1}
	}
	return c.m[name]
}

func init() {
	// cairn_vec_sparse(blob) converts a float32 BLOB to the sparse format
	// (migration 0006).
	if err := sqlite.RegisterDeterministicScalarFunction("cairn_vec_sparse", 1, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		b, ok := args[0].([]byte)
		if !ok {
			return nil, fmt.Errorf("cairn_vec_sparse: want a BLOB, got %T", args[0])
		}
		v, err := vecindex.Decode(b)
		if err != nil {
			return nil, err
		}
		return vecindex.EncodeSparse(v), nil
	}); err != nil {
		panic(err)
	}
}

// encodeStored packs v the way table t stores it.
func encodeStored(t vecTable, v []float32) []byte {
	if t.sparse {
		return vecindex.EncodeSparse(v)
	}
	return vecindex.EncodeDense(v)
}

// vecIndex returns the current in-memory index of t, reloading it when
// vec_gen moved since it was loaded.
func (s *Store) vecIndex(ctx context.Context, t vecTable) (*vecindex.Index, error) {
	var gen int64
	if err := s.db.QueryRowContext(ctx, "SELECT gen FROM vec_gen WHERE name = ?", t.name).Scan(&gen); err != nil {
		return nil, fmt.Errorf("%s generation: %w", t.name, err)
	}
	c := s.vecs.get(t.name)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.x != nil && c.gen == gen {
		return c.x, nil
	}
	x, gen, err := s.loadVecIndex(ctx, t)
	if err != nil {
		return nil, err
	}
	c.x, c.gen = x, gen
	return x, nil
}

// loadVecIndex reads every vector of t (one read transaction, so the
// generation matches the rows).
func (s *Store) loadVecIndex(ctx context.Context, t vecTable) (*vecindex.Index, int64, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, 0, err
	}
	defer tx.Rollback()
	var gen int64
	if err := tx.QueryRowContext(ctx, "SELECT gen FROM vec_gen WHERE name = ?", t.name).Scan(&gen); err != nil {
		return nil, 0, err
	}
	dim := 0
	if !t.sparse {
		info, err := s.Embedder(ctx)
		if err != nil {
			return nil, 0, err
		}
		dim = info.Dim
	}
	rows, err := tx.QueryContext(ctx, "SELECT "+t.col+", embedding FROM "+t.name)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var b *vecindex.Builder
	if dim > 0 {
		b = vecindex.NewBuilder(dim, false)
	}
	for rows.Next() {
		var id int64
		var blob []byte
		if err := rows.Scan(&id, &blob); err != nil {
			return nil, 0, err
		}
		v, err := vecindex.Decode(blob)
		if err != nil {
			return nil, 0, fmt.Errorf("%s %d: %w", t.name, id, err)
		}
		if b == nil {
			b = vecindex.NewBuilder(len(v), t.sparse)
		}
		if err := b.Add(id, v); err != nil {
			return nil, 0, fmt.Errorf("%s: %w", t.name, err)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	if b == nil {
		b = vecindex.NewBuilder(0, t.sparse)
	}
	return b.Index(), gen, nil
}

// fetchVectors reads the exact vectors of ids from t.
func (s *Store) fetchVectors(ctx context.Context, t vecTable, ids []int64) (map[int64][]float32, error) {
	out := make(map[int64][]float32, len(ids))
	for start := 0; start < len(ids); start += 500 {
		part := ids[start:min(len(ids), start+500)]
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		rows, err := s.db.QueryContext(ctx, "SELECT "+t.col+", embedding FROM "+t.name+" WHERE "+t.col+" IN ("+placeholders(len(part))+")", args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id int64
			var blob []byte
			if err := rows.Scan(&id, &blob); err != nil {
				rows.Close()
				return nil, err
			}
			v, err := vecindex.Decode(blob)
			if err != nil {
				rows.Close()
				return nil, fmt.Errorf("%s %d: %w", t.name, id, err)
			}
			out[id] = v
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// searchVectors returns the k vectors of t nearest (cosine) to q.
func (s *Store) searchVectors(ctx context.Context, t vecTable, q []float32, k int) ([]vecindex.Hit, error) {
	return s.searchVectorsIf(ctx, t, q, k, nil)
}

func (s *Store) searchVectorsIf(ctx context.Context, t vecTable, q []float32, k int, keep func(int64) bool) ([]vecindex.Hit, error) {
	if k <= 0 || vecindex.Norm(q) == 0 {
		return nil, nil // a vector without features is near nothing
	}
	x, err := s.vecIndex(ctx, t)
	if err != nil {
		return nil, err
	}
	if x.Len() == 0 {
		return nil, nil
	}
	if len(q) != x.Dim() {
		return nil, fmt.Errorf("%s: query vector has %d dimensions, the stored vectors %d", t.name, len(q), x.Dim())
	}
	return x.SearchIf(q, k, vecindex.DefaultDepth(k), func(ids []int64) (map[int64][]float32, error) {
		return s.fetchVectors(ctx, t, ids)
	}, keep)
}

// NearestVectors is the k-NN over one of the graph's vector sets
// ("entities_vec" or "relations_vec"), for the retrieval code; Score is
// cosine similarity.
func (s *Store) NearestVectors(ctx context.Context, table string, q []float32, k int) ([]IDScore, error) {
	var t vecTable
	switch table {
	case entityVecs.name:
		t = entityVecs
	case relationVecs.name:
		t = relationVecs
	default:
		return nil, fmt.Errorf("no vector set %q", table)
	}
	hits, err := s.searchVectors(ctx, t, q, k)
	if err != nil {
		return nil, err
	}
	out := make([]IDScore, len(hits))
	for i, h := range hits {
		out[i] = IDScore{ID: h.ID, Score: h.Score}
	}
	return out, nil
}

// bumpVecGen marks a vector set changed (for writes no trigger sees).
func bumpVecGen(ctx context.Context, tx execer, name string) error {
	_, err := tx.ExecContext(ctx, "UPDATE vec_gen SET gen = gen + 1 WHERE name = ?", name)
	return err
}

// WarmVectors loads the in-memory indexes of every vector set now (a
// project's first search otherwise pays for it: ≈ 2–3 s for all four sets
// at 10k chunks on a 2-core machine) and returns the bytes they hold.
// Safe to run in the background; searches wait for a load in progress.
func (s *Store) WarmVectors(ctx context.Context) (int, error) {
	total := 0
	for _, t := range []vecTable{chunkVecs, entityVecs, relationVecs, mindVecs} {
		x, err := s.vecIndex(ctx, t)
		if err != nil {
			return total, fmt.Errorf("load %s: %w", t.name, err)
		}
		total += x.Bytes()
	}
	return total, nil
}
