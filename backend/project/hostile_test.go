package project

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cairn/backend/kb"
)

// Hostile folders: thousands of small files under odd Unicode names, a
// symlink out of the folder, and a file far too large for the reader.

var oddNames = []string{
	"Café (NFD).txt",                    // e + combining acute
	"مرحبا بالعالم.txt",                 // right-to-left
	"‮evil‬.txt",                        // RLO override characters
	"notes 🗂 2026.md",                   // emoji, spaces
	"line\nbreak.txt",                   // newline in a file name
	"漢字とかな.txt",                         // CJK
	strings.Repeat("long", 60) + ".txt", // 244 bytes, near the file-system limit
	"-dash-first.txt",
	"semi;colon'quote\".txt",
}

func TestFolderWithThousandsOfOddlyNamedFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("imports 2000 files")
	}
	ctx := context.Background()
	root := t.TempDir()
	const n = 2000
	for i := 0; i < n; i++ {
		dir := filepath.Join(root, fmt.Sprintf("d%02d", i%40))
		os.MkdirAll(dir, 0o755)
		name := fmt.Sprintf("note-%04d.txt", i)
		if i < len(oddNames) {
			name = oddNames[i]
		}
		body := fmt.Sprintf("Note %d. The quarterly figure for region %d was %d units, reported by team %d.\n", i, i%17, i*13, i%5)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatalf("%q: %v", name, err)
		}
	}
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("outside the import folder"), 0o644)
	os.Symlink(outside, filepath.Join(root, "escape"))
	os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "secret-link.txt"))

	p := open(t)
	start := time.Now()
	rs, err := p.Import(ctx, []string{root}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("imported %d files in %v", len(rs), time.Since(start).Round(time.Millisecond))
	if len(rs) != n {
		t.Fatalf("%d results for %d files (symlinks must not be followed)", len(rs), n)
	}
	for _, r := range rs {
		if r.Status != kb.StatusOK {
			t.Fatalf("%q: %s %s", r.File, r.Status, r.Error)
		}
		if strings.Contains(r.File, "secret") {
			t.Fatalf("followed a symlink out of the folder: %s", r.File)
		}
	}
	docs, _ := p.Documents(ctx)
	names := map[string]bool{}
	for _, d := range docs {
		names[d.FileName] = true
	}
	for _, o := range oddNames {
		if !names[o] {
			t.Errorf("odd name %q not kept as the document's name", o)
		}
	}
	hits, err := p.Search(ctx, "quarterly figure region units", 5)
	if err != nil || len(hits) == 0 {
		t.Fatalf("search over the imported notes: %v %d", err, len(hits))
	}
	check(t, p)
}

func TestHugeFileFailsAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 500 MB sparse file")
	}
	ctx := context.Background()
	dir := t.TempDir()
	big := filepath.Join(dir, "huge.pdf")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("%PDF-1.7\n")
	if err := f.Truncate(500 << 20); err != nil { // 500 MB, mostly zeros (sparse)
		t.Fatal(err)
	}
	f.Close()
	small := shared(t, "real/en-word-lists-nested.docx")
	p := open(t)
	start := time.Now()
	rs, err := p.Import(ctx, []string{big, small}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := byFile(rs)
	if r := res["huge.pdf"]; r.Status != kb.StatusFailed || r.Error == "" {
		t.Errorf("500 MB junk PDF: %s %q", r.Status, r.Error)
	} else {
		t.Logf("500 MB junk PDF failed in %v: %s", time.Since(start).Round(time.Millisecond), r.Error)
	}
	if r := res[filepath.Base(small)]; r.Status != kb.StatusOK {
		t.Errorf("the good file next to it: %s %s", r.Status, r.Error)
	}
	check(t, p)
}
