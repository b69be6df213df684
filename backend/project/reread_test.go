package project

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"cairn/backend/kb"
)

// TestRereadAfterReaderUpgrade: documents an older reader produced are read
// again by the first index stage, the next one read while one is saved;
// each gets the passages a fresh import gives, and a stored original that
// can no longer be read fails alone, keeping its earlier text, with a
// warning that names it.
func TestRereadAfterReaderUpgrade(t *testing.T) {
	ctx := context.Background()
	p := open(t)
	var files []string
	for _, f := range []string{"en-report-dmca-summary.pdf", "en-report-tables-irs-i1040nr.pdf", "en-report-3col-federal-register.pdf"} {
		a, _ := filepath.Abs("../../assets/sample/" + f)
		files = append(files, a)
	}
	importAll(t, p, files...)
	before, err := p.Documents(ctx)
	if err != nil || len(before) != 3 {
		t.Fatalf("documents: %d %v", len(before), err)
	}
	// As an older Cairn left them; the second's original is damaged since.
	db, err := sql.Open("sqlite", filepath.Join(p.Dir(), DBName))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("UPDATE documents SET reader = 1"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	damaged := filepath.Join(p.Dir(), filepath.FromSlash(before[1].StoredPath))
	if err := os.WriteFile(damaged, []byte("%PDF-1.7\nnot a pdf any more\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var warnings []string
	reread := 0
	if err := p.Index(ctx, func(e IndexProgress) {
		if e.Stage == "reread" {
			reread++
			if e.Warning != "" {
				warnings = append(warnings, e.Warning)
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	if reread != 4 {
		t.Errorf("%d reread progress events, want one per document and the last", reread)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "1 of 3 documents") {
		t.Errorf("warnings %q, want one naming the damaged document", warnings)
	}
	after, err := p.Documents(ctx)
	if err != nil || len(after) != 3 {
		t.Fatalf("documents after: %d %v", len(after), err)
	}
	for i, d := range after {
		if d.Status != kb.StatusOK || d.Chunks != before[i].Chunks || d.Pages != before[i].Pages {
			t.Errorf("%s: %s, %d pages, %d chunks; before %d pages, %d chunks", d.FileName, d.Status, d.Pages, d.Chunks, before[i].Pages, before[i].Chunks)
		}
	}
	left, err := p.store.OutdatedDocs(ctx, "pdf")
	if err != nil || len(left) != 1 || left[0] != before[1].ID {
		t.Errorf("still outdated: %v %v, want only the damaged document %d", left, err, before[1].ID)
	}
	if hits, err := p.Search(ctx, "circumvention", 3); err != nil || len(hits) == 0 {
		t.Errorf("search after reading again: %v %v", hits, err)
	}
}
