package project

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckDatabaseOutsideFolder: `cairn check` says when the database open
// is not the project's own cairn.db (here, a cairn.db linking elsewhere).
func TestCheckDatabaseOutsideFolder(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(root, "elsewhere.db")
	p, err := Open(filepath.Join(root, "first"))
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	if err := os.Rename(filepath.Join(root, "first", DBName), outside); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "C# notes")
	os.MkdirAll(dir, 0o755)
	if err := os.Symlink(outside, filepath.Join(dir, DBName)); err != nil {
		t.Skip("no symlinks:", err)
	}
	p, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	problems, err := p.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 1 || !strings.Contains(problems[0], "not inside the project folder") {
		t.Fatalf("problems = %q", problems)
	}
}

// TestCheckOddFolderNames: a project in a folder SQLite's URI syntax would
// misread checks clean, database inside.
func TestCheckOddFolderNames(t *testing.T) {
	for _, name := range []string{"C# notes", "fk?test", "a%20b"} {
		p, err := Open(filepath.Join(t.TempDir(), name))
		if err != nil {
			t.Fatal(err)
		}
		problems, err := p.Check(context.Background())
		p.Close()
		if err != nil || len(problems) > 0 {
			t.Fatalf("%s: %q %v", name, problems, err)
		}
	}
}
