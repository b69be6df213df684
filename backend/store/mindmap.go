package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"cairn/backend/kb"
)

// Mind maps (PG-RAG): per-document trees in mind_nodes, their path-context
// vectors in mind_vec (always the built-in hashed embedder, 1024 dims), a
// lexical index in mind_fts, and cross-document supernodes.

// MindVecDim is the dimension of mind_vec (fixed in migration 0004).
const MindVecDim = 1024

// Mind-map build modes recorded per document.
const (
	MindModeOffline = "offline" // built from structure and text, no model
	MindModeLLM     = "llm"     // organised by a language model
	MindModeFailed  = "failed"  // the model call failed; the offline tree was kept
)

// MindMapStatus says how a document's mind map was made.
type MindMapStatus struct {
	DocID   int64     `json:"doc_id"`
	Mode    string    `json:"mode"`
	Model   string    `json:"model,omitempty"`
	Error   string    `json:"error,omitempty"`
	BuiltAt time.Time `json:"built_at"`
}

// MindNodeRow is a node to save: ID and Parent are local to the tree being
// saved (1..n, Parent 0 for the topic, parents before children); PathText is
// what gets embedded and indexed.
type MindNodeRow struct {
	kb.MindNode
	PathText string
	Vector   []float32  // the path's vector (MindVecDim)
	FTS      MindFTSRow // the node's lexical row
}

// MindFTSRow is a node's lexical index row.
type MindFTSRow struct{ Label, Path, CJK string }

// ScoredNode is a mind-map node id with a score (higher is better).
type ScoredNode struct {
	NodeID int64
	Score  float64
}

// mindMapChecks are the mind maps' invariants (Check, tableChecks).
var mindMapChecks = []Invariant{
	{"mind-map facts without a chunk of their document, or with a page or char span outside it", `SELECT count(*) FROM mind_nodes n LEFT JOIN ` + lastPages + ` lp ON lp.doc_id = n.doc_id WHERE n.kind = 'fact' AND (
		n.chunk_id IS NULL OR n.page_start < 1 OR n.page_end < n.page_start OR n.char_end <= n.char_start
		OR n.page_end > lp.last
		OR NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = n.chunk_id AND c.doc_id = n.doc_id AND n.char_start >= c.char_start AND n.char_end <= c.char_end))`},
	{"mind-map nodes whose parent is missing or in another document", `SELECT count(*) FROM mind_nodes n WHERE
		(n.kind = 'topic' AND n.parent_id IS NOT NULL)
		OR (n.kind <> 'topic' AND NOT EXISTS (SELECT 1 FROM mind_nodes p WHERE p.id = n.parent_id AND p.doc_id = n.doc_id AND p.kind <> 'fact'))`},
	{"mind maps without exactly one topic", `SELECT count(*) FROM mind_maps m WHERE (SELECT count(*) FROM mind_nodes n WHERE n.doc_id = m.doc_id AND n.kind = 'topic') <> 1`},
	{"supernodes with fewer than two members", `SELECT count(*) FROM supernodes s WHERE (SELECT count(*) FROM supernode_members m WHERE m.supernode_id = s.id) < 2`},
	{"mind-map nodes without a vector", "SELECT count(*) FROM mind_nodes n WHERE NOT EXISTS (SELECT 1 FROM mind_vec v WHERE v.node_id = n.id)"},
	{"mind-map vectors without a node", "SELECT count(*) FROM mind_vec v WHERE NOT EXISTS (SELECT 1 FROM mind_nodes n WHERE n.id = v.node_id)"},
	{"mind-map nodes missing from the lexical index", "SELECT count(*) FROM mind_nodes n WHERE NOT EXISTS (SELECT 1 FROM mind_fts f WHERE f.rowid = n.id)"},
}

