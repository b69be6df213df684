package pagetext

import (
	"strings"
	"testing"

	"cairn/backend/kb"
)

// TestMarkdown renders headings with their level, escapes a paragraph
// that would read as Markdown, writes a header row and its rule, and gives
// a table continued from the page before an empty header row; every row
// of a table has as many cells as its fullest row.
func TestMarkdown(t *testing.T) {
	mk := func(kind, text string, level int, header bool) (kb.PageBlock, string) {
		return kb.PageBlock{Kind: kind, Level: level, Header: header}, text
	}
	build := func(items ...func() (kb.PageBlock, string)) kb.Page {
		var p kb.Page
		for _, it := range items {
			b, text := it()
			if p.Text != "" {
				p.Text += "\n"
			}
			b.Start = len(p.Text)
			p.Text += text
			b.End = len(p.Text)
			p.Blocks = append(p.Blocks, b)
		}
		return p
	}
	blk := func(kind, text string, level int, header bool) func() (kb.PageBlock, string) {
		return func() (kb.PageBlock, string) { return mk(kind, text, level, header) }
	}
	cases := []struct {
		name string
		page kb.Page
		want string
	}{
		{"heading, paragraph, table with header",
			build(blk("heading", "Rates", 2, false), blk("paragraph", "# not a heading", 0, false),
				blk("table_row", "Year | Rate", 0, true), blk("table_row", "2007 | 28%", 0, false)),
			"## Rates\n\n\\# not a heading\n\n| Year | Rate |\n| --- | --- |\n| 2007 | 28% |"},
		{"table continued from the page before",
			build(blk("table_row", "2008 | 33%", 0, false), blk("table_row", "2009 | 35%", 0, false), blk("paragraph", "After.", 0, false)),
			"|  |  |\n| --- | --- |\n| 2008 | 33% |\n| 2009 | 35% |\n\nAfter."},
		{"empty cells keep their columns",
			build(blk("table_row", "Action | A | B | C", 0, true), blk("table_row", "SET | X |  | X", 0, false), blk("table_row", "| X |", 0, false), blk("table_row", "Y | | Y", 0, false), blk("table_row", "a|b | 1 |", 0, false)),
			"| Action | A | B | C |\n| --- | --- | --- | --- |\n| SET | X |  | X |\n|  | X |  |  |\n| Y |  | Y |  |\n| a\\|b | 1 |  |  |"},
		{"a header row of fewer cells than the rows is padded, so no column is dropped",
			build(blk("table_row", "Years ended", 0, true), blk("table_row", "| 2023 | 2022", 0, false), blk("table_row", "Revenue | 5 | 4", 0, false),
				blk("table_row", "Quarter | Sales", 0, true), blk("table_row", "Q1 | 2", 0, false)),
			"| Years ended |  |  |\n| --- | --- | --- |\n|  | 2023 | 2022 |\n| Revenue | 5 | 4 |\n\n| Quarter | Sales |\n| --- | --- |\n| Q1 | 2 |"},
		{"plain text page", kb.Page{Text: "  just text \n"}, "just text"},
	}
	for _, c := range cases {
		if got := Markdown(c.page); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestWriteDocument: the page lines `cairn text` prints (and the app's
// Markdown export saves), with the notes for image-only and OCR'd pages and
// the printed page number: in a comment for Markdown, in the line for text.
func TestWriteDocument(t *testing.T) {
	pages := []kb.Page{
		{Number: 1, Text: "Title\nBody", PageLayout: kb.PageLayout{Label: "i", Blocks: []kb.PageBlock{{Kind: "heading", Level: 1, Start: 0, End: 5}, {Kind: "paragraph", Start: 6, End: 10}}}},
		{Number: 2, NoText: true},
		{Number: 3, Text: "scanned", OCR: true, PageLayout: kb.PageLayout{Label: "3"}},
	}
	var md, text strings.Builder
	if err := WriteDocument(&md, pages, true); err != nil {
		t.Fatal(err)
	}
	WriteDocument(&text, pages, false)
	wantMD := "=== page 1 ===\n<!-- printed page i -->\n# Title\n\nBody\n=== page 2 (no text layer: needs OCR) ===\n\n=== page 3 (text from OCR) ===\nscanned\n"
	wantText := "=== page 1 (printed page i) ===\nTitle\nBody\n=== page 2 (no text layer: needs OCR) ===\n\n=== page 3 (text from OCR) ===\nscanned\n"
	if md.String() != wantMD {
		t.Errorf("markdown:\n%q\nwant\n%q", md.String(), wantMD)
	}
	if text.String() != wantText {
		t.Errorf("text:\n%q\nwant\n%q", text.String(), wantText)
	}
}
