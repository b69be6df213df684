package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/klippa-app/go-pdfium/enums"
	pdfiumerrors "github.com/klippa-app/go-pdfium/errors"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"

	"cairn/backend/ingest/parsed"
)

// ium is one document opened in PDFium. Its methods lock the engine and
// recover from panics in the binding.
type ium struct {
	e     *engine
	doc   references.FPDF_DOCUMENT
	pages int
}

// call runs f under the engine lock, converting a panic into an error.
func (e *engine) call(f func() error) (err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("pdfium panicked: %v", r)
		}
	}()
	return f()
}

// openIum opens data in PDFium. Password errors become typed errors.
func openIum(data []byte, password string) (*ium, error) {
	e, err := getEngine()
	if err != nil {
		return nil, err
	}
	d := &ium{e: e}
	err = e.call(func() error {
		req := &requests.OpenDocument{File: &data}
		if password != "" {
			req.Password = &password
		}
		res, err := e.inst.OpenDocument(req)
		if err != nil && password != "" && errors.Is(err, pdfiumerrors.ErrPassword) {
			// A password given for a file that has no user password:
			// open it as every reader does, with the empty one.
			if res2, err2 := e.inst.OpenDocument(&requests.OpenDocument{File: &data}); err2 == nil {
				res, err = res2, nil
			}
		}
		if err != nil {
			return err
		}
		d.doc = res.Document
		n, err := e.inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: d.doc})
		if err != nil {
			e.inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: d.doc})
			return err
		}
		d.pages = n.PageCount
		return nil
	})
	if err != nil {
		if errors.Is(err, pdfiumerrors.ErrPassword) {
			return nil, passwordError(password)
		}
		return nil, err
	}
	return d, nil
}

