package testscan

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMakeHasNoTextLayer: the scanned PDF has its pages and no text layer.
func TestMakeHasNoTextLayer(t *testing.T) {
	if _, err := exec.LookPath("pdftoppm"); err != nil {
		t.Skip("pdftoppm (poppler-utils) not installed")
	}
	path := filepath.Join(t.TempDir(), "scan.pdf")
	if out := os.Getenv("TESTSCAN_OUT"); out != "" {
		path = out // keep it, for measuring by hand
	}
	err := Make(path, Spec{Pages: 3, Lines: func(p int) []string {
		return []string{fmt.Sprintf("Scanned page %d of 3", p), "The quick brown fox jumps", "over the lazy dog."}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("pdftotext"); err == nil {
		out, err := exec.Command("pdftotext", path, "-").Output()
		if err != nil {
			t.Fatal(err)
		}
		if s := strings.TrimSpace(strings.ReplaceAll(string(out), "\f", "")); s != "" {
			t.Fatalf("text layer: %q", s)
		}
	}
	if info, err := exec.Command("pdfinfo", path).Output(); err == nil && !strings.Contains(strings.Join(strings.Fields(string(info)), " "), "Pages: 3") {
		t.Fatalf("pdfinfo: %s", info)
	}
}
