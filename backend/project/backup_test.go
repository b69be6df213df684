package project

import (
	"archive/zip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExportRestoreRoundTrip(t *testing.T) {
	ctx := context.Background()
	src := t.TempDir()
	p, err := Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	sample, _ := filepath.Abs("../../assets/sample")
	res, err := p.Import(ctx, []string{sample}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) == 0 {
		t.Fatal("sample import gave no results")
	}
	out := filepath.Join(t.TempDir(), "backup.zip")
	if err := p.Export(ctx, out); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "restored")
	q, err := Restore(ctx, out, dst)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	a, _ := p.Documents(ctx)
	b, _ := q.Documents(ctx)
	if len(a) != len(b) || len(a) == 0 {
		t.Fatalf("documents: %d before, %d after", len(a), len(b))
	}
	for i := range a {
		if a[i].Hash != b[i].Hash || a[i].Chunks != b[i].Chunks || a[i].Status != b[i].Status {
			t.Errorf("document %d differs: %+v vs %+v", i, a[i], b[i])
		}
	}
	hitsA, _ := p.Search(ctx, "the", 5)
	hitsB, _ := q.Search(ctx, "the", 5)
	if len(hitsA) != len(hitsB) {
		t.Errorf("search differs after restore: %d vs %d hits", len(hitsA), len(hitsB))
	}
	// A second restore into the now non-empty folder is refused and leaves it alone.
	if _, err := Restore(ctx, out, dst); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("restore into a non-empty folder: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dst, DBName)); err != nil {
		t.Errorf("refused restore touched the folder: %v", err)
	}
	// Exporting into the project folder itself is refused.
	if err := p.Export(ctx, filepath.Join(src, "b.zip")); err == nil {
		t.Error("export inside the project folder was accepted")
	}
}

func TestRestoreRejectsHostileZips(t *testing.T) {
	ctx := context.Background()
	cases := map[string][]string{
		"traversal":   {DBName, "files/../../evil.txt"},
		"absolute":    {DBName, "/etc/evil"},
		"other entry": {DBName, "notes/evil.txt"},
		"no database": {"files/a.pdf"},
	}
	for name, entries := range cases {
		t.Run(name, func(t *testing.T) {
			zp := filepath.Join(t.TempDir(), "x.zip")
			f, _ := os.Create(zp)
			zw := zip.NewWriter(f)
			for _, e := range entries {
				w, _ := zw.Create(e)
				w.Write([]byte("x"))
			}
			zw.Close()
			f.Close()
			dst := filepath.Join(t.TempDir(), "out")
			if p, err := Restore(ctx, zp, dst); err == nil {
				p.Close()
				t.Fatal("hostile zip restored")
			}
			if _, err := os.Stat(dst); !os.IsNotExist(err) {
				t.Errorf("failed restore left %s behind (%v)", dst, err)
			}
		})
	}
	// Not a zip at all.
	junk := filepath.Join(t.TempDir(), "junk.zip")
	os.WriteFile(junk, []byte("not a zip"), 0o644)
	if _, err := Restore(ctx, junk, filepath.Join(t.TempDir(), "o")); err == nil || !strings.Contains(err.Error(), "not a readable zip") {
		t.Errorf("junk zip: %v", err)
	}
}

func TestSafeBackupName(t *testing.T) {
	for _, c := range []struct {
		in string
		ok bool
	}{
		{"cairn.db", true}, {"files/ab12.pdf", true}, {"files/", true},
		{"files/../cairn.db", false}, {"../x", false}, {"/abs", false}, {`files\x`, false},
		{"cairn.db-wal", false}, {"files/./x", false}, {"x/files/y", false},
	} {
		if _, ok := safeBackupName(c.in); ok != c.ok {
			t.Errorf("safeBackupName(%q) = %v, want %v", c.in, ok, c.ok)
		}
	}
}
