//go:build unix

package project

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"cairn/backend/kb"
	"cairn/backend/store/storetest"
)

// Hostile and odd inputs, round two (issue 21): every input is generated
// here; nothing hostile is committed as a file.

// writeNotes writes small text files into dir and returns their paths.
func writeNotes(t *testing.T, dir string, names ...string) []string {
	t.Helper()
	var out []string
	for i, n := range names {
		f := filepath.Join(dir, n)
		body := "Note " + n + ". The harbour master of Port Alder logged " + strings.Repeat("a calm tide, ", i+3) + "and went home.\n"
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, f)
	}
	return out
}

// docsFingerprint is what must stay the same for documents imported before a
// hostile input: id, hash, status, pages, chunks.
func docsFingerprint(t *testing.T, p *Project) []string {
	t.Helper()
	docs, err := p.Documents(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range docs {
		out = append(out, strings.Join([]string{d.Hash, string(d.Status), d.StoredPath, d.Title}, "|")+"|"+strconv.Itoa(d.Pages)+"|"+strconv.Itoa(d.Chunks))
	}
	return out
}

// sameDocsBefore checks that the documents in before are still there, equal.
func sameDocsBefore(t *testing.T, before, after []string) {
	t.Helper()
	if len(after) < len(before) {
		t.Fatalf("documents lost: %d before, %d after", len(before), len(after))
	}
	for i := range before {
		if before[i] != after[i] {
			t.Errorf("document %d changed:\n before %s\n after  %s", i+1, before[i], after[i])
		}
	}
}

// withEarlier imports one document first and returns its fingerprint, so a
// test can show that a hostile input left earlier documents unchanged.
func withEarlier(t *testing.T, p *Project) []string {
	t.Helper()
	f := writeNotes(t, t.TempDir(), "earlier-note.txt")
	if _, err := p.Import(context.Background(), f, nil); err != nil {
		t.Fatal(err)
	}
	return docsFingerprint(t, p)
}

// Item 1: a FIFO, a device and a link to a device given by path fail at
// once; the good file beside them imports.
func TestOnlyRegularFilesAreRead(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p := open(t)
	dir := t.TempDir()
	earlier := writeNotes(t, dir, "earlier.txt")
	if _, err := p.Import(ctx, earlier, nil); err != nil {
		t.Fatal(err)
	}
	before := docsFingerprint(t, p)
	fifo := filepath.Join(dir, "x.pdf")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	zero := filepath.Join(dir, "big.txt")
	os.Symlink("/dev/zero", zero)
	null := filepath.Join(dir, "null.md")
	os.Symlink("/dev/null", null)
	sock := filepath.Join(dir, "s.txt")
	if l, err := net.Listen("unix", sock); err == nil {
		defer l.Close()
	}
	good := writeNotes(t, dir, "good.txt")[0]
	start := time.Now()
	rs, err := p.Import(ctx, []string{fifo, zero, null, sock, good, "/dev/zero"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("import took %v", d)
	}
	want := map[string]string{"s.txt": "socket", "x.pdf": "named pipe", "big.txt": "character device", "null.md": "character device", "zero": "character device"}
	for _, r := range rs {
		base := filepath.Base(r.File)
		if base == "good.txt" {
			if r.Status != kb.StatusOK {
				t.Errorf("good file: %+v", r)
			}
			continue
		}
		if r.Status != kb.StatusFailed || !strings.Contains(r.Error, want[base]) || !strings.Contains(r.Error, "only regular files") {
			t.Errorf("%s: want failed (%s), got %+v", base, want[base], r)
		}
	}
	if len(rs) != 6 {
		t.Errorf("want 6 results, got %d", len(rs))
	}
	check(t, p)
	sameDocsBefore(t, before, docsFingerprint(t, p))
}

// Item 2: a file deleted after the batch started fails alone; the files
// after it import.
func TestFileDeletedMidBatchFailsAlone(t *testing.T) {
	ctx := context.Background()
	p := open(t)
	before := withEarlier(t, p)
	dir := t.TempDir()
	files := writeNotes(t, dir, "a.txt", "b.txt", "c.txt", "d.txt")
	afterCopy = func(src string) {
		if filepath.Base(src) == "a.txt" {
			os.Remove(files[2]) // c.txt goes while a.txt is being read
		}
	}
	defer func() { afterCopy = nil }()
	rs, err := p.Import(ctx, files, nil)
	if err != nil {
		t.Fatalf("the batch must not abort: %v", err)
	}
	got := byFile(rs)
	for _, n := range []string{"a.txt", "b.txt", "d.txt"} {
		if got[n].Status != kb.StatusOK {
			t.Errorf("%s: %+v", n, got[n])
		}
	}
	if r := got["c.txt"]; r.Status != kb.StatusFailed || !strings.Contains(r.Error, "disappeared") {
		t.Errorf("c.txt: %+v", r)
	}
	check(t, p)
	sameDocsBefore(t, before, docsFingerprint(t, p))
}

// Item 3: a file that grows while it is copied is refused with a message,
// nothing is recorded, and check passes; once complete it imports.
func TestFileChangedDuringImport(t *testing.T) {
	ctx := context.Background()
	p := open(t)
	before := withEarlier(t, p)
	dir := t.TempDir()
	f := writeNotes(t, dir, "growing.txt")[0]
	afterCopy = func(src string) {
		fh, _ := os.OpenFile(src, os.O_APPEND|os.O_WRONLY, 0)
		fh.WriteString("More lines written by another program.\n")
		fh.Close()
	}
	rs, err := p.Import(ctx, []string{f}, nil)
	afterCopy = nil
	if err != nil {
		t.Fatal(err)
	}
	if rs[0].Status != kb.StatusFailed || !strings.Contains(rs[0].Error, "changed while it was being read") {
		t.Fatalf("want a changed-file failure, got %+v", rs[0])
	}
	if docs, _ := p.Documents(ctx); len(docs) != 1 {
		t.Errorf("a changed file left a document row: %d rows", len(docs))
	}
	check(t, p)
	entries, _ := os.ReadDir(filepath.Join(p.Dir(), FilesDir))
	if len(entries) != 1 {
		t.Errorf("files/ has %d entries after a refused import, want the earlier document's only", len(entries))
	}
	rs, err = p.Import(ctx, []string{f}, nil)
	if err != nil || rs[0].Status != kb.StatusOK {
		t.Fatalf("import again: %v %+v", err, rs)
	}
	check(t, p)
	sameDocsBefore(t, before, docsFingerprint(t, p))
}

func TestConfineStored(t *testing.T) {
	for _, c := range []struct {
		in string
		ok bool
	}{
		{"files/0123456789ab-report.pdf", true},
		{"files/a", true},
		{"../outside-victim.txt", false},
		{"files/../../outside.txt", false},
		{"files/../cairn.db", false},
		{"cairn.db", false},
		{"/etc/passwd", false},
		{"files/sub/x.pdf", true},
		{"files/sub/../x.pdf", false},
		{"files/.hidden/x.pdf", false},
		{"files/", false},
		{"files/.incoming-1", false},
		{"files\\..\\x", false},
		{"./files/x", false},
		{"files//x", false},
		{"", false},
		{"files/x\x00y", false},
		{"C:/x", false},
	} {
		_, err := confineStored(c.in)
		if (err == nil) != c.ok {
			t.Errorf("confineStored(%q) = %v, want ok=%v", c.in, err, c.ok)
		}
	}
}

// setStoredPath rewrites a document's stored path, as a hostile or damaged
// database would hold it.
func setStoredPath(t *testing.T, p *Project, id int64, path string) {
	t.Helper()
	storetest.Exec(t, p.store.Path(), "UPDATE documents SET stored_path = ? WHERE id = ?", path, id)
}

// Item 4: a database whose stored path points outside the project (or at
// the database itself) never gets a file outside files/ read or deleted.
func TestRemoveNeverDeletesOutsideTheProject(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	p, err := Open(filepath.Join(root, "proj"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	victim := filepath.Join(root, "outside-victim.txt")
	os.WriteFile(victim, []byte("not Cairn's"), 0o644)
	files := writeNotes(t, t.TempDir(), "one.txt", "two.txt", "three.txt")
	rs, err := p.Import(ctx, files, nil)
	if err != nil {
		t.Fatal(err)
	}
	setStoredPath(t, p, rs[0].DocID, "../outside-victim.txt")
	setStoredPath(t, p, rs[1].DocID, "files/../cairn.db")
	problems, err := p.Check(ctx)
	if err != nil || len(problems) != 2 || !strings.Contains(strings.Join(problems, "\n"), "leaves the project") {
		t.Errorf("check must flag both rows: %v %q", err, problems)
	}
	if _, err := p.Retry(ctx, []int64{rs[0].DocID}, ImportOptions{}, nil); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("retry read outside the project: %v", err)
	}
	if err := p.Remove(ctx, rs[0].DocID, rs[1].DocID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(victim); err != nil {
		t.Errorf("remove deleted a file outside the project: %v", err)
	}
	if _, err := os.Stat(filepath.Join(p.Dir(), DBName)); err != nil {
		t.Errorf("remove deleted the database: %v", err)
	}
	// files/ replaced by a link out of the project: nothing is read or deleted through it.
	outside := t.TempDir()
	doc, _ := p.store.Document(ctx, rs[2].DocID)
	os.WriteFile(filepath.Join(outside, filepath.Base(doc.StoredPath)), []byte("bait"), 0o644)
	os.Rename(filepath.Join(p.Dir(), FilesDir), filepath.Join(p.Dir(), "files-real"))
	os.Symlink(outside, filepath.Join(p.Dir(), FilesDir))
	if err := p.Remove(ctx, rs[2].DocID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(outside, filepath.Base(doc.StoredPath))); err != nil {
		t.Errorf("remove deleted through a files/ link: %v", err)
	}
}

// Item 4, restore side: a backup whose database points outside is refused.
func TestRestoreRefusesRowsOutside(t *testing.T) {
	ctx := context.Background()
	p := open(t)
	rs, err := p.Import(ctx, writeNotes(t, t.TempDir(), "one.txt"), nil)
	if err != nil {
		t.Fatal(err)
	}
	setStoredPath(t, p, rs[0].DocID, "../../home/victim.txt")
	out := filepath.Join(t.TempDir(), "b.zip")
	// Export refuses to write such a backup (it would not restore) ...
	if err := p.Export(ctx, out); err == nil || !strings.Contains(err.Error(), "outside the project") {
		t.Fatalf("export of a row outside files/: %v", err)
	}
	// ... and a backup made by hand with it is refused on restore.
	zipWith(t, out, [][2]any{{DBName, bytes.NewReader(snapshotBytes(t, p))}})
	dst := filepath.Join(t.TempDir(), "r")
	if _, err := Restore(ctx, out, dst); err == nil || !strings.Contains(err.Error(), "outside the project") {
		t.Fatalf("restore: %v", err)
	}
	if _, err := os.Stat(dst); !os.IsNotExist(err) {
		t.Errorf("refused restore left %s behind", dst)
	}
}

// snapshotBytes is a consistent copy of p's database, as a backup holds it.
func snapshotBytes(t *testing.T, p *Project) []byte {
	t.Helper()
	snap := filepath.Join(t.TempDir(), DBName)
	if err := p.store.Snapshot(context.Background(), snap); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(snap)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// zipWith writes a zip holding the given entries (name → reader of content).
func zipWith(t *testing.T, path string, entries [][2]any) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, e := range entries {
		w, err := zw.Create(e[0].(string))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(w, e[1].(io.Reader)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

type zeros struct{ n int64 }

func (z *zeros) Read(b []byte) (int, error) {
	if z.n <= 0 {
		return 0, io.EOF
	}
	k := min(int64(len(b)), z.n)
	clear(b[:k])
	z.n -= k
	return int(k), nil
}

// Item 5: a backup that unpacks far beyond what its rows reference is
// refused before it fills the disk.
func TestRestoreRefusesZipBombs(t *testing.T) {
	ctx := context.Background()
	p := open(t)
	before := withEarlier(t, p)
	rs, err := p.Import(ctx, writeNotes(t, t.TempDir(), "one.txt"), nil)
	if err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(t.TempDir(), "good.zip")
	if err := p.Export(ctx, good); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.OpenReader(good)
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := p.store.Document(ctx, rs[0].DocID)
	var dbBytes, storedBytes []byte
	var storedName string
	for _, f := range zr.File {
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		switch f.Name {
		case DBName:
			dbBytes = b
		case doc.StoredPath:
			storedName, storedBytes = f.Name, b
		}
	}
	zr.Close()
	if storedName != doc.StoredPath {
		t.Fatalf("backup holds %q, document %q", storedName, doc.StoredPath)
	}
	cases := []struct {
		name    string
		entries [][2]any
		want    string
	}{
		{"junk file beside the rows", [][2]any{{DBName, bytes.NewReader(dbBytes)}, {storedName, bytes.NewReader(storedBytes)}, {"files/junk.bin", &zeros{200 << 20}}}, "not the stored copy of any document"},
		{"stored copy larger than its row", [][2]any{{DBName, bytes.NewReader(dbBytes)}, {storedName, &zeros{200 << 20}}}, "unpacks to"},
		{"database bomb", [][2]any{{DBName, &zeros{300 << 20}}}, "decompression bomb"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			zp := filepath.Join(t.TempDir(), "b.zip")
			zipWith(t, zp, c.entries)
			st, _ := os.Stat(zp)
			dst := filepath.Join(t.TempDir(), "r")
			start := time.Now()
			_, err := Restore(ctx, zp, dst)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("restore of a %d KiB bomb: %v (want %q)", st.Size()>>10, err, c.want)
			}
			t.Logf("%d KiB zip refused in %v: %v", st.Size()>>10, time.Since(start).Round(time.Millisecond), err)
			if _, err := os.Stat(dst); !os.IsNotExist(err) {
				t.Errorf("refused restore left %s behind", dst)
			}
		})
	}
	check(t, p)
	sameDocsBefore(t, before, docsFingerprint(t, p))
}

// Item 6: export never replaces a file without force, and never writes
// through a FIFO, a link or a folder.
func TestExportNeverOverwrites(t *testing.T) {
	ctx := context.Background()
	p := open(t)
	before := withEarlier(t, p)
	if _, err := p.Import(ctx, writeNotes(t, t.TempDir(), "one.txt"), nil); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	existing := filepath.Join(dir, "thesis.docx")
	os.WriteFile(existing, []byte("my thesis"), 0o644)
	if err := p.Export(ctx, existing); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Errorf("export over a file without force: %v", err)
	}
	if b, _ := os.ReadFile(existing); string(b) != "my thesis" {
		t.Errorf("existing file changed: %q", b)
	}
	fifo := filepath.Join(dir, "pipe.zip")
	syscall.Mkfifo(fifo, 0o644)
	link := filepath.Join(dir, "link.zip")
	os.Symlink(existing, link)
	sub := filepath.Join(dir, "folder.zip")
	os.Mkdir(sub, 0o755)
	for out, want := range map[string]string{fifo: "named pipe", link: "symbolic link", sub: "folder", "/dev/null": "character device"} {
		done := make(chan error, 1)
		go func() { done <- p.ExportOver(ctx, out, true) }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("export to %s with force: %v (want %q)", out, err, want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("export to %s hangs", out)
		}
	}
	if b, _ := os.ReadFile(existing); string(b) != "my thesis" {
		t.Errorf("link target changed: %q", b)
	}
	if err := p.ExportOver(ctx, existing, true); err != nil {
		t.Errorf("export over a regular file with force: %v", err)
	}
	if _, err := zip.OpenReader(existing); err != nil {
		t.Errorf("forced export did not write a backup: %v", err)
	}
	sameDocsBefore(t, before, docsFingerprint(t, p))
}

// Item 7: a document row lost (a deleted -wal after a crash) leaves its
// original in files/; Orphans names it and Repair imports it again.
func TestOrphanedOriginalsAreFoundAndRepaired(t *testing.T) {
	ctx := context.Background()
	p := open(t)
	files := writeNotes(t, t.TempDir(), "kept.txt", "lost.txt")
	rs, err := p.Import(ctx, files, nil)
	if err != nil {
		t.Fatal(err)
	}
	lost, _ := p.store.Document(ctx, rs[1].DocID)
	// the row goes, the file stays: what a lost -wal leaves
	if _, err := p.store.RemoveDocuments(ctx, rs[1].DocID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(p.Dir(), lost.StoredPath)); err != nil {
		t.Fatalf("the original must still be in files/: %v", err)
	}
	// a redundant copy of a document that is present
	kept, _ := p.store.Document(ctx, rs[0].DocID)
	b, _ := os.ReadFile(filepath.Join(p.Dir(), kept.StoredPath))
	os.WriteFile(filepath.Join(p.Dir(), FilesDir, "copy-of-kept.txt"), b, 0o644)
	before := docsFingerprint(t, p)
	orphans, err := p.Orphans(ctx)
	if err != nil || len(orphans) != 2 || orphans[0] != lost.StoredPath && orphans[1] != lost.StoredPath {
		t.Fatalf("orphans = %v %v, want %s among two", orphans, err, lost.StoredPath)
	}
	res, err := p.Repair(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[kb.DocStatus]int{}
	for _, r := range res {
		got[r.Status]++
	}
	if got[kb.StatusOK] != 1 || got[kb.StatusDuplicate] != 1 {
		t.Errorf("repair results: %+v", res)
	}
	if orphans, _ := p.Orphans(ctx); len(orphans) != 0 {
		t.Errorf("orphans after repair: %v", orphans)
	}
	docs, _ := p.Documents(ctx)
	found := false
	for _, d := range docs {
		if d.Hash == lost.Hash {
			found = d.FileName == "lost.txt" && d.StoredPath == lost.StoredPath && d.Status == kb.StatusOK
		}
	}
	if !found {
		t.Errorf("the lost document is not back as lost.txt: %+v", docs)
	}
	check(t, p)
	sameDocsBefore(t, before, docsFingerprint(t, p))
}

// Item 8: a note that mentions %PDF- is text; text with a few invalid bytes
// imports with replacement characters and a warning; UTF-16 without a
// byte-order mark is read.
func TestOddTextImports(t *testing.T) {
	ctx := context.Background()
	p := open(t)
	before := withEarlier(t, p)
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		f := filepath.Join(dir, name)
		os.WriteFile(f, b, 0o644)
		return f
	}
	note := write("pdf-notes.md", []byte("# How PDF files begin\n\nEvery PDF starts with the bytes `%PDF-1.7`, then objects such as `1 0 obj`.\n\nThe harbour archive keeps scans as PDF.\n"))
	bad := write("stray.txt", append([]byte("The tide tables for Port Alder were printed in March. "), append([]byte{0xff, 0xfe, 0xc3}, []byte(" The ferry timetable follows.\n")...)...))
	var u16 []byte
	for _, r := range "The lighthouse keeper of Port Alder wrote in UTF-16.\n" {
		u16 = append(u16, byte(r), 0)
	}
	utf16 := write("windows-notes.txt", u16)
	rs, err := p.Import(ctx, []string{note, bad, utf16}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := byFile(rs)
	if r := got["pdf-notes.md"]; r.Status != kb.StatusOK {
		t.Errorf("markdown note mentioning %%PDF-: %+v", r)
	}
	if r := got["stray.txt"]; r.Status != kb.StatusOK || !strings.Contains(strings.Join(r.Warnings, " "), "not valid UTF-8") {
		t.Errorf("text with stray bytes: %+v", r)
	} else if pages, _ := p.Pages(ctx, r.DocID, 1); len(pages) != 1 || !strings.Contains(pages[0].Text, "\uFFFD") {
		t.Errorf("stray bytes not replaced: %+v", pages)
	}
	if r := got["windows-notes.txt"]; r.Status != kb.StatusOK || !strings.Contains(strings.Join(r.Warnings, " "), "without a byte-order mark") {
		t.Errorf("UTF-16 without BOM: %+v", r)
	} else if pages, _ := p.Pages(ctx, r.DocID, 1); len(pages) != 1 || !strings.Contains(pages[0].Text, "lighthouse keeper") {
		t.Errorf("UTF-16 text not decoded: %+v", pages)
	}
	check(t, p)
	sameDocsBefore(t, before, docsFingerprint(t, p))
}

// Item 5, the rows lie too: a row claiming a 100 MiB original and a zip
// entry of that size made of zeros is refused by its ratio.
func TestRestoreRefusesBombMatchingItsRow(t *testing.T) {
	ctx := context.Background()
	p := open(t)
	rs, err := p.Import(ctx, writeNotes(t, t.TempDir(), "one.txt"), nil)
	if err != nil {
		t.Fatal(err)
	}
	const size = 100 << 20
	storetest.Exec(t, p.store.Path(), "UPDATE documents SET bytes = ? WHERE id = ?", size, rs[0].DocID)
	doc, _ := p.store.Document(ctx, rs[0].DocID)
	// Export refuses: the stored copy is not what the row records.
	if err := p.Export(ctx, filepath.Join(t.TempDir(), "good.zip")); err == nil || !strings.Contains(err.Error(), "differs from what the project recorded") {
		t.Fatalf("export of a row whose size lies: %v", err)
	}
	dbBytes := snapshotBytes(t, p)
	zp := filepath.Join(t.TempDir(), "bomb.zip")
	zipWith(t, zp, [][2]any{{DBName, bytes.NewReader(dbBytes)}, {doc.StoredPath, &zeros{size}}})
	dst := filepath.Join(t.TempDir(), "r")
	if _, err := Restore(ctx, zp, dst); err == nil || !strings.Contains(err.Error(), "decompression bomb") {
		t.Fatalf("restore: %v", err)
	}
	if _, err := os.Stat(dst); !os.IsNotExist(err) {
		t.Errorf("refused restore left %s behind", dst)
	}
}