// plainCopy writes the document out again as PDFium holds it: without
// its encryption and with a cross-reference table of its own. The first
// reader can read such a copy with its layout when it cannot open the
// original (encryption it does not implement, such as RC4 crypt filters
// or AES-256; a damaged cross-reference table).
func (d *ium) plainCopy() ([]byte, error) {
	var buf bytes.Buffer
	err := d.e.call(func() error {
		_, err := d.e.inst.FPDF_SaveAsCopy(&requests.FPDF_SaveAsCopy{
			Document:   d.doc,
			Flags:      requests.SaveFlagRemoveSecurity,
			FileWriter: &buf,
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// passwordError is the typed error for a missing or wrong user password.
func passwordError(given string) *parsed.Error {
	if given == "" {
		return parsed.Errorf(parsed.CodePasswordRequired, "This PDF is password-protected; enter its password to import it.")
	}
	return parsed.Errorf(parsed.CodeWrongPassword, "The password is not correct for this PDF; check it and try again.")
}

// close releases the document.
func (d *ium) close() {
	d.e.call(func() error {
		_, err := d.e.inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: d.doc})
		return err
	})
}

// text returns the text of page i (0-based), normalised (see cleanIumText).
func (d *ium) text(i int) (string, error) {
	var out string
	err := d.e.call(func() error {
		inst := d.e.inst
		page, err := inst.FPDF_LoadPage(&requests.FPDF_LoadPage{Document: d.doc, Index: i})
		if err != nil {
			return err
		}
		defer inst.FPDF_ClosePage(&requests.FPDF_ClosePage{Page: page.Page})
		tp, err := inst.FPDFText_LoadPage(&requests.FPDFText_LoadPage{Page: requests.Page{ByReference: &page.Page}})
		if err != nil {
			return err
		}
		defer inst.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: tp.TextPage})
		n, err := inst.FPDFText_CountChars(&requests.FPDFText_CountChars{TextPage: tp.TextPage})
		if err != nil {
			return err
		}
		if n.Count <= 0 {
			return nil
		}
		t, err := inst.FPDFText_GetText(&requests.FPDFText_GetText{TextPage: tp.TextPage, StartIndex: 0, Count: n.Count})
		if err != nil {
			return err
		}
		out = t.Text
		return nil
	})
	return cleanIumText(out), err
}

// cleanIumText normalises PDFium's text: CRLF line ends become "\n"; the
// U+FFFE (or U+0002) marker PDFium puts where a word was hyphenated at a
// line end is dropped when the word continues right after it ("ef\uFFFEficient")
// and becomes a hyphen before a line break (joinLines then undoes it); NUL
// and other control characters are dropped.
func cleanIumText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case r == '\r':
			continue
		case r == 0xFFFE || r == 0x02:
			if i+1 < len(rs) && unicode.IsLetter(rs[i+1]) {
				continue
			}
			b.WriteByte('-')
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0xFFFF || r == 0xFEFF:
			continue
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// title returns the document's /Title metadata.
func (d *ium) title() string {
	var t string
	d.e.call(func() error {
		res, err := d.e.inst.FPDF_GetMetaText(&requests.FPDF_GetMetaText{Document: d.doc, Tag: "Title"})
		if err == nil {
			t = res.Value
		}
		return err
	})
	return t
}

// imageCover returns the fraction of page i's area covered by image
// objects (summed, at most 1).
func (d *ium) imageCover(i int) float64 {
	var best float64
	d.e.call(func() error {
		inst := d.e.inst
		page, err := inst.FPDF_LoadPage(&requests.FPDF_LoadPage{Document: d.doc, Index: i})
		if err != nil {
			return err
		}
		defer inst.FPDF_ClosePage(&requests.FPDF_ClosePage{Page: page.Page})
		ref := requests.Page{ByReference: &page.Page}
		w, err1 := inst.FPDF_GetPageWidthF(&requests.FPDF_GetPageWidthF{Page: ref})
		h, err2 := inst.FPDF_GetPageHeightF(&requests.FPDF_GetPageHeightF{Page: ref})
		if err1 != nil || err2 != nil || w.PageWidth <= 0 || h.PageHeight <= 0 {
			return nil
		}
		area := float64(w.PageWidth) * float64(h.PageHeight)
		cnt, err := inst.FPDFPage_CountObjects(&requests.FPDFPage_CountObjects{Page: ref})
		if err != nil {
			return err
		}
		for k := 0; k < cnt.Count && k < 10000; k++ {
			obj, err := inst.FPDFPage_GetObject(&requests.FPDFPage_GetObject{Page: ref, Index: k})
			if err != nil {
				continue
			}
			typ, err := inst.FPDFPageObj_GetType(&requests.FPDFPageObj_GetType{PageObject: obj.PageObject})
			if err != nil || typ.Type != enums.FPDF_PAGEOBJ_IMAGE {
				continue
			}
			b, err := inst.FPDFPageObj_GetBounds(&requests.FPDFPageObj_GetBounds{PageObject: obj.PageObject})
			if err != nil {
				continue
			}
			best = min(1, best+float64(b.Right-b.Left)*float64(b.Top-b.Bottom)/area)
		}
		return nil
	})
	return best
}

// renderPNG renders page i at dpi into a PNG file at path.
func (d *ium) renderPNG(i, dpi int, path string) error {
	return d.e.call(func() error {
		res, err := d.e.inst.RenderPageInDPI(&requests.RenderPageInDPI{
			Page: requests.Page{ByIndex: &requests.PageByIndex{Document: d.doc, Index: i}},
			DPI:  dpi,
		})
		if err != nil {
			return err
		}
		defer res.Cleanup()
		return writePNG(path, res.Result.Image)
	})
}

// pageSize returns page i's width and height in points.
func (d *ium) pageSize(i int) (w, h float64) {
	d.e.call(func() error {
		res, err := d.e.inst.FPDF_GetPageSizeByIndexF(&requests.FPDF_GetPageSizeByIndexF{Document: d.doc, Index: i})
		if err == nil {
			w, h = float64(res.Size.Width), float64(res.Size.Height)
		}
		return err
	})
	return w, h
}
