package store

import (
	"context"
	"errors"
	"fmt"

	"cairn/backend/vecindex"
)

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
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := refreshVectors(ctx, tx, vec); err != nil {
		return err
	}
	return tx.Commit()
}
