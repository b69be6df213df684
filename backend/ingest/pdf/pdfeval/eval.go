package pdfeval

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"cairn/backend/ingest/parsed"
	"cairn/backend/ingest/pdf"
)

// minRefTokens: files whose pdftotext output has fewer tokens are scans
// without a text layer and are left out of the means.
const minRefTokens = 20

// cjkShareMin: a document whose reference is at least this share CJK
// tokens counts as CJK in the summary.
const cjkShareMin = 0.3

// HavePdftotext reports whether the reference tool is installed.
func HavePdftotext() bool {
	_, err := exec.LookPath("pdftotext")
	return err == nil
}

// ReferencePages runs `pdftotext -enc UTF-8 file -` and splits its output
// into pages at form feeds.
func ReferencePages(path string) ([]string, error) { return referencePages(path) }

// LayoutReferencePages is ReferencePages with pdftotext's -layout mode,
// which keeps each table row on one line (and sets text columns side by
// side).
func LayoutReferencePages(path string) ([]string, error) { return referencePages(path, "-layout") }

func referencePages(path string, flags ...string) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out, errb bytes.Buffer
	args := append(append([]string{"-enc", "UTF-8"}, flags...), path, "-")
	cmd := exec.CommandContext(ctx, "pdftotext", args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("pdftotext: %v: %s", err, strings.TrimSpace(errb.String()))
	}
	if strings.Contains(errb.String(), "Missing language pack") {
		// Without poppler-data the reference itself lacks the CJK text.
		return nil, fmt.Errorf("pdftotext: reference incomplete, install poppler-data: %s", firstLine(errb.String()))
	}
	pages := strings.Split(out.String(), "\f")
	if n := len(pages); n > 0 && strings.TrimSpace(pages[n-1]) == "" {
		pages = pages[:n-1]
	}
	return pages, nil
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// PageTexts returns the text of each page of doc (index i = page i+1).
func PageTexts(doc *parsed.Document) []string {
	n := len(doc.Pages)
	for _, b := range doc.Blocks {
		n = max(n, b.Page)
	}
	var bs = make([]strings.Builder, n)
	for _, b := range doc.Blocks {
		if b.Page < 1 {
			continue
		}
		w := &bs[b.Page-1]
		if w.Len() > 0 {
			w.WriteString("\n\n")
		}
		w.WriteString(b.Text)
	}
	out := make([]string, n)
	for i := range bs {
		out[i] = bs[i].String()
	}
	return out
}

// Result is the measurement of one file.
type Result struct {
	File      string
	Pages     int
	Engines   string // e.g. "walker", "pdfium", "walker 10 + pdfium 2"
	F1        float64
	Precision float64
	Recall    float64
	PageF1    float64 // mean F1 of page i against reference page i
	F8        float64 // word 8-gram F1 of the whole text (reading order)
	// F8Text is the 8-gram F1 of the body text: Cairn's table rows and
	// page furniture are left out of its text and their words out of
	// pdftotext's page (first occurrences), since the two read a table in
	// different orders (pdftotext column by column, Cairn row by row) and
	// pdftotext splices running headers into the text where the file
	// draws them while Cairn sets them apart.
	F8Text float64
	// F8Layout is the 8-gram F1 of the whole text against pdftotext
	// -layout, whose reading keeps a table's rows (and puts text columns
	// side by side): the fair reference for pages that are tables.
	F8Layout float64
	// Leaks are running headers, footers and page counters (lines that
	// pdftotext prints among the first or last three lines of three or
	// more pages, numbers masked) that Cairn left in the text as a block.
	Leaks []string
	// Lines are the lines of every block of the text, for checks on what a
	// passage may hold.
	Lines   []string
	CJK     bool
	NoText  bool // reference has no text layer: excluded from means
	Elapsed time.Duration
	Err     error
}

// Evaluate reads one PDF with pdf.Read and scores it against pdftotext.
func Evaluate(path string) Result {
	res := Result{File: filepath.Base(path)}
	ref, err := ReferencePages(path)
	if err != nil {
		res.Err = err
		return res
	}
	data, err := os.ReadFile(path)
	if err != nil {
		res.Err = err
		return res
	}
	t0 := time.Now()
	doc, err := pdf.Read(data, parsed.Options{})
	res.Elapsed = time.Since(t0)
	refTokens := Tokens(strings.Join(ref, "\n"))
	res.NoText = len(refTokens) < minRefTokens
	res.CJK = CJKShare(refTokens) >= cjkShareMin
	if err != nil {
		res.Err = err
		return res
	}
	res.Pages = len(doc.Pages)
	res.Engines = engines(doc)
	got := PageTexts(doc)
	// Running headers, footers and page numbers are read and kept as page
	// metadata, out of the text; pdftotext prints them, so they are scored
	// as part of what was read, after the page's text.
	for i, p := range doc.Pages {
		if i < len(got) && len(p.Furniture) > 0 {
			got[i] += "\n\n" + strings.Join(p.Furniture, "\n")
		}
	}
	gotTokens := Tokens(strings.Join(got, "\n"))
	res.F1, res.Precision, res.Recall = F1(gotTokens, refTokens)
	res.F8 = NgramF1(gotTokens, refTokens, 8)
	res.F8Text = bodyTextF8(doc, ref)
	if lay, err := LayoutReferencePages(path); err == nil {
		res.F8Layout = NgramF1(gotTokens, Tokens(strings.Join(lay, "\n")), 8)
	}
	res.Leaks = furnitureLeaks(doc, ref)
	for _, b := range doc.Blocks {
		res.Lines = append(res.Lines, strings.Split(b.Text, "\n")...)
	}
	res.PageF1 = pageF1(got, ref)
	return res
}

