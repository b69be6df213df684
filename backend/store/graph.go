package store

// The knowledge graph's tables (migration 0003): entities and relations, the
// mutual index with the chunks (mentions, relation_sources), facts, concept
// links, per-chunk extraction status and the entity/relation vectors.
//
// Writes go through SaveChunkGraph, one transaction per chunk, so an indexing
// run killed at any moment leaves either the whole extraction of a chunk or
// none of it. Entity and relation attributes are maintained by SQL triggers
// from the rows that support them (see 0003_graph.sql), which is what makes
// document removal (a plain cascade from chunks) exact.

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"cairn/backend/kb"
	"cairn/backend/vecindex"
)

func init() {
	registerCheck(
		Invariant{"relations without a source chunk", "SELECT count(*) FROM relations r WHERE NOT EXISTS (SELECT 1 FROM relation_sources s WHERE s.relation_id = r.id)"},
		Invariant{"entities without a mention", "SELECT count(*) FROM entities e WHERE NOT EXISTS (SELECT 1 FROM mentions m WHERE m.entity_id = e.id)"},
		Invariant{"mentions whose chunk is gone", "SELECT count(*) FROM mentions m WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = m.chunk_id)"},
		Invariant{"mentions whose document does not match their chunk", "SELECT count(*) FROM mentions m JOIN chunks c ON c.id = m.chunk_id WHERE c.doc_id <> m.doc_id"},
		Invariant{"mentions whose span lies outside their chunk", "SELECT count(*) FROM mentions m JOIN chunks c ON c.id = m.chunk_id WHERE m.char_start < c.char_start OR m.char_end > c.char_end OR m.page_start < c.page_start OR m.page_end > c.page_end"},
		Invariant{"relation sources whose span lies outside their chunk", "SELECT count(*) FROM relation_sources s JOIN chunks c ON c.id = s.chunk_id WHERE s.char_start < c.char_start OR s.char_end > c.char_end OR c.doc_id <> s.doc_id"},
		Invariant{"relation sources whose chunk is gone", "SELECT count(*) FROM relation_sources s WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = s.chunk_id)"},
		Invariant{"relations whose subject or object has no mention in a source chunk", "SELECT count(*) FROM relation_sources s JOIN relations r ON r.id = s.relation_id WHERE NOT EXISTS (SELECT 1 FROM mentions m WHERE m.chunk_id = s.chunk_id AND m.entity_id = r.subject_id) OR NOT EXISTS (SELECT 1 FROM mentions m WHERE m.chunk_id = s.chunk_id AND m.entity_id = r.object_id)"},
		Invariant{"facts whose span lies outside their chunk", "SELECT count(*) FROM facts f JOIN chunks c ON c.id = f.chunk_id WHERE f.char_start < c.char_start OR f.char_end > c.char_end OR c.doc_id <> f.doc_id"},
		Invariant{"entities without a vector", "SELECT count(*) FROM entities e WHERE NOT EXISTS (SELECT 1 FROM entities_vec v WHERE v.entity_id = e.id)"},
		Invariant{"entity vectors without an entity", "SELECT count(*) FROM entities_vec v WHERE NOT EXISTS (SELECT 1 FROM entities e WHERE e.id = v.entity_id)"},
		Invariant{"relations without a vector", "SELECT count(*) FROM relations r WHERE NOT EXISTS (SELECT 1 FROM relations_vec v WHERE v.relation_id = r.id)"},
		Invariant{"relation vectors without a relation", "SELECT count(*) FROM relations_vec v WHERE NOT EXISTS (SELECT 1 FROM relations r WHERE r.id = v.relation_id)"},
		Invariant{"entity aliases out of step with the mentions", "SELECT count(*) FROM entity_aliases a WHERE NOT EXISTS (SELECT 1 FROM mentions m WHERE m.entity_id = a.entity_id AND (m.norm_key = a.alias_norm OR EXISTS (SELECT 1 FROM json_each(m.alias_norms) j WHERE j.value = a.alias_norm)))"},
		Invariant{"concepts without a link", "SELECT count(*) FROM concepts k WHERE NOT EXISTS (SELECT 1 FROM entity_concepts l WHERE l.concept_id = k.id) AND NOT EXISTS (SELECT 1 FROM concept_isa l WHERE l.child_id = k.id OR l.parent_id = k.id)"},
		Invariant{"chunks marked extracted (ok) without any entity, relation or fact", "SELECT count(*) FROM chunk_extractions x WHERE x.status = 'ok' AND NOT EXISTS (SELECT 1 FROM mentions m WHERE m.chunk_id = x.chunk_id) AND NOT EXISTS (SELECT 1 FROM facts f WHERE f.chunk_id = x.chunk_id)"},
	)
}

