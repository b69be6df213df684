package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"cairn/backend/kb"
)

// TestAppStartResumesInterruptedImport: a document an import left pending
// (its row without passages, its stored copy in place) is read again when
// the app starts, and indexed.
func TestAppStartResumesInterruptedImport(t *testing.T) {
	a, p := openReal(t)
	ctx := context.Background()
	src := filepath.Join(t.TempDir(), "ferry.txt")
	os.WriteFile(src, []byte("The ferry to Port Alder leaves at nine on weekdays and at ten on Sundays.\n"), 0o644)
	rs, err := p.Import(ctx, []string{src}, nil)
	if err != nil || len(rs) != 1 || rs[0].Status != kb.StatusOK {
		t.Fatalf("import: %+v %v", rs, err)
	}
	st := p.Store()
	d, err := st.Document(ctx, rs[0].DocID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.RemoveDocuments(ctx, func(string, kb.Chunk) []string { return nil }, d.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddDocument(ctx, kb.Document{Title: d.Title, FileName: d.FileName, StoredPath: d.StoredPath, Kind: d.Kind, Hash: d.Hash, Bytes: d.Bytes}); err != nil {
		t.Fatal(err)
	}
	a.resumeInterrupted() // what the app runs once the UI is up
	waitIndexIdle(t, a)
	docs, err := a.ListDocuments()
	if err != nil || len(docs) != 1 || docs[0].Status != kb.StatusOK || docs[0].Chunks == 0 {
		t.Fatalf("after start: %+v %v", docs, err)
	}
	if problems, err := p.Check(ctx); err != nil || len(problems) > 0 {
		t.Fatalf("check: %v %v", problems, err)
	}
}
