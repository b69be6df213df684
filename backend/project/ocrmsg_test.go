package project

import (
	"strings"
	"testing"

	"cairn/backend/ingest/pdf"
	"cairn/backend/kb"
)

// Issue 21, item 12: needs_ocr says how to install tesseract only when it is not
// installed; when tesseract ran and found nothing, it says that.
func TestOCRMessageFollowsWhatWasTried(t *testing.T) {
	pages := []kb.Page{{Number: 1, NoText: true}, {Number: 2}}
	for _, c := range []struct {
		warnings []string
		want     string
		not      string
	}{
		{nil, "install tesseract-ocr", "ran"},
		{[]string{"1 pages have no text layer; install tesseract-ocr (apt-get install tesseract-ocr tesseract-ocr-chi-sim) to read them"}, "install tesseract-ocr", "ran"},
		{[]string{"1 pages have no text layer and " + pdf.WarnOCRFoundNothing}, "OCR (tesseract) ran on them but found no reliable text", "To read them with OCR"},
		{[]string{"1 pages have no text layer; " + pdf.WarnOCROff}, "CAIRN_OCR=0", "To read them with OCR"},
	} {
		got := ocrMessage(pages, c.warnings)
		if !strings.HasPrefix(got, "1 of 2 pages (p. 1) have no text layer") || !strings.Contains(got, c.want) || strings.Contains(got, c.not) {
			t.Errorf("warnings %q: %q", c.warnings, got)
		}
	}
}
