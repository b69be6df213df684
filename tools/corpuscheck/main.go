// Command corpuscheck measures the PDF reader on a corpus of real documents
// it was never tuned on, file by file.
//
//	go run ./tools/corpuscheck [-v] [DIR_OR_FILE...]
//
// Without arguments it reads every PDF in ../shared/eval/docqa/*/pdfs and
// ../shared/docs/real. For each file it prints:
//
//   - 8gF1: page-wise word 8-gram F1 against the closer of pdftotext's two
//     readings (default mode for prose, -layout for table rows), the rule of
//     ../shared/docbench/pagewise.py: its tokens (ASCII letter and digit
//     runs, single kana, Han and Hangul characters, lower case), the closer
//     reading chosen per page (the default one on a tie), the counts summed
//     over the pages (micro F1). Cairn's page text is what `cairn text`
//     prints: the blocks without the page furniture. "lay" is the number of
//     pages where the -layout reading was the closer.
//   - recall: word recall against pdftotext's default reading (NFKC,
//     lower case, Unicode letter and digit runs; pdfeval.Tokens) of the
//     page text alone, and "+furn" of the page text with the page's
//     furniture (running headers, footers, page numbers: read and kept
//     with the page, not in its text): the words pdftotext reads that
//     Cairn drops (ligatures, accents, symbols) are what "+furn" misses.
//   - furn: furniture lines left in the text (pdfeval.FurnitureLeaks).
//   - headings: recall of the layout rules alone against the document's own
//     bookmarks. The reader runs with CAIRN_PDF_OUTLINE=0, so bookmarks
//     make no headings. A bookmark counts when its title is printed on its
//     page or the next ("findable"); it is found when a heading block there
//     has exactly the title's words, section numbers at the start aside
//     (digits, a letter, a Roman numeral).
//
// Scanned pages (no text layer; OCR is off, CAIRN_OCR=0) are left out of
// both scores and counted. After each directory it prints the means over
// its files; -v lists the bookmarks not found.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"cairn/backend/ingest/parsed"
	"cairn/backend/ingest/pdf"
	"cairn/backend/ingest/pdf/pdfeval"
)

func main() {
	verbose := flag.Bool("v", false, "list the bookmarks the layout rules did not make headings")
	flag.Parse()
	if !pdfeval.HavePdftotext() {
		fmt.Fprintln(os.Stderr, "corpuscheck: pdftotext not found; install poppler-utils")
		os.Exit(1)
	}
	os.Setenv("CAIRN_OCR", "0")
	os.Setenv("CAIRN_PDF_OUTLINE", "0")
	args := flag.Args()
	if len(args) == 0 {
		m, _ := filepath.Glob(filepath.Join("..", "shared", "eval", "docqa", "*", "pdfs"))
		args = append(m, filepath.Join("..", "shared", "docs", "real"))
	}
	t0 := time.Now()
	var all []result
	for _, a := range args {
		files, err := pdfFiles(a)
		if err != nil {
			fmt.Fprintln(os.Stderr, "corpuscheck:", err)
			os.Exit(1)
		}
		fmt.Printf("\n## %s (%d PDFs)\n\n", a, len(files))
		fmt.Printf("%-58s %5s %4s %6s %4s %6s %6s %4s  %s\n", "file", "pages", "scan", "8gF1", "lay", "recall", "+furn", "furn", "headings (found/findable of bookmarks)")
		var rs []result
		for _, f := range files {
			r := check(f)
			rs = append(rs, r)
			printResult(r, *verbose)
		}
		summarise(a, rs)
		all = append(all, rs...)
	}
	if len(args) > 1 {
		summarise("all", all)
	}
	fmt.Printf("\nwall %.0fs\n", time.Since(t0).Seconds())
}

// pdfFiles lists the PDFs of a directory, or the file itself.
func pdfFiles(a string) ([]string, error) {
	fi, err := os.Stat(a)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return []string{a}, nil
	}
	m, err := filepath.Glob(filepath.Join(a, "*.pdf"))
	sort.Strings(m)
	return m, err
}

// result is the measurement of one file.
type result struct {
	file            string
	pages, scanned  int
	layoutCloser    int
	i, p, r         int // 8-gram counts: shared, Cairn's, pdftotext's
	recall          float64
	recallRead      float64 // of the page text and its furniture
	furniture       int
	bookmarks       int
	findable, found int
	missed          []string
	err             error
}

// f8 is the file's micro 8-gram F1.
func (r result) f8() float64 { return f1(r.i, r.p, r.r) }

