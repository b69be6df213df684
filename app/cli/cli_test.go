package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/ingest"
	"cairn/backend/testshared"
)

func TestMain(m *testing.M) {
	ingest.MaybeRunWorker()
	maybeRunCLIChild() // concurrency31_test.go: this binary as a cairn process
	os.Exit(m.Run())
}

func run(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb}
	code := env.Run(context.Background(), args)
	return code, out.String(), errb.String()
}

func jsonLines(t *testing.T, s string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not one JSON object per line: %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// TestContract exercises the CLI contract later issues and outside checks rely on.
func TestContract(t *testing.T) {
	docs, _ := filepath.Abs("../../../shared/docs")
	if _, err := os.Stat(docs); err != nil {
		testshared.Missing(t, "../shared/docs not present")
	}
	proj := filepath.Join(t.TempDir(), "p")
	code, out, _ := run(t, "", "import", "--project", proj, "--json", filepath.Join(docs, "real/en-report-dmca-summary.pdf"), filepath.Join(docs, "bad/random-bytes.pdf"))
	if code != 1 {
		t.Fatalf("import with a failed file must exit 1, got %d", code)
	}
	rs := jsonLines(t, out)
	if len(rs) != 2 {
		t.Fatalf("want one result per file: %s", out)
	}
	for _, k := range []string{"file", "doc_id", "status", "pages", "chunks", "error"} {
		if _, ok := rs[0][k]; !ok {
			t.Errorf("import result lacks %q: %v", k, rs[0])
		}
	}
	if rs[0]["status"] != "ok" || rs[1]["status"] != "failed" || rs[1]["error"] == "" {
		t.Fatalf("statuses: %v", rs)
	}

	code, out, _ = run(t, "", "docs", "--project", proj, "--json")
	ds := jsonLines(t, out)
	if code != 0 || len(ds) != 2 {
		t.Fatalf("docs: %d %s", code, out)
	}
	for _, k := range []string{"id", "title", "status", "pages", "chunks", "error"} {
		if _, ok := ds[0][k]; !ok {
			t.Errorf("docs lacks %q", k)
		}
	}

	code, out, _ = run(t, "", "search", "--project", proj, "--json", "--k", "3", "online", "service", "provider", "liability")
	hs := jsonLines(t, out)
	if code != 0 || len(hs) == 0 || hs[0]["page_start"].(float64) < 1 {
		t.Fatalf("search: %d %s", code, out)
	}
	// flags after the query work too
	if code, out, _ = run(t, "", "search", "--project", proj, "safe harbor", "--k", "1"); code != 0 || !strings.Contains(out, " 1. ") {
		t.Fatalf("search with trailing flags: %d %s", code, out)
	}

	if code, out, _ = run(t, "", "text", "--project", proj, "--page", "2", "1"); code != 0 || !strings.HasPrefix(out, "=== page 2") {
		t.Fatalf("text: %d %q", code, out[:min(len(out), 80)])
	}
	if code, out, _ = run(t, "", "check", "--project", proj); code != 0 || !strings.HasPrefix(out, "ok:") {
		t.Fatalf("check: %d %s", code, out)
	}
	if code, _, _ = run(t, "", "remove", "--project", proj, "1"); code != 0 {
		t.Fatalf("remove: %d", code)
	}
	if code, _, errs := run(t, "", "remove", "--project", proj, "1"); code == 0 || !strings.Contains(errs, "no such document") {
		t.Fatalf("removing twice: %d %s", code, errs)
	}
	if code, _, _ = run(t, "", "check", "--project", proj); code != 0 {
		t.Fatal("check after remove")
	}
}

func TestUsageErrors(t *testing.T) {
	if code, _, _ := run(t, "", "nonsense"); code != 2 {
		t.Errorf("unknown command: %d", code)
	}
	if code, _, errs := run(t, "", "docs"); code != 1 || !strings.Contains(errs, "--project") {
		t.Errorf("docs without project: %d %s", code, errs)
	}
	// The evaluation commands moved to cairn-eval (tools/cairneval): cairn
	// says where, in one line, and fails.
	for _, c := range movedToEval {
		code, out, errs := run(t, "", c, "--offline", "--limit", "20")
		if want := "cairn " + c + " moved to cairn-eval: build/bin/cairn-eval " + c + " … (make cli builds it; or go run ./tools/cairneval " + c + " …)\n"; code != 2 || out != "" || errs != want {
			t.Errorf("cairn %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", c, code, out, errs, want)
		}
	}
	if _, out, _ := run(t, "", "help"); strings.Contains(out, "eval") {
		t.Errorf("cairn help still lists an evaluation command:\n%s", out)
	}
}
