//go:build unix

package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 21, the CLI's side: argument injection (item 10), terminal escape
// injection (item 11) and export's destination (item 6). Inputs are
// generated here.

func TestFlagsCannotBeInjectedByFileNames(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, n := range []string{"--json", "--offline", "a.txt"} {
		os.WriteFile(filepath.Join(dir, n), []byte("Harbour note "+n+": the tide at Port Alder was calm on Tuesday.\n"), 0o644)
	}
	p1, p2 := filepath.Join(t.TempDir(), "p1"), filepath.Join(t.TempDir(), "p2")

	// A glob that expanded to a file named like a flag: refused, nothing written.
	os.WriteFile(filepath.Join(dir, "--project"), []byte("x"), 0o644)
	code, _, errs := run(t, "", "import", "--project", p1, "--project", "a.txt")
	if code != 2 || !strings.Contains(errs, "both a flag and a file") {
		t.Errorf("flag-named file: exit %d, %s", code, errs)
	}
	os.Remove(filepath.Join(dir, "--project"))
	code, _, errs = run(t, "", "import", "--project", p1, "--project", p2, "a.txt")
	if code != 2 || !strings.Contains(errs, "given twice") {
		t.Errorf("--project twice: exit %d, %s", code, errs)
	}
	for _, p := range []string{p1, p2} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("a refused command created %s", p)
		}
	}

	// After --, every argument is a path.
	code, out, errs := run(t, "", "import", "--project", p1, "--no-index", "--", "--json", "a.txt", "--offline")
	if code != 0 {
		t.Fatalf("import after --: exit %d\n%s%s", code, out, errs)
	}
	if strings.HasPrefix(strings.TrimSpace(out), "{") {
		t.Errorf("--json after -- must be a path, not the flag: %s", out)
	}
	for _, n := range []string{"--json", "a.txt", "--offline"} {
		if !strings.Contains(out, n) {
			t.Errorf("%s not imported as a path:\n%s", n, out)
		}
	}
}

func TestTerminalOutputEscapesControls(t *testing.T) {
	dir := t.TempDir()
	name := "evil\x1b]0;pwned\x07\x1b[2J\u202eatad\u009b.md"
	body := "# Budget \x1b[31mred\x1b[0m heading\n\nThe Port Alder budget for \x1b]8;;http://x\x07harbour\x1b]8;;\x07 repairs was approved in March.\n"
	f := filepath.Join(dir, name)
	if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
		t.Skipf("file system refuses the name: %v", err)
	}
	proj := filepath.Join(t.TempDir(), "p")
	var all bytes.Buffer
	for _, args := range [][]string{
		{"import", "--project", proj, "--", f},
		{"docs", "--project", proj},
		{"search", "--project", proj, "budget"},
		{"mindmap", "--project", proj, "--doc", "1", "--format", "md"},
		{"text", "--project", proj, "1"},
		{"remove", "--project", proj, "7"},
	} {
		_, out, errs := run(t, "", args...)
		all.WriteString(out + errs)
		if strings.ContainsAny(out+errs, "\x1b\x07\u202e\u009b") {
			t.Errorf("%s printed a raw control character:\n%q", args[0], out+errs)
		}
	}
	if !strings.Contains(all.String(), `\u001b`) {
		t.Errorf("the escapes are not shown escaped:\n%s", all.String())
	}
	// Titles keep printable text only.
	_, out, _ := run(t, "", "docs", "--project", proj, "--json")
	for _, d := range jsonLines(t, out) {
		if title := d["title"].(string); strings.ContainsAny(title, "\x1b\x07\u202e\u009b") {
			t.Errorf("title keeps control characters: %q", title)
		}
		if file := d["file"].(string); file != name {
			t.Errorf("--json must keep the file name exactly: %q", file)
		}
	}
}

func TestEscapeControls(t *testing.T) {
	for in, want := range map[string]string{
		"plain text\n\ttab":     "plain text\n\ttab",
		"a\x1b[2Jb":             `a\u001b[2Jb`,
		"bell\x07 cr\r":         `bell\u0007 cr\u000d`,
		"c1 \u009b31m":          `c1 \u009b31m`,
		"rlo \u202eevil":        `rlo \u202eevil`,
		"bad \xff byte":         `bad \xff byte`,
		"漢字 café 🗂":             "漢字 café 🗂",
		`{"s":"\u001b"}` + "\n": `{"s":"\u001b"}` + "\n",
	} {
		if got := string(escapeControls([]byte(in))); got != want {
			t.Errorf("escapeControls(%q) = %q, want %q", in, got, want)
		}
	}
	// A character split across two writes is kept whole.
	var b bytes.Buffer
	w := &safeWriter{w: &b}
	s := []byte("é\u009b")
	for _, c := range s {
		w.Write([]byte{c})
	}
	w.flush()
	if b.String() != `é\u009b` {
		t.Errorf("split writes: %q", b.String())
	}
}

func TestExportRefusesToOverwrite(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "a.txt")
	os.WriteFile(f, []byte("The harbour of Port Alder was repaired in March.\n"), 0o644)
	proj := filepath.Join(t.TempDir(), "p")
	if code, _, errs := run(t, "", "import", "--project", proj, "--no-index", f); code != 0 {
		t.Fatal(errs)
	}
	out := filepath.Join(dir, "report.docx")
	os.WriteFile(out, []byte("my report"), 0o644)
	code, _, errs := run(t, "", "export", "--project", proj, out)
	if code != 1 || !strings.Contains(errs, "already exists") {
		t.Errorf("export over a file: exit %d %s", code, errs)
	}
	if b, _ := os.ReadFile(out); string(b) != "my report" {
		t.Errorf("file replaced without --force")
	}
	if code, _, errs := run(t, "", "export", "--project", proj, "--force", out); code != 0 {
		t.Errorf("export --force: exit %d %s", code, errs)
	}
	if code, _, errs := run(t, "", "export", "--project", proj, "--force", "/dev/null"); code != 1 || !strings.Contains(errs, "device") {
		t.Errorf("export to /dev/null: exit %d %s", code, errs)
	}
}

func TestCheckReportsAndRepairsOrphans(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "a.txt")
	os.WriteFile(f, []byte("The harbour of Port Alder was repaired in March.\n"), 0o644)
	proj := filepath.Join(t.TempDir(), "p")
	if code, _, errs := run(t, "", "import", "--project", proj, "--no-index", f); code != 0 {
		t.Fatal(errs)
	}
	os.WriteFile(filepath.Join(proj, "files", "0123456789ab-ferry.txt"), []byte("The ferry to Port Alder leaves at nine.\n"), 0o644)
	code, out, _ := run(t, "", "check", "--project", proj)
	if code != 1 || !strings.Contains(out, "files/0123456789ab-ferry.txt is a stored original that no document references") || !strings.Contains(out, "--repair") {
		t.Errorf("check with an orphan: exit %d\n%s", code, out)
	}
	code, out, errs := run(t, "", "check", "--project", proj, "--repair", "--offline")
	if code != 0 || !strings.Contains(out, "repair: ok") {
		t.Errorf("check --repair: exit %d\n%s%s", code, out, errs)
	}
	_, out, _ = run(t, "", "docs", "--project", proj, "--json")
	if docs := jsonLines(t, out); len(docs) != 2 || docs[1]["file"] != "ferry.txt" {
		t.Errorf("repaired document: %s", out)
	}
}
