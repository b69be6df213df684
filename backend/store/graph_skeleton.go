package store

import (
	"context"
	"fmt"
	"strings"
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
	if err := countPerDoc(ctx, s, "SELECT entity_id, doc_id, count(*) FROM mentions GROUP BY entity_id, doc_id", func(id int64, d DocCount) {
		if i, ok := idx[id]; ok {
			ents[i].Docs = append(ents[i].Docs, d)
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
	err = countPerDoc(ctx, s, "SELECT relation_id, doc_id, count(*) FROM relation_sources GROUP BY relation_id, doc_id", func(id int64, d DocCount) {
		if i, ok := ridx[id]; ok {
			rels[i].Docs = append(rels[i].Docs, d)
		}
	})
	return ents, rels, err
}

func countPerDoc(ctx context.Context, s *Store, q string, f func(id int64, d DocCount)) error {
	rows, err := s.db.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var d DocCount
		if err := rows.Scan(&id, &d.Doc, &d.N); err != nil {
			return err
		}
		f(id, d)
	}
	return rows.Err()
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