// SaveMindMap replaces a document's mind map (nodes, vectors, lexical rows,
// status) in one transaction. Node IDs/Parents are local (see MindNodeRow);
// the stored ids are returned in the same order. Fails if the document's
// chunks changed under a fact (a fact's chunk must belong to the document).
func (s *Store) SaveMindMap(ctx context.Context, st MindMapStatus, nodes []MindNodeRow) ([]int64, error) {
	switch st.Mode {
	case MindModeOffline, MindModeLLM, MindModeFailed:
	default:
		return nil, fmt.Errorf("save mind map of document %d: unknown mode %q", st.DocID, st.Mode)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM mind_maps WHERE doc_id = ?", st.DocID); err != nil {
		return nil, err
	}
	if st.BuiltAt.IsZero() {
		st.BuiltAt = time.Now().UTC()
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO mind_maps(doc_id, mode, model, error, built_at) VALUES(?, ?, ?, ?, ?)",
		st.DocID, st.Mode, st.Model, st.Error, st.BuiltAt.UTC().Format(time.RFC3339)); err != nil {
		return nil, fmt.Errorf("save mind map of document %d: %w", st.DocID, err)
	}
	insNode, err := tx.PrepareContext(ctx, `INSERT INTO mind_nodes(doc_id, parent_id, kind, label, ordinal, chunk_id, page_start, page_end, char_start, char_end, path_text)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return nil, err
	}
	defer insNode.Close()
	insVec, err := tx.PrepareContext(ctx, "INSERT INTO mind_vec(node_id, embedding) VALUES(?, ?)")
	if err != nil {
		return nil, err
	}
	defer insVec.Close()
	insFTS, err := tx.PrepareContext(ctx, "INSERT INTO mind_fts(rowid, label, path, cjk) VALUES(?, ?, ?, ?)")
	if err != nil {
		return nil, err
	}
	defer insFTS.Close()
	local := map[int64]int64{}
	ids := make([]int64, len(nodes))
	for i, n := range nodes {
		var parent, chunk any
		if n.Parent != 0 {
			p, ok := local[n.Parent]
			if !ok {
				return nil, fmt.Errorf("save mind map of document %d: node %d names parent %d before it", st.DocID, n.ID, n.Parent)
			}
			parent = p
		}
		if n.ChunkID != 0 {
			chunk = n.ChunkID
		}
		if len(n.Vector) != MindVecDim {
			return nil, fmt.Errorf("save mind map of document %d: vector of %d dimensions, want %d", st.DocID, len(n.Vector), MindVecDim)
		}
		res, err := insNode.ExecContext(ctx, st.DocID, parent, string(n.Kind), n.Label, i, chunk, n.PageStart, n.PageEnd, n.CharStart, n.CharEnd, n.PathText)
		if err != nil {
			return nil, fmt.Errorf("save mind node %q: %w", n.Label, err)
		}
		id, err := res.LastInsertId()
		if err != nil {
			return nil, err
		}
		local[n.ID] = id
		ids[i] = id
		if _, err := insVec.ExecContext(ctx, id, encodeStored(mindVecs, n.Vector)); err != nil {
			return nil, fmt.Errorf("embed mind node: %w", err)
		}
		if _, err := insFTS.ExecContext(ctx, id, n.FTS.Label, n.FTS.Path, n.FTS.CJK); err != nil {
			return nil, fmt.Errorf("index mind node: %w", err)
		}
	}
	return ids, tx.Commit()
}

// MindMapStatuses returns the build status of every document that has a map.
func (s *Store) MindMapStatuses(ctx context.Context) (map[int64]MindMapStatus, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT doc_id, mode, model, error, built_at FROM mind_maps")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]MindMapStatus{}
	for rows.Next() {
		var m MindMapStatus
		var at string
		if err := rows.Scan(&m.DocID, &m.Mode, &m.Model, &m.Error, &at); err != nil {
			return nil, err
		}
		m.BuiltAt, _ = time.Parse(time.RFC3339, at)
		out[m.DocID] = m
	}
	return out, rows.Err()
}

// DocsWithoutMindMap lists indexed documents (ok or needs_ocr, with chunks)
// that have no mind map yet, by id.
func (s *Store) DocsWithoutMindMap(ctx context.Context) ([]int64, error) {
	return s.queryInt64s(ctx, `SELECT d.id FROM documents d WHERE d.status IN ('ok','needs_ocr')
		AND EXISTS (SELECT 1 FROM chunks c WHERE c.doc_id = d.id)
		AND NOT EXISTS (SELECT 1 FROM mind_maps m WHERE m.doc_id = d.id) ORDER BY d.id`)
}

// DocsWithMindMapMode lists documents whose map was built in mode.
func (s *Store) DocsWithMindMapMode(ctx context.Context, mode string) ([]int64, error) {
	return s.queryInt64s(ctx, "SELECT doc_id FROM mind_maps WHERE mode = ? ORDER BY doc_id", mode)
}

// ChunksOfDocument returns a document's chunks in order.
func (s *Store) ChunksOfDocument(ctx context.Context, docID int64) ([]kb.Chunk, error) {
	hits, err := s.mindChunkRows(ctx, "WHERE c.doc_id = ? ORDER BY c.ordinal", docID)
	if err != nil {
		return nil, err
	}
	out := make([]kb.Chunk, len(hits))
	for i, h := range hits {
		out[i] = h.Chunk
	}
	return out, nil
}

func (s *Store) mindChunkRows(ctx context.Context, where string, args ...any) ([]kb.Hit, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT c.id, c.doc_id, c.ordinal, c.page_start, c.page_end, c.char_start, c.char_end, c.heading_path, c.table_header, c.text, c.tokens, `+shownTitle+`, d.title
		FROM chunks c JOIN documents d ON d.id = c.doc_id `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []kb.Hit
	for rows.Next() {
		var h kb.Hit
		var hp string
		if err := rows.Scan(&h.ID, &h.DocID, &h.Ordinal, &h.PageStart, &h.PageEnd, &h.CharStart, &h.CharEnd, &hp, &h.TableHeader, &h.Text, &h.Tokens, &h.DocTitle, &h.IndexTitle); err != nil {
			return nil, err
		}
		h.HeadingPath = decodeHeadingPath(hp)
		out = append(out, h)
	}
	return out, rows.Err()
}

func decodeHeadingPath(s string) []string {
	var out []string
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return nil
	}
	return out
}

