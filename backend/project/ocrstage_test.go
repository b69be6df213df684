package project

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"cairn/backend/kb"
	"cairn/backend/store"
	"cairn/backend/testscan"
	"cairn/backend/testshared"
)

// needOCRTools skips (or, in CI, fails) a test that needs tesseract with
// English and poppler's pdftoppm, and points tesseract at a language folder
// with English and OSD alone: tiny test pages read with every installed
// language would only measure the other languages' load time. The OCR
// settings themselves are the app's.
func needOCRTools(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"tesseract", "pdftoppm"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed (make deps installs it)", tool)
			}
			t.Skipf("%s is not installed", tool)
		}
	}
	out, _ := exec.Command("tesseract", "--list-langs").CombinedOutput()
	m := regexp.MustCompile(`"([^"]+)"`).FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("tesseract --list-langs: %s", out)
	}
	dir := t.TempDir()
	for _, l := range []string{"eng", "osd"} {
		f := filepath.Join(m[1], l+".traineddata")
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("tesseract has no %s: %v", l, err)
		}
		if err := os.Symlink(f, filepath.Join(dir, l+".traineddata")); err != nil {
			t.Fatal(err)
		}
	}
	for _, sub := range []string{"configs", "tessconfigs"} { // the tsv output format is a config
		if _, err := os.Stat(filepath.Join(m[1], sub)); err == nil {
			os.Symlink(filepath.Join(m[1], sub), filepath.Join(dir, sub))
		}
	}
	t.Setenv("TESSDATA_PREFIX", dir)
	t.Setenv("CAIRN_OCR", "1")
}

// scanLines is what page n of a test scan says.
func scanLines(n int) []string { return []string{fmt.Sprintf("Page %d", n)} }

// makeScan writes an n-page scanned PDF (small pages: 144×72 pt, one line).
func makeScan(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), fmt.Sprintf("scan-%dp.pdf", n))
	if err := testscan.Make(path, testscan.Spec{Pages: n, Width: 144, Height: 72, Lines: scanLines}); err != nil {
		t.Fatal(err)
	}
	return path
}

// ocrChild, set in the environment, makes the test binary run `Index` on
// the project folder it names and nothing else (TestScannedBookOCRStage
// kills it mid-OCR).
const ocrChildEnv = "CAIRN_OCR_CHILD"

func maybeRunOCRChild() {
	dir := os.Getenv(ocrChildEnv)
	if dir == "" {
		return
	}
	p, err := Open(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "child open:", err)
		os.Exit(3)
	}
	if err := p.IndexOnly(context.Background(), []string{"ocr"}, nil); err != nil {
		fmt.Fprintln(os.Stderr, "child index:", err)
		os.Exit(5)
	}
	p.Close()
	os.Exit(0)
}

