package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/testshared"
)

// TestNoDEVTextInGo fails when a Go file of the repository quotes a DEV
// question or passage title of ../shared/eval.
func TestNoDEVTextInGo(t *testing.T) {
	shared := filepath.Join("..", "..", "..", "shared")
	if _, err := os.Stat(filepath.Join(shared, "eval", "hotpotqa", "questions.jsonl")); err != nil {
		testshared.Missing(t, "../shared/eval not present")
		return
	}
	found, err := Check(filepath.Join("..", ".."), shared)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Error(f)
	}
}

// TestCheckFindsQuotes runs Check on a made-up repository and DEV folder.
func TestCheckFindsQuotes(t *testing.T) {
	dir := t.TempDir()
	shared, repo := filepath.Join(dir, "shared"), filepath.Join(dir, "repo")
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, set := range multiHop {
		write(filepath.Join(shared, "eval", set, "questions.jsonl"), `{"question": "Where was the painter of Varn Lights born?"}`+"\n")
		write(filepath.Join(shared, "eval", set, "corpus.jsonl"), `{"title": "Orsk Haldane", "text": "x"}`+"\n"+`{"title": "Kestria", "text": "x"}`+"\n")
	}
	write(filepath.Join(repo, "a_test.go"), "package a\n// Where was the painter of Varn Lights born?\n")
	write(filepath.Join(repo, "b.go"), "package a\n// Orsk Haldane and Kestria\n")
	write(filepath.Join(repo, "c.go"), "package a\n// Tomas Rell\n")
	found, err := Check(repo, shared)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(found, "\n")
	if len(found) != 2 || !strings.Contains(got, "a_test.go: DEV question") || !strings.Contains(got, `b.go: DEV passage title "Orsk Haldane"`) {
		t.Errorf("found:\n%s", got)
	}
}