const mindNodeColumns = `n.id, coalesce(n.parent_id, 0), n.kind, n.label, n.doc_id, coalesce(m.supernode_id, 0),
	coalesce(n.chunk_id, 0), n.page_start, n.page_end, n.char_start, n.char_end, n.path_text`

func scanMindNodes(rows *sql.Rows) ([]MindNodeRow, error) {
	defer rows.Close()
	var out []MindNodeRow
	for rows.Next() {
		var n MindNodeRow
		var kind string
		if err := rows.Scan(&n.ID, &n.Parent, &kind, &n.Label, &n.DocID, &n.Supernode, &n.ChunkID, &n.PageStart, &n.PageEnd, &n.CharStart, &n.CharEnd, &n.PathText); err != nil {
			return nil, err
		}
		n.Kind = kb.MindKind(kind)
		out = append(out, n)
	}
	return out, rows.Err()
}

// MindNodes returns a document's mind map in tree order (parents first).
// ErrNotFound when the document has no map.
func (s *Store) MindNodes(ctx context.Context, docID int64) ([]MindNodeRow, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+mindNodeColumns+" FROM mind_nodes n LEFT JOIN supernode_members m ON m.node_id = n.id WHERE n.doc_id = ? ORDER BY n.ordinal", docID)
	if err != nil {
		return nil, err
	}
	out, err := scanMindNodes(rows)
	if err == nil && len(out) == 0 {
		return nil, fmt.Errorf("document %d: %w", docID, ErrNoMindMap)
	}
	return out, err
}

