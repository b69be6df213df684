// Package kb holds Cairn's domain types: the vocabulary every other package
// speaks (projects, documents, pages, chunks, search hits). It has no
// dependencies beyond the standard library and no behaviour beyond small
// helpers, so that store, ingest, search and app can all depend on it.
package kb

import "time"

// DocStatus is the lifecycle state of an imported document.
type DocStatus string

const (
	// StatusPending: recorded, not yet (fully) indexed; an interrupted import leaves this.
	StatusPending DocStatus = "pending"
	// StatusOK: text extracted, chunked and indexed.
	StatusOK DocStatus = "ok"
	// StatusFailed: the file could not be read; Error says why.
	StatusFailed DocStatus = "failed"
	// StatusNeedsOCR: the file has pages without a text layer and no OCR engine
	// could read them. Pages with text (if any) are indexed.
	StatusNeedsOCR DocStatus = "needs_ocr"
	// StatusNeedsPassword: an encrypted PDF that needs a user password.
	StatusNeedsPassword DocStatus = "needs_password"
	// StatusDuplicate: used only in import results: the same bytes are already in the project.
	StatusDuplicate DocStatus = "duplicate"
)

// Document is one imported file.
type Document struct {
	ID         int64     `json:"id"`
	Title      string    `json:"title"`
	FileName   string    `json:"file_name"`   // the name the user imported it under
	StoredPath string    `json:"stored_path"` // path of the copy, relative to the project folder
	Kind       string    `json:"kind"`        // pdf, docx, txt, md
	Hash       string    `json:"hash"`        // SHA-256 of the bytes, hex
	Bytes      int64     `json:"bytes"`
	Status     DocStatus `json:"status"`
	Error      string    `json:"error,omitempty"`
	ErrorCode  string    `json:"error_code,omitempty"`
	Warnings   []string  `json:"warnings,omitempty"`
	Pages      int       `json:"pages"`
	Chunks     int       `json:"chunks"`
	ImportedAt time.Time `json:"imported_at"`
	// Identity beyond the title (backend/identity), where the cover states
	// it: the organisation the document is from, its kind ("Form 10-K",
	// "Annual Report") and the period it covers ("FY2018", "Q2 2023").
	Organisation string `json:"organisation,omitempty"`
	DocType      string `json:"doc_type,omitempty"`
	Period       string `json:"period,omitempty"`
	// IdentityEdited: the user wrote the title and these fields; the
	// library's recomputation leaves them alone.
	IdentityEdited bool `json:"identity_edited,omitempty"`
}

// Page is the text of one physical page (PDF) or approximate page (DOCX,
// from rendered page breaks; TXT/MD are one page). Number is 1-based.
// CharStart is the byte offset of the page inside the document text (all
// pages joined, see DocumentText).
type Page struct {
	DocID     int64  `json:"doc_id"`
	Number    int    `json:"number"`
	CharStart int    `json:"char_start"`
	Text      string `json:"text"`
	NoText    bool   `json:"no_text,omitempty"` // image-only page (OCR candidate)
	OCR       bool   `json:"ocr,omitempty"`     // text came from OCR
	// OCRStatus is where the page stands in the "ocr" index stage: ""
	// (nothing to do), OCRPending, OCRDone, OCREmpty or OCRFailed;
	// OCRNote says why a page failed.
	OCRStatus string `json:"ocr_status,omitempty"`
	OCRNote   string `json:"ocr_note,omitempty"`
	PageLayout
}

// A page's OCR states (Page.OCRStatus).
const (
	OCRPending = "pending" // no text layer; awaiting the "ocr" index stage
	OCRDone    = "done"    // OCR text is the page's text
	OCREmpty   = "empty"   // OCR found no reliable text
	OCRFailed  = "failed"  // OCR stopped on the page (OCRNote says why)
)

// PageLayout is what a page's layout analysis knows beyond its text.
type PageLayout struct {
	// Label is the page number printed on the page, when known ("7", "iv").
	Label string `json:"label,omitempty"`
	// Furniture: running headers, footers, page numbers and printer's marks,
	// kept out of the page text.
	Furniture []string `json:"furniture,omitempty"`
	// Width and Height are the page size in points (PDF pages only).
	Width  float64 `json:"width,omitempty"`
	Height float64 `json:"height,omitempty"`
	// Blocks are the page's blocks in reading order.
	Blocks []PageBlock `json:"blocks,omitempty"`
}

