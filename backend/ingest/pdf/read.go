package pdf

import (
	"errors"
	"fmt"

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
	// Image-only pages keep info.NoText; they are OCRed later (scans.go).
	doc := &parsed.Document{Kind: parsed.KindPDF, Title: rd.title, MetaTitle: rd.title}
	doc.Blocks = buildBlocks(pages)
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
