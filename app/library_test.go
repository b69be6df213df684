package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cairn/backend/ingest"
	"cairn/backend/kb"
	"cairn/backend/project"
	"cairn/backend/testshared"
)

// TestMain lets the test binary act as the isolated file reader that
// project imports start (see backend/ingest/isolate.go).
func TestMain(m *testing.M) {
	ingest.MaybeRunWorker()
	os.Exit(m.Run())
}

func openReal(t *testing.T) (*App, *project.Project) {
	t.Helper()
	p, err := project.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return New(p), p
}

// waitIndexIdle waits for the background indexing an import starts.
func waitIndexIdle(t *testing.T, a *App) IndexState {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		s := a.IndexStatus()
		if !s.Running && s.Done != nil {
			return s
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("indexing did not finish")
	return IndexState{}
}

func TestStoredPathStaysInsideTheProject(t *testing.T) {
	a, _ := openReal(t)
	for _, bad := range []string{"../outside.pdf", "files/../../x", ""} {
		if _, err := a.storedPath(kb.Document{ID: 1, StoredPath: bad}); err == nil {
			t.Errorf("stored path %q accepted", bad)
		}
	}
	if _, err := a.storedPath(kb.Document{ID: 1, StoredPath: "files/ab/x.pdf"}); err != nil {
		t.Errorf("a path inside files/ refused: %v", err)
	}
}

func TestRetryDocumentWithPassword(t *testing.T) {
	a, _ := openReal(t)
	get := record(a)
	src := filepath.Join("..", "..", "shared", "docs", "bad", "encrypted-rc4-userpw.pdf")
	if _, err := os.Stat(src); err != nil {
		testshared.Missing(t, "../shared/docs/bad is not here")
	}
	res, err := a.ImportPaths([]string{src})
	if err != nil || len(res) != 1 || res[0].Status != kb.StatusNeedsPassword {
		t.Fatalf("import: %v %+v", err, res)
	}
	id := res[0].DocID
	// A wrong password leaves it waiting for the right one.
	res, err = a.RetryDocument(id, "wrong")
	if err != nil || len(res) != 1 || res[0].Status != kb.StatusNeedsPassword {
		t.Fatalf("wrong password: %v %+v", err, res)
	}
	res, err = a.RetryDocument(id, "secret")
	if err != nil || len(res) != 1 || res[0].Status != kb.StatusOK || res[0].DocID != id || res[0].Chunks == 0 {
		t.Fatalf("right password: %v %+v", err, res)
	}
	docs, _ := a.ListDocuments()
	if len(docs) != 1 || docs[0].Status != kb.StatusOK {
		t.Fatalf("after retry: %+v", docs)
	}
	if _, err := a.RetryDocument(id, ""); err == nil || !strings.Contains(err.Error(), "nothing to retry") {
		t.Fatalf("retrying a ready document: err = %v", err)
	}
	waitIndexIdle(t, a)
	var names []string
	for _, e := range get() {
		names = append(names, e.name)
	}
	joined := strings.Join(names, " ")
	for _, want := range []string{EventImportStarted, EventImportDone, EventIndexStarted, EventIndexDone} {
		if !strings.Contains(joined, want) {
			t.Errorf("no %s event in %v", want, names)
		}
	}
}

func TestReindexOutsideAProject(t *testing.T) {
	a := newApp(&fakeBackend{})
	if err := a.Reindex(); err == nil {
		t.Fatal("Reindex without a project must fail")
	}
	if s := a.IndexStatus(); s.Running {
		t.Fatal("index running")
	}
}

// Issue 21, item 4: the source viewer never reads through a link out of the
// project, whatever the database says (the originals endpoint opens the
// stored copy through project.OpenStored).
func TestOriginalRefusesLinksOut(t *testing.T) {
	a, _ := openReal(t)
	dir := a.cur().Dir()
	secret := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(secret, []byte("not Cairn's"), 0o644)
	os.MkdirAll(filepath.Join(dir, "files"), 0o755)
	link := filepath.Join(dir, "files", "0123456789ab-link.txt")
	if err := os.Symlink(secret, link); err != nil {
		t.Skip(err)
	}
	if _, err := project.OpenStored(dir, "files/0123456789ab-link.txt"); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a link in files/ was opened: %v", err)
	}
}

// Issue 21, item 7: the Library finds originals no document references and
// imports them again.
func TestOrphansOfferedAndRepaired(t *testing.T) {
	a, p := openReal(t)
	orphan := filepath.Join(p.Dir(), "files", "0123456789ab-ferry.txt")
	os.WriteFile(orphan, []byte("The ferry to Port Alder leaves at nine.\n"), 0o644)
	got, err := a.OrphanedOriginals()
	if err != nil || len(got) != 1 || got[0] != "files/0123456789ab-ferry.txt" {
		t.Fatalf("OrphanedOriginals = %v, %v", got, err)
	}
	rs, err := a.RepairOrphans()
	if err != nil || len(rs) != 1 || rs[0].Status != kb.StatusOK {
		t.Fatalf("RepairOrphans = %+v, %v", rs, err)
	}
	waitIndexIdle(t, a)
	if got, _ := a.OrphanedOriginals(); len(got) != 0 {
		t.Errorf("orphans after repair: %v", got)
	}
	docs, _ := a.ListDocuments()
	if len(docs) != 1 || docs[0].FileName != "ferry.txt" {
		t.Errorf("documents: %+v", docs)
	}
}
