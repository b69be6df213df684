// Package pagetext renders a document's stored pages for people and tools:
// Markdown with '#' heading levels and pipe tables (the `cairn text
// --format md` export), and JSON blocks with kind, level, page and box.
// Pages stored without a layout (read by an older Cairn) render as their
// plain text. Pure functions over kb.Page.
package pagetext

import (
	"fmt"
	"io"
	"strings"

	"cairn/backend/kb"
)

// WriteDocument writes a document's pages the way `cairn text` prints
// them, and the app's "Export as Markdown" saves them: each page after a
// "=== page N ===" line (tools split on it) that notes an image-only or
// OCR'd page. With markdown, pages are rendered by Markdown and a printed
// page number differing from N goes in a comment under the page line;
// otherwise pages are their plain text and the page line names it.
func WriteDocument(w io.Writer, pages []kb.Page, markdown bool) error {
	for _, pg := range pages {
		note := ""
		switch {
		case pg.NoText && pg.OCRStatus == kb.OCRPending:
			note = " (no text layer: awaiting OCR)"
		case pg.NoText && pg.OCRStatus == kb.OCREmpty:
			note = " (no text layer: OCR found no text)"
		case pg.NoText && pg.OCRStatus == kb.OCRFailed:
			note = " (no text layer: OCR failed)"
		case pg.NoText:
			note = " (no text layer: needs OCR)"
		case pg.OCR:
			note = " (text from OCR)"
		}
		text := pg.Text
		printed := pg.Label != "" && pg.Label != fmt.Sprint(pg.Number)
		if markdown {
			text = Markdown(pg)
			if printed {
				text = fmt.Sprintf("<!-- printed page %s -->\n%s", pg.Label, text)
			}
		} else if printed {
			note += fmt.Sprintf(" (printed page %s)", pg.Label)
		}
		if _, err := fmt.Fprintf(w, "=== page %d%s ===\n%s\n", pg.Number, note, text); err != nil {
			return err
		}
	}
	return nil
}

// Markdown renders one page as Markdown: headings as '#' lines of their
// level, consecutive table rows as a pipe table (its header row first, or
// an empty one when the table continues from the page before), other
// blocks as paragraphs separated by blank lines. Every row of a pipe table
// has as many cells as its fullest row: a renderer drops the cells beyond
// the header row's, and a head spanning columns is often one cell.
func Markdown(p kb.Page) string {
	if len(p.Blocks) == 0 {
		return strings.TrimSpace(p.Text)
	}
	var b strings.Builder
	var table [][]string // the rows of the table being read
	headed := false      // its first row is its header row
	flush := func() {
		if len(table) > 0 {
			sep(&b)
			writeTable(&b, table, headed)
		}
		table = nil
	}
	for _, bl := range p.Blocks {
		text := blockText(p, bl)
		if text == "" {
			continue
		}
		if bl.Kind == "table_row" {
			if bl.Header || table == nil {
				// A header row starts a table; a row with no table
				// open goes on from the page before, under no header.
				flush()
				headed = bl.Header
			}
			table = append(table, splitCells(strings.TrimSpace(text)))
			continue
		}
		flush()
		sep(&b)
		switch bl.Kind {
		case "heading":
			lv := min(max(bl.Level, 1), 6)
			b.WriteString(strings.Repeat("#", lv) + " " + kb.OneLine(text) + "\n")
		case "list_item":
			b.WriteString("- " + kb.OneLine(text) + "\n")
		default:
			b.WriteString(escapeLeading(text) + "\n")
		}
	}
	flush()
	return strings.TrimSpace(b.String())
}