// TestScannedBookOCRStage (issue 29, item 6): a 200-page scanned PDF made
// here imports at once as ok with its pages awaiting OCR; the OCR stage
// reads it page by page with progress (pages done of total, an ETA), is
// interrupted twice — its context cancelled, then its process killed with
// SIGKILL — and resumed; in the end every page has its text, exactly once,
// with its page number, searchable, and the project passes its check.
func TestScannedBookOCRStage(t *testing.T) {
	if testing.Short() {
		t.Skip("OCRs 200 pages")
	}
	needOCRTools(t)
	const pages = 200
	ctx := context.Background()
	t0 := time.Now()
	scan := makeScan(t, pages)
	t.Logf("made a %d-page scan in %v", pages, time.Since(t0).Round(time.Millisecond))

	p := open(t)
	t0 = time.Now()
	rs, err := p.ImportWith(ctx, []string{scan}, ImportOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := rs[0]
	if r.Status != kb.StatusOK || r.Pages != pages || r.Chunks != 0 || r.OCRPages != pages {
		t.Fatalf("import: %+v", r)
	}
	t.Logf("import (no OCR): %v", time.Since(t0).Round(time.Millisecond))
	if n, err := p.Store().OCRPendingPages(ctx); err != nil || n != pages {
		t.Fatalf("pending pages %d, %v", n, err)
	}

	// 1. Cancelled after 30 pages.
	cctx, cancel := context.WithCancel(ctx)
	var events []IndexProgress
	t0 = time.Now()
	err = p.IndexOnly(cctx, []string{"ocr"}, func(e IndexProgress) {
		if e.Stage != "ocr" {
			return
		}
		events = append(events, e)
		if e.Done >= 30 {
			cancel()
		}
	})
	cancel()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled OCR run: %v", err)
	}
	el := time.Since(t0)
	left, _ := p.Store().OCRPendingPages(ctx)
	t.Logf("run 1: %d pages in %v (%.2f pages/s), cancelled; %d left", pages-left, el.Round(time.Millisecond), float64(pages-left)/el.Seconds(), left)
	if left > pages-30 || left < pages-32 {
		t.Fatalf("%d pages left after 30 were done", left)
	}
	sawETA := false
	for i, e := range events {
		if e.Total != pages || e.Done != i {
			t.Fatalf("event %d: %+v", i, e)
		}
		sawETA = sawETA || e.ETA > 0
		if i > 0 && !strings.Contains(e.Note, fmt.Sprintf("page %d of ", i)) {
			t.Errorf("event %d note %q", i, e.Note)
		}
	}
	if !sawETA {
		t.Error("no ETA in the progress events")
	}
	check(t, p)
	if pgs, _ := p.Store().Pages(ctx, r.DocID, 0); len(pgs) > 0 {
		t.Logf("page 1 after run 1: %+v", pgs[0])
	}
	// The text pages read so far are searchable already.
	if hits, err := p.Search(ctx, "Page 7", 5); err != nil || len(hits) == 0 || !containsPage(hits, 7) {
		t.Fatalf("search after the first run: %v %+v", err, hits)
	}

	// 2. Killed (SIGKILL) in a child process once it has read 20 more.
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), ocrChildEnv+"="+p.Dir())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for {
		n, err := p.Store().OCRPendingPages(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n <= left-20 {
			cmd.Process.Signal(syscall.SIGKILL)
			<-exited
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("child ended before the kill: %v\n%s", err, stderr.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	left2, _ := p.Store().OCRPendingPages(ctx)
	t.Logf("run 2: killed with %d pages left", left2)
	if left2 >= left || left2 == 0 {
		t.Fatalf("pages left: %d before, %d after the killed run", left, left2)
	}
	check(t, p)

	// 3. Resumed to the end.
	events = nil
	t0 = time.Now()
	if err := p.IndexOnly(ctx, []string{"ocr"}, func(e IndexProgress) {
		if e.Stage == "ocr" {
			events = append(events, e)
		}
	}); err != nil {
		t.Fatal(err)
	}
	el = time.Since(t0)
	t.Logf("run 3: %d pages in %v (%.2f pages/s)", left2, el.Round(time.Millisecond), float64(left2)/el.Seconds())
	if len(events) == 0 || events[0].Total != left2 || events[len(events)-1].Done != left2 {
		t.Fatalf("resumed run's progress: first %+v, last %+v", events[0], events[len(events)-1])
	}
	check(t, p)
	assertScanRead(t, p, r.DocID, pages)

	// Another run finds nothing to do.
	events = nil
	if err := p.IndexOnly(ctx, []string{"ocr"}, func(e IndexProgress) { events = append(events, e) }); err != nil || len(events) != 0 {
		t.Fatalf("a run with nothing pending: %v %+v", err, events)
	}
}

// assertScanRead checks that every page of a test scan has its OCR text,
// and that the passages hold each page's text exactly once, on its page.
func assertScanRead(t *testing.T, p *Project, docID int64, pages int) {
	t.Helper()
	ctx := context.Background()
	d, err := p.Store().Document(ctx, docID)
	if err != nil {
		t.Fatal(err)
	}
	if d.Status != kb.StatusOK {
		t.Errorf("document status %s: %s %v", d.Status, d.Error, d.Warnings)
	}
	for _, w := range d.Warnings {
		if isOCRWarning(w) {
			t.Errorf("OCR warning left after every page was read: %q", w)
		}
	}
	pgs, err := p.Store().Pages(ctx, docID, 0)
	if err != nil {
		t.Fatal(err)
	}
	misread := 0
	for _, pg := range pgs {
		if pg.OCRStatus != kb.OCRDone || !pg.OCR || pg.NoText || strings.TrimSpace(pg.Text) == "" {
			t.Fatalf("page %d: %+v", pg.Number, pg)
		}
		if !strings.Contains(pg.Text, strconv.Itoa(pg.Number)) {
			misread++
			t.Logf("page %d read as %q", pg.Number, pg.Text)
		}
	}
	if misread > pages/50 {
		t.Errorf("%d of %d pages misread", misread, pages)
	}
	ids, err := p.Store().DocChunkIDs(ctx, []int64{docID})
	if err != nil {
		t.Fatal(err)
	}
	hits, err := p.Store().ChunkHits(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(hits, func(i, j int) bool { return hits[i].Ordinal < hits[j].Ordinal })
	perPage := map[int]int{}
	for i, h := range hits {
		if h.Ordinal != i || h.PageStart != h.PageEnd {
			t.Fatalf("passage %d: ordinal %d, pages %d–%d", i, h.Ordinal, h.PageStart, h.PageEnd)
		}
		if i > 0 && h.PageStart <= hits[i-1].PageStart {
			t.Fatalf("passage %d on page %d after a passage on page %d", i, h.PageStart, hits[i-1].PageStart)
		}
		perPage[h.PageStart]++
		if h.Text != strings.TrimSpace(pgs[h.PageStart-1].Text) {
			t.Errorf("page %d: passage %q, page text %q", h.PageStart, h.Text, pgs[h.PageStart-1].Text)
		}
	}
	if len(perPage) != pages || len(hits) != pages {
		t.Fatalf("%d passages over %d pages, want one on each of %d", len(hits), len(perPage), pages)
	}
}

func containsPage(hits []kb.Hit, page int) bool {
	for _, h := range hits {
		if h.PageStart == page {
			return true
		}
	}
	return false
}

// TestOCRStageMovesLaterSpans: in a document of text pages and scans whose
// graph and mind map were built while OCR was off, reading the scans later
// puts each page's text in place and moves everything after it — pages,
// passages, the graph's mentions and sources — so the project still
// passes its check, passages stay in page order, and the new text is
// searchable.
func TestOCRStageMovesLaterSpans(t *testing.T) {
	if testing.Short() {
		t.Skip("OCR")
	}
	needOCRTools(t)
	ctx := context.Background()
	lines := func(n int) []string {
		if n%2 == 1 {
			return []string{
				fmt.Sprintf("Section %d. Acme Corporation acquired Beta Industries in 2019.", n),
				"Beta Industries makes turbines in Denver for Acme Corporation.",
				"The turbines of Beta Industries power the Denver plant.",
			}
		}
		return []string{fmt.Sprintf("Scanned page %d", n), "Gamma Holdings owns Acme"}
	}
	path := filepath.Join(t.TempDir(), "mixed.pdf")
	if err := testscan.Make(path, testscan.Spec{Pages: 6, Width: 430, Height: 120, DPI: 150, Lines: lines, Text: func(n int) bool { return n%2 == 1 }}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CAIRN_OCR", "0")
	p := open(t)
	rs, err := p.Import(ctx, []string{path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := rs[0]
	if r.Status != kb.StatusOK || r.Pages != 6 || r.Chunks == 0 || r.OCRPages != 0 {
		t.Fatalf("import with OCR off: %+v", r)
	}
	if len(r.Warnings) == 0 || !strings.Contains(r.Warnings[len(r.Warnings)-1], "CAIRN_OCR=0") {
		t.Fatalf("warnings with OCR off: %q", r.Warnings)
	}
	if err := p.Index(ctx, nil); err != nil {
		t.Fatal(err)
	}
	check(t, p)
	if n, _ := p.Store().OCRPendingPages(ctx); n != 3 {
		t.Fatalf("%d pages pending with OCR off, want 3", n)
	}
	if sts, err := p.Store().ExtractionStatuses(ctx, r.DocID); err != nil || len(sts) == 0 {
		t.Fatalf("no graph built before OCR: %v", err)
	}
	before, _, err := p.Entity(ctx, "Beta Industries")
	if err != nil || len(before.Mentions) == 0 {
		t.Fatalf("no mentions of Beta Industries before OCR (%v): the test would move none", err)
	}

	t.Setenv("CAIRN_OCR", "1")
	if err := p.Index(ctx, nil); err != nil {
		t.Fatal(err)
	}
	check(t, p)
	pgs, err := p.Store().Pages(ctx, r.DocID, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, pg := range pgs {
		want := kb.OCRDone
		if pg.Number%2 == 1 {
			want = ""
		}
		if pg.OCRStatus != want || (want == kb.OCRDone && !strings.Contains(pg.Text, fmt.Sprintf("page %d", pg.Number))) {
			t.Errorf("page %d: status %q, text %q", pg.Number, pg.OCRStatus, pg.Text)
		}
	}
	// The mentions after the scans moved with their text.
	text := store.DocumentText(pgs)
	after, _, err := p.Entity(ctx, "Beta Industries")
	if err != nil || len(after.Mentions) < len(before.Mentions) {
		t.Fatalf("mentions after OCR: %v %+v", err, after.Mentions)
	}
	for _, m := range after.Mentions {
		if m.CharEnd > len(text) || !strings.Contains(text[m.CharStart:m.CharEnd], "Beta Industries") {
			t.Errorf("mention on page %d at %d–%d does not point at its name", m.PageStart, m.CharStart, m.CharEnd)
		}
	}
	ids, _ := p.Store().DocChunkIDs(ctx, []int64{r.DocID})
	hits, err := p.Store().ChunkHits(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(hits, func(i, j int) bool { return hits[i].Ordinal < hits[j].Ordinal })
	seen := map[int]bool{}
	for i, h := range hits {
		if h.Ordinal != i || i > 0 && h.PageStart < hits[i-1].PageEnd {
			t.Fatalf("passage %d: ordinal %d, pages %d–%d after %d–%d", i, h.Ordinal, h.PageStart, h.PageEnd, hits[i-1].PageStart, hits[i-1].PageEnd)
		}
		for n := h.PageStart; n <= h.PageEnd; n++ {
			seen[n] = true
		}
	}
	if len(seen) != 6 {
		t.Fatalf("passages cover pages %v", seen)
	}
	hs, err := p.Search(ctx, "Gamma Holdings", 5)
	if err != nil || len(hs) == 0 || hs[0].PageStart%2 != 0 {
		t.Fatalf("search for the scans' text: %v %+v", err, hs)
	}
	d, _ := p.Store().Document(ctx, r.DocID)
	for _, w := range d.Warnings {
		if isOCRWarning(w) {
			t.Errorf("OCR warning left: %q", w)
		}
	}
}

// TestOCRPageTimeLimit: a page whose OCR runs past the per-page limit is
// recorded failed with a message that says so (and calls nothing damaged);
// the pages after it are read; --retry-failed puts it back in the queue.
func TestOCRPageTimeLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("OCR")
	}
	needOCRTools(t)
	real, _ := exec.LookPath("tesseract")
	// A tesseract that hangs on page 2's image (the OCR session names its
	// images pageN.png).
	shim := t.TempDir()
	script := "#!/bin/sh\ncase \"$1\" in *page2.png) exec sleep 120;; esac\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(shim, "tesseract"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", shim+string(os.PathListSeparator)+os.Getenv("PATH"))
	ctx := context.Background()
	p := open(t)
	lim := p.limits
	lim.OCRPageTimeout = 15 * time.Second
	p.SetReadLimits(lim)
	rs, err := p.Import(ctx, []string{makeScan(t, 3)}, nil)
	if err != nil || rs[0].Status != kb.StatusOK {
		t.Fatalf("import: %v %+v", err, rs)
	}
	var last IndexProgress
	t0 := time.Now()
	if err := p.IndexOnly(ctx, []string{"ocr"}, func(e IndexProgress) { last = e }); err != nil {
		t.Fatal(err)
	}
	t.Logf("3 pages, one past its limit: %v", time.Since(t0).Round(time.Millisecond))
	pgs, _ := p.Store().Pages(ctx, rs[0].DocID, 0)
	for _, pg := range pgs {
		want := kb.OCRDone
		if pg.Number == 2 {
			want = kb.OCRFailed
		}
		if pg.OCRStatus != want {
			t.Errorf("page %d: %s %q", pg.Number, pg.OCRStatus, pg.OCRNote)
		}
	}
	note := pgs[1].OCRNote
	if !strings.Contains(note, "took longer than 15s") || strings.Contains(note, "damaged") {
		t.Errorf("page 2's note: %q", note)
	}
	if !strings.Contains(last.Warning, "--retry-failed") {
		t.Errorf("the stage's last event: %+v", last)
	}
	d, _ := p.Store().Document(ctx, rs[0].DocID)
	if d.Status != kb.StatusOK || len(d.Warnings) == 0 || !strings.Contains(d.Warnings[len(d.Warnings)-1], "OCR stopped on p. 2 (OCR of this page took longer than 15s") {
		t.Errorf("document: %s %q", d.Status, d.Warnings)
	}
	check(t, p)
	if n, err := p.RetryFailedOCR(ctx); err != nil || n != 1 {
		t.Fatalf("retry failed OCR: %d %v", n, err)
	}
	if n, _ := p.Store().OCRPendingPages(ctx); n != 1 {
		t.Fatalf("%d pages pending after the retry, want 1", n)
	}
}

// TestRealImageOnlyDeck imports a real slide deck whose 23 pages are images
// (no text layer: pdftotext reads nothing) and checks that it is ok at
// once, that the OCR stage reads every page, and that the OCR text is
// searchable with its page. It takes minutes (768×432 pt pages, rendered
// at 300 dpi), so it runs on request: CAIRN_TEST_OCR_DECK=1.
func TestRealImageOnlyDeck(t *testing.T) {
	if os.Getenv("CAIRN_TEST_OCR_DECK") == "" {
		t.Skip("set CAIRN_TEST_OCR_DECK=1 (minutes of OCR)")
	}
	if _, err := exec.LookPath("tesseract"); err != nil {
		t.Skip("tesseract not installed")
	}
	deck, _ := filepath.Abs("../../../shared/eval/docqa/mmlb-dev/pdfs/germanwingsdigitalcrisisanalysis-150403064828-conversion-gate01_95.pdf")
	if _, err := os.Stat(deck); err != nil {
		testshared.Missing(t, "deck not present: ", err)
	}
	ctx := context.Background()
	p := open(t)
	rs, err := p.Import(ctx, []string{deck}, nil)
	if err != nil || rs[0].Status != kb.StatusOK || rs[0].OCRPages != 23 {
		t.Fatalf("import: %v %+v", err, rs)
	}
	t0 := time.Now()
	if err := p.IndexOnly(ctx, []string{"ocr"}, nil); err != nil {
		t.Fatal(err)
	}
	t.Logf("OCR of 23 pages: %v", time.Since(t0).Round(time.Second))
	check(t, p)
	pgs, _ := p.Store().Pages(ctx, rs[0].DocID, 0)
	for _, pg := range pgs {
		if pg.OCRStatus != kb.OCRDone && pg.OCRStatus != kb.OCREmpty {
			t.Errorf("page %d: %s %q", pg.Number, pg.OCRStatus, pg.OCRNote)
		}
	}
	hits, err := p.Search(ctx, "Germanwings website marketing content", 3)
	if err != nil || len(hits) == 0 || hits[0].PageStart != 10 {
		t.Fatalf("search: %v %+v", err, hits)
	}
}
