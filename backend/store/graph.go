package store

// The knowledge graph's tables (migration 0003): entities and relations, the
// mutual index with the chunks (mentions, relation_sources), facts, concept
// links, per-chunk extraction status and the entity/relation vectors.
//
// Writes go through SaveChunkGraph(s), whole chunks per transaction, so an
// indexing run killed at any moment leaves either the whole extraction of a
// chunk or none of it. Entity and relation attributes are maintained by SQL triggers
// from the rows that support them (see 0003_graph.sql), which is what makes
// document removal (a plain cascade from chunks) exact.

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"cairn/backend/graph"
	"cairn/backend/kb"
)

// graphChecks are the knowledge graph's invariants (Check, tableChecks).
var graphChecks = []Invariant{
	{"relations without a source chunk", "SELECT count(*) FROM relations r WHERE NOT EXISTS (SELECT 1 FROM relation_sources s WHERE s.relation_id = r.id)"},
	{"entities without a mention", "SELECT count(*) FROM entities e WHERE NOT EXISTS (SELECT 1 FROM mentions m WHERE m.entity_id = e.id)"},
	{"mentions whose chunk is gone", "SELECT count(*) FROM mentions m WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = m.chunk_id)"},
	{"mentions whose document does not match their chunk", "SELECT count(*) FROM mentions m JOIN chunks c ON c.id = m.chunk_id WHERE c.doc_id <> m.doc_id"},
	{"mentions whose span lies outside their chunk", "SELECT count(*) FROM mentions m JOIN chunks c ON c.id = m.chunk_id WHERE m.char_start < c.char_start OR m.char_end > c.char_end OR m.page_start < c.page_start OR m.page_end > c.page_end"},
	{"relation sources whose span lies outside their chunk", "SELECT count(*) FROM relation_sources s JOIN chunks c ON c.id = s.chunk_id WHERE s.char_start < c.char_start OR s.char_end > c.char_end OR c.doc_id <> s.doc_id"},
	{"relation sources whose chunk is gone", "SELECT count(*) FROM relation_sources s WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = s.chunk_id)"},
	{"relations whose subject or object has no mention in a source chunk", "SELECT count(*) FROM relation_sources s JOIN relations r ON r.id = s.relation_id WHERE NOT EXISTS (SELECT 1 FROM mentions m WHERE m.chunk_id = s.chunk_id AND m.entity_id = r.subject_id) OR NOT EXISTS (SELECT 1 FROM mentions m WHERE m.chunk_id = s.chunk_id AND m.entity_id = r.object_id)"},
	{"facts whose span lies outside their chunk", "SELECT count(*) FROM facts f JOIN chunks c ON c.id = f.chunk_id WHERE f.char_start < c.char_start OR f.char_end > c.char_end OR c.doc_id <> f.doc_id"},
	{"entities without a vector", "SELECT count(*) FROM entities e WHERE NOT EXISTS (SELECT 1 FROM entities_vec v WHERE v.entity_id = e.id)"},
	{"entity vectors without an entity", "SELECT count(*) FROM entities_vec v WHERE NOT EXISTS (SELECT 1 FROM entities e WHERE e.id = v.entity_id)"},
	{"relations without a vector", "SELECT count(*) FROM relations r WHERE NOT EXISTS (SELECT 1 FROM relations_vec v WHERE v.relation_id = r.id)"},
	{"relation vectors without a relation", "SELECT count(*) FROM relations_vec v WHERE NOT EXISTS (SELECT 1 FROM relations r WHERE r.id = v.relation_id)"},
	{"entity aliases out of step with the mentions", "SELECT count(*) FROM entity_aliases a WHERE NOT EXISTS (SELECT 1 FROM mentions m WHERE m.entity_id = a.entity_id AND (m.norm_key = a.alias_norm OR EXISTS (SELECT 1 FROM json_each(m.alias_norms) j WHERE j.value = a.alias_norm)))"},
	{"entity type votes out of step with the mentions", "SELECT count(*) FROM entity_type_votes v WHERE v.n <> (SELECT count(*) FROM mentions m WHERE m.entity_id = v.entity_id AND m.type = v.type) OR abs(v.weight - (SELECT coalesce(sum(m.type_weight), 0) FROM mentions m WHERE m.entity_id = v.entity_id AND m.type = v.type)) > 1e-6"},
	{"concepts without a link", "SELECT count(*) FROM concepts k WHERE NOT EXISTS (SELECT 1 FROM entity_concepts l WHERE l.concept_id = k.id) AND NOT EXISTS (SELECT 1 FROM concept_isa l WHERE l.child_id = k.id OR l.parent_id = k.id)"},
	{"chunks marked extracted (ok) without any entity, relation or fact", "SELECT count(*) FROM chunk_extractions x WHERE x.status = 'ok' AND NOT EXISTS (SELECT 1 FROM mentions m WHERE m.chunk_id = x.chunk_id) AND NOT EXISTS (SELECT 1 FROM facts f WHERE f.chunk_id = x.chunk_id)"},
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
	TypeWeight   float64     // strength of the evidence for Type in this chunk (0: 1 for a type, 0 for "other")
	SemanticType string      // finer type, optional
	Description  string      // one line, optional
	Aliases      []string    // other names, optional (any language)
	Concepts     []string    // belongTo Concepts[0]; Concepts[i] isA Concepts[i+1]
	Mentions     []kb.Source // where in the chunk it is named (at least one)
	Values       []kb.Value  // dates, amounts, percentages, quantities stated of it, optional
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
	return s.SaveChunkGraphs(ctx, []ChunkGraph{g}, vec, align)
}