// PageBlock is one block of a page: its kind ("heading", "paragraph",
// "list_item", "table_row", "other"), heading level, byte span [Start, End)
// in the page text and, for PDF pages, its box in points from the page's
// top-left corner (x0, y0, x1, y1).
type PageBlock struct {
	Kind   string      `json:"kind"`
	Level  int         `json:"level,omitempty"`
	Start  int         `json:"start"`
	End    int         `json:"end"`
	Box    *[4]float64 `json:"box,omitempty"`
	Header bool        `json:"header,omitempty"` // first row of a table
}

// ReaderVersion is the version of Cairn's document readers whose output
// the store holds; documents read by an older version are read again from
// their stored originals (version 1: PDF layout analysis, page layouts;
// version 2: ruled tables drawn as bands, outline headings, ligature
// glyph names, lines begun with a space glyph; version 3: glyph-index
// names, side-by-side lists, boxed section numbers, amounts that are no
// headings, vertical punctuation forms, footer page numbers; version 4:
// statement tables without rules read as rows with their labels, heads
// and section rows; version 5: glyph names from embedded CFF font
// programs, accents over a dotless i, numbered titles in the document's
// own title style; version 6: rules under a statement's figure columns
// only no longer cut its figures from their labels; version 7: a table's
// caption ends the heading path of its passages; version 8: headings set
// at the body size in a second colour or a pen-made bold, CJK numbered
// titles, numbered titles set close above their text, capitals titles of
// one-page documents; version 9: a table's header rows are all carried to
// the passages that continue it, and a header row under figure rows starts
// the heads of the table below; version 10: files whose encryption or
// cross-reference table the first reader cannot handle are read with their
// layout from PDFium's plain copy, and a repeated line is a running header
// or footer only where it runs: at one height on pages near one another,
// and a block crossing the middle of the page with nothing beside it cuts
// the reading order, so a centred title block is read before what is
// below it; version 11: a table row's label wrapped over several lines is
// one row with its figures; version 12: words set apart by up to 1.5 em
// with no column beside them, as a scanned page's text layer sets them,
// are one line; version 13: a ruled table's column heads standing above
// its top rule are its header row; version 14: those heads are found
// under a unit line or caption in the labels' column ("(in millions)"),
// and a head reaching a little past its column stays in it; version 15:
// a table without rules keeps each cell in its column, the columns a
// row leaves empty being empty cells; version 16: a ruled table's rows
// span the table, so they are read in their order: a section label
// centred in its band before the one below it at the left edge);
// version 17: a line repeated at the top (bottom) of pages is no running
// header (footer) when the page's own text stands between it and the
// edge, so a statement's "(in millions)" under its title stays);
// version 18: a footnote mark set small and raised after a figure
// ("4,210 ⁽ᵃ⁾") is read with it, so the table row keeps the cells beside it;
// version 19: in right-to-left lines a combining mark follows the letter it
// is drawn on, and a word drawn in two touching pieces is one word; glyphs
// wrapped in /ActualText on one line read as that text; version 20: a ruled
// table with one inner vertical rule takes its other columns from the white
// space, below heads that span them too; version 21: titles opened by a
// label word and its number set like the body ("Item 1A. Risk Factors.")
// are headings when the document sets several alike; version 22: text
// filled in a separation (spot) colour or a Lab colour has that colour,
// so a red subtitle under a white title band is a line of its own;
// version 23: a labelled line below all else on its page (a blank page's
// running footer) is no heading; version 24: a numbered caption at the
// top of several pages ("TABLE II") is no running header, a number alone
// opening or closing pages in the page order is their printed number
// though it stands inside the text frame, and a restarted numbering (an
// exhibit's) keeps its labels; version 25: a glyph painted again within
// 0.15 em of itself is one glyph at every size (large titles drawn with a
// shadow read "MOSS", not "MMOOSS…"), and a loss set "$ (63.0)" is a
// figure, so the long label on its line stays the row's label; version
// 26: a ruled table row whose cells all wrap over the same lines is one
// row ("Hold / down" beside "switched by / default."), and a column head
// set over two lines is one head ("Fault code"); version 27: the same
// in tables without rules ("spare part / kit" over "Order /
// code"), unless every line fills every column (a list of short rows);
// version 28: a contents or index entry (its dot leader ending on a page
// number) is no heading, however large or bold it is set; version 29: in
// a ruled table's first band, a head centred over the heads of a group of
// columns heads each of them ("Season Spring | Season Summer"); version
// 30: a contents list's entries, their number, title, leader and page
// number drawn apart, read as one line each and are no headings nor table
// cells ("2.1 Hard and Soft Water … 11", not "2.1 | 11" beside the titles); version 31:
// headings set alike take their levels from their labels where no
// outline gives them ("Part II" holds "Item 7.", which holds the
// unlabelled sections after it); version 32: a labelled title may run to
// 140 characters and 20 words ("Item 7. Management's Discussion and
// Analysis of Financial Condition and Results of Operations."), and a
// leader of two or three spaced dots (". . 8") ends a contents entry,
// and a label whose headings all stand in one heading's section is held
// by that heading's label (a report's notes inside "Item 8."), and a
// contents list that puts each page number before its title, in
// columns and without leaders, reads column by column, entry by entry;
// a ruled table whose borders are drawn in short pieces that meet is a
// table, not a chart of marks, and a frame's inner line divides no
// columns; a ruled table's first cell wrapped onto a line of its own,
// going on in lower case, stays its row's ("… significantly | No" over
// "changed since last year?"); version 33: a word whose last one or
// two letters were placed apart ("Balance Shee t") is joined when the
// document prints the whole word elsewhere and never the first part
// alone; version 34: in a drawn grid, a row label whose cell spans
// several rows, set in the middle of the cell, names each of its rows;
// version 35: the body size is the running text's (a guidebook's map
// pages no longer make its prose read as headings); version 36: a table
// ruled only above and below its head and at its end, its body of words
// and counts taller than a row band, is read as one table of rows;
// version 37: a bullet set apart from its text opens it ("• text", not a
// table of bullets), paragraphs across a table's columns end the table,
// a phrase repeated from row to row is no sign of running text, and
// rules boxing lines that fill one cell per row make no table, nor any
// table whose rows never fill two cells; figures
// under a head spanning their columns stay cells of their own, heads
// over a unit line head the table, and a row lined up with an earlier
// row (not the last) goes on in the table, and a sign read at a cell's
// end goes to the next cell's figure; 38: a currency sign after a figure
// opens the next cell even when a row is drawn as one string, and a cell
// standing between cells lined up with other rows is the row's, and a
// ruled band whose lines each fill the same columns with a value is a
// row per line; 39: on a double-spaced page a line of running text that
// runs on to the measure goes on with the paragraph below it, and a long
// sentence set large or bold (an agreement's clause) is no heading.
const ReaderVersion = 39

