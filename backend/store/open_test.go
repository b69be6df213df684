package store

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/kb"
)

// oddNames are project folder names SQLite's URI parser would misread if the
// path were pasted into a file: URI.
var oddNames = []string{
	"C# notes", "fk?test", "a%20b", "100%", "with space", `quote'"s`,
	"naïve 日本語 ü", "a#b?c%41&d=e", strings.Repeat("long-name-", 21),
}

// TestOpenOddPaths: the database is the file named by the path, whatever the
// folder is called, and every connection has foreign keys on and WAL.
func TestOpenOddPaths(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, name := range oddNames {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(root, name)
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "cairn.db")
			s, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if got, err := s.FileName(ctx); err != nil || got != path {
				t.Fatalf("opened %q (%v), want %q", got, err, path)
			}
			// Every pooled connection, not just the first.
			conns := make([]interface{ Close() error }, 0, 4)
			for range 4 {
				c, err := s.db.Conn(ctx)
				if err != nil {
					t.Fatal(err)
				}
				conns = append(conns, c)
				var fk int
				var mode string
				if err := c.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
					t.Fatalf("foreign_keys = %d (%v), want 1", fk, err)
				}
				if err := c.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
					t.Fatalf("journal_mode = %q (%v), want wal", mode, err)
				}
			}
			for _, c := range conns {
				c.Close()
			}
		})
	}
	// Nothing was created beside the project folders.
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != len(oddNames) {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Fatalf("files beside the projects: %q", names)
	}
}