// SaveChunkGraphs saves several chunks' extractions in one transaction and
// refreshes the changed entity and relation vectors once at its end: the
// offline extractor is fast enough that a commit and a vector refresh per
// chunk were most of the graph stage. All or none are saved.
func (s *Store) SaveChunkGraphs(ctx context.Context, gs []ChunkGraph, vec Vectorizer, align Aligner) error {
	if len(gs) == 0 {
		return nil
	}
	sqlTx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer sqlTx.Rollback()
	tx := cachedTx{sqlTx, s}
	// the vector tables are large blobs: a bigger page cache for this
	// connection saves re-reading them for every chunk
	if _, err := tx.ExecContext(ctx, "PRAGMA cache_size = -65536"); err != nil {
		return err
	}
	for _, g := range gs {
		if err := saveChunkGraph(ctx, tx, g, vec, align); err != nil {
			return err
		}
	}
	if err := refreshVectors(ctx, tx, vec); err != nil {
		return err
	}
	return tx.Commit()
}

// saveChunkGraph writes one chunk's extraction inside tx.
func saveChunkGraph(ctx context.Context, tx cachedTx, g ChunkGraph, vec Vectorizer, align Aligner) error {
	switch g.Status {
	case kb.ExtractOK, kb.ExtractEmpty, kb.ExtractFailed:
	default:
		return fmt.Errorf("chunk %d: invalid extraction status %q", g.ChunkID, g.Status)
	}
	if g.Extractor == "" {
		return fmt.Errorf("chunk %d: extractor not named", g.ChunkID)
	}
	var docID int64
	var cs, ce int
	if err := tx.QueryRowContext(ctx, "SELECT doc_id, char_start, char_end FROM chunks WHERE id = ?", g.ChunkID).Scan(&docID, &cs, &ce); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("chunk %d: no such chunk (document removed?)", g.ChunkID)
		}
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
		if err := absorbDefined(ctx, tx, e, id); err != nil {
			return err
		}
		aliases, aliasNorms := aliasLists(e)
		typ, weight := typeVote(e)
		weight /= float64(len(e.Mentions)) // the chunk votes once, whatever its number of mentions
		for _, m := range e.Mentions {
			if err := inSpan(m); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO mentions(entity_id, chunk_id, doc_id, surface, norm_key, semantic_type, description, aliases, alias_norms, type, type_weight, page_start, page_end, char_start, char_end)
				VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, g.ChunkID, docID, strings.TrimSpace(e.Name), kb.NormKey(e.Name), e.SemanticType, kb.OneLine(e.Description),
				aliases, aliasNorms, typ, weight, m.PageStart, m.PageEnd, m.CharStart, m.CharEnd); err != nil {
				return fmt.Errorf("chunk %d: mention of %q: %w", g.ChunkID, e.Name, err)
			}
		}
		if err := linkConcepts(ctx, tx, id, g.ChunkID, e.Concepts); err != nil {
			return err
		}
		for _, v := range e.Values {
			if err := inSpan(v.Source); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO entity_facts(entity_id, chunk_id, doc_id, kind, value, page_start, page_end, char_start, char_end) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				id, g.ChunkID, docID, v.Kind, kb.OneLine(v.Text), v.Source.PageStart, v.Source.PageEnd, v.Source.CharStart, v.Source.CharEnd); err != nil {
				return fmt.Errorf("chunk %d: value of %q: %w", g.ChunkID, e.Name, err)
			}
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
		pred := kb.OneLine(r.Predicate)
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
			VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)`, rid, g.ChunkID, docID, kb.OneLine(r.Statement), conf, r.Source.PageStart, r.Source.PageEnd, r.Source.CharStart, r.Source.CharEnd); err != nil {
			return err
		}
	}
	for i, f := range g.Facts {
		if err := inSpan(f.Source); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO facts(chunk_id, doc_id, ordinal, text, page_start, page_end, char_start, char_end) VALUES(?, ?, ?, ?, ?, ?, ?, ?)`,
			g.ChunkID, docID, i, kb.OneLine(f.Text), f.Source.PageStart, f.Source.PageEnd, f.Source.CharStart, f.Source.CharEnd); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO chunk_extractions(chunk_id, status, reason, extractor, calls, prompt_tokens, completion_tokens, wall_ms, updated_at)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)`, g.ChunkID, g.Status, g.Reason, g.Extractor, g.Calls, g.Prompt, g.Complete, g.Wall.Milliseconds(), nowText()); err != nil {
		return err
	}
	return nil
}

// typeVote is the type a chunk gives an entity and the weight of its vote
// (migration 0018): the extractor's evidence strength, else 1 for a type
// and 0 for "other" (which says nothing).
func typeVote(e GraphEntity) (string, float64) {
	typ := strings.TrimSpace(e.Type)
	if typ == "" {
		typ = "other"
	}
	w := e.TypeWeight
	switch {
	case typ == "other":
		w = 0
	case w <= 0:
		w = 1
	}
	return typ, w
}

func aliasLists(e GraphEntity) (string, string) {
	key := kb.NormKey(e.Name)
	seen := map[string]bool{}
	var al, an []string
	for _, a := range e.Aliases {
		a = kb.OneLine(a)
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
		"DELETE FROM entity_facts WHERE chunk_id = ?",
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

// resolveEntity finds the entity a new mention belongs to (the entity of
// its exact name whatever its type — one name, one type: the type is voted
// by all the mentions, see 0018_entity_type_votes.sql — then the aligner's
// choice among name and vector candidates) or creates it.
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
	// an older build may have left one name under two types: the one of
	// this type first
	err := tx.QueryRowContext(ctx, "SELECT id FROM entities WHERE norm_key = ? ORDER BY type = ? DESC, id LIMIT 1", key, typ).Scan(&id)
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

// absorbDefined merges into entity id the entity named by an abbreviation
// that e's chunk defines ("Digital Millennium Copyright Act (DMCA)"): a
// passage that used "DMCA" alone may have been saved first, as an entity
// of its own, before the passage that defines it.
func absorbDefined(ctx context.Context, tx cachedTx, e GraphEntity, id int64) error {
	for _, a := range e.Aliases {
		if !graph.DefinedAbbreviation(e.Name, a) {
			continue
		}
		rows, err := tx.QueryContext(ctx, "SELECT id FROM entities WHERE norm_key = ? AND id <> ?", kb.NormKey(a), id)
		if err != nil {
			return err
		}
		var from []int64
		for rows.Next() {
			var f int64
			if err := rows.Scan(&f); err != nil {
				rows.Close()
				return err
			}
			from = append(from, f)
		}
		rows.Close()
		for _, f := range from {
			if err := mergeEntity(ctx, tx, f, id); err != nil {
				return err
			}
		}
	}
	return nil
}

// mergeEntity moves everything of entity from onto entity into and deletes
// from: its mentions are inserted again under into (the triggers keep
// names, aliases and type votes), its relations re-pointed (a relation
// into already has takes the sources), its values and concept links
// moved.
func mergeEntity(ctx context.Context, tx cachedTx, from, into int64) error {
	if from == into {
		return nil
	}
	for _, q := range []string{
		`INSERT INTO mentions(entity_id, chunk_id, doc_id, surface, norm_key, semantic_type, description, aliases, alias_norms, type, type_weight, page_start, page_end, char_start, char_end)
			SELECT ?2, chunk_id, doc_id, surface, norm_key, semantic_type, description, aliases, alias_norms, type, type_weight, page_start, page_end, char_start, char_end FROM mentions WHERE entity_id = ?1 ORDER BY id`,
		"UPDATE entity_facts SET entity_id = ?2 WHERE entity_id = ?1",
		"INSERT OR IGNORE INTO entity_concepts(entity_id, concept_id, chunk_id) SELECT ?2, concept_id, chunk_id FROM entity_concepts WHERE entity_id = ?1",
		// relations: the sources of one that into already has move to it
		`UPDATE relation_sources SET relation_id = (SELECT r2.id FROM relations r, relations r2 WHERE r.id = relation_sources.relation_id
				AND r2.subject_id = CASE WHEN r.subject_id = ?1 THEN ?2 ELSE r.subject_id END AND r2.predicate = r.predicate
				AND r2.object_id = CASE WHEN r.object_id = ?1 THEN ?2 ELSE r.object_id END)
			WHERE relation_id IN (SELECT r.id FROM relations r WHERE (r.subject_id = ?1 OR r.object_id = ?1) AND EXISTS (SELECT 1 FROM relations r2
				WHERE r2.subject_id = CASE WHEN r.subject_id = ?1 THEN ?2 ELSE r.subject_id END AND r2.predicate = r.predicate
				AND r2.object_id = CASE WHEN r.object_id = ?1 THEN ?2 ELSE r.object_id END))`,
		// a relation between the two becomes a loop: dropped
		"DELETE FROM relations WHERE (subject_id = ?1 AND object_id = ?2) OR (subject_id = ?2 AND object_id = ?1)",
		"UPDATE OR IGNORE relations SET subject_id = ?2, vec_stale = 1 WHERE subject_id = ?1",
		"UPDATE OR IGNORE relations SET object_id = ?2, vec_stale = 1 WHERE object_id = ?1",
		// its mentions, values, votes and alias keys go by cascade, without
		// the per-mention recomputation of a living entity (migration 0019)
		"DELETE FROM entities WHERE id = ?1",
	} {
		if _, err := tx.ExecContext(ctx, q, from, into); err != nil {
			return fmt.Errorf("merge entity %d into %d: %w", from, into, err)
		}
	}
	return nil
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
		name = kb.OneLine(name)
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
