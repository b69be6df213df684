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
	ocrMaxPixels   = 4000 // longest side of the rendered page
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
	hasOSD    bool
)

// ocrEnabled reports whether OCR is switched on (CAIRN_OCR is not "0")
// and tesseract is installed.
func ocrEnabled() bool {
	if ocrSwitchedOff() {
		return false
	}
	tessOnce.Do(findTesseract)
	return tessPath != "" && tessLangs != ""
}

// ocrSwitchedOff reports whether CAIRN_OCR=0 disables OCR.
func ocrSwitchedOff() bool { return os.Getenv("CAIRN_OCR") == "0" }

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
	langs := parseLangList(string(out))
	tessLangs = chooseLangs(langs)
	for _, l := range strings.Fields(string(out)) {
		hasOSD = hasOSD || l == "osd"
	}
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

// ocrSession OCRs the image-only pages of one document. The script of
// the first page (tesseract's OSD) picks the languages for all pages, so a
// scanned English file is not run through the Chinese and Japanese models.
type ocrSession struct {
	d     *ium
	dir   string
	langs string
}

func newOCRSession(d *ium) (*ocrSession, error) {
	dir, err := os.MkdirTemp("", "cairn-ocr-")
	if err != nil {
		return nil, err
	}
	return &ocrSession{d: d, dir: dir}, nil
}

func (s *ocrSession) close() { os.RemoveAll(s.dir) }

// page renders page i with PDFium and runs tesseract on it.
func (s *ocrSession) page(i int) (string, error) {
	dpi := ocrDPI
	if w, h := s.d.pageSize(i); w > 0 && h > 0 {
		if side := max(w, h) / 72 * float64(dpi); side > ocrMaxPixels {
			dpi = max(72, int(float64(dpi)*ocrMaxPixels/side))
		}
	}
	img := filepath.Join(s.dir, fmt.Sprintf("page%d.png", i+1))
	defer os.Remove(img)
	if err := s.d.renderPNG(i, dpi, img); err != nil {
		return "", fmt.Errorf("rendering page %d: %w", i+1, err)
	}
	if s.langs == "" {
		s.langs = langsForScript(detectScript(img))
	}
	out, err := runTesseract(img, "-l", s.langs, "--dpi", fmt.Sprint(dpi))
	if err != nil {
		return "", fmt.Errorf("tesseract on page %d: %w", i+1, err)
	}
	return cleanOCR(out), nil
}

// runTesseract runs tesseract on an image, printing to stdout.
func runTesseract(img string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), ocrPageTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, tessPath, append([]string{img, "stdout"}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// One thread: tesseract's OpenMP threads spin and slow it down badly
	// on a busy machine; pages are cheap enough one at a time.
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// detectScript asks tesseract's orientation-and-script detection for the
// page's script ("Latin", "Han", "Japanese", "Hangul", ...), or "".
func detectScript(img string) string {
	if !hasOSD {
		return ""
	}
	out, err := runTesseract(img, "--psm", "0", "-l", "osd")
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(l, "Script:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// langsForScript picks the installed languages for a script; English is
// added to CJK languages because CJK pages usually carry some Latin text.
func langsForScript(script string) string {
	var want []string
	switch script {
	case "Han":
		want = []string{"chi_sim", "chi_tra", "eng"}
	case "Japanese", "Katakana", "Hiragana":
		want = []string{"jpn", "eng"}
	case "Hangul", "Korean":
		want = []string{"kor", "eng"}
	case "Latin":
		want = []string{"eng", "deu", "fra", "spa"}
	}
	var pick []string
	for _, l := range want {
		if hasLang(l) {
			pick = append(pick, l)
		}
	}
	if len(pick) == 0 || pick[0] == "eng" && script != "Latin" {
		return tessLangs
	}
	return strings.Join(pick, "+")
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
