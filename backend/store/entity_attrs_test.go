package store

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"testing"
)

// fullEntityAttrs recomputes an entity's attributes from all its mentions,
// by the rules of the original mentions_insert trigger (migration 0003).
const fullEntityAttrs = `SELECT
  (SELECT m.surface FROM mentions m WHERE m.entity_id = e.id GROUP BY m.surface ORDER BY count(*) DESC, m.surface LIMIT 1),
  coalesce((SELECT m.description FROM mentions m WHERE m.entity_id = e.id AND m.description <> '' GROUP BY m.description ORDER BY count(*) DESC, length(m.description) DESC, m.description LIMIT 1), ''),
  coalesce((SELECT m.semantic_type FROM mentions m WHERE m.entity_id = e.id AND m.semantic_type <> '' GROUP BY m.semantic_type ORDER BY count(*) DESC, m.semantic_type LIMIT 1), ''),
  (SELECT group_concat(k, '|') FROM (SELECT k FROM (SELECT m.norm_key AS k FROM mentions m WHERE m.entity_id = e.id
     UNION SELECT j.value FROM mentions m, json_each(m.alias_norms) j WHERE m.entity_id = e.id AND j.value <> '') ORDER BY k))
FROM entities e WHERE e.id = ?`

// The incremental triggers (migration 0010) leave every entity exactly as a
// recomputation from all its mentions would, through random inserts and
// deletes with ties in counts, descriptions of equal length and aliases.
func TestEntityAttributesIncremental(t *testing.T) {
	s := openTemp(t)
	var pages []string
	for i := range 40 {
		pages = append(pages, fmt.Sprintf("page %d", i))
	}
	addDoc(t, s, "d", pages...)
	var chunks []int64
	rows, err := s.db.Query("SELECT id FROM chunks ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		rows.Scan(&id)
		chunks = append(chunks, id)
	}
	rows.Close()
	r := rand.New(rand.NewSource(7))
	surfaces := []string{"Oswiu", "Oswy", "King Oswiu", "Oswiu of Northumbria", "B", "A"}
	descs := []string{"", "", "a king", "a ruler", "king of Bernicia", "ruler of Deira"}
	types := []string{"", "king", "ruler", "person"}
	var ents []int64
	for i := range 3 {
		res, err := s.db.Exec("INSERT INTO entities(norm_key, type, name) VALUES(?, 'person', ?)", fmt.Sprintf("e%d", i), fmt.Sprintf("Created %d", i))
		if err != nil {
			t.Fatal(err)
		}
		id, _ := res.LastInsertId()
		ents = append(ents, id)
	}
	var mentions []int64
	check := func(step int) {
		t.Helper()
		for _, e := range ents {
			var name, desc, typ, aliasesJSON string
			err := s.db.QueryRow("SELECT name, description, semantic_type, aliases FROM entities WHERE id = ?", e).Scan(&name, &desc, &typ, &aliasesJSON)
			var n int
			s.db.QueryRow("SELECT count(*) FROM mentions WHERE entity_id = ?", e).Scan(&n)
			if n == 0 {
				continue // deleted with its last mention, or not mentioned yet
			}
			if err != nil {
				t.Fatalf("step %d entity %d: %v", step, e, err)
			}
			var wName, wDesc, wType, wKeys string
			if err := s.db.QueryRow(fullEntityAttrs, e).Scan(&wName, &wDesc, &wType, &wKeys); err != nil {
				t.Fatal(err)
			}
			var wAliases string
			if err := s.db.QueryRow(`SELECT coalesce(json_group_array(a ORDER BY a), '[]') FROM (
				SELECT m.surface AS a FROM mentions m WHERE m.entity_id = ?1
				UNION SELECT j.value FROM mentions m, json_each(m.aliases) j WHERE m.entity_id = ?1) WHERE a <> ?2`, e, wName).Scan(&wAliases); err != nil {
				t.Fatal(err)
			}
			var keys string
			s.db.QueryRow("SELECT coalesce(group_concat(alias_norm, '|'), '') FROM (SELECT alias_norm FROM entity_aliases WHERE entity_id = ? ORDER BY alias_norm)", e).Scan(&keys)
			if name != wName || desc != wDesc || typ != wType || aliasesJSON != wAliases || keys != wKeys {
				t.Fatalf("step %d entity %d:\n got  %q %q %q %s %q\n want %q %q %q %s %q", step, e, name, desc, typ, aliasesJSON, keys, wName, wDesc, wType, wAliases, wKeys)
			}
		}
	}
	for step := range 400 {
		if len(mentions) > 0 && r.Intn(4) == 0 {
			i := r.Intn(len(mentions))
			if _, err := s.db.Exec("DELETE FROM mentions WHERE id = ?", mentions[i]); err != nil {
				t.Fatal(err)
			}
			mentions = append(mentions[:i], mentions[i+1:]...)
		} else {
			e := ents[r.Intn(len(ents))]
			// a deleted entity comes back under a new id, as SaveChunkGraph does
			var exists int
			s.db.QueryRow("SELECT count(*) FROM entities WHERE id = ?", e).Scan(&exists)
			if exists == 0 {
				res, err := s.db.Exec("INSERT INTO entities(id, norm_key, type, name) VALUES(?, ?, 'person', 'Recreated')", e, fmt.Sprintf("r%d-%d", e, step))
				if err != nil {
					t.Fatal(err)
				}
				_ = res
			}
			surface := surfaces[r.Intn(len(surfaces))]
			var aliases, norms []string
			for range r.Intn(3) {
				a := surfaces[r.Intn(len(surfaces))]
				aliases = append(aliases, a)
				norms = append(norms, "k"+a)
			}
			if r.Intn(5) == 0 {
				norms = append(norms, "")
			}
			aj, _ := json.Marshal(append([]string{}, aliases...))
			nj, _ := json.Marshal(append([]string{}, norms...))
			res, err := s.db.Exec(`INSERT INTO mentions(entity_id, chunk_id, doc_id, surface, norm_key, semantic_type, description, aliases, alias_norms, page_start, page_end, char_start, char_end)
				VALUES(?, ?, (SELECT doc_id FROM chunks WHERE id = ?2), ?, ?, ?, ?, ?, ?, 1, 1, 0, 1)`,
				e, chunks[r.Intn(len(chunks))], surface, "k"+surface, types[r.Intn(len(types))], descs[r.Intn(len(descs))], string(aj), string(nj))
			if err != nil {
				t.Fatal(err)
			}
			id, _ := res.LastInsertId()
			mentions = append(mentions, id)
		}
		check(step)
	}
}
