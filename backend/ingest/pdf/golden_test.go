package pdf_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/ingest/parsed"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden page layouts in testdata/layout")

// TestGoldenLayouts pins the layout of a handful of real pages: reading
// order of two and three columns, a page with running headers, a slug and
// a page number (kept as furniture), and ruled tables. Each page is
// rendered as its blocks (# headings with levels, | table rows |,
// paragraphs) followed by its label and furniture. Run with -update after
// a deliberate change and read the diff.
func TestGoldenLayouts(t *testing.T) {
	cases := []struct {
		file string
		page int
	}{
		{"en-paper-2col-dpr-2p.pdf", 1},             // two columns, title and authors across
		{"en-report-3col-federal-register.pdf", 2},  // three columns, running header
		{"en-report-tables-irs-i1040nr.pdf", 2},     // three columns, printer's slug outside the crop box, page number
		{"en-report-tables-irs-i1040nr.pdf", 46},    // ruled worksheet tables
		{"ko-card-benefits-tables.pdf", 1},          // ruled tables, Korean
		{"zh-report-tables-bond-prospectus.pdf", 1}, // ruled table, Chinese
		{"en-report-dmca-summary.pdf", 12},          // running header on every page
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s-p%d", strings.TrimSuffix(c.file, ".pdf"), c.page)
		t.Run(name, func(t *testing.T) {
			doc, err := readFile(t, filepath.Join(docsDir(t), "real", c.file), parsed.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := renderPage(doc, c.page)
			path := filepath.Join("testdata", "layout", name+".md")
			if *updateGolden {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("page layout differs from %s (run with -update and read the diff):\n%s", path, firstDiff(string(want), got))
			}
		})
	}
}

// renderPage writes one page's blocks as Markdown-like text.
func renderPage(doc *parsed.Document, page int) string {
	var b strings.Builder
	for _, bl := range doc.Blocks {
		if bl.Page != page {
			continue
		}
		text := strings.Join(strings.Fields(bl.Text), " ")
		switch bl.Kind {
		case parsed.BlockHeading:
			fmt.Fprintf(&b, "%s %s\n", strings.Repeat("#", bl.Level), text)
		case parsed.BlockTableRow:
			fmt.Fprintf(&b, "| %s |\n", text)
		default:
			fmt.Fprintf(&b, "%s\n", text)
		}
	}
	for _, p := range doc.Pages {
		if p.Number == page {
			fmt.Fprintf(&b, "\n[label %q]\n", p.Label)
			for _, f := range p.Furniture {
				fmt.Fprintf(&b, "[furniture %q]\n", f)
			}
		}
	}
	return b.String()
}

// firstDiff shows the first differing line of two texts.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n want %q\n got  %q", i+1, a, b)
		}
	}
	return ""
}
