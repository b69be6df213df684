package docx

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/ingest/parsed"
)

// checkFuzzResult: a read either fails with a typed error or returns a
// document that keeps the reader contract.
func checkFuzzResult(t *testing.T, doc *parsed.Document, err error) {
	if err != nil {
		var pe *parsed.Error
		if !errors.As(err, &pe) {
			t.Fatalf("untyped error %T: %v", err, err)
		}
		if pe.Msg == "" {
			t.Fatalf("empty message for %s", pe.Code)
		}
		return
	}
	if len(doc.Pages) == 0 || len(doc.Blocks) == 0 {
		t.Fatalf("success without pages/blocks: %+v", doc)
	}
	prev := 1
	for _, b := range doc.Blocks {
		if b.Page < prev || b.Page > len(doc.Pages) {
			t.Fatalf("block page %d (prev %d, %d pages)", b.Page, prev, len(doc.Pages))
		}
		prev = b.Page
		if strings.TrimSpace(b.Text) == "" {
			t.Fatalf("empty block")
		}
	}
}

// FuzzDocx feeds arbitrary bytes (seeded with small real files) to Read.
func FuzzDocx(f *testing.F) {
	for _, rel := range []string{"../../../shared", "../../../../shared"} {
		files, _ := filepath.Glob(filepath.Join(rel, "docs", "real", "*.docx"))
		for _, name := range files {
			if st, err := os.Stat(name); err == nil && st.Size() < 25<<10 {
				if data, err := os.ReadFile(name); err == nil {
					f.Add(data)
				}
			}
		}
	}
	f.Add(makeDocx(f, p(pstyle("1"), r("Title"))+p(numPr("1", "0"), r("item")), nil))
	f.Add([]byte("PK\x03\x04"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Read(data, parsed.Options{})
		checkFuzzResult(t, doc, err)
	})
}

// FuzzDocxXML wraps arbitrary bytes as word/document.xml in a valid
// package, which reaches the XML walker far more often than raw bytes do.
func FuzzDocxXML(f *testing.F) {
	f.Add(`<w:document ` + wNS + `><w:body>` + p(pstyle("1"), r("T")) + p(numPr("1", "2"), r("i")) + `</w:body></w:document>`)
	f.Add(`<w:document ` + wNS + `><w:body><w:tbl><w:tr><w:tc>` + p("", r("a")) + `</w:tc></w:tr></w:tbl></w:body></w:document>`)
	f.Add(`<w:document ` + wNS + `><w:body><w:p><mc:AlternateContent><mc:Choice><w:txbxContent><w:p><w:r><w:lastRenderedPageBreak/><w:t>b</w:t></w:r></w:p></w:txbxContent></mc:Choice></mc:AlternateContent></w:p></w:body></w:document>`)
	f.Add(`<w:document ` + wNS + `><w:body><w:p><w:r><w:fldChar w:fldCharType="begin"/><w:t>x</w:t><w:br w:type="page"/></w:r></w:p></w:body></w:document>`)
	f.Fuzz(func(t *testing.T, xml string) {
		data := makeDocx(t, "", map[string]string{"word/document.xml": xml})
		doc, err := Read(data, parsed.Options{})
		checkFuzzResult(t, doc, err)
	})
}
