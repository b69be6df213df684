package pdf

import (
	"bytes"
	"fmt"
	"testing"

	"cairn/backend/ingest/parsed"
)

// pdfWithObjects writes a PDF whose objects are objs (object i+1 is
// objs[i]) and whose catalog is object 1.
func pdfWithObjects(objs []string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	x := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, x)
	return b.Bytes()
}

func textStream(lines ...string) string {
	var s bytes.Buffer
	s.WriteString("BT /F1 10 Tf 72 700 Td 14 TL\n")
	for _, l := range lines {
		fmt.Fprintf(&s, "(%s) Tj T*\n", l)
	}
	s.WriteString("ET")
	return fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", s.Len(), s.String())
}

// TestOutlineHeadings: bookmarks make headings of the paragraphs whose
// text they name, on their pages, at their depth, though the text is set
// like the body; an explicit destination and a named one (through the
// /Names tree) both work, and an entry whose title is not on its page
// changes nothing.
func TestOutlineHeadings(t *testing.T) {
	doc, err := Read(pdfWithObjects(outlineObjects()), parsed.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"Introduction": 1, "Method details": 2}
	for _, b := range doc.Blocks {
		if lvl, ok := want[b.Text]; ok {
			if b.Kind != parsed.BlockHeading || b.Level != lvl {
				t.Errorf("%q: kind %v level %d, want heading level %d", b.Text, b.Kind, b.Level, lvl)
			}
			delete(want, b.Text)
		} else if b.Kind == parsed.BlockHeading {
			t.Errorf("%q is a heading", b.Text)
		}
	}
	for w := range want {
		t.Errorf("%q not found in %+v", w, doc.Blocks)
	}
}

// TestBookmarksAndSwitch: Bookmarks lists the outline's entries that
// point at pages, in order, with depths and 1-based pages; with
// CAIRN_PDF_OUTLINE=0 they make no headings (the titles here are set like
// the body, so the layout rules find none).
func TestBookmarksAndSwitch(t *testing.T) {
	data := pdfWithObjects(outlineObjects())
	bms, err := Bookmarks(data, "")
	if err != nil {
		t.Fatal(err)
	}
	want := []Bookmark{{"Introduction", 1, 1}, {"Method details", 2, 2}, {"Not on the page", 2, 2}}
	if fmt.Sprint(bms) != fmt.Sprint(want) {
		t.Errorf("bookmarks %v, want %v", bms, want)
	}
	if _, err := Bookmarks([]byte("not a pdf"), ""); err == nil {
		t.Error("no error for a file that is no PDF")
	}
	t.Setenv("CAIRN_PDF_OUTLINE", "0")
	doc, err := Read(data, parsed.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range doc.Blocks {
		if b.Kind == parsed.BlockHeading {
			t.Errorf("%q is a heading with the outline switched off", b.Text)
		}
	}
}

// outlineObjects is a two-page PDF whose bookmarks name its two section
// titles, set like the body text, and one title that is not printed.
func outlineObjects() []string {
	body := "The body text runs on for a while in the same plain face and size."
	return []string{
		"<< /Type /Catalog /Pages 2 0 R /Outlines 7 0 R /Names << /Dests << /Names [(sec1) [3 0 R /Fit]] >> >> >>",
		"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 10 0 R >> >> /Contents 5 0 R >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 10 0 R >> >> /Contents 6 0 R >>",
		textStream("Introduction", "", body, body),
		textStream("Method details", "", body, body),
		"<< /Type /Outlines /First 8 0 R /Last 8 0 R /Count 3 >>",
		"<< /Title (Introduction) /Parent 7 0 R /Dest (sec1) /First 9 0 R /Last 11 0 R >>",
		"<< /Title (Method  details) /Parent 8 0 R /A << /S /GoTo /D [4 0 R /XYZ 0 792 0] >> /Next 11 0 R >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
		"<< /Title (Not on the page) /Parent 8 0 R /Dest [4 0 R /Fit] >>",
	}
}