// Extractor names recorded per chunk besides a model name.
const (
	ExtractorOffline  = "offline"          // the deterministic extractor, in offline mode
	ExtractorFallback = "offline-fallback" // the model call failed; the offline result stands in until a retry
)

// GraphEntity is one entity as a chunk's extraction gives it.
type GraphEntity struct {
	Name         string      // as written in the chunk
	Type         string      // coarse type (person, organization, ...)
	SemanticType string      // finer type, optional
	Description  string      // one line, optional
	Aliases      []string    // other names, optional (any language)
	Concepts     []string    // belongTo Concepts[0]; Concepts[i] isA Concepts[i+1]
	Mentions     []kb.Source // where in the chunk it is named (at least one)
}

// GraphRelation is one relation between two entities of the same chunk.
type GraphRelation struct {
	Subject, Object int // indexes into ChunkGraph.Entities
	Predicate       string
	Statement       string
	Confidence      float64
	Source          kb.Source // the chunk and the span of the sentence that states it
}

// ChunkGraph is the extraction of one chunk, stored in one transaction.
type ChunkGraph struct {
	ChunkID   int64
	Status    kb.ExtractStatus // ok, empty or failed
	Reason    string
	Extractor string
	Calls     int
	Prompt    int // prompt tokens
	Complete  int // completion tokens
	Wall      time.Duration
	Entities  []GraphEntity
	Relations []GraphRelation
	Facts     []kb.Fact
}

// Candidate is an existing entity that a new one might be the same as:
// known by one of its normalised names (ByName), or by a name that begins
// like it (a similarity candidate for the aligner to judge).
type Candidate struct {
	kb.Entity
	ByName bool
}

// Aligner decides which existing entity (if any) a new mention is: it
// returns the id of one of the candidates, or 0 for a new entity.
type Aligner func(e GraphEntity, candidates []Candidate) int64

// Vectorizer embeds entity and relation texts for entities_vec and
// relations_vec (the built-in hashed embedder, see 0003_graph.sql).
type Vectorizer func(text string) []float32

// EntityVectorText is what an entity's vector embeds.
func EntityVectorText(name, description string) string {
	if description == "" {
		return name
	}
	return name + ". " + description
}

// RelationVectorText is what a relation's vector embeds.
func RelationVectorText(subject, predicate, object, statement string) string {
	return subject + " " + predicate + " " + object + ". " + statement
}

