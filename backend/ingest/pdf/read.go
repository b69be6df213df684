package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	lp "github.com/ledongthuc/pdf"

	"cairn/backend/ingest/parsed"
)

// Engine names recorded in parsed.PageInfo.Engine.
const (
	EngineWalker    = "walker"
	EnginePDFium    = "pdfium"
	EngineTesseract = "tesseract"
)

// No-text detection: a page with fewer readable characters than this and
// an image covering at least noTextCover of it is treated as a scan.
const (
	noTextRunes = 20
	noTextCover = 0.5
)

// Read extracts the text of a PDF page by page. See the package comment
// for the engines. Failures are *parsed.Error values: CodeEmpty,
// CodeUnsupported (not a PDF), CodePasswordRequired, CodeWrongPassword,
// CodeTruncated and CodeCorrupt.
func Read(data []byte, opt parsed.Options) (*parsed.Document, error) {
	return read(data, opt, true)
}

// errNoFallback is returned by openIum when PDFium is not to be used.
var errNoFallback = errors.New("fallback reader disabled")

// read is Read with PDFium (fallback and OCR rendering) optional, so the
// walker can be fuzzed on its own.
func read(data []byte, opt parsed.Options, useIum bool) (*parsed.Document, error) {
	if err := sniff(data); err != nil {
		return nil, err
	}
	maxPages := opt.MaxPages
	if maxPages <= 0 {
		maxPages = parsed.DefaultMaxPages
	}
	rd := &reading{data: data, opt: opt, maxPages: maxPages, noIum: !useIum}
	defer rd.closeIum()
	r, err := openLP(normalise(data), opt.Password)
	var pwErr *parsed.Error
	if errors.As(err, &pwErr) {
		return nil, err
	}
	var pages []pageOut
	if r != nil && brokenDecryption(r) {
		r, err = nil, errors.New("40-bit RC4 encryption, which the first reader decrypts wrongly")
	}
	if r != nil {
		pages = rd.walk(r)
	}
	if pages == nil {
		// The first reader could not open the file or found no pages.
		pages, err = rd.readAllWithIum(err)
		if err != nil {
			return nil, err
		}
	}
	rd.flagAndOCR(pages)
	doc := &parsed.Document{Kind: parsed.KindPDF, Title: rd.title}
	for _, p := range pages {
		doc.Pages = append(doc.Pages, p.info)
	}
	doc.Blocks = buildBlocks(pages)
	if doc.Title == "" {
		doc.Title = firstHeading(doc.Blocks)
	}
	doc.Warnings = rd.warnings
	return doc, nil
}

// reading holds the state of one Read call.
type reading struct {
	data     []byte
	opt      parsed.Options
	maxPages int
	title    string
	warnings []string
	ium      *ium
	iumErr   error
	iumTried bool
	noIum    bool
}

func (rd *reading) warn(format string, args ...any) {
	rd.warnings = append(rd.warnings, fmt.Sprintf(format, args...))
}

// openIum opens the original bytes in PDFium once per Read.
func (rd *reading) openIum() (*ium, error) {
	if rd.noIum {
		return nil, errNoFallback
	}
	if !rd.iumTried {
		rd.iumTried = true
		rd.ium, rd.iumErr = openIum(rd.data, rd.opt.Password)
	}
	return rd.ium, rd.iumErr
}

func (rd *reading) closeIum() {
	if rd.ium != nil {
		rd.ium.close()
	}
}

// openLP opens data with the first reader. A missing or wrong password is
// returned as a typed error; other failures as plain errors.
func openLP(data []byte, password string) (r *lp.Reader, err error) {
	tried := false
	perr := guard(func() {
		r, err = lp.NewReaderEncrypted(bytes.NewReader(data), int64(len(data)), func() string {
			if tried {
				return ""
			}
			tried = true
			return password
		})
	})
	if perr != nil {
		return nil, perr
	}
	if errors.Is(err, lp.ErrInvalidPassword) {
		return nil, passwordError(password)
	}
	return r, err
}

