package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
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
	tx, err := s.DB.BeginTx(ctx, nil)
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
// Score is the cosine similarity (1 - cosine distance), computed exactly
// for candidates found in the in-memory int8 index.
func (s *Store) NearestChunks(ctx context.Context, q []float32, k int) ([]Scored, error) {
	hits, err := s.searchVectors(ctx, chunkVecs, q, k)
	if err != nil {
		return nil, err
	}
	out := make([]Scored, len(hits))
	for i, h := range hits {
		out[i] = Scored{ChunkID: h.ID, Score: h.Score}
	}
	return out, nil
}

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
	tx, err := s.DB.BeginTx(ctx, nil)
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
	tx, err := s.DB.BeginTx(ctx, nil)
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
	Text        string
}

// ChunksToReembed returns up to limit chunks without a new vector, in id order.
func (s *Store) ChunksToReembed(ctx context.Context, limit int) ([]ReembedItem, error) {
	rows, err := s.DB.QueryContext(ctx, `SELECT c.id, d.title, c.heading_path, c.text FROM chunks c JOIN documents d ON d.id = c.doc_id
		WHERE NOT EXISTS (SELECT 1 FROM chunks_vec_next v WHERE v.chunk_id = c.id) ORDER BY c.id LIMIT ?`, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ReembedItem
	for rows.Next() {
		var it ReembedItem
		var hp string
		if err := rows.Scan(&it.ChunkID, &it.DocTitle, &hp, &it.Text); err != nil {
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
	if err := s.DB.QueryRowContext(ctx, "SELECT count(*) FROM chunks").Scan(&total); err != nil {
		return 0, 0, err
	}
	err = s.DB.QueryRowContext(ctx, "SELECT count(*) FROM chunks_vec_next v WHERE EXISTS (SELECT 1 FROM chunks c WHERE c.id = v.chunk_id)").Scan(&done)
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
	tx, err := s.DB.BeginTx(ctx, nil)
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
		if _, err := st.ExecContext(ctx, id, encodeVector(vecs[i]), id); err != nil {
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
	tx, err := s.DB.BeginTx(ctx, nil)
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
	return encodeVector(v)
}

// vecIndex returns the current in-memory index of t, reloading it when
// vec_gen moved since it was loaded.
func (s *Store) vecIndex(ctx context.Context, t vecTable) (*vecindex.Index, error) {
	var gen int64
	if err := s.DB.QueryRowContext(ctx, "SELECT gen FROM vec_gen WHERE name = ?", t.name).Scan(&gen); err != nil {
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
	tx, err := s.DB.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
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
		rows, err := s.DB.QueryContext(ctx, "SELECT "+t.col+", embedding FROM "+t.name+" WHERE "+t.col+" IN ("+placeholders(len(part))+")", args...)
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
	return x.Search(q, k, vecindex.DefaultDepth(k), func(ids []int64) (map[int64][]float32, error) {
		return s.fetchVectors(ctx, t, ids)
	})
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
