package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRepositoryDocs runs the checks on this repository: README.md at most
// MaxReadmeLines lines, every relative link of README.md and docs/ alive,
// and the two .keep files of the frontend identical.
func TestRepositoryDocs(t *testing.T) {
	problems, err := Check(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Dependencies (and why)":                                            "dependencies-and-why",
		"MCP server (assistants and agents)":                                "mcp-server-assistants-and-agents",
		"Offline relations and types on `../shared/docs/real` (2026-11-24)": "offline-relations-and-types-on-shareddocsreal-2026-11-24",
		"A library of documents: titles, scope, routing":                    "a-library-of-documents-titles-scope-routing",
		"`../shared`: the data beside the repository":                       "shared-the-data-beside-the-repository",
	} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCheckFindsProblems: a long README, a link to a missing file, a link to
// a missing heading and differing .keep files are each reported (a link
// whose text runs over two lines too); links in code are not links.
func TestCheckFindsProblems(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("README.md", strings.Repeat("line\n", MaxReadmeLines+1)+
		"[ok](docs/a.md#a-title) [gone over\ntwo lines](docs/missing.md) [bad anchor](docs/a.md#nowhere) `[code](nowhere.md)` [web](https://example.org/x)\n")
	write("docs/a.md", "# A title\n\n[back](../README.md) [self](#a-title)\n\n```\n[fenced](nowhere.md)\n```\n")
	write("frontend/public/.keep", "one\n")
	write("frontend/dist/.keep", "two\n")
	problems, err := Check(root)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(problems, "\n")
	for _, want := range []string{"more than 250", "docs/missing.md does not exist", "#nowhere", "differs from frontend/public/.keep"} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
	if len(problems) != 4 {
		t.Errorf("want 4 problems, got %d:\n%s", len(problems), got)
	}
}
