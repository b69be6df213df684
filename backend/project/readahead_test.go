package project

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"cairn/backend/kb"
)

// TestImportReadsAheadInOrder: the next file is read while one is indexed,
// yet results and progress come file by file in the order given; a file
// with the content of the one before it (read ahead while that one is
// still being indexed) is a duplicate of it, not a second document; a
// broken file between them fails alone.
func TestImportReadsAheadInOrder(t *testing.T) {
	p, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	dir := t.TempDir()
	write := func(name, text string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	a := write("a.txt", "The lighthouse at Kerrow Point was lit in 1871 by the harbour board.\n")
	twin := write("a-again.txt", "The lighthouse at Kerrow Point was lit in 1871 by the harbour board.\n")
	broken := filepath.Join(dir, "missing.pdf")
	b := write("b.md", "# Tides\n\nSpring tides at Kerrow Point reach four metres.\n")
	bTwin := write("b-again.md", "# Tides\n\nSpring tides at Kerrow Point reach four metres.\n")
	files := []string{a, twin, broken, b, bTwin}
	var order []string
	rs, err := p.Import(context.Background(), files, func(pr Progress) {
		if pr.Stage == "done" && pr.Result != nil && pr.Index > 0 {
			order = append(order, filepath.Base(pr.File))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	// The missing file is reported first (expand), then the others in order.
	want := []struct {
		file string
		st   kb.DocStatus
	}{{broken, kb.StatusFailed}, {a, kb.StatusOK}, {twin, kb.StatusDuplicate}, {b, kb.StatusOK}, {bTwin, kb.StatusDuplicate}}
	if len(rs) != len(want) {
		t.Fatalf("results: %+v", rs)
	}
	for i, w := range want {
		if rs[i].File != w.file || rs[i].Status != w.st {
			t.Errorf("result %d: %s %s, want %s %s", i, rs[i].File, rs[i].Status, w.file, w.st)
		}
	}
	if rs[2].DocID != rs[1].DocID || rs[4].DocID != rs[3].DocID {
		t.Errorf("duplicates point at %d and %d, want %d and %d", rs[2].DocID, rs[4].DocID, rs[1].DocID, rs[3].DocID)
	}
	if got := []string{"a.txt", "a-again.txt", "b.md", "b-again.md"}; len(order) != len(got) || order[0] != got[0] || order[1] != got[1] || order[2] != got[2] || order[3] != got[3] {
		t.Errorf("done events in order %v, want %v", order, got)
	}
	docs, err := p.Documents(context.Background())
	if err != nil || len(docs) != 2 {
		t.Fatalf("documents: %d %v, want 2", len(docs), err)
	}
	for _, d := range docs {
		if d.Status != kb.StatusOK || d.Chunks == 0 {
			t.Errorf("document %d: %s, %d chunks", d.ID, d.Status, d.Chunks)
		}
	}
	if stored, _ := filepath.Glob(filepath.Join(p.Dir(), FilesDir, "*")); len(stored) != 2 {
		t.Errorf("files/: %v, want the two documents' copies", stored)
	}
}