// TestTwoProjectsNeverShare: "C# notes" and "C# other" used to open the same
// file "C" in their parent folder.
func TestTwoProjectsNeverShare(t *testing.T) {
	root := t.TempDir()
	open := func(name string) *Store {
		dir := filepath.Join(root, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		s, err := Open(filepath.Join(dir, "cairn.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		if err := s.EnsureVectors(context.Background(), testEmbedder); err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, b := open("C# notes"), open("C# other")
	addDoc(t, a, "aaa", "only in notes")
	if n := count(t, b, "SELECT count(*) FROM documents"); n != 0 {
		t.Fatalf("C# other sees %d documents of C# notes", n)
	}
}

// TestForeignKeysInQuestionMarkFolder: removing a document in a folder
// named fk?test leaves no orphans (foreign keys used to be off there).
func TestForeignKeysInQuestionMarkFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fk?test")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := Open(filepath.Join(dir, "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if err := s.EnsureVectors(ctx, testEmbedder); err != nil {
		t.Fatal(err)
	}
	id := addDoc(t, s, "aaa", "one page", "two pages")
	addDoc(t, s, "bbb", "another")
	if _, err := s.RemoveDocuments(ctx, id); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, "SELECT count(*) FROM pragma_foreign_key_check"); n != 0 {
		t.Fatalf("%d rows violate foreign keys", n)
	}
	if n := count(t, s, "SELECT count(*) FROM chunks"); n != 1 {
		t.Fatalf("%d chunks left, want 1", n)
	}
}

func TestLegacyPath(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"/p/notes/cairn.db", "/p/notes/cairn.db"},
		{"/p/C# notes/cairn.db", "/p/C"},
		{"/p/fk?test/cairn.db", "/p/fk"},
		{"/p/a%20b/cairn.db", "/p/a b/cairn.db"},
		{"/p/100%/cairn.db", "/p/100%/cairn.db"},
		{"/p/x%4/cairn.db", "/p/x%4/cairn.db"},
	} {
		if got := LegacyPath(c.in); got != c.want {
			t.Errorf("LegacyPath(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// legacyDB writes a Cairn database at path holding one document whose
// original is files/<hash>.
func legacyDB(t *testing.T, path, hash string) {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.EnsureVectors(context.Background(), testEmbedder); err != nil {
		t.Fatal(err)
	}
	addDoc(t, s, hash, "a page of "+hash)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestAdoptLegacyDatabase(t *testing.T) {
	ctx := context.Background()
	t.Run("moved in", func(t *testing.T) {
		root := t.TempDir()
		legacy := filepath.Join(root, "C")
		legacyDB(t, legacy, "aaa")
		dir := filepath.Join(root, "C# notes")
		os.MkdirAll(filepath.Join(dir, "files"), 0o755)
		os.WriteFile(filepath.Join(dir, "files", "aaa"), []byte("x"), 0o644)
		// A leftover -wal travels with it.
		os.WriteFile(legacy+"-wal", nil, 0o644)
		s, err := Open(filepath.Join(dir, "cairn.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if !strings.Contains(s.Notice(), legacy) {
			t.Fatalf("notice %q does not say where it was", s.Notice())
		}
		if n := count(t, s, "SELECT count(*) FROM documents"); n != 1 {
			t.Fatalf("%d documents after the move, want 1", n)
		}
		for _, p := range []string{legacy, legacy + "-wal"} {
			if _, err := os.Lstat(p); err == nil {
				t.Fatalf("%s still there", p)
			}
		}
		if problems, err := s.Check(ctx); err != nil || len(problems) > 0 {
			t.Fatalf("check: %v %v", problems, err)
		}
	})
	t.Run("shared with another project: refused", func(t *testing.T) {
		root := t.TempDir()
		legacy := filepath.Join(root, "C")
		legacyDB(t, legacy, "aaa")
		dir := filepath.Join(root, "C# other")
		os.MkdirAll(filepath.Join(dir, "files"), 0o755) // files/aaa is not here
		_, err := Open(filepath.Join(dir, "cairn.db"))
		if err == nil || !strings.Contains(err.Error(), legacy) || !strings.Contains(err.Error(), "not in this project") {
			t.Fatalf("err = %v", err)
		}
		if _, err := os.Stat(legacy); err != nil {
			t.Fatal("the misplaced database was moved or lost")
		}
		if _, err := os.Stat(filepath.Join(dir, "cairn.db")); err == nil {
			t.Fatal("an empty database was created in its place")
		}
	})
	t.Run("not a Cairn database: left alone", func(t *testing.T) {
		root := t.TempDir()
		other := filepath.Join(root, "C")
		os.WriteFile(other, []byte("someone's notes"), 0o644)
		dir := filepath.Join(root, "C# notes")
		os.Mkdir(dir, 0o755)
		s, err := Open(filepath.Join(dir, "cairn.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if b, _ := os.ReadFile(other); string(b) != "someone's notes" || s.Notice() != "" {
			t.Fatalf("touched %s (notice %q)", other, s.Notice())
		}
	})
}

// TestOpenLongPath: SQLite opens at most 511-byte paths; a longer one says so.
func TestOpenLongPath(t *testing.T) {
	dir := t.TempDir()
	for len(dir) < 600 {
		dir = filepath.Join(dir, strings.Repeat("d", 100))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Open(filepath.Join(dir, "cairn.db"))
	if err == nil || !strings.Contains(err.Error(), "too long") {
		t.Fatalf("err = %v, want the path too long", err)
	}
}

// readOnlyDir makes dir read-only for this process: a read-only bind mount
// when running as root (root ignores permissions), else mode 0555.
func readOnlyDir(t *testing.T, dir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
		return
	}
	if out, err := exec.Command("mount", "--bind", dir, dir).CombinedOutput(); err != nil {
		t.Skipf("root without mount (%v: %s): no way to make a read-only folder", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	if out, err := exec.Command("mount", "-o", "remount,bind,ro", dir).CombinedOutput(); err != nil {
		t.Skipf("remount read-only: %v: %s", err, out)
	}
}

// TestOpenReadOnlyFolder: a project on a read-only mount opens read-only:
// reads work, writes fail plainly, nothing is created.
func TestOpenReadOnlyFolder(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "cairn.db")
	legacyDB(t, path, "aaa")
	readOnlyDir(t, dir)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.ReadOnly() {
		t.Fatal("not marked read-only")
	}
	docs, err := s.Documents(ctx)
	if err != nil || len(docs) != 1 {
		t.Fatalf("documents: %v %v", docs, err)
	}
	if hits, err := s.LexicalSearch(ctx, `"page"`, [4]float64{1, 1, 1, 1}, 10); err != nil || len(hits) != 1 {
		t.Fatalf("search: %v %v", hits, err)
	}
	if problems, err := s.Check(ctx); err != nil || len(problems) > 0 {
		t.Fatalf("check: %v %v", problems, err)
	}
	if _, err := s.AddDocument(ctx, kb.Document{Title: "x", FileName: "x", StoredPath: "files/x", Kind: "txt", Hash: "x"}); err == nil {
		t.Fatal("a write to a read-only project succeeded")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("files created in the read-only folder: %d entries", len(ents))
	}
	// A folder without a database says why it cannot make one.
	empty := t.TempDir()
	readOnlyDir(t, empty)
	if _, err := Open(filepath.Join(empty, "cairn.db")); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("err = %v", err)
	}
}
