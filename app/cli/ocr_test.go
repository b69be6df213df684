package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"cairn/backend/testscan"
)

// TestImportIndexShowOCRProgress: `cairn import` of a scanned PDF says how
// many pages await OCR, and `cairn index` reads them with page progress
// ("ocr 0/3", …, "ocr 3/3 … read in …"); the text is then searchable.
func TestImportIndexShowOCRProgress(t *testing.T) {
	if testing.Short() {
		t.Skip("OCR")
	}
	for _, tool := range []string{"tesseract", "pdftoppm"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed (make deps installs it)", tool)
			}
			t.Skipf("%s is not installed", tool)
		}
	}
	// English and OSD alone: tiny pages read with every installed language
	// would measure the other languages' load time.
	out, _ := exec.Command("tesseract", "--list-langs").CombinedOutput()
	m := regexp.MustCompile(`"([^"]+)"`).FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("tesseract --list-langs: %s", out)
	}
	langs := t.TempDir()
	for _, f := range []string{"eng.traineddata", "osd.traineddata", "configs"} {
		os.Symlink(filepath.Join(m[1], f), filepath.Join(langs, f))
	}
	t.Setenv("TESSDATA_PREFIX", langs)
	t.Setenv("CAIRN_OCR", "1")

	scan := filepath.Join(t.TempDir(), "scan.pdf")
	if err := testscan.Make(scan, testscan.Spec{Pages: 3, Width: 216, Height: 72, Lines: func(n int) []string {
		return []string{fmt.Sprintf("Kestrel page %d", n)}
	}}); err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(t.TempDir(), "p")
	code, stdout, stderr := run(t, "", "import", "--offline", "--no-index", "--project", proj, scan)
	if code != 0 || !strings.Contains(stdout, "ok ") || !strings.Contains(stdout, "3 scanned pages await OCR") {
		t.Fatalf("import: %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = run(t, "", "index", "--offline", "--project", proj)
	if code != 0 {
		t.Fatalf("index: %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^ocr +0/3  3 scanned pages to read with OCR$`),
		regexp.MustCompile(`(?m)^ocr +3/3  3 scanned pages read in \S+$`),
	} {
		if !want.MatchString(stderr) {
			t.Errorf("index output lacks %s:\n%s", want, stderr)
		}
	}
	code, stdout, _ = run(t, "", "search", "--offline", "--project", proj, "Kestrel page 2")
	if code != 0 || !strings.Contains(stdout, "p. 2") {
		t.Fatalf("search: %d\n%s", code, stdout)
	}
}
