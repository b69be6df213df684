package pdf

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// OCR settings.
const (
	ocrDPI         = 300
	ocrMaxPixels   = 7000 // longest side of the rendered page
	ocrPageTimeout = 3 * time.Minute
	maxOCRPages    = 500
)

// noTextHint is the warning shown when image-only pages cannot be OCRed.
const noTextHint = "install tesseract-ocr (apt-get install tesseract-ocr tesseract-ocr-chi-sim) to read them"

// preferredLangs orders tesseract languages when many are installed.
var preferredLangs = []string{"eng", "chi_sim", "chi_tra", "jpn", "kor", "deu", "fra", "spa"}

var (
	tessOnce  sync.Once
	tessPath  string
	tessLangs string
)

// ocrEnabled reports whether OCR is switched on (CAIRN_OCR is not "0")
// and tesseract is installed.
func ocrEnabled() bool {
	if os.Getenv("CAIRN_OCR") == "0" {
		return false
	}
	tessOnce.Do(findTesseract)
	return tessPath != "" && tessLangs != ""
}

// findTesseract locates the binary and picks languages from
// `tesseract --list-langs`: every installed language (osd and equ
// excluded), or the preferred ones when more than six are installed.
func findTesseract() {
	p, err := exec.LookPath("tesseract")
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, p, "--list-langs").CombinedOutput()
	if err != nil {
		return
	}
	tessPath = p
	tessLangs = chooseLangs(parseLangList(string(out)))
}

// parseLangList reads the output of `tesseract --list-langs`.
func parseLangList(out string) []string {
	var langs []string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.Contains(l, " ") || strings.HasSuffix(l, ":") || l == "osd" || l == "equ" {
			continue
		}
		langs = append(langs, l)
	}
	return langs
}

// chooseLangs builds the -l argument.
func chooseLangs(langs []string) string {
	if len(langs) <= 6 {
		return strings.Join(langs, "+")
	}
	have := map[string]bool{}
	for _, l := range langs {
		have[l] = true
	}
	var pick []string
	for _, l := range preferredLangs {
		if have[l] && len(pick) < 6 {
			pick = append(pick, l)
		}
	}
	if len(pick) == 0 {
		pick = langs[:6]
	}
	return strings.Join(pick, "+")
}

// hasLang reports whether tesseract can read the language.
func hasLang(lang string) bool {
	for _, l := range strings.Split(tessLangs, "+") {
		if l == lang {
			return true
		}
	}
	return false
}

// ocrPage renders page i with PDFium and runs tesseract on it.
func ocrPage(d *ium, i int) (string, error) {
	dir, err := os.MkdirTemp("", "cairn-ocr-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	dpi := ocrDPI
	if w, h := d.pageSize(i); w > 0 && h > 0 {
		if side := max(w, h) / 72 * float64(dpi); side > ocrMaxPixels {
			dpi = max(50, int(float64(dpi)*ocrMaxPixels/side))
		}
	}
	img := filepath.Join(dir, "page.png")
	if err := d.renderPNG(i, dpi, img); err != nil {
		return "", fmt.Errorf("rendering page %d: %w", i+1, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), ocrPageTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, tessPath, img, "stdout", "-l", tessLangs, "--dpi", fmt.Sprint(dpi))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("tesseract on page %d: %v: %s", i+1, err, strings.TrimSpace(stderr.String()))
	}
	return cleanOCR(stdout.String()), nil
}

// cleanOCR drops form feeds and the spaces tesseract puts between CJK
// characters.
func cleanOCR(s string) string {
	s = strings.ReplaceAll(s, "\f", "\n")
	var b strings.Builder
	var prev rune
	for i, r := range s {
		if r == ' ' && IsCJK(prev) {
			next, _ := utf8.DecodeRuneInString(s[i+1:])
			if IsCJK(next) {
				continue
			}
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}
