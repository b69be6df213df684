package project

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestWindowsLockAcrossProcesses: a writer lock taken with LockFileEx in
// this process makes a writer in another process wait, names this process
// as the holder, and is free for it once released. Run under Wine by
// `make test-dist` (dist/test/wine-go-tests.sh).
func TestWindowsLockAcrossProcesses(t *testing.T) {
	if dir := os.Getenv("CAIRN_LOCK_CHILD"); dir != "" {
		lockChild(dir)
		return
	}
	// Not t.TempDir: under Wine 8, Go's os.RemoveAll fails on every file
	// ("Invalid function"), which would fail the test after it passed.
	dir, err := os.MkdirTemp("", "cairn-lock-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	p, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	unlock, err := p.lockWriter(context.Background(), lockImport, nil)
	if err != nil {
		t.Fatal(err)
	}
	child := func() string {
		exe, _ := os.Executable()
		cmd := exec.Command(exe, "-test.run", "^TestWindowsLockAcrossProcesses$")
		cmd.Env = append(os.Environ(), "CAIRN_LOCK_CHILD="+dir)
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	out := child()
	if !strings.Contains(out, "LOCK busy holder=another Cairn process (pid "+strconv.Itoa(os.Getpid())+")") {
		t.Fatalf("while held, the other process said:\n%s", out)
	}
	unlock()
	if out := child(); !strings.Contains(out, "LOCK taken") {
		t.Fatalf("once released, the other process said:\n%s", out)
	}
}

func lockChild(dir string) {
	p, err := Open(dir)
	if err != nil {
		fmt.Println("LOCK open:", err)
		return
	}
	defer p.Close()
	var holder string
	lockNoticeAfter = 0 // say who holds it at once (the wait below is shorter than the usual quiet second)
	ctx, cancel := context.WithTimeout(context.Background(), 3*lockPoll)
	defer cancel()
	unlock, err := p.lockWriter(ctx, lockImport, func(h string) { holder = h })
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		fmt.Println("LOCK busy holder=" + holder)
	case err != nil:
		fmt.Println("LOCK error:", err)
	default:
		unlock()
		fmt.Println("LOCK taken")
	}
}
