package project

import (
	"strings"
	"testing"

	"cairn/backend/kb"
)

// Issue 21, item 12, with OCR as an index stage (issue 29, item 6): the
// message says how to install tesseract only when it is not installed;
// that the pages await the OCR stage when it is; and, once the stage ran,
// which pages it found nothing on and which it stopped on, and why.
func TestOCRMessageFollowsWhatWasTried(t *testing.T) {
	pages := []kb.Page{{Number: 1, NoText: true, OCRStatus: kb.OCRPending}, {Number: 2}}
	for _, c := range []struct {
		st   ocrState
		want string
		not  string
	}{
		{ocrMissing, "install tesseract-ocr", "ran"},
		{ocrOff, "CAIRN_OCR=0", "To read them with OCR"},
		{ocrAwaiting, "page by page as an indexing stage", "install"},
	} {
		got := ocrMessage(pages, c.st)
		if !strings.HasPrefix(got, "1 of 2 pages (p. 1) have no text layer") || !strings.Contains(got, c.want) || strings.Contains(got, c.not) || !isOCRWarning(got) {
			t.Errorf("state %d: %q", c.st, got)
		}
	}
	ran := []kb.Page{{Number: 1, NoText: true, OCRStatus: kb.OCREmpty}, {Number: 2, OCR: true, OCRStatus: kb.OCRDone},
		{Number: 3, NoText: true, OCRStatus: kb.OCRFailed, OCRNote: "OCR of this page took longer than 5m0s, so it was stopped"}}
	got := ocrMessage(ran, ocrRan)
	for _, want := range []string{"2 of 3 pages (p. 1, 3)", "ran on p. 1 but found no reliable text", "stopped on p. 3 (OCR of this page took longer than 5m0s", "--retry-failed"} {
		if !strings.Contains(got, want) {
			t.Errorf("after OCR: %q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "damaged") || strings.Contains(got, "install tesseract-ocr with") {
		t.Errorf("after OCR: %q", got)
	}
	if m := ocrMessage([]kb.Page{{Number: 1, OCR: true, OCRStatus: kb.OCRDone}}, ocrRan); m != "" {
		t.Errorf("every page read: %q", m)
	}
}
