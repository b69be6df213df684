package pdf

import (
	"strings"
)

// The endings of the warnings flagAndOCR gives, so the import can word its
// needs_ocr message after what was really tried.
const (
	WarnOCRFoundNothing = "OCR found no reliable text on them."
	WarnOCROff          = "OCR is switched off (CAIRN_OCR=0)."
)

// flagAndOCR OCRs image-only pages when tesseract is available, and
// otherwise warns about them.
func (rd *reading) flagAndOCR(pages []pageOut) {
	var scans []int
	for i := range pages {
		if pages[i].info.NoText {
			scans = append(scans, i)
		}
	}
	if len(scans) == 0 {
		return
	}
	left := len(scans)
	if ocrEnabled() {
		d, err := rd.openIum()
		var sess *ocrSession
		if err == nil && d.pages == len(pages) {
			sess, err = newOCRSession(d)
		}
		if err == nil && sess != nil {
			defer sess.close()
			for k, i := range scans {
				if k >= maxOCRPages {
					rd.warn("Only the first %d image-only pages were OCRed.", maxOCRPages)
					break
				}
				t, ok, err := sess.page(i)
				if err != nil {
					rd.warn("OCR failed: %v.", err)
					continue
				}
				if !ok || strings.TrimSpace(t) == "" {
					continue
				}
				pages[i].paras = parasFromPlain(t)
				pages[i].info.OCR, pages[i].info.NoText = true, false
				pages[i].info.Engine = EngineTesseract
				left--
			}
		}
	}
	switch {
	case left == 0:
	case ocrEnabled():
		rd.warn("%d pages have no text layer and "+WarnOCRFoundNothing, left)
	case ocrSwitchedOff():
		rd.warn("%d pages have no text layer; "+WarnOCROff, left)
	default:
		rd.warn("%d pages have no text layer; %s", left, noTextHint)
	}
}