// writeTable writes rows as one pipe table, each row padded with empty
// cells to the fullest row's count; without headed, under an empty header.
func writeTable(b *strings.Builder, rows [][]string, headed bool) {
	n := 0
	for _, r := range rows {
		n = max(n, len(r))
	}
	pad := func(r []string) []string {
		return append(r, make([]string, n-len(r))...)
	}
	if headed {
		writeRow(b, pad(rows[0]))
		rows = rows[1:]
	} else {
		writeRow(b, make([]string, n))
	}
	b.WriteString("|" + strings.Repeat(" --- |", n) + "\n")
	for _, r := range rows {
		writeRow(b, pad(r))
	}
}

// splitCells splits a table row's text into cells at each '|' with white
// space or the row's end on either side. Empty cells keep their place
// ("X |  | X", "X | | X", "| a" after the row was trimmed); a '|' inside a
// word stays in its cell.
func splitCells(text string) []string {
	var cells []string
	start := 0
	for i := 0; i < len(text); i++ {
		if text[i] != '|' {
			continue
		}
		before := i == 0 || text[i-1] == ' ' || text[i-1] == '\t'
		after := i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\t'
		if before || after {
			cells = append(cells, strings.TrimSpace(text[start:i]))
			start = i + 1
		}
	}
	return append(cells, strings.TrimSpace(text[start:]))
}

// sep starts a new Markdown block with a blank line.
func sep(b *strings.Builder) {
	if b.Len() > 0 {
		b.WriteString("\n")
	}
}

// writeRow writes one pipe-table row; a '|' inside a cell is escaped.
func writeRow(b *strings.Builder, cells []string) {
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" " + strings.ReplaceAll(strings.TrimSpace(c), "|", "\\|") + " |")
	}
	b.WriteString("\n")
}

// escapeLeading keeps a paragraph from reading as Markdown structure: a
// line starting with '#', '|' or a list marker is escaped.
func escapeLeading(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		if strings.HasPrefix(t, "#") || strings.HasPrefix(t, "|") || strings.HasPrefix(t, "> ") {
			lines[i] = "\\" + t
		}
	}
	return strings.Join(lines, "\n")
}

// blockText is a block's text, cut from the page text by its span.
func blockText(p kb.Page, bl kb.PageBlock) string {
	if bl.Start < 0 || bl.End > len(p.Text) || bl.Start >= bl.End {
		return ""
	}
	return strings.TrimSpace(p.Text[bl.Start:bl.End])
}

// Block is one block of a page as the JSON export gives it.
type Block struct {
	Kind  string      `json:"kind"`
	Level int         `json:"level,omitempty"`
	Text  string      `json:"text"`
	Box   *[4]float64 `json:"box,omitempty"`
	Start int         `json:"start"` // byte span in the page text
	End   int         `json:"end"`
}

// Page is one page as the JSON export gives it.
type Page struct {
	Page      int      `json:"page"`
	Label     string   `json:"label,omitempty"`
	Width     float64  `json:"width,omitempty"`
	Height    float64  `json:"height,omitempty"`
	NoText    bool     `json:"no_text,omitempty"`
	OCR       bool     `json:"ocr,omitempty"`
	Furniture []string `json:"furniture,omitempty"`
	Blocks    []Block  `json:"blocks"`
}

// JSON is one page as blocks with kind, level, text, span and box. A page
// without a stored layout is one paragraph block.
func JSON(p kb.Page) Page {
	out := Page{Page: p.Number, Label: p.Label, Width: p.Width, Height: p.Height, NoText: p.NoText, OCR: p.OCR, Furniture: p.Furniture, Blocks: []Block{}}
	if len(p.Blocks) == 0 {
		if t := strings.TrimSpace(p.Text); t != "" {
			out.Blocks = append(out.Blocks, Block{Kind: "paragraph", Text: t, Start: 0, End: len(p.Text)})
		}
		return out
	}
	for _, bl := range p.Blocks {
		out.Blocks = append(out.Blocks, Block{Kind: bl.Kind, Level: bl.Level, Text: blockText(p, bl), Box: bl.Box, Start: bl.Start, End: bl.End})
	}
	return out
}