// SaveChunkGraph replaces a chunk's extraction (mentions, relation sources,
// facts, concept links, status) in one transaction, aligning each entity
// with the existing graph through align, and re-embeds what changed.
func (s *Store) SaveChunkGraph(ctx context.Context, g ChunkGraph, vec Vectorizer, align Aligner) error {
	switch g.Status {
	case kb.ExtractOK, kb.ExtractEmpty, kb.ExtractFailed:
	default:
		return fmt.Errorf("chunk %d: invalid extraction status %q", g.ChunkID, g.Status)
	}
	if g.Extractor == "" {
		return fmt.Errorf("chunk %d: extractor not named", g.ChunkID)
	}
	sqlTx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer sqlTx.Rollback()
	tx := cachedTx{sqlTx, s}
	var docID int64
	var cs, ce int
	if err := tx.QueryRowContext(ctx, "SELECT doc_id, char_start, char_end FROM chunks WHERE id = ?", g.ChunkID).Scan(&docID, &cs, &ce); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("chunk %d: no such chunk (document removed?)", g.ChunkID)
		}
		return err
	}
	// the vector tables are large blobs: a bigger page cache for this
	// connection saves re-reading them for every chunk
	if _, err := tx.ExecContext(ctx, "PRAGMA cache_size = -65536"); err != nil {
		return err
	}
	if err := clearChunkGraph(ctx, tx, g.ChunkID); err != nil {
		return err
	}
	inSpan := func(src kb.Source) error {
		if src.ChunkID != g.ChunkID || src.DocID != docID || src.CharStart < cs || src.CharEnd > ce || src.CharStart > src.CharEnd {
			return fmt.Errorf("chunk %d: source %+v is outside the chunk (%d–%d)", g.ChunkID, src, cs, ce)
		}
		return nil
	}
	ids := make([]int64, len(g.Entities))
	for i, e := range g.Entities {
		if len(e.Mentions) == 0 || strings.TrimSpace(e.Name) == "" {
			return fmt.Errorf("chunk %d: entity %q without a name or mention", g.ChunkID, e.Name)
		}
		id, err := resolveEntity(ctx, tx, e, vec, align)
		if err != nil {
			return err
		}
		ids[i] = id
		aliases, aliasNorms := aliasLists(e)
		for _, m := range e.Mentions {
			if err := inSpan(m); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO mentions(entity_id, chunk_id, doc_id, surface, norm_key, semantic_type, description, aliases, alias_norms, page_start, page_end, char_start, char_end)
				VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, g.ChunkID, docID, strings.TrimSpace(e.Name), kb.NormKey(e.Name), e.SemanticType, oneLine(e.Description),
				aliases, aliasNorms, m.PageStart, m.PageEnd, m.CharStart, m.CharEnd); err != nil {
				return fmt.Errorf("chunk %d: mention of %q: %w", g.ChunkID, e.Name, err)
			}
		}
		if err := linkConcepts(ctx, tx, id, g.ChunkID, e.Concepts); err != nil {
			return err
		}
	}
	for _, r := range g.Relations {
		if r.Subject < 0 || r.Subject >= len(ids) || r.Object < 0 || r.Object >= len(ids) {
			return fmt.Errorf("chunk %d: relation %q refers to entity %d/%d of %d", g.ChunkID, r.Predicate, r.Subject, r.Object, len(ids))
		}
		if err := inSpan(r.Source); err != nil {
			return err
		}
		sub, obj := ids[r.Subject], ids[r.Object]
		pred := oneLine(r.Predicate)
		if sub == obj || pred == "" {
			continue // both ends aligned to one entity: not an edge
		}
		var rid int64
		err := tx.QueryRowContext(ctx, "SELECT id FROM relations WHERE subject_id = ? AND predicate = ? AND object_id = ?", sub, pred, obj).Scan(&rid)
		if errors.Is(err, sql.ErrNoRows) {
			res, err := tx.ExecContext(ctx, "INSERT INTO relations(subject_id, predicate, object_id, vec_stale) VALUES(?, ?, ?, 1)", sub, pred, obj)
			if err != nil {
				return err
			}
			rid, _ = res.LastInsertId()
		} else if err != nil {
			return err
		}
		conf := min(max(r.Confidence, 0), 1)
		if _, err := tx.ExecContext(ctx, `INSERT INTO relation_sources(relation_id, chunk_id, doc_id, statement, confidence, page_start, page_end, char_start, char_end)
			VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)`, rid, g.ChunkID, docID, oneLine(r.Statement), conf, r.Source.PageStart, r.Source.PageEnd, r.Source.CharStart, r.Source.CharEnd); err != nil {
			return err
		}
	}
	for i, f := range g.Facts {
		if err := inSpan(f.Source); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO facts(chunk_id, doc_id, ordinal, text, page_start, page_end, char_start, char_end) VALUES(?, ?, ?, ?, ?, ?, ?, ?)`,
			g.ChunkID, docID, i, oneLine(f.Text), f.Source.PageStart, f.Source.PageEnd, f.Source.CharStart, f.Source.CharEnd); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO chunk_extractions(chunk_id, status, reason, extractor, calls, prompt_tokens, completion_tokens, wall_ms, updated_at)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)`, g.ChunkID, g.Status, g.Reason, g.Extractor, g.Calls, g.Prompt, g.Complete, g.Wall.Milliseconds(), nowText()); err != nil {
		return err
	}
	if err := refreshVectors(ctx, tx, vec); err != nil {
		return err
	}
	return tx.Commit()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func aliasLists(e GraphEntity) (string, string) {
	key := kb.NormKey(e.Name)
	seen := map[string]bool{}
	var al, an []string
	for _, a := range e.Aliases {
		a = oneLine(a)
		k := kb.NormKey(a)
		if a == "" || k == "" || k == key || seen[k] {
			continue
		}
		seen[k] = true
		al = append(al, a)
		an = append(an, k)
	}
	if al == nil {
		return "[]", "[]"
	}
	b1, _ := json.Marshal(al)
	b2, _ := json.Marshal(an)
	return string(b1), string(b2)
}

// clearChunkGraph deletes what a chunk contributed; the triggers recompute
// or delete the entities, relations and concepts it touched.
func clearChunkGraph(ctx context.Context, tx cachedTx, chunkID int64) error {
	for _, q := range []string{
		"DELETE FROM relation_sources WHERE chunk_id = ?",
		"DELETE FROM entity_concepts WHERE chunk_id = ?",
		"DELETE FROM concept_isa WHERE chunk_id = ?",
		"DELETE FROM mentions WHERE chunk_id = ?",
		"DELETE FROM facts WHERE chunk_id = ?",
		"DELETE FROM chunk_extractions WHERE chunk_id = ?",
	} {
		if _, err := tx.ExecContext(ctx, q, chunkID); err != nil {
			return fmt.Errorf("clear chunk %d: %w", chunkID, err)
		}
	}
	return nil
}

