package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/kb"
	"cairn/backend/pagetext"
	"cairn/backend/project"
	"cairn/backend/testshared"
)

// importShared imports one file of ../shared/docs/real into the app's
// project (reading only: no indexing run is started).
func importShared(t *testing.T, p *project.Project, name string) kb.Document {
	t.Helper()
	file, _ := filepath.Abs(filepath.Join("../../shared/docs/real", name))
	if _, err := os.Stat(file); err != nil {
		testshared.Missing(t, "../shared/docs/real/"+name+" is not here")
	}
	res, err := p.Import(context.Background(), []string{file}, nil)
	if err != nil || len(res) != 1 || res[0].Status != kb.StatusOK {
		t.Fatalf("import %s: %+v %v", name, res, err)
	}
	docs, err := p.Documents(context.Background())
	if err != nil || len(docs) == 0 {
		t.Fatalf("documents: %v %v", docs, err)
	}
	return docs[len(docs)-1]
}

// TestExportDocumentMarkdown: the app's export of a real PDF (the IRS
// instructions) is what `cairn text --format md` prints: page lines,
// '#' headings of their level, pipe tables with their rule.
func TestExportDocumentMarkdown(t *testing.T) {
	a, p := openReal(t)
	d := importShared(t, p, "en-report-tables-irs-i1040nr.pdf")
	md, err := a.ExportDocumentMarkdown(d.ID)
	if err != nil {
		t.Fatal(err)
	}
	pages, _ := p.Pages(context.Background(), d.ID, 0)
	var want strings.Builder
	pagetext.WriteDocument(&want, pages, true)
	if md != want.String() {
		t.Fatal("the export differs from what `cairn text --format md` writes")
	}
	for _, s := range []string{"=== page 1 ===\n", "\n# Instructions for Form 1040NR\n", "\n## General Instructions\n", "\n| --- |", "=== page 48 ==="} {
		if !strings.Contains(md, s) {
			t.Errorf("the export has no %q", s)
		}
	}
	headings, rows := 0, 0
	for _, l := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(l, "# "), strings.HasPrefix(l, "## "), strings.HasPrefix(l, "### "):
			headings++
		case strings.HasPrefix(l, "| ") && strings.HasSuffix(l, " |"):
			rows++
		}
	}
	if headings < 20 || rows < 100 {
		t.Errorf("%d headings and %d table rows in the export of a 48-page form instructions", headings, rows)
	}
	t.Logf("%d bytes, %d headings, %d table rows", len(md), headings, rows)

	for _, id := range []int64{0, -1} {
		if _, err := a.ExportDocumentMarkdown(id); err == nil {
			t.Errorf("document %d exported", id)
		}
	}
	if _, err := a.ExportDocumentMarkdown(d.ID + 100); ErrorCode(err) != CodeNotFound {
		t.Errorf("a missing document: %v (code %q)", err, ErrorCode(err))
	}
}

// TestDocumentPagesCarryBoxes: the source viewer draws a passage's
// highlight from DocumentPages: a two-column PDF's pages come with their
// size and blocks whose spans lie in the page text and whose boxes lie on
// the page, left-column blocks left of the gutter and right ones right.
func TestDocumentPagesCarryBoxes(t *testing.T) {
	a, p := openReal(t)
	d := importShared(t, p, "en-paper-2col-dpr-2p.pdf")
	pages, err := a.DocumentPages(d.ID)
	if err != nil || len(pages) != 2 {
		t.Fatalf("pages %d, %v", len(pages), err)
	}
	for _, pg := range pages {
		if pg.Width < 500 || pg.Height < 700 || len(pg.Blocks) < 5 {
			t.Fatalf("page %d: %gx%g, %d blocks", pg.Number, pg.Width, pg.Height, len(pg.Blocks))
		}
		left, right := 0, 0
		for _, b := range pg.Blocks {
			if b.Start < 0 || b.End > len(pg.Text) || b.Start >= b.End {
				t.Fatalf("page %d: block span [%d,%d) outside the text (%d bytes)", pg.Number, b.Start, b.End, len(pg.Text))
			}
			if b.Box == nil {
				t.Fatalf("page %d: block %q has no box", pg.Number, pg.Text[b.Start:b.End])
			}
			x0, y0, x1, y1 := b.Box[0], b.Box[1], b.Box[2], b.Box[3]
			if x0 < 0 || y0 < 0 || x1 > pg.Width || y1 > pg.Height || x0 >= x1 || y0 >= y1 {
				t.Fatalf("page %d: box %v off the page", pg.Number, *b.Box)
			}
			switch {
			case x1 < pg.Width/2:
				left++
			case x0 > pg.Width/2:
				right++
			}
		}
		if left < 2 || right < 2 {
			t.Errorf("page %d: %d blocks in the left column, %d in the right", pg.Number, left, right)
		}
	}
}

// TestSaveTextFile: on the desktop the save dialog's path is written;
// a cancelled dialog writes nothing; without the desktop the verb fails
// with code desktop_only (the browser downloads instead).
func TestSaveTextFile(t *testing.T) {
	a := newApp(&fakeBackend{})
	if _, err := a.SaveTextFile("x.md", "# x"); ErrorCode(err) != CodeDesktopOnly {
		t.Fatalf("outside the desktop: %v (code %q)", err, ErrorCode(err))
	}
	dir := t.TempDir()
	var offered string
	a.save = func(_ context.Context, name string) (string, error) {
		offered = name
		return filepath.Join(dir, "chosen.md"), nil
	}
	path, err := a.SaveTextFile("../../Form 1040NR.md", "# Form\n")
	if err != nil || path != filepath.Join(dir, "chosen.md") || offered != "Form 1040NR.md" {
		t.Fatalf("path %q err %v offered %q", path, err, offered)
	}
	if b, _ := os.ReadFile(path); string(b) != "# Form\n" {
		t.Fatalf("wrote %q", b)
	}
	a.save = func(context.Context, string) (string, error) { return "", nil }
	if path, err := a.SaveTextFile("y.md", "y"); path != "" || err != nil {
		t.Fatalf("cancelled: %q %v", path, err)
	}
}

// TestSearchSaysHowTheQueryWasEmbedded: App.Search passes on the search's
// note (the query not embedded: keywords only) for the Search view.
func TestSearchSaysHowTheQueryWasEmbedded(t *testing.T) {
	f := &fakeBackend{searchInfo: project.SearchInfo{Embedder: "ollama:bge-m3", Vectors: false, Note: "the query was not embedded: Ollama is not running; passages were ranked by keywords only"}}
	a := newApp(f)
	res, err := a.Search("deduction", 5)
	if err != nil || res.Hits == nil || res.Info.Vectors || !strings.Contains(res.Info.Note, "keywords only") || res.Info.Embedder != "ollama:bge-m3" {
		t.Fatalf("%+v %v", res, err)
	}
}
