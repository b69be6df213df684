package pagetext

import (
	"testing"

	"cairn/backend/kb"
)

// TestMarkdown renders headings with their level, escapes a paragraph
// that would read as Markdown, writes a header row and its rule, and gives
// a table continued from the page before an empty header row.
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
			"| Action | A | B | C |\n| --- | --- | --- | --- |\n| SET | X |  | X |\n|  | X |  |\n| Y |  | Y |\n| a\\|b | 1 |  |"},
		{"plain text page", kb.Page{Text: "  just text \n"}, "just text"},
	}
	for _, c := range cases {
		if got := Markdown(c.page); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