// resolveEntity finds the entity a new mention belongs to (exact key and
// type first, then the aligner's choice among name and vector candidates)
// or creates it.
func resolveEntity(ctx context.Context, tx cachedTx, e GraphEntity, vec Vectorizer, align Aligner) (int64, error) {
	key := kb.NormKey(e.Name)
	if key == "" {
		return 0, fmt.Errorf("entity %q has an empty normalised name", e.Name)
	}
	typ := e.Type
	if typ == "" {
		typ = "other"
	}
	var id int64
	err := tx.QueryRowContext(ctx, "SELECT id FROM entities WHERE norm_key = ? AND type = ?", key, typ).Scan(&id)
	if err == nil {
		return id, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	if align == nil {
		align = sameTypeByName
	}
	{
		cands, err := candidates(ctx, tx, e)
		if err != nil {
			return 0, err
		}
		if len(cands) > 0 {
			if id := align(e, cands); id != 0 {
				for _, c := range cands {
					if c.ID == id {
						return id, nil
					}
				}
				return 0, fmt.Errorf("aligner chose entity %d, not a candidate", id)
			}
		}
	}
	res, err := tx.ExecContext(ctx, "INSERT INTO entities(norm_key, type, name, vec_stale) VALUES(?, ?, ?, 1)", key, typ, strings.TrimSpace(e.Name))
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

// sameTypeByName is the default aligner: an existing entity of the same
// type known by the name or one of the aliases.
func sameTypeByName(e GraphEntity, cands []Candidate) int64 {
	typ := e.Type
	if typ == "" {
		typ = "other"
	}
	for _, c := range cands {
		if c.ByName && c.Type == typ {
			return c.ID
		}
	}
	return 0
}

// candidatePrefixK is how many entities with a name of the same beginning
// an aligner sees besides the exact name matches.
const candidatePrefixK = 20

func candidates(ctx context.Context, tx cachedTx, e GraphEntity) ([]Candidate, error) {
	keys := []any{kb.NormKey(e.Name)}
	for _, a := range e.Aliases {
		if k := kb.NormKey(a); k != "" {
			keys = append(keys, k)
		}
	}
	byID := map[int64]*Candidate{}
	var order []int64
	rows, err := tx.QueryContext(ctx, "SELECT DISTINCT entity_id FROM entity_aliases WHERE alias_norm IN ("+placeholders(len(keys))+")", keys...)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		byID[id] = &Candidate{ByName: true}
		order = append(order, id)
	}
	rows.Close()
	// Blocking for similarity merges: entities known by a name that starts
	// like this one (first 4 characters of the normalised key). A k-NN over
	// entities_vec per new entity costs O(entities) and made indexing
	// quadratic; the aligner compares name vectors of these few itself.
	key := kb.NormKey(e.Name)
	if r := []rune(key); len(r) >= 4 {
		prefix := string(r[:4])
		rows, err := tx.QueryContext(ctx, "SELECT DISTINCT entity_id FROM entity_aliases WHERE alias_norm >= ? AND alias_norm < ? LIMIT ?", prefix, prefix+"\U0010FFFF", candidatePrefixK)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, err
			}
			if _, ok := byID[id]; !ok {
				byID[id] = &Candidate{}
				order = append(order, id)
			}
		}
		rows.Close()
	}
	return fillCandidates(ctx, tx, byID, order)
}

// fillCandidates loads the candidate entities (without mentions), in the
// order they were found.
func fillCandidates(ctx context.Context, q queryer, byID map[int64]*Candidate, order []int64) ([]Candidate, error) {
	if len(order) == 0 {
		return nil, nil
	}
	ents, err := loadEntities(ctx, q, order, false)
	if err != nil {
		return nil, err
	}
	got := map[int64]kb.Entity{}
	for _, en := range ents {
		got[en.ID] = en
	}
	out := make([]Candidate, 0, len(ents))
	for _, id := range order {
		if en, ok := got[id]; ok {
			c := byID[id]
			c.Entity = en
			out = append(out, *c)
		}
	}
	return out, nil
}

func linkConcepts(ctx context.Context, tx cachedTx, entityID, chunkID int64, chain []string) error {
	var prev int64
	for i, name := range chain {
		name = oneLine(name)
		key := kb.NormKey(name)
		if key == "" {
			break
		}
		var cid int64
		err := tx.QueryRowContext(ctx, "SELECT id FROM concepts WHERE norm_key = ?", key).Scan(&cid)
		if errors.Is(err, sql.ErrNoRows) {
			res, err := tx.ExecContext(ctx, "INSERT INTO concepts(norm_key, name) VALUES(?, ?)", key, name)
			if err != nil {
				return err
			}
			cid, _ = res.LastInsertId()
		} else if err != nil {
			return err
		}
		if i == 0 {
			if _, err := tx.ExecContext(ctx, "INSERT OR IGNORE INTO entity_concepts(entity_id, concept_id, chunk_id) VALUES(?, ?, ?)", entityID, cid, chunkID); err != nil {
				return err
			}
		} else if prev != cid {
			if _, err := tx.ExecContext(ctx, "INSERT OR IGNORE INTO concept_isa(child_id, parent_id, chunk_id) VALUES(?, ?, ?)", prev, cid, chunkID); err != nil {
				return err
			}
		}
		prev = cid
	}
	return nil
}

