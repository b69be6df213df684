package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"cairn/backend/kb"
)

// Read queries for question answering over the knowledge graph (tables of
// migration 0003): vector recall of entities and relations, alias lookup,
// the mutual index in both directions, and relations with their sources.

// IDScore is a row id with a score (higher is better).
type IDScore struct {
	ID    int64
	Score float64
}

func rtStrArgs(xs []string) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// HasGraph says whether the project has any entity.
func (s *Store) HasGraph(ctx context.Context) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM entities)").Scan(&n)
	return n == 1, err
}

// nearest searches a graph vector set in memory (store/vectors.go).
func (s *Store) nearest(ctx context.Context, table, _ string, q []float32, k int) ([]IDScore, error) {
	return s.NearestVectors(ctx, table, q, k)
}

// NearestEntities returns the k entities whose vectors (built-in embedder,
// 1024 dims) are closest to q; Score is cosine similarity.
func (s *Store) NearestEntities(ctx context.Context, q []float32, k int) ([]IDScore, error) {
	return s.nearest(ctx, "entities_vec", "entity_id", q, k)
}

// NearestRelations returns the k relations whose statement vectors are
// closest to q.
func (s *Store) NearestRelations(ctx context.Context, q []float32, k int) ([]IDScore, error) {
	return s.nearest(ctx, "relations_vec", "relation_id", q, k)
}

