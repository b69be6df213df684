package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestExportImportProject(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "p")
	sample, _ := filepath.Abs("../../assets/sample")
	if code, out, errs := run(t, "", "import", "--project", proj, sample); code != 0 && code != 1 {
		t.Fatalf("import: %d %s %s", code, out, errs)
	}
	zip := filepath.Join(t.TempDir(), "b.zip")
	if code, out, errs := run(t, "", "export", "--project", proj, zip); code != 0 || !strings.Contains(out, "exported") {
		t.Fatalf("export: %d %s %s", code, out, errs)
	}
	dst := filepath.Join(t.TempDir(), "restored")
	code, out, errs := run(t, "", "import-project", zip, dst)
	if code != 0 || !strings.Contains(out, "check passed") {
		t.Fatalf("import-project: %d %s %s", code, out, errs)
	}
	if code, _, errs := run(t, "", "import-project", zip, dst); code == 0 || !strings.Contains(errs, "not empty") {
		t.Fatalf("second restore into the same folder: %d %s", code, errs)
	}
	if code, _, _ := run(t, "", "check", "--project", dst); code != 0 {
		t.Fatal("check of the restored project failed")
	}
	if code, _, _ := run(t, "", "export", "--project", proj); code != 2 {
		t.Fatal("export without OUT should be a usage error")
	}
}