// MindNodesOfDocs returns the mind maps of several documents, each in tree order.
func (s *Store) MindNodesOfDocs(ctx context.Context, docIDs []int64) ([]MindNodeRow, error) {
	if len(docIDs) == 0 {
		return nil, nil
	}
	ph, args := mindPlaceholders(docIDs)
	rows, err := s.db.QueryContext(ctx, "SELECT "+mindNodeColumns+" FROM mind_nodes n LEFT JOIN supernode_members m ON m.node_id = n.id WHERE n.doc_id IN ("+ph+") ORDER BY n.doc_id, n.ordinal", args...)
	if err != nil {
		return nil, err
	}
	return scanMindNodes(rows)
}

// MindNodesByID loads nodes by id (any order).
func (s *Store) MindNodesByID(ctx context.Context, ids []int64) ([]MindNodeRow, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	ph, args := mindPlaceholders(ids)
	rows, err := s.db.QueryContext(ctx, "SELECT "+mindNodeColumns+" FROM mind_nodes n LEFT JOIN supernode_members m ON m.node_id = n.id WHERE n.id IN ("+ph+") ORDER BY n.doc_id, n.ordinal", args...)
	if err != nil {
		return nil, err
	}
	return scanMindNodes(rows)
}

// AllMindNodes returns every node of the project (fusion reads them all).
func (s *Store) AllMindNodes(ctx context.Context) ([]MindNodeRow, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+mindNodeColumns+" FROM mind_nodes n LEFT JOIN supernode_members m ON m.node_id = n.id ORDER BY n.doc_id, n.ordinal")
	if err != nil {
		return nil, err
	}
	return scanMindNodes(rows)
}

// PendingFusion lists nodes fusion has not considered yet.
func (s *Store) PendingFusion(ctx context.Context) ([]int64, error) {
	return s.queryInt64s(ctx, "SELECT id FROM mind_nodes WHERE fused = 0 ORDER BY id")
}

func mindPlaceholders(ids []int64) (string, []any) { return placeholders(len(ids)), int64Args(ids) }

// FusionJoin adds a node to an existing supernode.
type FusionJoin struct {
	NodeID, Supernode int64
	Sim               float64
}

// FusionCluster is a new supernode and its members (two or more).
type FusionCluster struct {
	Kind    kb.MindKind
	Label   string
	Members []int64
	Sims    []float64
}