// cachedTx runs a transaction's statements through statements the store
// prepared once per connection: SaveChunkGraph runs the same few dozen
// statements for every chunk, and parsing them (with the triggers they
// fire) was a fifth of the graph stage's time.
type cachedTx struct {
	*sql.Tx
	s *Store
}

// ExecContext runs q in the transaction.
func (t cachedTx) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	if st := t.s.stmts.get(ctx, t.s.DB, q); st != nil {
		return t.Tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	}
	return t.Tx.ExecContext(ctx, q, args...)
}

// QueryContext runs q in the transaction.
func (t cachedTx) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if st := t.s.stmts.get(ctx, t.s.DB, q); st != nil {
		return t.Tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	}
	return t.Tx.QueryContext(ctx, q, args...)
}

// QueryRowContext runs q in the transaction.
func (t cachedTx) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	if st := t.s.stmts.get(ctx, t.s.DB, q); st != nil {
		return t.Tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return t.Tx.QueryRowContext(ctx, q, args...)
}

// stmtCache holds statements prepared on the store's pool, by text.
type stmtCache struct {
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

// maxCachedStmts bounds the cache (IN lists make texts of many lengths).
const maxCachedStmts = 256

// get returns q prepared (nil when the cache is full or q fails to
// prepare: the caller runs it unprepared and sees the error there).
func (c *stmtCache) get(ctx context.Context, db *sql.DB, q string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.m[q]; ok {
		return st
	}
	if len(c.m) >= maxCachedStmts {
		return nil
	}
	st, err := db.PrepareContext(context.WithoutCancel(ctx), q)
	if err != nil {
		return nil
	}
	if c.m == nil {
		c.m = map[string]*sql.Stmt{}
	}
	c.m[q] = st
	return st
}

type queryer interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

type execQueryer interface {
	queryer
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
}

// refreshVectors re-embeds every entity and relation marked stale whose
// text differs from the text its vector was made from.
func refreshVectors(ctx context.Context, tx execQueryer, vec Vectorizer) error {
	if vec == nil {
		return errors.New("graph vectors: no vectorizer")
	}
	type item struct {
		id         int64
		text, have string
	}
	load := func(q string, relation bool) ([]item, error) {
		rows, err := tx.QueryContext(ctx, q)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []item
		for rows.Next() {
			var it item
			var a, b, c, d string
			if err := rows.Scan(&it.id, &a, &b, &c, &d, &it.have); err != nil {
				return nil, err
			}
			if relation {
				it.text = RelationVectorText(a, b, c, d)
			} else {
				it.text = EntityVectorText(a, b)
			}
			out = append(out, it)
		}
		return out, rows.Err()
	}
	for _, t := range []struct {
		table, vtable, col, q string
		relation              bool
	}{
		{"entities", "entities_vec", "entity_id", "SELECT id, name, description, '', '', vec_text FROM entities WHERE vec_stale = 1", false},
		{"relations", "relations_vec", "relation_id", `SELECT r.id, s.name, r.predicate, o.name, r.statement, r.vec_text FROM relations r
			JOIN entities s ON s.id = r.subject_id JOIN entities o ON o.id = r.object_id WHERE r.vec_stale = 1`, true},
	} {
		items, err := load(t.q, t.relation)
		if err != nil {
			return err
		}
		for _, it := range items {
			if it.text != it.have {
				if err := putVector(ctx, tx, t.vtable, t.col, it.id, vec(it.text)); err != nil {
					return err
				}
			}
			if _, err := tx.ExecContext(ctx, "UPDATE "+t.table+" SET vec_stale = 0, vec_text = ? WHERE id = ?", it.text, it.id); err != nil {
				return err
			}
		}
	}
	return nil
}

func putVector(ctx context.Context, tx execQueryer, table, col string, id int64, v []float32) error {
	if _, err := tx.ExecContext(ctx, "DELETE FROM "+table+" WHERE "+col+" = ?", id); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO "+table+"("+col+", embedding) VALUES(?, ?)", id, vecindex.EncodeSparse(v)); err != nil {
		return fmt.Errorf("%s %d: %w", table, id, err)
	}
	return nil
}

// RefreshGraphVectors re-embeds entities and relations whose name,
// description or statement changed since they were embedded (after a
// document removal recomputed a shared entity, for example).
func (s *Store) RefreshGraphVectors(ctx context.Context, vec Vectorizer) error {
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := refreshVectors(ctx, tx, vec); err != nil {
		return err
	}
	return tx.Commit()
}

// ---- reads ----

const entityCols = "e.id, e.name, e.type, e.semantic_type, e.description, e.aliases"