func f1(i, p, r int) float64 {
	if i == 0 {
		return 0
	}
	return 2 * float64(i) / float64(p+r)
}

// check reads one PDF and scores it.
func check(path string) result {
	res := result{file: filepath.Base(path)}
	data, err := os.ReadFile(path)
	if err != nil {
		res.err = err
		return res
	}
	dflt, err := pdfeval.ReferencePages(path)
	if err != nil {
		res.err = err
		return res
	}
	lay, err := pdfeval.LayoutReferencePages(path)
	if err != nil {
		res.err = err
		return res
	}
	doc, err := pdf.Read(data, parsed.Options{})
	if err != nil {
		res.err = err
		return res
	}
	got := pdfeval.PageTexts(doc)
	res.pages = len(doc.Pages)
	scanned := map[int]bool{}
	for i, p := range doc.Pages {
		if p.NoText {
			scanned[i] = true
			res.scanned++
		}
	}
	n := max(len(got), len(dflt), len(lay))
	var gotWords, readWords, refWords []string
	for pg := 0; pg < n; pg++ {
		if scanned[pg] {
			continue
		}
		g := pageOf(got, pg)
		gg := grams(pagewiseTokens(g))
		best, bi, bp, br, layout := -1.0, 0, 0, 0, false
		for k, ref := range [][]string{dflt, lay} {
			rg := grams(pagewiseTokens(pageOf(ref, pg)))
			i, p, r := overlap(gg, rg), total(gg), total(rg)
			if s := f1(i, p, r); s > best {
				best, bi, bp, br, layout = s, i, p, r, k == 1
			}
		}
		res.i, res.p, res.r = res.i+bi, res.p+bp, res.r+br
		if layout {
			res.layoutCloser++
		}
		gotWords = append(gotWords, pdfeval.Tokens(g)...)
		readWords = append(readWords, pdfeval.Tokens(g)...)
		if pg < len(doc.Pages) {
			for _, f := range doc.Pages[pg].Furniture {
				readWords = append(readWords, pdfeval.Tokens(f)...)
			}
		}
		refWords = append(refWords, pdfeval.Tokens(pageOf(dflt, pg))...)
	}
	_, _, res.recall = pdfeval.F1(gotWords, refWords)
	_, _, res.recallRead = pdfeval.F1(readWords, refWords)
	res.furniture = len(pdfeval.FurnitureLeaks(doc, dflt))
	bms, _ := pdf.Bookmarks(data, "")
	res.bookmarks = len(bms)
	res.findable, res.found, res.missed = headingRecall(doc, got, bms)
	return res
}

// pageOf returns page i of pages, or "".
func pageOf(pages []string, i int) string {
	if i < len(pages) {
		return pages[i]
	}
	return ""
}

// pagewiseWord is pagewise.py's token: an ASCII letter and digit run, or
// one kana, Han or Hangul character.
var pagewiseWord = regexp.MustCompile(`[a-z0-9]+|[\x{3040}-\x{30ff}\x{3400}-\x{9fff}\x{ac00}-\x{d7af}]`)

// pagewiseTokens are the tokens of s, lower-cased, as pagewise.py reads them.
func pagewiseTokens(s string) []string {
	return pagewiseWord.FindAllString(strings.ToLower(s), -1)
}

// grams counts the 8-grams of a token list.
func grams(t []string) map[string]int {
	out := map[string]int{}
	for i := 0; i+8 <= len(t); i++ {
		out[strings.Join(t[i:i+8], "\x00")]++
	}
	return out
}

// overlap is the size of the multiset intersection.
func overlap(a, b map[string]int) int {
	n := 0
	for k, v := range a {
		n += min(v, b[k])
	}
	return n
}

// total is the size of a multiset.
func total(a map[string]int) int {
	n := 0
	for _, v := range a {
		n += v
	}
	return n
}

// headingRecall counts the bookmarks whose title is printed on their page
// or the next (findable) and those of them a heading block there matches.
func headingRecall(doc *parsed.Document, pages []string, bms []pdf.Bookmark) (findable, found int, missed []string) {
	headings := map[int][][]string{} // page -> heading blocks' words
	for _, b := range doc.Blocks {
		if b.Kind == parsed.BlockHeading {
			headings[b.Page] = append(headings[b.Page], pdfeval.Tokens(b.Text))
		}
	}
	for _, bm := range bms {
		want := pdfeval.Tokens(bm.Title)
		if !hasLetter(want) {
			continue
		}
		printed := false
		for p := bm.Page; p <= bm.Page+1 && !printed; p++ {
			printed = containsRun(pdfeval.Tokens(pageOf(pages, p-1)), unnumbered(want))
		}
		if !printed {
			continue
		}
		findable++
		hit := false
		for p := bm.Page; p <= bm.Page+1 && !hit; p++ {
			for _, h := range headings[p] {
				if sameWords(h, want) {
					hit = true
					break
				}
			}
		}
		if hit {
			found++
		} else {
			missed = append(missed, fmt.Sprintf("p%d L%d %s", bm.Page, bm.Depth, bm.Title))
		}
	}
	return findable, found, missed
}

