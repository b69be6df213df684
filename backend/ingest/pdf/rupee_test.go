package pdf

import (
	"strconv"
	"strings"
	"testing"

	"cairn/backend/ingest/parsed"
)

// TestRupeeFont: a "Rupee" font draws the rupee sign at the grave accent's
// code; the text reads "₹", and the same code in another font is no rupee.
func TestRupeeFont(t *testing.T) {
	content := "BT /F2 10 Tf 72 700 Td (`) Tj /F1 10 Tf (1,186 crore in the plain face) Tj ET BT /F1 10 Tf 72 680 Td (a grave ` accent) Tj ET"
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> /Contents 4 0 R >>",
		"<< /Length " + strconv.Itoa(len(content)) + " >>\nstream\n" + content + "\nendstream",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
		"<< /Type /Font /Subtype /TrueType /BaseFont /AUQYJP+RupeeForadian /Encoding /WinAnsiEncoding >>",
	}
	doc, err := Read(pdfWithObjects(objs), parsed.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, b := range doc.Blocks {
		all = append(all, b.Text)
	}
	text := strings.Join(all, "\n")
	if !strings.Contains(text, "₹1,186 crore") || strings.Count(text, "₹") != 1 {
		t.Errorf("text = %q", text)
	}
}