// brokenDecryption reports files the first reader opens but decrypts
// wrongly: 40-bit RC4 (/V 1 or /R 2) uses a 5+5-byte object key that the
// library does not truncate.
func brokenDecryption(r *lp.Reader) bool {
	var broken bool
	guard(func() {
		enc := key(r.Trailer(), "Encrypt")
		if enc.Kind() != lp.Dict {
			return
		}
		v, _ := num(key(enc, "V"))
		rev, _ := num(key(enc, "R"))
		broken = v <= 1 || rev <= 2
	})
	return broken
}

// walk reads every page with the walker, then re-reads the pages the judge
// rejects with PDFium. It returns nil if the file has no readable page tree.
func (rd *reading) walk(r *lp.Reader) []pageOut {
	tree := enumeratePages(r, rd.maxPages)
	if len(tree.pages) == 0 {
		return nil
	}
	rd.title = infoTitle(r)
	if !plausibleTitle(rd.title) {
		rd.title = ""
	}
	if tree.truncated {
		total := "more"
		if tree.declared > len(tree.pages) {
			total = fmt.Sprint(tree.declared)
		}
		rd.warn("Only the first %d pages were read (the PDF declares %s); the rest were skipped.", len(tree.pages), total)
	}
	if tree.damaged > 0 {
		rd.warn("%d damaged entries in the page tree were skipped.", tree.damaged)
	}
	ds := newDocState()
	pages := make([]pageOut, len(tree.pages))
	results := make([]pageResult, len(tree.pages))
	verdicts := make([]verdict, len(tree.pages))
	var failing []int
	for i, p := range tree.pages {
		results[i] = walkPage(ds, p)
		pages[i] = pageOut{info: parsed.PageInfo{Number: i + 1, Engine: EngineWalker}, paras: results[i].paras}
		if verdicts[i] = judge(&results[i], results[i].text()); verdicts[i] != "" {
			failing = append(failing, i)
		}
	}
	if len(failing) > 0 {
		if d, err := rd.openIum(); err == nil && d.pages != len(pages) && 2*len(failing) > len(pages) {
			// Most pages failed and PDFium sees a different page tree
			// (damaged file): trust PDFium for the whole document.
			if all, err := rd.readAllWithIum(nil); err == nil {
				rd.warn("The page tree is damaged; %d pages were read by the fallback reader (the first reader found %d).", len(all), len(pages))
				return all
			}
		}
		rd.retryWithIum(pages, results, verdicts, failing)
	}
	for i := range pages {
		if measure(joinParas(pages[i].paras)).runes < noTextRunes && results[i].imageCover >= noTextCover {
			pages[i].info.NoText = true
		}
	}
	return pages
}

// retryWithIum re-reads the failing pages with PDFium and keeps, page by
// page, whichever text is better.
func (rd *reading) retryWithIum(pages []pageOut, results []pageResult, verdicts []verdict, failing []int) {
	d, err := rd.openIum()
	if err != nil || d.pages != len(pages) {
		reason := "its pages do not match"
		if err != nil {
			reason = err.Error()
		}
		rd.warn("%d pages may be misread: the fallback reader could not check them (%s).", len(failing), reason)
		for _, i := range failing {
			if results[i].err != nil {
				rd.warn("Page %d: %v.", i+1, results[i].err)
			}
		}
		return
	}
	for _, i := range failing {
		t, err := d.text(i)
		if err != nil {
			rd.warn("Page %d could not be re-read: %v.", i+1, err)
			continue
		}
		if preferFallback(verdicts[i], measure(results[i].text()), measure(t)) {
			pages[i].paras = parasFromPlain(t)
			pages[i].info.Engine = EnginePDFium
		}
	}
	if rd.title == "" {
		rd.title = cleanTitle(d.title())
	}
}