// EntitiesByAlias maps each normalised surface form to the entities known by
// it (entity_aliases).
func (s *Store) EntitiesByAlias(ctx context.Context, norms []string) (map[string][]int64, error) {
	out := map[string][]int64{}
	for start := 0; start < len(norms); start += 500 {
		part := norms[start:min(len(norms), start+500)]
		rows, err := s.db.QueryContext(ctx, "SELECT alias_norm, entity_id FROM entity_aliases WHERE alias_norm IN ("+placeholders(len(part))+")", rtStrArgs(part)...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var a string
			var id int64
			if err := rows.Scan(&a, &id); err != nil {
				rows.Close()
				return nil, err
			}
			out[a] = append(out[a], id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *Store) pairs(ctx context.Context, q string, ids []int64) (map[int64][]int64, error) {
	out := map[int64][]int64{}
	for start := 0; start < len(ids); start += 500 {
		part := ids[start:min(len(ids), start+500)]
		rows, err := s.db.QueryContext(ctx, strings.Replace(q, "(?)", "("+placeholders(len(part))+")", 1), int64Args(part)...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var a, b int64
			if err := rows.Scan(&a, &b); err != nil {
				rows.Close()
				return nil, err
			}
			out[a] = append(out[a], b)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// EntityChunks maps each entity to the distinct chunks that mention it
// (ascending chunk id).
func (s *Store) EntityChunks(ctx context.Context, entityIDs []int64) (map[int64][]int64, error) {
	return s.pairs(ctx, "SELECT DISTINCT entity_id, chunk_id FROM mentions WHERE entity_id IN (?) ORDER BY entity_id, chunk_id", entityIDs)
}

// ChunkEntities maps each chunk to the distinct entities it mentions.
func (s *Store) ChunkEntities(ctx context.Context, chunkIDs []int64) (map[int64][]int64, error) {
	return s.pairs(ctx, "SELECT DISTINCT chunk_id, entity_id FROM mentions WHERE chunk_id IN (?) ORDER BY chunk_id, entity_id", chunkIDs)
}

// EntityChunkCounts returns how many distinct chunks mention each entity
// (its specificity: rarer entities are better seeds).
func (s *Store) EntityChunkCounts(ctx context.Context, entityIDs []int64) (map[int64]int, error) {
	out := map[int64]int{}
	for start := 0; start < len(entityIDs); start += 500 {
		part := entityIDs[start:min(len(entityIDs), start+500)]
		rows, err := s.db.QueryContext(ctx, "SELECT entity_id, count(DISTINCT chunk_id) FROM mentions WHERE entity_id IN ("+placeholders(len(part))+") GROUP BY entity_id", int64Args(part)...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id int64
			var n int
			if err := rows.Scan(&id, &n); err != nil {
				rows.Close()
				return nil, err
			}
			out[id] = n
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// RelationsTouching returns the ids of relations with an endpoint among
// entityIDs (at most limit, highest confidence first).
func (s *Store) RelationsTouching(ctx context.Context, entityIDs []int64, limit int) ([]int64, error) {
	if len(entityIDs) == 0 || limit <= 0 {
		return nil, nil
	}
	if len(entityIDs) > 400 {
		entityIDs = entityIDs[:400]
	}
	ph := placeholders(len(entityIDs))
	args := append(int64Args(entityIDs), int64Args(entityIDs)...)
	args = append(args, limit)
	return s.queryInt64s(ctx, "SELECT id FROM relations WHERE subject_id IN ("+ph+") OR object_id IN ("+ph+") ORDER BY confidence DESC, id LIMIT ?", args...)
}

// RelationsByID loads relations with their endpoint names and every source
// (chunk, page span, char span), in the order of ids.
func (s *Store) RelationsByID(ctx context.Context, ids []int64) ([]kb.Relation, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	byID := map[int64]*kb.Relation{}
	for start := 0; start < len(ids); start += 500 {
		part := ids[start:min(len(ids), start+500)]
		ph := placeholders(len(part))
		rows, err := s.db.QueryContext(ctx, `SELECT r.id, r.subject_id, r.predicate, r.object_id, se.name, oe.name, r.statement, r.confidence
			FROM relations r JOIN entities se ON se.id = r.subject_id JOIN entities oe ON oe.id = r.object_id WHERE r.id IN (`+ph+`)`, int64Args(part)...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			r := &kb.Relation{Sources: []kb.Source{}}
			if err := rows.Scan(&r.ID, &r.Subject, &r.Predicate, &r.Object, &r.SubjectName, &r.ObjectName, &r.Statement, &r.Confidence); err != nil {
				rows.Close()
				return nil, err
			}
			byID[r.ID] = r
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		rows, err = s.db.QueryContext(ctx, `SELECT relation_id, doc_id, chunk_id, page_start, page_end, char_start, char_end
			FROM relation_sources WHERE relation_id IN (`+ph+`) ORDER BY relation_id, chunk_id, char_start`, int64Args(part)...)
		if err != nil {
			return nil, err
		}
		if err := scanSources(rows, func(rid int64, src kb.Source) {
			if r := byID[rid]; r != nil {
				r.Sources = append(r.Sources, src)
			}
		}); err != nil {
			return nil, err
		}
	}
	out := make([]kb.Relation, 0, len(ids))
	for _, id := range ids {
		if r := byID[id]; r != nil {
			out = append(out, *r)
		}
	}
	return out, nil
}

// EntitiesByID loads entities (name, type, description, aliases) with at
// most perEntity mentions each, in the order of ids.
func (s *Store) EntitiesByID(ctx context.Context, ids []int64, perEntity int) ([]kb.Entity, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	byID := map[int64]*kb.Entity{}
	for start := 0; start < len(ids); start += 500 {
		part := ids[start:min(len(ids), start+500)]
		ph := placeholders(len(part))
		rows, err := s.db.QueryContext(ctx, "SELECT id, name, type, semantic_type, description, aliases FROM entities WHERE id IN ("+ph+")", int64Args(part)...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			e := &kb.Entity{Aliases: []string{}, Mentions: []kb.Source{}}
			var al string
			if err := rows.Scan(&e.ID, &e.Name, &e.Type, &e.SemanticType, &e.Description, &al); err != nil {
				rows.Close()
				return nil, err
			}
			_ = json.Unmarshal([]byte(al), &e.Aliases)
			byID[e.ID] = e
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		if perEntity > 0 {
			// A correlated LIMIT per entity reads perEntity index entries
			// of a popular entity, not all its mentions (a window function
			// over the IN list read them all: 140–360 ms instead of 6 ms
			// for the 300 most mentioned entities of the 10k-chunk corpus).
			rows, err = s.db.QueryContext(ctx, `SELECT m.entity_id, m.doc_id, m.chunk_id, m.page_start, m.page_end, m.char_start, m.char_end
				FROM entities e JOIN mentions m ON m.id IN (SELECT m2.id FROM mentions m2 WHERE m2.entity_id = e.id ORDER BY m2.chunk_id, m2.char_start LIMIT ?)
				WHERE e.id IN (`+ph+`) ORDER BY m.entity_id, m.chunk_id, m.char_start`, append([]any{perEntity}, int64Args(part)...)...)
			if err != nil {
				return nil, err
			}
			if err := scanSources(rows, func(eid int64, src kb.Source) {
				if e := byID[eid]; e != nil {
					e.Mentions = append(e.Mentions, src)
				}
			}); err != nil {
				return nil, err
			}
		}
	}
	out := make([]kb.Entity, 0, len(ids))
	for _, id := range ids {
		if e := byID[id]; e != nil {
			out = append(out, *e)
		}
	}
	return out, nil
}

// ChunkSource returns the provenance of a whole chunk.
func (s *Store) ChunkSource(ctx context.Context, chunkID int64) (kb.Source, error) {
	src := kb.Source{ChunkID: chunkID}
	err := s.db.QueryRowContext(ctx, "SELECT doc_id, page_start, page_end, char_start, char_end FROM chunks WHERE id = ?", chunkID).
		Scan(&src.DocID, &src.PageStart, &src.PageEnd, &src.CharStart, &src.CharEnd)
	if err == sql.ErrNoRows {
		return src, err
	}
	return src, err
}

// TitledChunk is a chunk whose document title or heading path names a
// topic: the chunk id, its document, its place in the document, and the
// texts that can name its topic.
type TitledChunk struct {
	ChunkID  int64
	DocID    int64
	Ordinal  int
	Title    string
	Headings []string
}

// ChunksNamed returns the chunks whose document title (the document's first
// chunk) or one of whose headings has a kb.TopicKey among keys, at most
// limit, in chunk order. It reads topic_keys, an exact index: the cost is the
// rows found, not the size of the project.
func (s *Store) ChunksNamed(ctx context.Context, keys []string, limit int) ([]TitledChunk, error) {
	if len(keys) == 0 || limit <= 0 {
		return nil, nil
	}
	args := make([]any, 0, len(keys)+1)
	for _, k := range keys {
		args = append(args, k)
	}
	args = append(args, limit)
	rows, err := s.db.QueryContext(ctx, `SELECT c.id, c.doc_id, c.ordinal, d.title, c.heading_path FROM chunks c JOIN documents d ON d.id = c.doc_id
		WHERE c.id IN (SELECT chunk_id FROM topic_keys WHERE key IN (`+placeholders(len(keys))+`)) ORDER BY c.id LIMIT ?`, args...)
	if err != nil {
		return nil, fmt.Errorf("chunks named: %w", err)
	}
	defer rows.Close()
	var out []TitledChunk
	for rows.Next() {
		var t TitledChunk
		var hp string
		if err := rows.Scan(&t.ChunkID, &t.DocID, &t.Ordinal, &t.Title, &hp); err != nil {
			return nil, err
		}
		_ = json.Unmarshal([]byte(hp), &t.Headings)
		out = append(out, t)
	}
	return out, rows.Err()
}

// topicKeys are the topic_keys rows of one chunk: its document title's key
// when it is the document's first chunk, and each heading's key.
func topicKeys(title string, first bool, headings []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if k := kb.TopicKey(s); k != "" && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	if first {
		add(title)
	}
	for _, h := range headings {
		add(h)
	}
	return out
}

// fillTopicKeys writes topic_keys for every chunk once, after migration 0009
// created the table for a project that already had chunks (meta topic_keys
// 'pending'); new chunks get theirs in SaveContent.
func (s *Store) fillTopicKeys(ctx context.Context) error {
	return s.fillPending(ctx, "topic_keys", func(tx *sql.Tx) error { return writeTopicKeys(ctx, tx) })
}

// writeTopicKeys writes the topic keys of every stored chunk.
func writeTopicKeys(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT c.id, c.doc_id, d.title, c.heading_path FROM chunks c JOIN documents d ON d.id = c.doc_id ORDER BY c.doc_id, c.ordinal`)
	if err != nil {
		return err
	}
	type keyed struct {
		id   int64
		keys []string
	}
	var all []keyed
	lastDoc := int64(-1)
	for rows.Next() {
		var id, doc int64
		var title, hp string
		if err := rows.Scan(&id, &doc, &title, &hp); err != nil {
			rows.Close()
			return err
		}
		var headings []string
		_ = json.Unmarshal([]byte(hp), &headings)
		if ks := topicKeys(title, doc != lastDoc, headings); len(ks) > 0 {
			all = append(all, keyed{id, ks})
		}
		lastDoc = doc
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	ins, err := tx.PrepareContext(ctx, "INSERT OR IGNORE INTO topic_keys(key, chunk_id) VALUES(?, ?)")
	if err != nil {
		return err
	}
	defer ins.Close()
	for _, k := range all {
		for _, key := range k.keys {
			if _, err := ins.ExecContext(ctx, key, k.id); err != nil {
				return fmt.Errorf("topic keys of chunk %d: %w", k.id, err)
			}
		}
	}
	return nil
}
