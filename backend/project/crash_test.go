package project

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The crash test: import + index real documents in a child process, SIGKILL
// it at random moments, and after every kill require that the project passes
// its check; then let it finish and require the same content as a run that
// was never interrupted. CAIRN_CRASH_KILLS sets how many kills (default 6 in
// `make test`; `make reliability` runs 30).

const crashChildEnv = "CAIRN_CRASH_CHILD" // project dir; the files follow in CAIRN_CRASH_FILES

// maybeRunCrashChild makes the test binary the victim: import then index, exit 0.
func maybeRunCrashChild() {
	dir := os.Getenv(crashChildEnv)
	if dir == "" {
		return
	}
	ctx := context.Background()
	p, err := Open(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "child open:", err)
		os.Exit(3)
	}
	files := strings.Split(os.Getenv("CAIRN_CRASH_FILES"), string(os.PathListSeparator))
	if _, err := p.Import(ctx, files, nil); err != nil {
		fmt.Fprintln(os.Stderr, "child import:", err)
		os.Exit(4)
	}
	if err := p.Index(ctx, nil); err != nil {
		fmt.Fprintln(os.Stderr, "child index:", err)
		os.Exit(5)
	}
	p.Close()
	os.Exit(0)
}

func crashFiles(t *testing.T) []string {
	sample, _ := filepath.Abs("../../assets/sample")
	files := []string{
		filepath.Join(sample, "en-report-dmca-summary.pdf"),
		filepath.Join(sample, "zh-civil-code.docx"),
		filepath.Join(sample, "en-report-tables-irs-i1040nr.pdf"),
	}
	for _, rel := range []string{"real/en-paper-2col-dpr-2p.pdf", "real/en-word-lists-nested.docx"} {
		if p := shared(t, rel); p != "" {
			files = append(files, p)
		}
	}
	return files
}

// runChild runs the victim on dir; killAfter <= 0 lets it finish. It reports
// whether the child was killed (false: it finished first).
func runChild(t *testing.T, dir string, files []string, killAfter time.Duration) (killed bool, elapsed time.Duration) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+dir, "CAIRN_CRASH_FILES="+strings.Join(files, string(os.PathListSeparator)))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if killAfter > 0 {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("child failed before the kill: %v\n%s", err, stderr.String())
			}
			return false, time.Since(start)
		case <-time.After(killAfter):
			// Kill the whole process group would also take the reader child;
			// the reader's own watchdog ends with its parent's pipe.
			cmd.Process.Signal(syscall.SIGKILL)
			<-done
			return true, time.Since(start)
		}
	}
	if err := <-done; err != nil {
		t.Fatalf("child failed: %v\n%s", err, stderr.String())
	}
	return false, time.Since(start)
}

func TestCrashResumeEqualsCleanRun(t *testing.T) {
	if testing.Short() {
		t.Skip("crash loop skipped in -short mode")
	}
	kills := 6
	if v, err := strconv.Atoi(os.Getenv("CAIRN_CRASH_KILLS")); err == nil && v > 0 {
		kills = v
	}
	files := crashFiles(t)
	clean := filepath.Join(t.TempDir(), "clean")
	_, full := runChild(t, clean, files, 0)
	want := fingerprint(t, clean)
	t.Logf("clean run: %v; %d kills at random moments within it", full.Round(time.Millisecond), kills)

	rng := rand.New(rand.NewPCG(20261121, 1))
	done, projects := 0, 0
	for done < kills {
		projects++
		dir := filepath.Join(t.TempDir(), fmt.Sprintf("crash-%d", projects))
		for cycle := 0; ; cycle++ {
			delay := time.Duration(rng.Int64N(int64(full)))
			killed, _ := runChild(t, dir, files, max(delay, 10*time.Millisecond))
			problems := checkDir(t, dir, killed)
			if len(problems) > 0 {
				t.Fatalf("project %d, after %s at %v: check failed:\n%s", projects, map[bool]string{true: "kill", false: "finish"}[killed], delay, strings.Join(problems, "\n"))
			}
			if !killed {
				// a kill between copying a file and recording it leaves an
				// orphan in files/; the resumed import must adopt it
				if o := orphansDir(t, dir); len(o) > 0 {
					t.Fatalf("project %d: stored originals without a document after the resumed run: %v", projects, o)
				}
				break
			}
			done++
			if cycle > 50 {
				t.Fatal("the job never finished between kills")
			}
		}
		if got := fingerprint(t, dir); got != want {
			t.Fatalf("project %d after %d kills differs from the clean run:\n%s", projects, done, diffLines(want, got))
		}
	}
	t.Logf("%d kills over %d projects: every check passed, every final state equals the clean run", done, projects)
}

// checkDir runs Check on dir; after a kill, a document left pending (which
// Check reports, and the resumed run reads again) is expected.
func checkDir(t *testing.T, dir string, killed bool) []string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, DBName)); err != nil {
		return nil // killed before the database existed
	}
	p, err := Open(dir)
	if err != nil {
		return []string{"open: " + err.Error()}
	}
	defer p.Close()
	problems, err := p.Check(context.Background())
	if err != nil {
		return []string{"check: " + err.Error()}
	}
	if killed {
		problems = slices.DeleteFunc(problems, func(s string) bool { return strings.Contains(s, "its import was interrupted") })
	}
	return problems
}

func orphansDir(t *testing.T, dir string) []string {
	t.Helper()
	p, err := Open(dir)
	if err != nil {
		return []string{"open: " + err.Error()}
	}
	defer p.Close()
	o, err := p.Orphans(context.Background())
	if err != nil {
		return []string{"orphans: " + err.Error()}
	}
	return o
}

// fingerprint describes a project's content independently of row ids and
// timestamps (store.Fingerprint).
func fingerprint(t *testing.T, dir string) string {
	t.Helper()
	p, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f, err := p.Store().Fingerprint(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func diffLines(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out []string
	seen := map[string]bool{}
	for _, l := range al {
		seen[l] = true
	}
	for _, l := range bl {
		if !seen[l] {
			out = append(out, "+ "+l)
		}
	}
	seen = map[string]bool{}
	for _, l := range bl {
		seen[l] = true
	}
	for _, l := range al {
		if !seen[l] {
			out = append(out, "- "+l)
		}
	}
	return strings.Join(out, "\n")
}

// The fingerprint must notice a lost document (or the crash test could not fail).
func TestFingerprintSeesMissingContent(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "p")
	runChild(t, dir, crashFiles(t)[:2], 0)
	before := fingerprint(t, dir)
	p, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	docs, _ := p.Documents(context.Background())
	if _, err := p.RemoveDocuments(context.Background(), docs[0].ID); err != nil {
		t.Fatal(err)
	}
	p.Close()
	if after := fingerprint(t, dir); after == before {
		t.Fatal("fingerprint unchanged after removing a document")
	}
}