func scanEntity(sc interface{ Scan(...any) error }) (kb.Entity, error) {
	var e kb.Entity
	var aliases string
	if err := sc.Scan(&e.ID, &e.Name, &e.Type, &e.SemanticType, &e.Description, &aliases); err != nil {
		return e, err
	}
	_ = json.Unmarshal([]byte(aliases), &e.Aliases)
	if e.Aliases == nil {
		e.Aliases = []string{}
	}
	return e, nil
}

// loadEntities loads entities by id (all when ids is nil), ordered by id,
// with their mentions when withMentions.
func loadEntities(ctx context.Context, q queryer, ids []int64, withMentions bool) ([]kb.Entity, error) {
	var out []kb.Entity
	err := batched(ids, func(where string, args []any) error {
		rows, err := q.QueryContext(ctx, "SELECT "+entityCols+" FROM entities e"+strings.ReplaceAll(where, "ID", "e.id")+" ORDER BY e.id", args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			e, err := scanEntity(rows)
			if err != nil {
				return err
			}
			out = append(out, e)
		}
		return rows.Err()
	})
	if err != nil || !withMentions || len(out) == 0 {
		return out, err
	}
	idx := map[int64]int{}
	for i := range out {
		idx[out[i].ID] = i
		out[i].Mentions = []kb.Source{}
	}
	err = batched(ids, func(where string, args []any) error {
		rows, err := q.QueryContext(ctx, "SELECT m.entity_id, m.doc_id, m.chunk_id, m.page_start, m.page_end, m.char_start, m.char_end FROM mentions m"+
			strings.ReplaceAll(where, "ID", "m.entity_id")+" ORDER BY m.entity_id, m.doc_id, m.char_start, m.chunk_id", args...)
		if err != nil {
			return err
		}
		return scanSources(rows, func(eid int64, src kb.Source) {
			if i, ok := idx[eid]; ok {
				out[i].Mentions = append(out[i].Mentions, src)
			}
		})
	})
	return out, err
}

// batched calls f with a WHERE clause ("" for all when ids is nil) over ids
// in batches of at most 500; "ID" in the clause stands for the id column.
func batched(ids []int64, f func(where string, args []any) error) error {
	if ids == nil {
		return f("", nil)
	}
	for len(ids) > 0 {
		b := ids[:min(len(ids), 500)]
		ids = ids[len(b):]
		if err := f(" WHERE ID IN ("+placeholders(len(b))+")", int64Args(b)); err != nil {
			return err
		}
	}
	return nil
}

// GraphEntities returns entities by id (every entity when ids is nil), in
// id order, with their mentions (the chunks that name them).
func (s *Store) GraphEntities(ctx context.Context, ids []int64) ([]kb.Entity, error) {
	if ids != nil && len(ids) == 0 {
		return nil, nil
	}
	return loadEntities(ctx, s.DB, ids, true)
}

// GraphRelations returns relations by id (every relation when ids is nil),
// in id order, with subject/object names and their sources.
func (s *Store) GraphRelations(ctx context.Context, ids []int64) ([]kb.Relation, error) {
	if ids != nil && len(ids) == 0 {
		return nil, nil
	}
	return loadRelations(ctx, s.DB, ids, "r.id")
}

// RelationsOf returns the relations that have one of the entities as subject
// or object, with sources, in id order.
func (s *Store) RelationsOf(ctx context.Context, entityIDs []int64) ([]kb.Relation, error) {
	if len(entityIDs) == 0 {
		return nil, nil
	}
	seen := map[int64]bool{}
	var ids []int64
	err := batched(entityIDs, func(where string, args []any) error {
		q := "SELECT id FROM relations" + strings.ReplaceAll(where, "ID", "subject_id") + " UNION SELECT id FROM relations" + strings.ReplaceAll(where, "ID", "object_id")
		rows, err := s.DB.QueryContext(ctx, q, append(args, args...)...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return err
			}
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
		return rows.Err()
	})
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return loadRelations(ctx, s.DB, ids, "r.id")
}