// plausibleTitle rejects metadata titles that look like noise, which is
// what a wrongly decrypted /Title looks like: damaged characters, few
// letters, or mostly one-letter "words".
func plausibleTitle(t string) bool {
	st := measure(t)
	if st.runes == 0 || st.bad > 0 || 10*st.letters < 6*st.runes {
		return false
	}
	words, wordy := 0, 0
	for _, w := range strings.Fields(t) {
		words++
		if measure(w).letters >= 2 {
			wordy++
		}
	}
	return 2*wordy >= words
}

// readAllWithIum reads the whole file with PDFium, after the first reader
// failed with lpErr.
func (rd *reading) readAllWithIum(lpErr error) ([]pageOut, error) {
	d, err := rd.openIum()
	if err != nil {
		var pe *parsed.Error
		if errors.As(err, &pe) {
			return nil, err
		}
		if looksTruncated(rd.data) {
			return nil, parsed.Errorf(parsed.CodeTruncated, "This PDF is incomplete: the file ends early (an interrupted download or copy?). No pages could be read.")
		}
		return nil, parsed.Errorf(parsed.CodeCorrupt, "This PDF is damaged and could not be read (%s).", shortErr(lpErr, err))
	}
	n := d.pages
	if n > rd.maxPages {
		rd.warn("Only the first %d pages were read (the PDF has %d); the rest were skipped.", rd.maxPages, n)
		n = rd.maxPages
	}
	if n == 0 {
		return nil, parsed.Errorf(parsed.CodeCorrupt, "This PDF has no readable pages.")
	}
	if t := cleanTitle(d.title()); plausibleTitle(t) {
		rd.title = t
	}
	pages := make([]pageOut, n)
	for i := 0; i < n; i++ {
		pages[i].info = parsed.PageInfo{Number: i + 1, Engine: EnginePDFium}
		t, err := d.text(i)
		if err != nil {
			rd.warn("Page %d could not be read: %v.", i+1, err)
		}
		pages[i].paras = parasFromPlain(t)
		if measure(t).runes < noTextRunes && d.imageCover(i) >= noTextCover {
			pages[i].info.NoText = true
		}
	}
	return pages, nil
}

// shortErr summarises the two engines' errors for a message.
func shortErr(a, b error) string {
	var parts []string
	for _, e := range []error{a, b} {
		if e != nil {
			s := e.Error()
			if len(s) > 120 {
				s = s[:120] + "…"
			}
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "; ")
}

// flagAndOCR OCRs image-only pages when tesseract is available, and
// otherwise warns about them.
func (rd *reading) flagAndOCR(pages []pageOut) {
	var scans []int
	for i := range pages {
		if pages[i].info.NoText {
			scans = append(scans, i)
		}
	}
	if len(scans) == 0 {
		return
	}
	left := len(scans)
	if ocrEnabled() {
		d, err := rd.openIum()
		var sess *ocrSession
		if err == nil && d.pages == len(pages) {
			sess, err = newOCRSession(d)
		}
		if err == nil && sess != nil {
			defer sess.close()
			for k, i := range scans {
				if k >= maxOCRPages {
					rd.warn("Only the first %d image-only pages were OCRed.", maxOCRPages)
					break
				}
				t, err := sess.page(i)
				if err != nil {
					rd.warn("OCR failed: %v.", err)
					continue
				}
				pages[i].paras = parasFromPlain(t)
				pages[i].info.OCR, pages[i].info.NoText = true, false
				pages[i].info.Engine = EngineTesseract
				left--
			}
		}
	}
	switch {
	case left == 0:
	case ocrEnabled():
		rd.warn("%d pages have no text layer and could not be OCRed.", left)
	case ocrSwitchedOff():
		rd.warn("%d pages have no text layer; OCR is switched off (CAIRN_OCR=0).", left)
	default:
		rd.warn("%d pages have no text layer; %s", left, noTextHint)
	}
}

// firstHeading returns the text of the first heading on page 1.
func firstHeading(blocks []parsed.Block) string {
	for _, b := range blocks {
		if b.Page > 1 {
			break
		}
		if b.Kind == parsed.BlockHeading {
			return b.Text
		}
	}
	return ""
}
