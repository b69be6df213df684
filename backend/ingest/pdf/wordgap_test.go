package pdf

import (
	"strings"
	"testing"

	"cairn/backend/ingest/parsed"
)

// blockTexts reads a one-page PDF showing items in 8 pt Courier (every
// glyph 4.8 points wide) and returns the text of its blocks in reading
// order.
func blockTexts(t *testing.T, items []placedText) []string {
	t.Helper()
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
		placedStream(8, items...),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>",
	}
	doc, err := Read(pdfWithObjects(objs), parsed.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, b := range doc.Blocks {
		out = append(out, b.Text)
	}
	return out
}

// courierWidth is the width of s in 8 pt Courier.
func courierWidth(s string) float64 { return float64(len(s)) * 4.8 }

// words places each word of line as its own text from x, gap points apart.
func words(x, y, gap float64, line string) []placedText {
	var out []placedText
	for _, w := range strings.Fields(line) {
		out = append(out, placedText{x, y, w})
		x += courierWidth(w) + gap
	}
	return out
}

// The text layer of a scanned page sets each word apart, some gaps wider
// than an em; the lines above and below end short of a wide gap (ragged
// right), so no ink crosses it. The words are one line of one paragraph,
// not columns.
func TestLooseWordSpacingIsOneLine(t *testing.T) {
	var items []placedText
	items = append(items, words(57, 700, 3, "Set the control.")...)
	x := 57.0
	for _, w := range []string{"Freezer", "control", "adjustments", "range", "from"} {
		items = append(items, placedText{x, 690, w})
		x += courierWidth(w) + 10 // 1.25 em: wider than a run's gap
	}
	items = append(items, words(57, 680, 3, "A to C.")...)
	got := strings.Join(blockTexts(t, items), "\n")
	if !strings.Contains(got, "Freezer control adjustments range from") {
		t.Errorf("blocks:\n%s\nwant the line whole", got)
	}
}

// Two columns a gutter of 1.25 em apart, their baselines offset: the
// column's lines stay apart although no ink crosses the gutter and no
// line pair shares a baseline.
func TestNarrowGutterStaysApart(t *testing.T) {
	var items []placedText
	left := []string{"The first column runs down", "the left half of the page", "and its lines all end at", "the gutter between these"}
	right := []string{"Another column starts here", "beside it at its own place", "with baselines set apart", "from those on the left"}
	for i := range left {
		items = append(items, placedText{57, 700 - float64(i)*10, left[i]})
		items = append(items, placedText{57 + courierWidth(left[0]) + 10, 698 - float64(i)*10, right[i]})
	}
	for _, b := range blockTexts(t, items) {
		if strings.Contains(b, "down Another") || strings.Contains(b, "page beside") || strings.Contains(b, "at with") || strings.Contains(b, "these from") {
			t.Errorf("a line joins the two columns: %q", b)
		}
	}
}
