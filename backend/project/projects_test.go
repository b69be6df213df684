package project

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestValidateName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"Sample", true},
		{"Contracts 2024", true},
		{"民法典 notes", true},
		{"Café-Über_v2", true},
		{"", false},
		{" padded", false},
		{"padded ", false},
		{".", false},
		{"..", false},
		{".hidden", false},
		{"trailing.", false},
		{"a/b", false},
		{`a\b`, false},
		{"a:b", false},
		{"tab\there", false},
		{strings.Repeat("x", MaxNameLen), true},
		{strings.Repeat("é", MaxNameLen+1), false},
	} {
		err := ValidateName(tc.name)
		if (err == nil) != tc.ok {
			t.Errorf("ValidateName(%q) = %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}

func TestProjectsLifecycle(t *testing.T) {
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "projects")

	if l, err := List(ctx, root); err != nil || len(l) != 0 {
		t.Fatalf("missing root: %v %v", l, err)
	}
	dir, err := Create(root, "Beta")
	if err != nil {
		t.Fatal(err)
	}
	if !IsProject(dir) {
		t.Fatalf("%s has no database", dir)
	}
	if _, err := Create(root, "Beta"); err == nil {
		t.Fatal("creating a taken name succeeded")
	}
	if _, err := Create(root, "../escape"); err == nil {
		t.Fatal("a name with a separator was accepted")
	}
	// A document in alpha, so the count is checked for real.
	adir, err := Create(root, "alpha")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Open(adir)
	if err != nil {
		t.Fatal(err)
	}
	file, _ := filepath.Abs("../../assets/sample/en-report-dmca-summary.pdf")
	if _, err := p.Import(ctx, []string{file}, nil); err != nil {
		t.Fatal(err)
	}
	p.Close()
	// Folders that are not projects, and hidden leftovers, are not listed.
	os.MkdirAll(filepath.Join(root, "not-a-project"), 0o755)
	os.MkdirAll(filepath.Join(root, ".deleting-123", "p"), 0o755)
	os.WriteFile(filepath.Join(root, ".deleting-123", "p", DBName), nil, 0o644)

	l, err := List(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if len(l) != 2 || l[0].Name != "alpha" || l[1].Name != "Beta" {
		t.Fatalf("list = %+v", l)
	}
	if l[0].Documents != 1 || l[1].Documents != 0 || l[0].Error != "" {
		t.Fatalf("document counts = %+v", l)
	}

	if _, err := Rename(root, "Beta", "alpha"); err == nil {
		t.Fatal("rename onto an existing project succeeded")
	}
	if _, err := Rename(root, "not-a-project", "x"); !errors.Is(err, ErrNotProject) {
		t.Fatalf("rename of a plain folder: %v", err)
	}
	ndir, err := Rename(root, "Beta", "Gamma")
	if err != nil {
		t.Fatal(err)
	}
	if !IsProject(ndir) || IsProject(filepath.Join(root, "Beta")) {
		t.Fatal("rename did not move the project")
	}

	if err := Delete(root, "not-a-project"); !errors.Is(err, ErrNotProject) {
		t.Fatalf("delete of a plain folder: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "not-a-project")); err != nil {
		t.Fatal("a plain folder was deleted")
	}
	if err := Delete(root, ".."); err == nil {
		t.Fatal("delete .. succeeded")
	}
	if err := Delete(root, "alpha"); err != nil {
		t.Fatal(err)
	}
	l, _ = List(ctx, root)
	if len(l) != 1 || l[0].Name != "Gamma" {
		t.Fatalf("after delete: %+v", l)
	}
	if _, err := os.Stat(adir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("alpha still on disk: %v", err)
	}
	// The original file is untouched.
	if _, err := os.Stat(file); err != nil {
		t.Fatal(err)
	}
}
