package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"cairn/backend/analyze"
	"cairn/backend/kb"
)

// The lexical index, chunks_fts, is a contentless FTS5 table (rowid =
// chunks.id) with five columns: title, heading, body, cjk (overlapping
// character bigrams of CJK runs, which unicode61 keeps as one token) and
// every. The every column holds the same single token in every row, so
// MatchEveryRow matches the whole table: a query can then take part in a
// row's BM25 score without selecting rows itself (search's common-word
// split, "(rare) AND (common OR every row)"). A term in every row has an
// IDF FTS5 clamps to 1e-6, and LexicalSearch weighs the column 0, so the
// token adds nothing to any score; it adds one token to each row's length.

// FTSRow is what the lexical index holds for one chunk (every is implied).
type FTSRow struct {
	Title, Heading, Body, CJK string
}

// ChunkFTS builds the lexical index row of a chunk of a document titled
// docTitle. A continued table's header row counts with the headings: its
// column names are what the rows' values are.
func ChunkFTS(docTitle string, c kb.Chunk) FTSRow {
	heading := strings.Join(c.HeadingPath, " / ")
	if c.TableHeader != "" {
		heading = strings.TrimPrefix(heading+" / "+c.TableHeader, " / ")
	}
	return FTSRow{
		Title:   docTitle,
		Heading: heading,
		Body:    c.Text,
		CJK:     analyze.CJKBigramText(docTitle + "\n" + strings.Join(c.HeadingPath, "\n") + "\n" + c.TableHeader + "\n" + c.Text),
	}
}

// everyRowToken is the every column's token: one word no text is expected
// to contain, so a question's own words never select it (they would match
// every row, slowly, while scoring nothing).
const everyRowToken = "cairneveryrow"

// MatchEveryRow is an FTS5 query term that every chunk matches.
const MatchEveryRow = `every : "` + everyRowToken + `"`

const insertChunkFTS = "INSERT INTO chunks_fts(rowid, title, heading, body, cjk, every) VALUES(?, ?, ?, ?, ?, '" + everyRowToken + "')"

// LexicalSearch runs an FTS5 MATCH expression and returns chunk ids ranked by
// BM25 with the given column weights (title, heading, body, cjk). Score is
// -bm25, so higher is better.
func (s *Store) LexicalSearch(ctx context.Context, match string, weights [4]float64, k int) ([]Scored, error) {
	return s.LexicalSearchIn(ctx, match, weights, k, nil)
}

// LexicalSearchIn is LexicalSearch within the chunks of the documents docs
// (all when empty).
func (s *Store) LexicalSearchIn(ctx context.Context, match string, weights [4]float64, k int, docs []int64) ([]Scored, error) {
	if strings.TrimSpace(match) == "" {
		return nil, nil
	}
	where, args := "", []any{match}
	if len(docs) > 0 {
		ph, ids := inList(docs)
		// "rowid + 0": the scope filters the rows MATCH selects; a bare
		// rowid IN would let FTS5 run the query once per listed rowid
		// (0.7 s for a 500-chunk document instead of a few ms).
		where = " AND (rowid + 0) IN (SELECT id FROM chunks WHERE doc_id IN (" + ph + "))"
		args = append(args, ids...)
	}
	args = append(args, k)
	rows, err := s.db.QueryContext(ctx, fmt.Sprintf("SELECT rowid, bm25(chunks_fts, %g, %g, %g, %g, 0) AS r FROM chunks_fts WHERE chunks_fts MATCH ?"+where+" ORDER BY r LIMIT ?",
		weights[0], weights[1], weights[2], weights[3]), args...)
	if err != nil {
		return nil, fmt.Errorf("lexical search: %w", err)
	}
	defer rows.Close()
	var out []Scored
	for rows.Next() {
		var sc Scored
		if err := rows.Scan(&sc.ChunkID, &sc.Score); err != nil {
			return nil, err
		}
		sc.Score = -sc.Score
		out = append(out, sc)
	}
	return out, rows.Err()
}

// TermRows counts the chunks each FTS5 query term matches (its document
// frequency, after FTS5's stemming), and the chunks in the project. A count
// reads the term's doclist only, without scoring: a few milliseconds for the
// commonest words of 100k chunks.
func (s *Store) TermRows(ctx context.Context, terms []string) (rows []int, total int, err error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, 0, err
	}
	defer conn.Close()
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM chunks").Scan(&total); err != nil {
		return nil, 0, err
	}
	stmt, err := conn.PrepareContext(ctx, "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?")
	if err != nil {
		return nil, 0, err
	}
	defer stmt.Close()
	rows = make([]int, len(terms))
	for i, t := range terms {
		if err := stmt.QueryRowContext(ctx, t).Scan(&rows[i]); err != nil {
			return nil, 0, fmt.Errorf("lexical search: count %s: %w", t, err)
		}
	}
	return rows, total, nil
}

// fillChunkFTS writes the lexical row of every chunk once, after migration
// 0011 recreated chunks_fts with its every column (meta chunks_fts
// 'pending'); new chunks get theirs in SaveContent.
func (s *Store) fillChunkFTS(ctx context.Context) error {
	return s.fillPending(ctx, "chunks_fts", func(tx *sql.Tx) error { return writeChunkFTS(ctx, tx) })
}

// writeChunkFTS writes the lexical row of every stored chunk into an empty
// chunks_fts, a thousand chunks a read.
func writeChunkFTS(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, "DELETE FROM chunks_fts"); err != nil {
		return err
	}
	ins, err := tx.PrepareContext(ctx, insertChunkFTS)
	if err != nil {
		return err
	}
	defer ins.Close()
	type stored struct {
		id                        int64
		title, path, header, text string
	}
	const batch = 1000
	last := int64(-1)
	for {
		rows, err := tx.QueryContext(ctx, `SELECT c.id, d.title, c.heading_path, c.table_header, c.text FROM chunks c JOIN documents d ON d.id = c.doc_id
			WHERE c.id > ? ORDER BY c.id LIMIT ?`, last, batch)
		if err != nil {
			return err
		}
		var got []stored
		for rows.Next() {
			var c stored
			if err := rows.Scan(&c.id, &c.title, &c.path, &c.header, &c.text); err != nil {
				rows.Close()
				return err
			}
			got = append(got, c)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, c := range got {
			var headings []string
			_ = json.Unmarshal([]byte(c.path), &headings) // written by SaveContent; a bad one indexes no headings
			f := ChunkFTS(c.title, kb.Chunk{HeadingPath: headings, TableHeader: c.header, Text: c.text})
			if _, err := ins.ExecContext(ctx, c.id, f.Title, f.Heading, f.Body, f.CJK); err != nil {
				return fmt.Errorf("lexical index of chunk %d: %w", c.id, err)
			}
		}
		if len(got) < batch {
			return nil
		}
		last = got[len(got)-1].id
	}
}