func loadRelations(ctx context.Context, q queryer, ids []int64, col string) ([]kb.Relation, error) {
	var out []kb.Relation
	err := batched(ids, func(where string, args []any) error {
		rows, err := q.QueryContext(ctx, `SELECT r.id, r.subject_id, r.predicate, r.object_id, s.name, o.name, r.statement, r.confidence
			FROM relations r JOIN entities s ON s.id = r.subject_id JOIN entities o ON o.id = r.object_id`+strings.ReplaceAll(where, "ID", col)+" ORDER BY r.id", args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r kb.Relation
			if err := rows.Scan(&r.ID, &r.Subject, &r.Predicate, &r.Object, &r.SubjectName, &r.ObjectName, &r.Statement, &r.Confidence); err != nil {
				return err
			}
			r.Sources = []kb.Source{}
			out = append(out, r)
		}
		return rows.Err()
	})
	if err != nil || len(out) == 0 {
		return out, err
	}
	idx := map[int64]int{}
	rids := make([]int64, len(out))
	for i := range out {
		idx[out[i].ID] = i
		rids[i] = out[i].ID
	}
	if ids == nil {
		rids = nil
	}
	err = batched(rids, func(where string, args []any) error {
		rows, err := q.QueryContext(ctx, "SELECT relation_id, doc_id, chunk_id, page_start, page_end, char_start, char_end FROM relation_sources"+
			strings.ReplaceAll(where, "ID", "relation_id")+" ORDER BY relation_id, doc_id, char_start, chunk_id", args...)
		if err != nil {
			return err
		}
		return scanSources(rows, func(rid int64, src kb.Source) {
			if i, ok := idx[rid]; ok {
				out[i].Sources = append(out[i].Sources, src)
			}
		})
	})
	return out, err
}

// EntityMentions returns the mutual-index rows of one entity.
func (s *Store) EntityMentions(ctx context.Context, entityID int64) ([]kb.Source, error) {
	es, err := loadEntities(ctx, s.DB, []int64{entityID}, true)
	if err != nil || len(es) == 0 {
		return nil, err
	}
	return es[0].Mentions, nil
}

// RelationSources returns the chunks (with sentence spans) a relation was found in.
func (s *Store) RelationSources(ctx context.Context, relationID int64) ([]kb.Source, error) {
	rs, err := loadRelations(ctx, s.DB, []int64{relationID}, "r.id")
	if err != nil || len(rs) == 0 {
		return nil, err
	}
	return rs[0].Sources, nil
}

// EntitiesInChunks maps each chunk to the entities mentioned in it (the
// mutual index read from the chunk side).
func (s *Store) EntitiesInChunks(ctx context.Context, chunkIDs []int64) (map[int64][]int64, error) {
	out := map[int64][]int64{}
	if len(chunkIDs) == 0 {
		return out, nil
	}
	err := batched(chunkIDs, func(where string, args []any) error {
		rows, err := s.DB.QueryContext(ctx, "SELECT DISTINCT chunk_id, entity_id FROM mentions"+strings.ReplaceAll(where, "ID", "chunk_id")+" ORDER BY chunk_id, entity_id", args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var c, e int64
			if err := rows.Scan(&c, &e); err != nil {
				return err
			}
			out[c] = append(out[c], e)
		}
		return rows.Err()
	})
	return out, err
}

