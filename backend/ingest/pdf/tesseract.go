package pdf

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ocrPageTimeout bounds one tesseract run.
const ocrPageTimeout = 3 * time.Minute

// preferredLangs orders tesseract languages when many are installed.
var preferredLangs = []string{"eng", "chi_sim", "chi_tra", "jpn", "kor", "deu", "fra", "spa"}

var (
	tessOnce  sync.Once
	tessPath  string
	tessLangs string // "+"-joined languages used when the script is unknown
	hasOSD    bool
)

// ocrEnabled reports whether OCR is switched on (CAIRN_OCR is not "0")
// and tesseract is installed with at least one language.
func ocrEnabled() bool {
	if ocrSwitchedOff() {
		return false
	}
	tessOnce.Do(findTesseract)
	return tessPath != "" && tessLangs != ""
}

// ocrSwitchedOff reports whether CAIRN_OCR=0 disables OCR.
func ocrSwitchedOff() bool { return os.Getenv("CAIRN_OCR") == "0" }

// findTesseract locates the binary and reads `tesseract --list-langs`.
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
	for _, l := range strings.Fields(string(out)) {
		hasOSD = hasOSD || l == "osd"
	}
}

// parseLangList reads the output of `tesseract --list-langs` (osd and equ
// are not languages).
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

// chooseLangs builds the -l argument for an unknown script: every
// installed language, or the preferred ones when more than six are
// installed (each language costs recognition time).
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

// langsForScript picks the installed languages for a script; English is
// added to CJK languages because CJK pages usually carry some Latin text.
// An unknown script, or one with no installed language, gets tessLangs.
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
	endWithParent(cmd)
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// detectScript asks tesseract's orientation-and-script detection for the
// page's script ("Latin", "Han", "Japanese", ...) and its confidence;
// ("", 0) when OSD is not installed or the page has too little text.
func detectScript(img string) (string, float64) {
	if !hasOSD {
		return "", 0
	}
	out, err := runTesseract(img, "--psm", "0", "-l", "osd")
	if err != nil {
		return "", 0
	}
	return parseOSD(out)
}

// parseOSD reads the "Script:" and "Script confidence:" lines of OSD output.
func parseOSD(out string) (script string, conf float64) {
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(l, "Script confidence:"); ok {
			conf, _ = strconv.ParseFloat(strings.TrimSpace(v), 64)
		} else if v, ok := strings.CutPrefix(l, "Script:"); ok {
			script = strings.TrimSpace(v)
		}
	}
	return script, conf
}

// ocrResult is recognised text with its mean word confidence.
type ocrResult struct {
	text string
	conf float64 // 0-100, weighted by word length; 0 when no words
}

// recognise runs tesseract with TSV output on an image.
func recognise(img, langs string, dpi int) (ocrResult, error) {
	out, err := runTesseract(img, "-l", langs, "--dpi", strconv.Itoa(dpi), "tsv")
	if err != nil {
		return ocrResult{}, err
	}
	return parseTSV(out), nil
}

// parseTSV rebuilds text from tesseract's TSV output (level, page, block,
// paragraph, line, word, left, top, width, height, conf, text): words are
// joined by spaces, lines by newlines and paragraphs by blank lines.
func parseTSV(tsv string) ocrResult {
	var b strings.Builder
	var sum, weight float64
	lastPar, lastLine := "", ""
	for i, row := range strings.Split(tsv, "\n") {
		f := strings.Split(row, "\t")
		if i == 0 || len(f) < 12 || f[0] != "5" {
			continue
		}
		word := strings.TrimSpace(f[11])
		conf, err := strconv.ParseFloat(f[10], 64)
		if word == "" || err != nil || conf < 0 {
			continue
		}
		par, line := f[2]+"/"+f[3], f[2]+"/"+f[3]+"/"+f[4]
		switch {
		case b.Len() == 0:
		case par != lastPar:
			b.WriteString("\n\n")
		case line != lastLine:
			b.WriteByte('\n')
		default:
			b.WriteByte(' ')
		}
		lastPar, lastLine = par, line
		b.WriteString(word)
		w := float64(len([]rune(word)))
		sum += conf * w
		weight += w
	}
	r := ocrResult{text: b.String()}
	if weight > 0 {
		r.conf = sum / weight
	}
	return r
}