// hasLetter reports whether any token has a letter.
func hasLetter(ts []string) bool {
	for _, t := range ts {
		if strings.IndexFunc(t, func(r rune) bool { return r > '9' }) >= 0 {
			return true
		}
	}
	return false
}

// unnumbered drops up to three leading tokens of a section number:
// digits, a single letter ("A", "B.1" for appendices) or a Roman numeral
// ("II").
func unnumbered(ts []string) []string {
	for k := 0; k < 3 && len(ts) > 1 && labelToken.MatchString(ts[0]); k++ {
		ts = ts[1:]
	}
	return ts
}

// labelToken matches a token of a section number.
var labelToken = regexp.MustCompile(`^(?:[0-9]+|[a-z]|[ivx]{1,4})$`)

// sameWords: a and b have the same words, leading section numbers aside.
func sameWords(a, b []string) bool {
	return strings.Join(unnumbered(a), " ") == strings.Join(unnumbered(b), " ")
}

// containsRun reports whether want occurs as a contiguous run in ts.
func containsRun(ts, want []string) bool {
	if len(want) == 0 {
		return false
	}
	s := " " + strings.Join(ts, " ") + " "
	return strings.Contains(s, " "+strings.Join(want, " ")+" ")
}

// printResult prints one file's line (and, with verbose, its misses).
func printResult(r result, verbose bool) {
	if r.err != nil {
		fmt.Printf("%-58s error: %v\n", trim(r.file, 58), r.err)
		return
	}
	hd := "-"
	if r.bookmarks > 0 {
		hd = fmt.Sprintf("%d/%d of %d", r.found, r.findable, r.bookmarks)
		if r.findable > 0 {
			hd += fmt.Sprintf("  %.3f", float64(r.found)/float64(r.findable))
		}
	}
	if r.p+r.r == 0 {
		fmt.Printf("%-58s %5d %4d  (no text to score)\n", trim(r.file, 58), r.pages, r.scanned)
		return
	}
	fmt.Printf("%-58s %5d %4d %6.3f %4d %6.3f %6.3f %4d  %s\n", trim(r.file, 58), r.pages, r.scanned, r.f8(), r.layoutCloser, r.recall, r.recallRead, r.furniture, hd)
	if verbose {
		for _, m := range r.missed {
			fmt.Printf("      not a heading: %s\n", m)
		}
	}
}

// trim shortens s to n bytes for the table.
func trim(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}

// summarise prints the means over a set of files.
func summarise(label string, rs []result) {
	var f8, rec, recRead float64
	var n, scanned, furn, findable, found, withBM, failed, imageOnly int
	var macro float64
	var low []string
	for _, r := range rs {
		scanned += r.scanned
		switch {
		case r.err != nil:
			failed++
			continue
		case r.p+r.r == 0:
			imageOnly++
			continue
		}
		n++
		f8 += r.f8()
		rec += r.recall
		recRead += r.recallRead
		furn += r.furniture
		if r.f8() < 0.75 {
			low = append(low, fmt.Sprintf("%s %.3f", r.file, r.f8()))
		}
		if r.findable > 0 {
			withBM++
			findable += r.findable
			found += r.found
			macro += float64(r.found) / float64(r.findable)
		}
	}
	if n == 0 {
		return
	}
	fmt.Printf("\nMEAN %s: %d files scored, %d image-only, %d failed; %d scanned pages left out\n", label, n, imageOnly, failed, scanned)
	fmt.Printf("  page-wise 8-gram F1 %.3f, word recall %.4f (with the pages' furniture %.4f), furniture lines %d\n", f8/float64(n), rec/float64(n), recRead/float64(n), furn)
	if withBM > 0 {
		fmt.Printf("  layout-only heading recall against bookmarks: %d files, %d/%d findable bookmarks = %.3f (mean over files %.3f)\n",
			withBM, found, findable, float64(found)/float64(findable), macro/float64(withBM))
	}
	if len(low) > 0 {
		fmt.Printf("  below 0.75: %s\n", strings.Join(low, "; "))
	}
}
