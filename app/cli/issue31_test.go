package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 31's tests that run everywhere; the ones that start processes and
// send signals are in concurrency31_test.go (unix).

const cliChildEnv = "CAIRN_CLI_MAIN_ARGS" // the arguments, separated by \x1f

// maybeRunCLIChild runs the command line (Main, with its Ctrl-C handling)
// when the test binary is started as a cairn process.
func maybeRunCLIChild() {
	if a := os.Getenv(cliChildEnv); a != "" {
		os.Exit(Main(strings.Split(a, "\x1f"), nil))
	}
}

// notesDir writes n short text documents named prefix-i.txt.
func notesDir(t *testing.T, prefix string, n int) string {
	t.Helper()
	dir := t.TempDir()
	for i := range n {
		body := fmt.Sprintf("Note %s %d. The ferry from Port Alder to Greyhaven leaves at %d o'clock; the harbour master %s-%d keeps the tide tables.\n", prefix, i, 6+i, prefix, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%d.txt", prefix, i)), []byte(strings.Repeat(body, 8)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestProjectFlagBesideAFileNamedLikeIt: in a folder holding a file named
// "--project", `cairn docs --project P` (P a project) works; a glob that
// puts the file in the command is still refused.
func TestProjectFlagBesideAFileNamedLikeIt(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "p")
	if code, _, errs := run(t, "", "import", "--offline", "--no-index", "--project", proj, notesDir(t, "x", 1)); code != 0 {
		t.Fatalf("import: %d %s", code, errs)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	os.WriteFile("--project", []byte("x"), 0o644)
	os.WriteFile("a.txt", []byte("The tide at Port Alder.\n"), 0o644)
	if code, out, errs := run(t, "", "docs", "--project", proj); code != 0 || !strings.Contains(out, "x-0") {
		t.Fatalf("docs --project P beside a file named --project: %d %s %s", code, out, errs)
	}
	// `cairn import *` here: --project a.txt — a.txt is no project: refused
	if code, _, errs := run(t, "", "import", "--project", "a.txt"); code != 2 || !strings.Contains(errs, "both a flag and a file") {
		t.Fatalf("glob-made --project: %d %s", code, errs)
	}
}

// TestFolderImportExitsZeroOnFileFailures: a folder with one empty file
// among good ones imports the good ones and exits 0 with a summary; the
// empty file named on its own exits 1.
func TestFolderImportExitsZeroOnFileFailures(t *testing.T) {
	dir := notesDir(t, "g", 3)
	os.WriteFile(filepath.Join(dir, "empty.txt"), nil, 0o644)
	proj := filepath.Join(t.TempDir(), "p")
	code, _, errs := run(t, "", "import", "--offline", "--no-index", "--project", proj, dir)
	if code != 0 || !strings.Contains(errs, "import: 4 files: 3 ok, 1 failed") {
		t.Fatalf("folder import: exit %d\n%s", code, errs)
	}
	if code, _, _ := run(t, "", "import", "--offline", "--no-index", "--project", proj, filepath.Join(dir, "empty.txt")); code != 1 {
		t.Fatalf("a named file that fails: exit %d, want 1", code)
	}
}
