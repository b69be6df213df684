package store

import (
	"context"
	"encoding/json"
	"sort"
	"strings"

	"cairn/backend/kb"
)

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
	return loadEntities(ctx, s.db, ids, true)
}

// GraphRelations returns relations by id (every relation when ids is nil),
// in id order, with subject/object names and their sources.
func (s *Store) GraphRelations(ctx context.Context, ids []int64) ([]kb.Relation, error) {
	if ids != nil && len(ids) == 0 {
		return nil, nil
	}
	return loadRelations(ctx, s.db, ids, "r.id")
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
		rows, err := s.db.QueryContext(ctx, q, append(args, args...)...)
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
	return loadRelations(ctx, s.db, ids, "r.id")
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
	es, err := loadEntities(ctx, s.db, []int64{entityID}, true)
	if err != nil || len(es) == 0 {
		return nil, err
	}
	return es[0].Mentions, nil
}

// RelationSources returns the chunks (with sentence spans) a relation was found in.
func (s *Store) RelationSources(ctx context.Context, relationID int64) ([]kb.Source, error) {
	rs, err := loadRelations(ctx, s.db, []int64{relationID}, "r.id")
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
		rows, err := s.db.QueryContext(ctx, "SELECT DISTINCT chunk_id, entity_id FROM mentions"+strings.ReplaceAll(where, "ID", "chunk_id")+" ORDER BY chunk_id, entity_id", args...)
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
	rows, err := s.db.QueryContext(ctx, `SELECT f.id, f.ordinal, f.text, f.doc_id, f.chunk_id, f.page_start, f.page_end, f.char_start, f.char_end
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

// EntitiesByName returns the entities known by name or alias (normalised,
// see kb.NormKey), exact key first, then by number of mentions.
func (s *Store) EntitiesByName(ctx context.Context, name string) ([]kb.Entity, error) {
	key := kb.NormKey(name)
	if key == "" {
		return nil, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT a.entity_id FROM entity_aliases a JOIN entities e ON e.id = a.entity_id WHERE a.alias_norm = ?
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
	ents, err := loadEntities(ctx, s.db, ids, true)
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
			rows, err := s.db.QueryContext(ctx, q, args...)
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
	ents, err := loadEntities(ctx, s.db, order, true)
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
	rows, err := s.db.QueryContext(ctx, `WITH RECURSIVE up(id, depth) AS (
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

// EntityValues returns the dates, amounts, percentages and quantities
// stated of an entity, in document and text order.
func (s *Store) EntityValues(ctx context.Context, entityID int64) ([]kb.Value, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT kind, value, doc_id, chunk_id, page_start, page_end, char_start, char_end
		FROM entity_facts WHERE entity_id = ? ORDER BY doc_id, char_start, id`, entityID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []kb.Value
	for rows.Next() {
		var v kb.Value
		if err := rows.Scan(&v.Kind, &v.Text, &v.Source.DocID, &v.Source.ChunkID, &v.Source.PageStart, &v.Source.PageEnd, &v.Source.CharStart, &v.Source.CharEnd); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
