package store

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"cairn/backend/embed"
	"cairn/backend/kb"
)

// recount is the document frequencies as they should be: every stored
// chunk's embed.ChunkWords under its document's title, counted once.
func recount(t *testing.T, s *Store) map[string]int {
	t.Helper()
	rows, err := s.db.Query("SELECT d.title, c.heading_path, c.table_header, c.text FROM chunks c JOIN documents d ON d.id = c.doc_id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	want := map[string]int{}
	for rows.Next() {
		var title, hp string
		var c kb.Chunk
		if err := rows.Scan(&title, &hp, &c.TableHeader, &c.Text); err != nil {
			t.Fatal(err)
		}
		_ = json.Unmarshal([]byte(hp), &c.HeadingPath)
		for _, w := range embed.ChunkWords(title, c) {
			want[w]++
		}
	}
	return want
}

// checkDF fails when term_df is not what the stored chunks add up to.
func checkDF(t *testing.T, s *Store, step string) {
	t.Helper()
	want := recount(t, s)
	rows, err := s.db.Query("SELECT term, df FROM term_df")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := map[string]int{}
	for rows.Next() {
		var w string
		var n int
		if err := rows.Scan(&w, &n); err != nil {
			t.Fatal(err)
		}
		got[w] = n
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%s: term_df\n %v\nwant\n %v", step, got, want)
	}
}

// saveDoc stores one page per chunk; given marks the rows' Terms as a
// caller would fill them (search.ChunkRows), else the store computes them.
func saveDoc(t *testing.T, s *Store, id int64, title string, chunks []kb.Chunk, given bool) {
	t.Helper()
	c := Content{Title: title, Kind: "txt"}
	off := 0
	for i, ch := range chunks {
		c.Pages = append(c.Pages, kb.Page{Number: i + 1, CharStart: off, Text: ch.Text})
		ch.Ordinal, ch.PageStart, ch.PageEnd, ch.CharStart, ch.CharEnd = i, i+1, i+1, off, off+len(ch.Text)
		row := ChunkRow{Chunk: ch, FTS: FTSRow{Title: title, Body: ch.Text}, Vector: []float32{1, 0, 0}}
		if given {
			row.Terms = embed.ChunkWords(title, ch)
		}
		c.Chunks = append(c.Chunks, row)
		off += len(ch.Text) + len(kb.PageSeparator)
	}
	if err := s.SaveContent(context.Background(), id, c); err != nil {
		t.Fatal(err)
	}
}

// TestTermDFBookkeeping: saving, saving again, OCR of a page and removal
// keep the document frequencies equal to what the stored chunks hold:
// title, heading path, a table's header row and CJK text counted, and
// nothing left behind once every document is gone.
func TestTermDFBookkeeping(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	add := func(title, hash string) int64 {
		id, err := s.AddDocument(ctx, kb.Document{Title: title, FileName: hash + ".txt", StoredPath: "files/" + hash, Kind: "txt", Hash: hash})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	a, b := add("Harbour ledger", "a"), add("劳动合同 notes", "b")
	saveDoc(t, s, a, "Harbour ledger", []kb.Chunk{
		{Text: "Quillwort grows by the harbour wall."},
		{Text: "Tolls rose in spring.", HeadingPath: []string{"Accounts", "Tolls"}},
		{Text: "| 2024 | 12 |", TableHeader: "| Year | Ships berthed |", HeadingPath: []string{"Accounts"}},
	}, false)
	checkDF(t, s, "first document")
	saveDoc(t, s, b, "劳动合同 notes", []kb.Chunk{{Text: "劳动合同期限 and the harbour wall"}, {Text: "Ships berthed twice."}}, true)
	checkDF(t, s, "second document, words given")
	df, _, err := s.TermDF(ctx, []string{"w:harbour", "w:berth", "w:ship", "w:toll", "w:合同"})
	if err != nil {
		t.Fatal(err)
	}
	// harbour: a's title makes every chunk of a hold it (3), and b's first
	// chunk; berthed/ships: a's table header and b's second chunk.
	if want := map[string]int{"w:harbour": 4, "w:berth": 2, "w:ship": 2, "w:toll": 1, "w:合同": 2}; fmt.Sprint(df) != fmt.Sprint(want) {
		t.Fatalf("TermDF = %v, want %v", df, want)
	}

	// Read again: the old chunks' words go, the new ones' come.
	saveDoc(t, s, a, "Harbour ledger", []kb.Chunk{{Text: "Quillwort only."}, {Text: "", HeadingPath: []string{"Empty"}}}, false)
	checkDF(t, s, "first document saved again")

	// OCR of a page awaiting it replaces that page's passages.
	c := add("Scanned harbour survey", "c")
	if err := s.SaveContent(ctx, c, Content{Title: "Scanned harbour survey", Kind: "pdf",
		Pages:  []kb.Page{{Number: 1, Text: "Cover"}, {Number: 2, CharStart: 5 + len(kb.PageSeparator), NoText: true, OCRStatus: kb.OCRPending}},
		Chunks: []ChunkRow{{Chunk: kb.Chunk{PageStart: 1, PageEnd: 1, CharEnd: 5, Text: "Cover"}, Vector: []float32{1, 0, 0}}}}); err != nil {
		t.Fatal(err)
	}
	checkDF(t, s, "scan saved")
	ocr := kb.Chunk{CharEnd: 26, Text: "Depth soundings at the pier", HeadingPath: []string{"Survey"}}
	saved, err := s.SaveOCRPage(ctx, c, OCRPage{Number: 2, Status: kb.OCRDone, Text: ocr.Text, Chunks: []ChunkRow{{Chunk: ocr, Vector: []float32{0, 1, 0}}}})
	if err != nil || !saved {
		t.Fatalf("SaveOCRPage: saved %v, %v", saved, err)
	}
	checkDF(t, s, "page read by OCR")

	if _, err := s.RemoveDocuments(ctx, b); err != nil {
		t.Fatal(err)
	}
	checkDF(t, s, "second document removed")
	if _, err := s.RemoveDocuments(ctx, a, c); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, "SELECT count(*) FROM term_df"); n != 0 {
		t.Fatalf("%d words left in term_df with no documents", n)
	}
}