// Facts returns the atomic facts of a document in reading order (chunk
// order, then order inside the chunk).
func (s *Store) FactsByDocument(ctx context.Context, docID int64) ([]kb.Fact, error) {
	rows, err := s.DB.QueryContext(ctx, `SELECT f.id, f.ordinal, f.text, f.doc_id, f.chunk_id, f.page_start, f.page_end, f.char_start, f.char_end
		FROM facts f JOIN chunks c ON c.id = f.chunk_id WHERE f.doc_id = ? ORDER BY c.ordinal, f.ordinal`, docID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []kb.Fact
	for rows.Next() {
		var f kb.Fact
		if err := rows.Scan(&f.ID, &f.Ordinal, &f.Text, &f.Source.DocID, &f.Source.ChunkID, &f.Source.PageStart, &f.Source.PageEnd, &f.Source.CharStart, &f.Source.CharEnd); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

func isZero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// EntitiesByName returns the entities known by name or alias (normalised,
// see kb.NormKey), exact key first, then by number of mentions.
func (s *Store) EntitiesByName(ctx context.Context, name string) ([]kb.Entity, error) {
	key := kb.NormKey(name)
	if key == "" {
		return nil, nil
	}
	rows, err := s.DB.QueryContext(ctx, `SELECT a.entity_id FROM entity_aliases a JOIN entities e ON e.id = a.entity_id WHERE a.alias_norm = ?
		ORDER BY (e.norm_key = a.alias_norm) DESC, (SELECT count(*) FROM mentions m WHERE m.entity_id = e.id) DESC, e.id`, key)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if len(ids) == 0 {
		return nil, nil
	}
	ents, err := loadEntities(ctx, s.DB, ids, true)
	if err != nil {
		return nil, err
	}
	pos := map[int64]int{}
	for i, id := range ids {
		pos[id] = i
	}
	sort.Slice(ents, func(i, j int) bool { return pos[ents[i].ID] < pos[ents[j].ID] })
	return ents, nil
}

// EntityByName is the best match of EntitiesByName (ok=false when none).
func (s *Store) EntityByName(ctx context.Context, name string) (kb.Entity, bool, error) {
	es, err := s.EntitiesByName(ctx, name)
	if err != nil || len(es) == 0 {
		return kb.Entity{}, false, err
	}
	return es[0], true, nil
}

// Neighbourhood returns the subgraph within hops relation steps of an
// entity (breadth first, at most limit entities, the start included), with
// the relations among the entities kept.
func (s *Store) Neighbourhood(ctx context.Context, entityID int64, hops, limit int) (kb.Graph, error) {
	if limit <= 0 {
		limit = 50
	}
	keep := map[int64]bool{entityID: true}
	order := []int64{entityID}
	frontier := []int64{entityID}
	for h := 0; h < hops && len(frontier) > 0 && len(order) < limit; h++ {
		var next []int64
		err := batched(frontier, func(where string, args []any) error {
			q := `SELECT other FROM (SELECT object_id AS other, subject_id AS ID, confidence FROM relations UNION ALL SELECT subject_id, object_id, confidence FROM relations)` +
				where + " GROUP BY other ORDER BY max(confidence) DESC, count(*) DESC, other"
			rows, err := s.DB.QueryContext(ctx, q, args...)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var id int64
				if err := rows.Scan(&id); err != nil {
					return err
				}
				if !keep[id] && len(order) < limit {
					keep[id] = true
					order = append(order, id)
					next = append(next, id)
				}
			}
			return rows.Err()
		})
		if err != nil {
			return kb.Graph{}, err
		}
		frontier = next
	}
	ents, err := loadEntities(ctx, s.DB, order, true)
	if err != nil {
		return kb.Graph{}, err
	}
	if len(ents) == 0 {
		return kb.Graph{Entities: []kb.Entity{}, Relations: []kb.Relation{}}, nil
	}
	rels, err := s.RelationsOf(ctx, order)
	if err != nil {
		return kb.Graph{}, err
	}
	g := kb.Graph{Entities: ents, Relations: []kb.Relation{}}
	for _, r := range rels {
		if keep[r.Subject] && keep[r.Object] {
			g.Relations = append(g.Relations, r)
		}
	}
	return g, nil
}

// EntityConcepts returns the concept chain names an entity belongs to
// (belongTo first, then isA parents), deduplicated, in a stable order.
func (s *Store) EntityConcepts(ctx context.Context, entityID int64) ([]string, error) {
	rows, err := s.DB.QueryContext(ctx, `WITH RECURSIVE up(id, depth) AS (
			SELECT concept_id, 0 FROM entity_concepts WHERE entity_id = ?
			UNION SELECT i.parent_id, up.depth + 1 FROM concept_isa i JOIN up ON i.child_id = up.id WHERE up.depth < 8)
		SELECT k.name FROM up JOIN concepts k ON k.id = up.id GROUP BY k.id ORDER BY min(up.depth), k.name`, entityID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// ---- extraction status ----

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
	q := `SELECT c.id, c.doc_id, c.ordinal, c.page_start, c.page_end, c.char_start, c.char_end, c.heading_path, c.text, c.tokens FROM chunks c WHERE ` + where + " ORDER BY c.doc_id, c.ordinal"
	if limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", limit)
	}
	rows, err := s.DB.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []kb.Chunk
	for rows.Next() {
		var c kb.Chunk
		var hp string
		if err := rows.Scan(&c.ID, &c.DocID, &c.Ordinal, &c.PageStart, &c.PageEnd, &c.CharStart, &c.CharEnd, &hp, &c.Text, &c.Tokens); err != nil {
			return nil, err
		}
		_ = json.Unmarshal([]byte(hp), &c.HeadingPath)
		out = append(out, c)
	}
	return out, rows.Err()
}

// ExtractionCounts counts chunks per extraction status; pending is what
// PendingExtraction(extractor) would return minus those with a failed row
// (counted as failed).
func (s *Store) ExtractionCounts(ctx context.Context, extractor string) (kb.ExtractCounts, error) {
	var c kb.ExtractCounts
	rows, err := s.DB.QueryContext(ctx, `SELECT x.status, count(*) FROM chunk_extractions x JOIN chunks c ON c.id = x.chunk_id GROUP BY x.status`)
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
	err = s.DB.QueryRowContext(ctx, "SELECT count(*) FROM chunks c WHERE "+where+" AND NOT EXISTS (SELECT 1 FROM chunk_extractions x WHERE x.chunk_id = c.id AND x.status = 'failed')", args...).Scan(&c.Pending)
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
	err := s.DB.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(c.tokens),0), coalesce(sum(x.calls),0), coalesce(sum(x.prompt_tokens),0), coalesce(sum(x.completion_tokens),0)
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
	rows, err := s.DB.QueryContext(ctx, q+" ORDER BY c.doc_id, c.ordinal", args...)
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
	err = s.DB.QueryRowContext(ctx, "SELECT title, file_name FROM documents WHERE id = ?", docID).Scan(&title, &fileName)
	return
}
