package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"cairn/backend/kb"
	"cairn/backend/project"
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
	if _, err := st.RemoveDocuments(ctx, d.ID); err != nil {
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

// TestAppStartRunsIndexingLeftToDo: a project imported without indexing
// (cairn import --no-index, or a window closed while indexing) is indexed
// when the app starts; one whose index is complete shows no indexing at
// all (no event, no running state).
func TestAppStartRunsIndexingLeftToDo(t *testing.T) {
	a, p := openReal(t)
	ctx := context.Background()
	src := filepath.Join(t.TempDir(), "ferry.txt")
	os.WriteFile(src, []byte("The ferry to Port Alder leaves at nine on weekdays. Captain Ilse Marrow commands the ferry.\n"), 0o644)
	if rs, err := p.Import(ctx, []string{src}, nil); err != nil || len(rs) != 1 || rs[0].Status != kb.StatusOK {
		t.Fatalf("import: %+v %v", rs, err)
	}
	if c, err := p.ExtractionCounts(ctx); err != nil || c["pending"] == 0 {
		t.Fatalf("before start: %v %v, want passages pending extraction", c, err)
	}
	a.resumeInterrupted() // what the app runs once the UI is up
	if s := a.IndexStatus(); s.Running || s.Done == nil {
		t.Fatalf("index state after start: %+v", s)
	}
	if c, err := p.ExtractionCounts(ctx); err != nil || c["pending"] != 0 {
		t.Errorf("after start: %v %v, want nothing pending", c, err)
	}
	if st, err := p.MindMapStatuses(ctx); err != nil || len(st) != 1 {
		t.Errorf("mind maps after start: %v %v", st, err)
	}

	// Opened again, complete: nothing is announced.
	b := New(p)
	var events []string
	b.subscribe(func(name string, _ any) { events = append(events, name) })
	b.resumeInterrupted()
	if s := b.IndexStatus(); s.Running || s.Done != nil || len(events) > 0 {
		t.Errorf("complete project: state %+v, events %v; want none", s, events)
	}
}

// TestSwitchRunsIndexingLeftToDo: switching to a project whose import left
// indexing undone runs it (once the UI is up), as opening it at start does.
func TestSwitchRunsIndexingLeftToDo(t *testing.T) {
	a, root := managedApp(t, "One")
	if _, err := a.CreateProject("Two"); err != nil {
		t.Fatal(err)
	}
	two, err := project.Open(filepath.Join(root, "Two"))
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), "ferry.txt")
	os.WriteFile(src, []byte("The ferry to Port Alder leaves at nine on weekdays. Captain Ilse Marrow commands the ferry.\n"), 0o644)
	if rs, err := two.Import(context.Background(), []string{src}, nil); err != nil || len(rs) != 1 || rs[0].Status != kb.StatusOK {
		t.Fatalf("import: %+v %v", rs, err)
	}
	two.Close()
	a.readyRan.Store(true) // the UI is up (its start-up hooks are not needed here)
	if _, err := a.OpenProject("Two"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "indexing after the switch", func() bool { s := a.IndexStatus(); return !s.Running && s.Done != nil })
	pb, ok := a.cur().(projectBackend)
	if !ok {
		t.Fatal("no project open")
	}
	if c, err := pb.p.ExtractionCounts(context.Background()); err != nil || c["pending"] != 0 || c["ok"] == 0 {
		t.Errorf("after the switch: %v %v, want every passage extracted", c, err)
	}
}
