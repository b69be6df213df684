package pdf

import (
	"errors"
	"fmt"
)

// Image-only pages. Reading does not OCR them: a page without a text layer
// is flagged (parsed.PageInfo.NoText) and read later, page by page, by the
// import's "ocr" indexing stage through OpenOCR, outside the reader's time
// limit. The reader stays fast on a scanned book, and the document's text
// pages are searchable before its scans are read.

// OCRDoc reads the image-only pages of one PDF with tesseract: each page is
// rendered with PDFium and recognised exactly as the reader once did
// inline (same resolution, languages and confidence thresholds).
type OCRDoc struct {
	d    *ium
	sess *ocrSession
}

// OCRAvailable reports whether pages can be OCRed here: tesseract is
// installed with a language and OCR is not switched off (CAIRN_OCR=0).
func OCRAvailable() bool { return ocrEnabled() }

// OCRSwitchedOff reports whether CAIRN_OCR=0 disables OCR.
func OCRSwitchedOff() bool { return ocrSwitchedOff() }

// OpenOCR opens data (with the user password of an encrypted PDF, if any)
// for OCR. Close it when done.
func OpenOCR(data []byte, password string) (*OCRDoc, error) {
	if !ocrEnabled() {
		if ocrSwitchedOff() {
			return nil, errors.New("OCR is switched off (CAIRN_OCR=0)")
		}
		return nil, errors.New("tesseract is not installed: " + OCRInstallHint)
	}
	d, err := openIum(data, password)
	if err != nil {
		return nil, err
	}
	sess, err := newOCRSession(d)
	if err != nil {
		d.close()
		return nil, err
	}
	return &OCRDoc{d: d, sess: sess}, nil
}

// Pages is the document's page count.
func (o *OCRDoc) Pages() int { return o.d.pages }

// PageText is one page's OCR result: its paragraphs, or Found = false when
// tesseract found no text it was confident of (a photograph, a blank or a
// poor scan).
type PageText struct {
	Found bool
	Paras []string
}

// Page OCRs page n (1-based).
func (o *OCRDoc) Page(n int) (PageText, error) {
	if n < 1 || n > o.d.pages {
		return PageText{}, errPageRange(n, o.d.pages)
	}
	t, ok, err := o.sess.page(n - 1)
	if err != nil || !ok {
		return PageText{}, err
	}
	var out PageText
	for _, p := range parasFromPlain(t) {
		if s := cleanText(p.text); s != "" {
			out.Paras = append(out.Paras, s)
		}
	}
	out.Found = len(out.Paras) > 0
	return out, nil
}

// Close releases PDFium's document and the page images' folder.
func (o *OCRDoc) Close() {
	o.sess.close()
	o.d.close()
}

// errPageRange is Page's error for a page the document does not have.
func errPageRange(n, pages int) error {
	return fmt.Errorf("page %d is not in this PDF (it has %d pages)", n, pages)
}
