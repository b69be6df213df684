package pdf

import (
	"os"
	"path/filepath"
	"testing"

	"cairn/backend/ingest/parsed"
)

// fuzzSeeds are small corpus files that exercise the walker.
var fuzzSeeds = []string{
	"bad/page-count-lie.pdf",
	"bad/deep-nesting-content.pdf",
	"real/ja-vertical-poem.pdf",
	"real/en-scanned-jbig2-xerox.pdf",
	"real/en-slides-libreoffice.pdf",
	"real/ko-card-benefits-tables.pdf",
}

// FuzzRead feeds arbitrary bytes to the first reader (open, page tree,
// walker, judge, blocks) with the PDFium fallback off. It must never panic
// or hang, whatever the input.
func FuzzRead(f *testing.F) {
	dir := filepath.Join("..", "..", "..", "..", "shared", "docs")
	for _, s := range fuzzSeeds {
		if data, err := os.ReadFile(filepath.Join(dir, s)); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/Contents 4 0 R>>endobj\n4 0 obj<</Length 20>>stream\nBT (hi) Tj ET\nendstream endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := read(data, parsed.Options{MaxPages: 50}, false)
		if err == nil && doc == nil {
			t.Fatal("nil document without error")
		}
	})
}

// FuzzContent feeds arbitrary content streams to the walker on a page
// without resources.
func FuzzContent(f *testing.F) {
	for _, s := range []string{
		"BT /F1 12 Tf 72 700 Td (Hello) Tj ET",
		"q 1 0 0 1 0 0 cm BT [(A) -200 (B)] TJ T* (C) ' 1 2 (D) \" ET Q",
		"BI /W 4 /H 4 /BPC 8 /CS /G ID \x00\x01\x02EI\x03 EI Q",
		"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[ (x) Tj",
		"<< /A << /B [1 2 <4142> (c\\)d)] >> >> BDC EMC",
		"1e308 1e308 1e308 1e308 1e308 1e308 cm BT (x) Tj ET",
		"BT /F1 12 Tf /Span << /ActualText <FEFF0066> >> BDC (a) Tj T* (b) Tj EMC EMC /Span /P0 BDC (c) Tj ET",
		"/Span << /ActualText (x) >> BDC BT /F1 12 Tf /Span << /ActualText (y) >> BDC (z) Tj",
		"/CS0 cs 1 scn BT /F1 9 Tf (x) Tj ET /Pattern cs /P1 scn /DeviceRGB cs 1 0 0 sc 0.5 sc cs scn",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		w := &walker{doc: newDocState(), pageArea: 612 * 792}
		w.run(content, w.doc.resources(nilValue), gstate{ctm: identity, th: 1}, 0)
		w.lay.paragraphs()
	})
}
