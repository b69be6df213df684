package pdf

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// OCR settings.
const (
	ocrDPI       = 300
	ocrMaxPixels = 4000 // longest side of the rendered page
	// Mean word confidence (0-100, weighted by length) below which a
	// page's OCR is retried with every installed language, and below
	// which the text is thrown away as noise.
	ocrRetryConf = 70
	ocrMinConf   = 55
	// OSD script confidence below which the detected script is ignored.
	osdMinConf = 1.0
)

// ocrSession OCRs the image-only pages of one document in a temporary
// directory.
type ocrSession struct {
	d   *ium
	dir string
}

// newOCRSession creates the session's temporary directory.
func newOCRSession(d *ium) (*ocrSession, error) {
	dir, err := os.MkdirTemp("", "cairn-ocr-")
	if err != nil {
		return nil, err
	}
	return &ocrSession{d: d, dir: dir}, nil
}

// close removes the temporary directory.
func (s *ocrSession) close() { os.RemoveAll(s.dir) }

// page renders page i with PDFium at up to ocrDPI and reads it with
// tesseract. The page's script (tesseract's OSD) picks the languages; if
// the script is unclear or the result is poor, every installed language
// is tried. Text whose confidence stays below ocrMinConf is discarded
// (ok = false): a cover illustration read as letters is worse than nothing.
func (s *ocrSession) page(i int) (text string, ok bool, err error) {
	dpi := ocrDPI
	if w, h := s.d.pageSize(i); w > 0 && h > 0 {
		if side := max(w, h) / 72 * float64(dpi); side > ocrMaxPixels {
			dpi = max(72, int(float64(dpi)*ocrMaxPixels/side))
		}
	}
	img := filepath.Join(s.dir, fmt.Sprintf("page%d.png", i+1))
	defer os.Remove(img)
	if err := s.d.renderPNG(i, dpi, img); err != nil {
		return "", false, fmt.Errorf("rendering page %d: %w", i+1, err)
	}
	langs := tessLangs
	if script, conf := detectScript(img); conf >= osdMinConf {
		langs = langsForScript(script)
	}
	res, err := recognise(img, langs, dpi)
	if err != nil {
		return "", false, fmt.Errorf("tesseract on page %d: %w", i+1, err)
	}
	if res.conf < ocrRetryConf && langs != tessLangs {
		if all, err := recognise(img, tessLangs, dpi); err == nil && all.conf > res.conf {
			res = all
		}
	}
	if res.conf < ocrMinConf {
		return "", false, nil
	}
	return cleanOCR(res.text), true, nil
}

// cleanOCR drops form feeds and the spaces tesseract puts between CJK
// characters and CJK punctuation.
func cleanOCR(s string) string {
	s = strings.ReplaceAll(s, "\f", "\n")
	var b strings.Builder
	var prev rune
	for i, r := range s {
		if r == ' ' && isCJKText(prev) {
			next, _ := utf8.DecodeRuneInString(s[i+1:])
			if isCJKText(next) {
				continue
			}
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}

// isCJKText reports CJK characters and CJK or full-width punctuation.
func isCJKText(r rune) bool {
	return IsCJK(r) || r >= 0x3000 && r <= 0x303F || r >= 0xFF00 && r <= 0xFFEF
}
