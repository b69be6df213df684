//go:build unix

package project

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"cairn/backend/kb"
)

// TestReaderIsolationMemory measures what the hostile files of
// ../shared/docs/bad cost the app while they are imported: each file is
// imported into a fresh project by a fresh process (this test binary), which
// reports its own peak resident memory and its reader child's (getrusage:
// RUSAGE_SELF and RUSAGE_CHILDREN, ru_maxrss). The app process must stay
// small whatever the file does to the reader; the reader is killed past its
// memory limit (ingest.Limits.MaxRSS, 3 GiB by default; CAIRN_READ_MAX_RSS).
//
//	CAIRN_ISOLATION=1 go test ./backend/project -run TestReaderIsolationMemory -v
func TestReaderIsolationMemory(t *testing.T) {
	if file := os.Getenv("CAIRN_ISOLATION_FILE"); file != "" {
		isolationChild(t, file)
		return
	}
	if os.Getenv("CAIRN_ISOLATION") == "" {
		t.Skip("set CAIRN_ISOLATION=1 (reads two zip bombs and a deep-nesting PDF in child processes)")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"zip-bomb-1GiB.docx", "zip-bomb-overlap-4GiB.docx", "deep-nesting-content.pdf"} {
		file := shared(t, "bad/"+name)
		cmd := exec.Command(exe, "-test.run", "^TestReaderIsolationMemory$", "-test.v")
		cmd.Env = append(os.Environ(), "CAIRN_ISOLATION_FILE="+file)
		out, err := cmd.CombinedOutput()
		var rep isolationReport
		for _, line := range strings.Split(string(out), "\n") {
			if i := strings.Index(line, "ISOLATION {"); i >= 0 {
				json.Unmarshal([]byte(line[i+len("ISOLATION "):]), &rep)
			}
		}
		if err != nil || rep.Status == "" {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		t.Logf("%-28s %-7s app peak RSS %4d MiB, reader child peak RSS %4d MiB, %5d ms; %s",
			name, rep.Status, rep.SelfKiB>>10, rep.ChildKiB>>10, rep.Millis, rep.Error)
		if rep.SelfKiB > 512<<10 {
			t.Errorf("%s: the app process reached %d MiB", name, rep.SelfKiB>>10)
		}
	}
}

type isolationReport struct {
	Status   kb.DocStatus `json:"status"`
	Error    string       `json:"error"`
	SelfKiB  int64        `json:"self_kib"`
	ChildKiB int64        `json:"child_kib"`
	Millis   int64        `json:"ms"`
}

func isolationChild(t *testing.T, file string) {
	p := open(t)
	start := time.Now()
	rs, err := p.Import(context.Background(), []string{file}, nil)
	if err != nil || len(rs) != 1 {
		t.Fatalf("import %s: %v %+v", filepath.Base(file), err, rs)
	}
	var self, child syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &child)
	b, _ := json.Marshal(isolationReport{Status: rs[0].Status, Error: rs[0].Error, SelfKiB: int64(self.Maxrss), ChildKiB: int64(child.Maxrss),
		Millis: time.Since(start).Milliseconds()})
	t.Log("ISOLATION " + string(b))
}
