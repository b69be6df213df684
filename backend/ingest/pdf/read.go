package pdf

import (
	"errors"
	"fmt"

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
	copyPages := 0 // the pages PDFium counts in the file, when r reads its plain copy
	if r == nil {
		r, copyPages = rd.openPlainCopy()
	}
	if r != nil {
		warned := len(rd.warnings)
		pages = rd.walk(r)
		if copyPages > 0 && len(pages) != min(copyPages, maxPages) {
			// The copy lost pages: read the file as PDFium reads it.
			pages, rd.warnings, rd.title = nil, rd.warnings[:warned], ""
		}
	}
	if pages == nil {
		// The first reader could not open the file or found no pages.
		pages, err = rd.readAllWithIum(err)
		if err != nil {
			return nil, err
		}
	}
	// Image-only pages keep info.NoText; they are OCRed later (scans.go).
	doc := &parsed.Document{Kind: parsed.KindPDF, Title: rd.title, MetaTitle: rd.title}
	doc.Blocks = buildBlocks(pages)
	joinSplitWords(doc.Blocks)
	for _, p := range pages {
		if p.hasBox {
			p.info.Width, p.info.Height = round1(p.box[2]-p.box[0]), round1(p.box[3]-p.box[1])
		}
		doc.Pages = append(doc.Pages, p.info)
	}
	if doc.Title == "" {
		doc.Title = firstHeading(doc.Blocks)
	}
	doc.Warnings = rd.warnings
	return doc, nil
}

// maxCopyGrowth bounds the copy openPlainCopy reads: PDFium writes the
// objects it holds, which may be larger than the original's compressed
// object streams, but not by more than this factor.
const maxCopyGrowth = 4

// openPlainCopy opens, in the first reader, PDFium's plain copy of a file
// the first reader could not open itself, so the file is still read with
// its layout (headings, tables, furniture) rather than as PDFium's plain
// text. It returns the reader and the number of pages PDFium counts in
// the file, or nil when there is no such copy.
func (rd *reading) openPlainCopy() (*lp.Reader, int) {
	d, err := rd.openIum()
	if err != nil || d.pages == 0 {
		return nil, 0
	}
	c, err := d.plainCopy()
	if err != nil || len(c) == 0 || len(c) > maxCopyGrowth*len(rd.data)+1<<20 {
		return nil, 0
	}
	r, err := openLP(normalise(c), "")
	if err != nil || brokenDecryption(r) {
		return nil, 0
	}
	return r, d.pages
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

// warn records a warning for the document.
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

// closeIum closes the PDFium document, if one was opened.
func (rd *reading) closeIum() {
	if rd.ium != nil {
		rd.ium.close()
	}
}