// SaveFusion records one fusion pass in one transaction: new supernodes,
// joins to existing ones, and marks considered as fused. Nodes that vanished
// meanwhile (document removed) are skipped; a cluster left with fewer than
// two members is not created.
func (s *Store) SaveFusion(ctx context.Context, clusters []FusionCluster, joins []FusionJoin, considered []int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	exists := func(id int64) (bool, error) {
		var n int
		err := tx.QueryRowContext(ctx, "SELECT count(*) FROM mind_nodes WHERE id = ? AND NOT EXISTS (SELECT 1 FROM supernode_members WHERE node_id = ?)", id, id).Scan(&n)
		return n == 1, err
	}
	for _, c := range clusters {
		var members []int64
		var sims []float64
		for i, id := range c.Members {
			ok, err := exists(id)
			if err != nil {
				return err
			}
			if ok {
				members = append(members, id)
				sims = append(sims, c.Sims[i])
			}
		}
		if len(members) < 2 {
			continue
		}
		res, err := tx.ExecContext(ctx, "INSERT INTO supernodes(kind, label) VALUES(?, ?)", string(c.Kind), c.Label)
		if err != nil {
			return err
		}
		sid, err := res.LastInsertId()
		if err != nil {
			return err
		}
		for i, id := range members {
			if _, err := tx.ExecContext(ctx, "INSERT INTO supernode_members(supernode_id, node_id, sim) VALUES(?, ?, ?)", sid, id, sims[i]); err != nil {
				return err
			}
		}
	}
	for _, j := range joins {
		ok, err := exists(j.NodeID)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO supernode_members(supernode_id, node_id, sim) SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM supernodes WHERE id = ?)", j.Supernode, j.NodeID, j.Sim, j.Supernode); err != nil {
			return err
		}
	}
	for _, id := range considered {
		if _, err := tx.ExecContext(ctx, "UPDATE mind_nodes SET fused = 1 WHERE id = ?", id); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Supernodes lists every supernode with its members and their documents.
func (s *Store) Supernodes(ctx context.Context) ([]kb.Supernode, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT s.id, s.kind, s.label, m.node_id, n.doc_id FROM supernodes s
		JOIN supernode_members m ON m.supernode_id = s.id JOIN mind_nodes n ON n.id = m.node_id ORDER BY s.id, n.doc_id, n.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []kb.Supernode
	for rows.Next() {
		var id, node, doc int64
		var kind, label string
		if err := rows.Scan(&id, &kind, &label, &node, &doc); err != nil {
			return nil, err
		}
		if len(out) == 0 || out[len(out)-1].ID != id {
			out = append(out, kb.Supernode{ID: id, Kind: kb.MindKind(kind), Label: label})
		}
		sn := &out[len(out)-1]
		sn.Members = append(sn.Members, node)
		if len(sn.DocIDs) == 0 || sn.DocIDs[len(sn.DocIDs)-1] != doc {
			sn.DocIDs = append(sn.DocIDs, doc)
		}
	}
	return out, rows.Err()
}

// NearestMindNodes returns the k nodes whose path vectors are closest
// (cosine) to q; Score is the cosine similarity.
func (s *Store) NearestMindNodes(ctx context.Context, q []float32, k int) ([]ScoredNode, error) {
	if len(q) != MindVecDim {
		return nil, fmt.Errorf("mind-map query vector has %d dimensions, want %d", len(q), MindVecDim)
	}
	hits, err := s.searchVectors(ctx, mindVecs, q, k)
	if err != nil {
		return nil, err
	}
	out := make([]ScoredNode, len(hits))
	for i, h := range hits {
		out[i] = ScoredNode{NodeID: h.ID, Score: h.Score}
	}
	return out, nil
}

// LexicalMindNodes runs an FTS5 MATCH over node labels and path contexts
// (weights: label, path, cjk); Score is -bm25.
func (s *Store) LexicalMindNodes(ctx context.Context, match string, weights [3]float64, k int) ([]ScoredNode, error) {
	if strings.TrimSpace(match) == "" {
		return nil, nil
	}
	rows, err := s.db.QueryContext(ctx, fmt.Sprintf("SELECT rowid, bm25(mind_fts, %g, %g, %g) AS r FROM mind_fts WHERE mind_fts MATCH ? ORDER BY r LIMIT ?", weights[0], weights[1], weights[2]), match, k)
	if err != nil {
		return nil, fmt.Errorf("mind-map lexical search: %w", err)
	}
	defer rows.Close()
	var out []ScoredNode
	for rows.Next() {
		var sc ScoredNode
		if err := rows.Scan(&sc.NodeID, &sc.Score); err != nil {
			return nil, err
		}
		sc.Score = -sc.Score
		out = append(out, sc)
	}
	return out, rows.Err()
}

// MindVectors loads the path vectors of nodes.
func (s *Store) MindVectors(ctx context.Context, ids []int64) (map[int64][]float32, error) {
	return s.fetchVectors(ctx, mindVecs, ids)
}

// MindNodeCount counts a project's mind-map nodes by kind.
func (s *Store) MindNodeCount(ctx context.Context) (map[kb.MindKind]int, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT kind, count(*) FROM mind_nodes GROUP BY kind")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[kb.MindKind]int{}
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			return nil, err
		}
		out[kb.MindKind(k)] = n
	}
	return out, rows.Err()
}

// ErrNoMindMap is returned for a document whose mind map is not built (yet).
var ErrNoMindMap = errors.New("no mind map yet (run indexing)")
