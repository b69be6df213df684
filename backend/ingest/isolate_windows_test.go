package ingest

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/windows"
)

// These run the Windows reader caps for real (under Wine here, by
// `make test-dist`): a child that keeps allocating is stopped at the cap,
// and closing the job ends a grandchild the reader started.

func TestMain(m *testing.M) {
	switch os.Getenv("CAIRN_CAP_CHILD") {
	case "hog": // allocate and touch 64 MiB at a time, up to 4 GiB
		var keep [][]byte
		for i := 0; i < 64; i++ {
			b := make([]byte, 64<<20)
			for j := range b {
				if j%4096 == 0 {
					b[j] = 1
				}
			}
			keep = append(keep, b)
			time.Sleep(20 * time.Millisecond)
		}
		os.Stdout.WriteString("survived " + strconv.Itoa(len(keep)) + "\n")
		os.Exit(0)
	case "parent": // start a sleeping grandchild, print its pid, wait
		exe, _ := os.Executable()
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), "CAIRN_CAP_CHILD=sleep")
		if err := cmd.Start(); err != nil {
			os.Exit(3)
		}
		os.Stdout.WriteString(strconv.Itoa(cmd.Process.Pid) + "\n")
		cmd.Wait()
		os.Exit(0)
	case "sleep":
		time.Sleep(2 * time.Minute)
		os.Exit(0)
	}
	MaybeRunWorker()
	os.Exit(m.Run())
}

func TestWindowsMemoryCap(t *testing.T) {
	exe, _ := os.Executable()
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "CAIRN_CAP_CHILD=hog")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	const limit = 256 << 20
	release := capProcess(cmd.Process, limit)
	defer release()
	over, done := make(chan struct{}), make(chan struct{})
	go watchRSS(cmd.Process.Pid, limit, done, over, cmd.Process.Kill)
	start := time.Now()
	err := cmd.Wait()
	close(done)
	stopped := false
	select {
	case <-over:
		stopped = true
		t.Logf("stopped by the working-set watch after %v", time.Since(start).Round(time.Millisecond))
	default:
	}
	if strings.Contains(out.String(), "out of memory") {
		stopped = true
		t.Logf("stopped by the job's memory limit after %v", time.Since(start).Round(time.Millisecond))
	}
	if !stopped || err == nil || strings.Contains(out.String(), "survived") {
		t.Fatalf("a child allocating 4 GiB was not stopped at %d MiB (err %v):\n%s", limit>>20, err, out.String())
	}
}

func TestWindowsJobEndsGrandchildren(t *testing.T) {
	exe, _ := os.Executable()
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "CAIRN_CAP_CHILD=parent")
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	release := capProcess(cmd.Process, 0)
	buf := make([]byte, 32)
	n, _ := stdout.Read(buf)
	pid, err := strconv.Atoi(strings.TrimSpace(string(buf[:n])))
	if err != nil {
		t.Fatalf("grandchild pid: %q", buf[:n])
	}
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		t.Fatal(err)
	}
	defer windows.CloseHandle(h)
	cmd.Process.Kill() // what the time limit does: the reader alone
	cmd.Wait()
	release() // closing the job ends the rest
	if ev, _ := windows.WaitForSingleObject(h, 10000); ev != windows.WAIT_OBJECT_0 {
		t.Fatal("the reader's own child outlived the job")
	}
}
