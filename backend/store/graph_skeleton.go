package store

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"cairn/backend/kb"
)

// SkeletonEntity is an entity without its text: id, name, type and its
// number of mentions per document.
type SkeletonEntity struct {
	ID         int64
	Name, Type string
	Docs       []DocCount
}

// SkeletonRelation is a relation without its text: its ends, its predicate
// and its number of sources per document.
type SkeletonRelation struct {
	ID, Subject, Object int64
	Predicate           string
	Docs                []DocCount
}

// DocCount is a number of rows in one document.
type DocCount struct {
	Doc int64
	N   int
}

// GraphSkeleton reads every entity and relation without descriptions,
// statements or spans (the Graph view ranks and selects on this, then
// loads the text of what it shows). Both lists are in id order.
func (s *Store) GraphSkeleton(ctx context.Context) ([]SkeletonEntity, []SkeletonRelation, error) {
	var ents []SkeletonEntity
	idx := map[int64]int{}
	rows, err := s.db.QueryContext(ctx, "SELECT id, name, type FROM entities ORDER BY id")
	if err != nil {
		return nil, nil, err
	}
	for rows.Next() {
		var e SkeletonEntity
		if err := rows.Scan(&e.ID, &e.Name, &e.Type); err != nil {
			rows.Close()
			return nil, nil, err
		}
		idx[e.ID] = len(ents)
		ents = append(ents, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	if err := countPerDoc(ctx, s, "SELECT entity_id, doc_id FROM mentions", func(id, doc int64) {
		if i, ok := idx[id]; ok {
			ents[i].Docs = countDoc(ents[i].Docs, doc)
		}
	}); err != nil {
		return nil, nil, err
	}
	var rels []SkeletonRelation
	ridx := map[int64]int{}
	rows, err = s.db.QueryContext(ctx, "SELECT id, subject_id, object_id, predicate FROM relations ORDER BY id")
	if err != nil {
		return nil, nil, err
	}
	preds := map[string]string{} // one string per distinct predicate
	for rows.Next() {
		var r SkeletonRelation
		if err := rows.Scan(&r.ID, &r.Subject, &r.Object, &r.Predicate); err != nil {
			rows.Close()
			return nil, nil, err
		}
		if p, ok := preds[r.Predicate]; ok {
			r.Predicate = p
		} else {
			r.Predicate = strings.Clone(r.Predicate)
			preds[r.Predicate] = r.Predicate
		}
		ridx[r.ID] = len(rels)
		rels = append(rels, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	err = countPerDoc(ctx, s, "SELECT relation_id, doc_id FROM relation_sources", func(id, doc int64) {
		if i, ok := ridx[id]; ok {
			rels[i].Docs = countDoc(rels[i].Docs, doc)
		}
	})
	return ents, rels, err
}

// countPerDoc reads (id, document) pairs in table order (a plain scan:
// grouping in SQL walks an index and looks every row up).
func countPerDoc(ctx context.Context, s *Store, q string, f func(id, doc int64)) error {
	rows, err := s.db.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id, doc int64
		if err := rows.Scan(&id, &doc); err != nil {
			return err
		}
		f(id, doc)
	}
	return rows.Err()
}

// countDoc counts one more row of doc (a short list: an entity is in few documents).
func countDoc(ds []DocCount, doc int64) []DocCount {
	for i := range ds {
		if ds[i].Doc == doc {
			ds[i].N++
			return ds
		}
	}
	return append(ds, DocCount{Doc: doc, N: 1})
}

// GraphVersion changes whenever the graph does (a chunk's extraction saved
// or removed): the explorer's cached skeleton is kept while it stays.
func (s *Store) GraphVersion(ctx context.Context) (string, error) {
	var v [6]int64
	err := s.db.QueryRowContext(ctx, `SELECT (SELECT coalesce(max(id), 0) FROM mentions), (SELECT count(*) FROM mentions),
		(SELECT coalesce(max(id), 0) FROM relation_sources), (SELECT count(*) FROM relation_sources),
		(SELECT coalesce(max(id), 0) FROM entities), (SELECT count(*) FROM relations)`).Scan(&v[0], &v[1], &v[2], &v[3], &v[4], &v[5])
	return fmt.Sprint(v), err
}

// GraphEntitiesFew is GraphEntities with at most most mentions per entity,
// only those in docs when docs is not empty (the first stored, in document
// order): what a bounded view shows of entities named thousands of times.
func (s *Store) GraphEntitiesFew(ctx context.Context, ids, docs []int64, most int) ([]kb.Entity, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	out, err := loadEntities(ctx, s.db, ids, false)
	if err != nil || len(out) == 0 {
		return out, err
	}
	for i := range out {
		out[i].Mentions = []kb.Source{}
	}
	inDocs := ""
	if len(docs) > 0 {
		inDocs = " AND doc_id IN (" + placeholders(len(docs)) + ")"
	}
	// One indexed read per entity, in row order, stopping at most: sorting
	// an entity's thousands of mentions to keep a dozen costs more than
	// the whole view.
	stmt, err := s.db.PrepareContext(ctx, "SELECT entity_id, doc_id, chunk_id, page_start, page_end, char_start, char_end FROM mentions WHERE entity_id = ?"+inDocs+" ORDER BY id LIMIT ?")
	if err != nil {
		return nil, err
	}
	defer stmt.Close()
	for i := range out {
		rows, err := stmt.QueryContext(ctx, append(append([]any{out[i].ID}, int64Args(docs)...), most)...)
		if err != nil {
			return nil, err
		}
		if err := scanSources(rows, func(_ int64, src kb.Source) { out[i].Mentions = append(out[i].Mentions, src) }); err != nil {
			return nil, err
		}
		sort.Slice(out[i].Mentions, func(a, b int) bool {
			x, y := out[i].Mentions[a], out[i].Mentions[b]
			if x.DocID != y.DocID {
				return x.DocID < y.DocID
			}
			return x.CharStart < y.CharStart
		})
	}
	return out, nil
}
