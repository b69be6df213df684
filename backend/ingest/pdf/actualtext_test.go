package pdf

import (
	"fmt"
	"strings"
	"testing"

	"cairn/backend/ingest/parsed"
)

// actualTextPDF is a one-page PDF whose content stream is content, with
// Helvetica as /F1 and a marked-content property list /P0 whose
// /ActualText is named (a hex string).
func actualTextPDF(content, named string) []byte {
	return pdfWithObjects([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R " +
			"/Resources << /Font << /F1 5 0 R >> /Properties << /P0 << /ActualText <" + named + "> >> >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
	})
}

// Glyphs wrapped in /ActualText read as that text where they stand: a
// code the font does not map (0x81 in WinAnsi) inside "o?ce" reads
// "office"; a property list named in the resources, in UTF-16, works the
// same; a replacement that is broken (U+FFFD) or only white space is not
// read, the glyphs are.
func TestActualText(t *testing.T) {
	content := strings.Join([]string{
		"BT /F1 12 Tf 72 700 Td 16 TL",
		"(The ) Tj /Span << /ActualText (office) >> BDC (o\\201ce) Tj EMC ( is open.) Tj T*",
		"(A ) Tj /Span /P0 BDC (\\201) Tj EMC (nite field.) Tj T*",
		"(Leader) Tj /Span << /ActualText <FEFF0009FFFDFFFD> >> BDC (....) Tj EMC (page 4) Tj T*",
		"(Tab) Tj /Span << /ActualText <FEFF0009> >> BDC ( ) Tj EMC (stop) Tj",
		"ET",
	}, "\n")
	doc, err := Read(actualTextPDF(content, "FEFF00660069"), parsed.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var text []string
	for _, b := range doc.Blocks {
		text = append(text, b.Text)
	}
	got := strings.Join(text, "\n")
	for _, want := range []string{"The office is open.", "A finite field.", "Leader....page 4", "Tab stop"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q not in %q", want, got)
		}
	}
}
