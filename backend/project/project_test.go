package project

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/ingest"
	"cairn/backend/kb"
	"cairn/backend/testshared"
)

// TestMain lets this test binary act as the isolated reader process and as
// the crash test's victim.
func TestMain(m *testing.M) {
	ingest.MaybeRunWorker()
	maybeRunCrashChild()
	maybeRunOCRChild()
	os.Exit(m.Run())
}

func shared(t *testing.T, rel string) string {
	t.Helper()
	p, _ := filepath.Abs(filepath.Join("../../../shared/docs", rel))
	if _, err := os.Stat(p); err != nil {
		testshared.Missing(t, fmt.Sprintf("%s not present", p))
	}
	return p
}

func open(t *testing.T) *Project {
	t.Helper()
	p, err := Open(filepath.Join(t.TempDir(), "proj"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func byFile(rs []ImportResult) map[string]ImportResult {
	m := map[string]ImportResult{}
	for _, r := range rs {
		m[filepath.Base(r.File)] = r
	}
	return m
}

func check(t *testing.T, p *Project) {
	t.Helper()
	problems, err := p.Check(context.Background())
	if err != nil || len(problems) > 0 {
		t.Fatalf("check: %v %v", err, problems)
	}
}

func TestImportSearchRemove(t *testing.T) {
	ctx := context.Background()
	p := open(t)
	files := []string{shared(t, "real/en-report-dmca-summary.pdf"), shared(t, "real/zh-civil-code.docx")}
	var events []Progress
	rs, err := p.Import(ctx, files, func(pr Progress) { events = append(events, pr) })
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.Status != kb.StatusOK || r.Chunks == 0 || r.Pages == 0 {
			t.Fatalf("%s: %+v", r.File, r)
		}
	}
	if len(events) < 4 {
		t.Errorf("expected reading/indexing/done progress events, got %d", len(events))
	}
	check(t, p)

	hits, err := p.Search(ctx, "anti-circumvention technological measures", 5)
	if err != nil || len(hits) == 0 || !strings.Contains(hits[0].DocTitle+hits[0].Text, "ircumvent") {
		t.Fatalf("english search: %v %+v", err, hits)
	}
	hits, err = p.Search(ctx, "民事主体", 5)
	if err != nil || len(hits) == 0 || !strings.Contains(hits[0].Text, "民事") {
		t.Fatalf("CJK search: %v %+v", err, hits)
	}
	for _, h := range hits {
		if h.PageStart < 1 || h.PageEnd < h.PageStart || h.CharEnd <= h.CharStart {
			t.Fatalf("hit without provenance: %+v", h)
		}
	}

	// Importing the same bytes again is a duplicate, not a second copy.
	again, err := p.Import(ctx, files[:1], nil)
	if err != nil || again[0].Status != kb.StatusDuplicate || again[0].DocID != rs[0].DocID {
		t.Fatalf("duplicate: %v %+v", err, again)
	}

	// The stored copy keeps working when the original moves.
	doc, err := p.store.Document(ctx, rs[0].DocID)
	if err != nil {
		t.Fatal(err)
	}
	stored := filepath.Join(p.Dir(), doc.StoredPath)
	if _, err := os.Stat(stored); err != nil {
		t.Fatalf("no stored copy: %v", err)
	}

	if err := p.Remove(ctx, rs[0].DocID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stored); !os.IsNotExist(err) {
		t.Errorf("stored copy left behind: %v", err)
	}
	hits, _ = p.Search(ctx, "anti-circumvention", 5)
	for _, h := range hits {
		if h.DocID == rs[0].DocID {
			t.Fatalf("removed document still found: %+v", h)
		}
	}
	check(t, p)
}

// TestBadFilesFailAlone imports every broken input with one good file in the
// middle: each gets its own typed outcome and the good one is unaffected.
func TestBadFilesFailAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("reads every broken file")
	}
	ctx := context.Background()
	p := open(t)
	bad := shared(t, "bad")
	rs, err := p.Import(ctx, []string{bad, shared(t, "real/en-word-headers-footers.docx")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := byFile(rs)
	want := map[string]kb.DocStatus{
		"empty.pdf": kb.StatusFailed, "empty.docx": kb.StatusFailed, "random-bytes.pdf": kb.StatusFailed,
		"truncated.pdf": kb.StatusFailed, "legacy-doc-renamed.docx": kb.StatusFailed, "missing-document-xml.docx": kb.StatusFailed,
		"zip-bomb-1GiB.docx": kb.StatusFailed, "zip-bomb-overlap-4GiB.docx": kb.StatusFailed,
		"encrypted-aes256-userpw.pdf": kb.StatusNeedsPassword, "encrypted-rc4-userpw.pdf": kb.StatusNeedsPassword,
		"encrypted-aes256-ownerpw-only.pdf": kb.StatusOK, "junk-before-header.pdf": kb.StatusOK, "trailing-garbage.pdf": kb.StatusOK,
		"broken-xref-offsets.pdf": kb.StatusOK, "pdf-2.0-header.pdf": kb.StatusOK, "garbage-in-body.pdf": kb.StatusOK,
		"page-count-lie.pdf": kb.StatusOK, "pdf-named-as.docx": kb.StatusOK, "docx-named-as.pdf": kb.StatusOK, "not-a-zip.docx": kb.StatusOK, "deep-nesting-content.pdf": kb.StatusOK,
		"text-only-in-images.pdf": kb.StatusNeedsOCR, "en-word-headers-footers.docx": kb.StatusOK,
	}
	for name, st := range want {
		r, ok := got[name]
		if !ok {
			t.Errorf("%s: no result", name)
			continue
		}
		if name == "text-only-in-images.pdf" && r.Status == kb.StatusOK {
			continue // tesseract installed: OCR read it
		}
		if r.Status != st {
			t.Errorf("%s: status %s (%s: %s), want %s", name, r.Status, r.ErrorCode, r.Error, st)
		}
		if r.Status == kb.StatusFailed && (r.Error == "" || strings.Contains(r.Error, "panic")) {
			t.Errorf("%s: failure without a clear message: %q", name, r.Error)
		}
	}
	check(t, p)
	// A failed file does not become a duplicate: importing it again retries it.
	again, err := p.Import(ctx, []string{filepath.Join(bad, "truncated.pdf")}, nil)
	if err != nil || again[0].Status != kb.StatusFailed || again[0].DocID != got["truncated.pdf"].DocID {
		t.Fatalf("retry of a failed file: %v %+v", err, again)
	}
	// With the password, an encrypted file imports.
	pw, err := p.ImportWith(ctx, []string{filepath.Join(bad, "encrypted-rc4-userpw.pdf")}, ImportOptions{Password: "secret"}, nil)
	if err != nil || pw[0].Status != kb.StatusOK || pw[0].Chunks == 0 {
		t.Fatalf("password import: %v %+v", err, pw)
	}
	check(t, p)
}

func TestExpandSkipsSymlinksAndHidden(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("outside"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.bin"), []byte("b"), 0o644)
	os.Mkdir(filepath.Join(dir, ".hidden"), 0o755)
	os.WriteFile(filepath.Join(dir, ".hidden", "c.txt"), []byte("c"), 0o644)
	os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "link.txt"))
	os.Symlink(outside, filepath.Join(dir, "linkdir"))
	files, failed := expand([]string{dir, filepath.Join(dir, "missing.pdf")})
	if len(files) != 1 || filepath.Base(files[0]) != "a.txt" {
		t.Fatalf("files %v", files)
	}
	if len(failed) != 1 || failed[0].Status != kb.StatusFailed {
		t.Fatalf("failed %v", failed)
	}
}

func TestSafeName(t *testing.T) {
	for in, want := range map[string]string{
		"report 2024.pdf":  "report_2024.pdf",
		"民法典.docx":         "民法典.docx",
		"../../etc/passwd": ".._.._etc_passwd",
		"":                 "file",
	} {
		if got := safeName(in); got != want {
			t.Errorf("safeName(%q) = %q, want %q", in, got, want)
		}
	}
	if len(safeName(strings.Repeat("é", 100))) > 80 {
		t.Error("long names are not cut")
	}
}

func TestCleanTitle(t *testing.T) {
	for in, want := range map[string]string{
		"Page 1 of 48 Instructions for Form 1040NR 7:48 - 6-DEC-2007": "Instructions for Form 1040NR",
		"Microsoft Word - report.doc":                                 "report.doc",
		"  Dense   Passage\nRetrieval ":                               "Dense Passage Retrieval",
		"Chapter 7: 12:30":                                            "Chapter 7:",
		"Page 3":                                                      "Page 3",
		"中华人民共和国民法典":                                                  "中华人民共和国民法典",
	} {
		if got := cleanTitle(in); got != want {
			t.Errorf("cleanTitle(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPlausibleTitle(t *testing.T) {
	for in, want := range map[string]bool{
		"Dense Passage Retrieval for Open-Domain Question Answering": true,
		"中华人民共和国民法典":                                                 true,
		"i (` k Bt ! H~ P F CW1 ,A t":                                false,
		"":                                                           false, "Untitled": false, "Microsoft Word - report.doc": true,
		"a\x01b": false,
	} {
		if got := plausibleTitle(in); got != want {
			t.Errorf("plausibleTitle(%q) = %v, want %v", in, got, want)
		}
	}
}

// IndexOnly runs just the named stages and refuses a name it does not know.
func TestIndexOnlyStages(t *testing.T) {
	ctx := context.Background()
	p := open(t)
	if err := p.IndexOnly(ctx, []string{"graph", "no-such-stage"}, nil); err == nil || !strings.Contains(err.Error(), `no index stage "no-such-stage"`) {
		t.Fatalf("unknown stage: %v", err)
	}
	var ran []string
	if err := p.IndexOnly(ctx, []string{"mindmap"}, func(pr IndexProgress) {
		if len(ran) == 0 || ran[len(ran)-1] != pr.Stage {
			ran = append(ran, pr.Stage)
		}
	}); err != nil {
		t.Fatal(err)
	}
	for _, st := range ran {
		if st != "mindmap" {
			t.Fatalf("stages run: %v", ran)
		}
	}
}
