// Command pdff1 measures Cairn's PDF reader against pdftotext.
//
//	go run ./tools/pdff1 DIR_OR_FILE...
//
// For every PDF it prints the token F1 of the whole text and the mean
// per-page F1 (page i against pdftotext's page i), the engine(s) that
// produced the pages and the read time, then the means over all files with
// a text layer, over English (non-CJK) and over CJK documents. The 8-gram
// F1 column scores reading order (columns, headers spliced into text); the
// next one does the same on the body text, tables and page furniture set
// aside on both sides (pdftotext reads tables column by column, Cairn row
// by row, and pdftotext splices running headers into the text where the
// file draws them). The last score column is the 8-gram F1 against
// pdftotext -layout, which keeps table rows whole: the fair reference for
// documents that are mostly tables (it sets text columns side by side, so
// it is no reference for multi-column prose).
// The figures in backend/ingest/pdf/F1.md and docs/measurements.md's "Reading
// documents" come from it; the gate itself is backend/ingest/pdf's
// quality_test.go, which shares the metric (pdfeval).
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"cairn/backend/ingest/pdf"
	"cairn/backend/ingest/pdf/pdfeval"
	"cairn/backend/kb"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: pdff1 DIR_OR_FILE...")
		os.Exit(2)
	}
	if !pdfeval.HavePdftotext() {
		fmt.Fprintln(os.Stderr, "pdff1: pdftotext not found; install poppler-utils")
		os.Exit(1)
	}
	var files []string
	for _, a := range os.Args[1:] {
		fi, err := os.Stat(a)
		if err != nil {
			fmt.Fprintln(os.Stderr, "pdff1:", err)
			os.Exit(1)
		}
		if !fi.IsDir() {
			files = append(files, a)
			continue
		}
		m, _ := filepath.Glob(filepath.Join(a, "*.pdf"))
		sort.Strings(m)
		files = append(files, m...)
	}
	t0 := time.Now()
	var rs []pdfeval.Result
	fmt.Println("| file | pages | engine | F1 | precision | recall | page F1 | 8-gram F1 | 8-gram F1, body text | 8-gram F1 vs -layout | ms |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|")
	for _, f := range files {
		r := pdfeval.Evaluate(f)
		rs = append(rs, r)
		switch {
		case r.Err != nil:
			fmt.Printf("| %s | | | error: %s | | | | | | %d |\n", r.File, oneLine(r.Err.Error()), r.Elapsed.Milliseconds())
		case r.NoText:
			fmt.Printf("| %s | %d | %s | (no text layer: excluded) | | | | | | %d |\n", r.File, r.Pages, r.Engines, r.Elapsed.Milliseconds())
		default:
			fmt.Printf("| %s | %d | %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %d |\n", r.File, r.Pages, r.Engines, r.F1, r.Precision, r.Recall, r.PageF1, r.F8, r.F8Text, r.F8Layout, r.Elapsed.Milliseconds())
		}
	}
	s := pdfeval.Summarise(rs)
	fmt.Println()
	fmt.Printf("mean F1: all %.3f (%d files), English %.3f (%d), CJK %.3f (%d); mean per-page F1 %.3f; mean 8-gram F1 %.3f\n",
		s.All, s.NAll, s.English, s.NEnglish, s.CJK, s.NCJK, s.PageAll, s.F8)
	fmt.Printf("read time %.2fs for %d files (PDFium start-up %.2fs of it); wall %.2fs including pdftotext\n",
		s.Elapsed.Seconds(), len(rs), pdf.EngineStartTime().Seconds(), time.Since(t0).Seconds())
}

// oneLine makes s fit in one Markdown table cell.
func oneLine(s string) string { return kb.OneLine(strings.ReplaceAll(s, "|", "/")) }