// PageSeparator joins page texts into the document text that chunk char spans
// point into.
const PageSeparator = "\f"

// Chunk is a passage: the unit of retrieval and of provenance. CharStart and
// CharEnd are byte offsets into the document text (pages joined with
// PageSeparator), so text == docText[CharStart:CharEnd].
type Chunk struct {
	ID          int64    `json:"id"`
	DocID       int64    `json:"doc_id"`
	Ordinal     int      `json:"ordinal"`
	PageStart   int      `json:"page_start"`
	PageEnd     int      `json:"page_end"`
	CharStart   int      `json:"char_start"`
	CharEnd     int      `json:"char_end"`
	HeadingPath []string `json:"heading_path,omitempty"`
	// TableHeader is the header row of the table the chunk continues when
	// that row is not in the chunk (a long table cut into passages, or
	// carried over a page): the columns its rows are read by; a table with
	// several header rows has one per line. It is shown with the passage,
	// not part of its text or span.
	TableHeader string `json:"table_header,omitempty"`
	Text        string `json:"text"`
	Tokens      int    `json:"tokens"`
}

// Hit is one search result: a chunk, where it came from, and how it ranked.
type Hit struct {
	Chunk
	DocTitle string `json:"doc_title"`
	// IndexTitle is the title the passage was indexed under (the reader's:
	// metadata title, first heading or file name; for one-passage
	// documents, what the passage is about). Answer finding reads it as
	// the passage's topic; DocTitle, the title shown, may be the user's.
	IndexTitle string             `json:"-"`
	Score      float64            `json:"score"`           // fused score, higher is better
	Ranks      map[string]int     `json:"ranks,omitempty"` // 1-based rank in each list that found it
	Snippet    string             `json:"snippet,omitempty"`
	Extra      map[string]float64 `json:"extra,omitempty"`
}

// EmbedderInfo names the model that made a project's vectors.
type EmbedderInfo struct {
	Model string `json:"model"`
	Dim   int    `json:"dim"`
}

// Scope is the part of a project a question or a search is put to: the
// documents chosen (empty: the whole project), and whether the user chose
// them or routing did because the question names them (Because says how:
// "X9", "FY2018").
type Scope struct {
	Docs    []int64  `json:"docs,omitempty"`
	Titles  []string `json:"titles,omitempty"` // the documents' titles, for the trace and the UI
	Routed  bool     `json:"routed,omitempty"`
	Because []string `json:"because,omitempty"`
}

// Whole reports whether the scope is the whole project.
func (s *Scope) Whole() bool { return s == nil || len(s.Docs) == 0 }
