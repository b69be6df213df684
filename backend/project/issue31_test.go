package project

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cairn/backend/kb"
)

// writeNotes writes small text documents into a new folder and returns it.
func ferryNotes(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	for i := range n {
		body := strings.Repeat("The ferry from Port Alder to Greyhaven leaves at dawn on weekdays, note "+string(rune('A'+i))+". ", 20)
		if err := os.WriteFile(filepath.Join(dir, "note-"+string(rune('a'+i))+".txt"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// messyProject is a project holding what used to make backups
// unrestorable: two good documents, a failed row (an empty file: kept with
// its stored copy), a document left pending by an interrupted import, an
// orphaned original (its row lost), a leftover folder from an old export
// inside files/, a hidden file and a partial import copy.
func messyProject(t *testing.T) (*Project, string) {
	t.Helper()
	ctx := context.Background()
	p := open(t)
	notes := ferryNotes(t, 3)
	empty := filepath.Join(notes, "empty.txt")
	os.WriteFile(empty, nil, 0o644)
	rs, err := p.Import(ctx, []string{notes}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := byFile(rs)["empty.txt"]; got.Status != kb.StatusFailed || got.DocID == 0 {
		t.Fatalf("empty file: %+v", got)
	}
	interrupt(t, p, byFile(rs)["note-c.txt"].DocID)
	files := filepath.Join(p.Dir(), FilesDir)
	os.WriteFile(filepath.Join(files, "0123456789ab-ferry.txt"), []byte("an original whose row was lost"), 0o644)
	os.MkdirAll(filepath.Join(files, ".cairn-export-123"), 0o755)
	os.WriteFile(filepath.Join(files, ".cairn-export-123", "backup.zip"), []byte("junk"), 0o644)
	os.WriteFile(filepath.Join(files, ".DS_Store"), []byte("junk"), 0o644)
	os.WriteFile(filepath.Join(files, ".incoming-42"), []byte("partial"), 0o644)
	return p, notes
}

// interrupt turns document id into what an import interrupted while reading
// it leaves: its row pending, without passages, its stored copy in place.
// It returns the new row's id.
func interrupt(t *testing.T, p *Project, id int64) int64 {
	t.Helper()
	ctx := context.Background()
	d, err := p.store.Document(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.store.RemoveDocuments(ctx, id); err != nil {
		t.Fatal(err)
	}
	nid, err := p.store.AddDocument(ctx, kb.Document{Title: d.Title, FileName: d.FileName, StoredPath: d.StoredPath, Kind: d.Kind, Hash: d.Hash, Bytes: d.Bytes})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(p.Dir(), filepath.FromSlash(d.StoredPath))); err != nil {
		t.Fatal(err)
	}
	return nid
}

// TestBackupRoundTripOfAMessyProject: export writes exactly what
// import-project restores (backupFiles), says what it skipped, and the
// restored project passes its check and resumes the pending document.
func TestBackupRoundTripOfAMessyProject(t *testing.T) {
	ctx := context.Background()
	p, _ := messyProject(t)
	out := filepath.Join(t.TempDir(), "backup.zip")
	rep, err := p.ExportWith(ctx, out, false)
	if err != nil {
		t.Fatal(err)
	}
	skipped := strings.Join(rep.Skipped, "\n")
	for _, want := range []string{"files/0123456789ab-ferry.txt: an original no document references", "files/.cairn-export-123/: a folder", "files/.DS_Store: a hidden file", "files/.incoming-42: a partial copy"} {
		if !strings.Contains(skipped, want) {
			t.Errorf("export did not say it skipped %q:\n%s", want, skipped)
		}
	}
	if rep.Documents != 4 || rep.Files != 4 {
		t.Errorf("report: %+v, want 4 documents with 4 stored copies", rep)
	}
	q, err := Restore(ctx, out, filepath.Join(t.TempDir(), "restored"))
	if err != nil {
		t.Fatalf("the backup of a project with an orphan, leftovers, a failed and a pending row does not restore: %v", err)
	}
	defer q.Close()
	a, _ := p.store.Documents(ctx)
	b, _ := q.store.Documents(ctx)
	if len(a) != len(b) {
		t.Fatalf("documents: %d before, %d after", len(a), len(b))
	}
	for i := range a {
		if a[i].Hash != b[i].Hash || a[i].Status != b[i].Status || a[i].StoredPath != b[i].StoredPath {
			t.Errorf("document %d differs: %+v vs %+v", i, a[i], b[i])
		}
	}
	// The restored project's only report is the pending document, which
	// the next indexing run reads again.
	problems, err := q.Check(ctx)
	if err != nil || len(problems) != 1 || !strings.Contains(problems[0], "is pending") {
		t.Fatalf("restored check: %v %q", err, problems)
	}
	if err := q.Index(ctx, nil); err != nil {
		t.Fatal(err)
	}
	check(t, q)
	for _, d := range mustDocs(t, q) {
		if d.FileName != "empty.txt" && d.Status != kb.StatusOK {
			t.Errorf("after index: %s is %s", d.FileName, d.Status)
		}
	}
}

func mustDocs(t *testing.T, p *Project) []kb.Document {
	t.Helper()
	ds, err := p.store.Documents(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// TestExportThroughLinks: a destination reached through a link to the
// project, a link to files/, or ".." back into the project is refused;
// through a link to a folder outside, the backup is written there. Nothing
// is ever left in the project, and each refusal is immediate.
func TestExportThroughLinks(t *testing.T) {
	ctx := context.Background()
	p, _ := messyProject(t)
	links := t.TempDir()
	outside := t.TempDir()
	os.Mkdir(filepath.Join(outside, "x"), 0o755)
	for name, target := range map[string]string{"alias": p.Dir(), "flink": filepath.Join(p.Dir(), FilesDir), "out": outside} {
		if err := os.Symlink(target, filepath.Join(links, name)); err != nil {
			t.Skipf("symlinks: %v", err)
		}
	}
	for _, tc := range []struct {
		dest string
		ok   bool
	}{
		{filepath.Join(links, "alias", "b.zip"), false},
		{filepath.Join(links, "flink", "b.zip"), false},
		{filepath.Join(links, "flink", "sub", "..", "b.zip"), false},
		{filepath.Join(p.Dir(), FilesDir, "..", "b.zip"), false},
		{filepath.Join(outside, "x", "..", "b.zip"), true},
		{filepath.Join(links, "out", "b.zip"), true},
	} {
		start := time.Now()
		rep, err := p.ExportWith(ctx, tc.dest, true)
		took := time.Since(start)
		if tc.ok != (err == nil) {
			t.Errorf("%s: err %v, want ok=%v", tc.dest, err, tc.ok)
		}
		if !tc.ok && (err == nil || !strings.Contains(err.Error(), "inside the project folder")) {
			t.Errorf("%s: refusal does not say why: %v", tc.dest, err)
		}
		if tc.ok && !strings.HasPrefix(rep.Out, mustReal(t, outside)) {
			t.Errorf("%s: written to %s, not outside the project", tc.dest, rep.Out)
		}
		if took > 30*time.Second {
			t.Errorf("%s: took %v", tc.dest, took)
		}
	}
	// nothing of the exports is in the project
	var left []string
	filepath.WalkDir(p.Dir(), func(path string, d os.DirEntry, err error) error {
		if err == nil && (strings.HasSuffix(path, ".zip") && !strings.Contains(path, ".cairn-export-123")) || strings.Contains(filepath.Base(path), ".cairn-export-") && !strings.HasSuffix(path, ".cairn-export-123") {
			left = append(left, path)
		}
		return nil
	})
	if len(left) > 0 {
		t.Errorf("export left in the project: %v", left)
	}
}

func mustReal(t *testing.T, p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestExportStopsAndCleansUp: a cancelled export (Ctrl-C) returns the
// context's error, writes no backup and leaves no temporary folder.
func TestExportStopsAndCleansUp(t *testing.T) {
	p, _ := messyProject(t)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.ExportWith(ctx, filepath.Join(dir, "b.zip"), false); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled export: %v", err)
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		t.Errorf("a cancelled export left %v", left)
	}
}

// TestPendingIsResumed: a document an interrupted import left pending is
// reported by check (unless an import is running), read again by the next
// index run (and by the next import), and ends ok.
func TestPendingIsResumed(t *testing.T) {
	ctx := context.Background()
	for _, next := range []string{"index", "import"} {
		t.Run(next, func(t *testing.T) {
			p := open(t)
			notes := ferryNotes(t, 2)
			rs, err := p.Import(ctx, []string{notes}, nil)
			if err != nil {
				t.Fatal(err)
			}
			pid := interrupt(t, p, rs[0].DocID)
			// an import running: pending is its work, not a problem
			unlock, err := p.lockWriter(ctx, lockImport, nil)
			if err != nil {
				t.Fatal(err)
			}
			if problems, _ := p.Check(ctx); len(problems) > 0 {
				t.Errorf("check during an import: %v", problems)
			}
			unlock()
			problems, _ := p.Check(ctx)
			if len(problems) != 1 || !strings.Contains(problems[0], "is pending: its import was interrupted") {
				t.Fatalf("check after the interruption: %q", problems)
			}
			if next == "index" {
				err = p.Index(ctx, nil)
			} else {
				_, err = p.Import(ctx, nil, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			d, err := p.store.Document(ctx, pid)
			if err != nil || d.Status != kb.StatusOK || d.Chunks == 0 {
				t.Fatalf("after %s: %+v %v", next, d, err)
			}
			check(t, p)
		})
	}
}

// TestSizeRefusalKeepsNoCopy: a file refused for its size (here a zip
// bomb) leaves no row and no stored copy behind.
func TestSizeRefusalKeepsNoCopy(t *testing.T) {
	bomb := shared(t, "bad/zip-bomb-1GiB.docx")
	p := open(t)
	rs, err := p.Import(context.Background(), []string{bomb}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || rs[0].Status != kb.StatusFailed || rs[0].ErrorCode != "too_large" || rs[0].DocID != 0 || !strings.Contains(rs[0].Error, "nothing was kept") {
		t.Fatalf("result: %+v", rs)
	}
	entries, _ := os.ReadDir(filepath.Join(p.Dir(), FilesDir))
	if len(entries) > 0 || len(mustDocs(t, p)) > 0 {
		t.Errorf("a refused file left %v and %d rows", entries, len(mustDocs(t, p)))
	}
	check(t, p)
}