// bodyTextF8 scores reading order on the body text: each page's
// non-table blocks against pdftotext's page less the words of that page's
// table rows and furniture.
func bodyTextF8(doc *parsed.Document, ref []string) float64 {
	var got, want []string
	for i, r := range ref {
		page := i + 1
		setApart := map[string]int{}
		for _, b := range doc.Blocks {
			if b.Page != page {
				continue
			}
			if b.Kind == parsed.BlockTableRow {
				for _, t := range Tokens(b.Text) {
					setApart[t]++
				}
				continue
			}
			got = append(got, Tokens(b.Text)...)
		}
		if i < len(doc.Pages) {
			for _, t := range Tokens(strings.Join(doc.Pages[i].Furniture, "\n")) {
				setApart[t]++
			}
		}
		for _, t := range Tokens(r) {
			if setApart[t] > 0 {
				setApart[t]--
				continue
			}
			want = append(want, t)
		}
	}
	return NgramF1(got, want, 8)
}

// pageF1 is the mean per-page F1, skipping pages empty in both.
func pageF1(got, ref []string) float64 {
	sum, n := 0.0, 0
	for i := 0; i < max(len(got), len(ref)); i++ {
		var g, r []string
		if i < len(got) {
			g = Tokens(got[i])
		}
		if i < len(ref) {
			r = Tokens(ref[i])
		}
		if len(g) == 0 && len(r) == 0 {
			continue
		}
		f, _, _ := F1(g, r)
		sum += f
		n++
	}
	if n == 0 {
		return 1
	}
	return sum / float64(n)
}

// engines summarises which engine produced the pages.
func engines(doc *parsed.Document) string {
	count := map[string]int{}
	for _, p := range doc.Pages {
		count[p.Engine]++
	}
	if len(count) == 1 {
		for e := range count {
			return e
		}
	}
	var names []string
	for e := range count {
		names = append(names, e)
	}
	sort.Strings(names)
	var parts []string
	for _, e := range names {
		parts = append(parts, fmt.Sprintf("%s %d", e, count[e]))
	}
	return strings.Join(parts, " + ")
}

// Summary holds the means over the scored files.
type Summary struct {
	All, English, CJK    float64
	NAll, NEnglish, NCJK int
	PageAll              float64
	F8                   float64 // mean word 8-gram F1
	Elapsed              time.Duration
}

// Summarise averages F1 over the files that have a text layer and were
// read; a file that failed to read counts as 0.
func Summarise(rs []Result) Summary {
	var s Summary
	var sumAll, sumEn, sumCJK, sumPage float64
	for _, r := range rs {
		s.Elapsed += r.Elapsed
		if r.NoText || r.Err != nil && isRefError(r) {
			continue
		}
		sumAll += r.F1
		sumPage += r.PageF1
		s.F8 += r.F8
		s.NAll++
		if r.CJK {
			sumCJK += r.F1
			s.NCJK++
		} else {
			sumEn += r.F1
			s.NEnglish++
		}
	}
	if s.NAll > 0 {
		s.All, s.PageAll = sumAll/float64(s.NAll), sumPage/float64(s.NAll)
		s.F8 /= float64(s.NAll)
	}
	if s.NEnglish > 0 {
		s.English = sumEn / float64(s.NEnglish)
	}
	if s.NCJK > 0 {
		s.CJK = sumCJK / float64(s.NCJK)
	}
	return s
}

// isRefError reports whether the reference itself could not be produced
// (pdftotext rejects the file), so the file has nothing to be scored on.
func isRefError(r Result) bool {
	return r.Err != nil && strings.HasPrefix(r.Err.Error(), "pdftotext")
}

// FurnitureLeaks is furnitureLeaks for tools: the running headers,
// footers and page counters doc left in its text, against pdftotext's
// pages ref.
func FurnitureLeaks(doc *parsed.Document, ref []string) []string { return furnitureLeaks(doc, ref) }

// furnitureLeaks lists the blocks of doc whose text, numbers masked, is a
// line that pdftotext prints among the first or last three lines of at
// least three pages: running headers, footers and page counters.
func furnitureLeaks(doc *parsed.Document, ref []string) []string {
	pages := map[string]map[int]bool{}
	for i, p := range ref {
		var lines []string
		for _, l := range strings.Split(p, "\n") {
			if strings.TrimSpace(l) != "" {
				lines = append(lines, l)
			}
		}
		for j, l := range lines {
			if j >= 3 && j < len(lines)-3 {
				continue
			}
			k := maskKey(l)
			if k == "" {
				continue
			}
			if pages[k] == nil {
				pages[k] = map[int]bool{}
			}
			pages[k][i] = true
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, b := range doc.Blocks {
		k := maskKey(b.Text)
		if len(pages[k]) >= 3 && !seen[k] {
			seen[k] = true
			out = append(out, strings.Join(strings.Fields(b.Text), " "))
		}
	}
	return out
}

// maskKey is a line's tokens with every number as '#', or "" for a line
// with fewer than two tokens that is not a number.
func maskKey(s string) string {
	ts := Tokens(s)
	for i, t := range ts {
		if strings.IndexFunc(t, func(r rune) bool { return r < '0' || r > '9' }) < 0 {
			ts[i] = "#"
		}
	}
	if len(ts) == 0 || len(ts) == 1 && ts[0] != "#" {
		return ""
	}
	return strings.Join(ts, " ")
}
