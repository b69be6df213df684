package project

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestWriterLockSerialisesWriters(t *testing.T) {
	defer func(d time.Duration) { lockNoticeAfter = d }(lockNoticeAfter)
	lockNoticeAfter = 0
	p, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx := context.Background()
	unlock, err := p.lockWriter(ctx, lockImport, nil)
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 3*lockPoll)
	defer cancel()
	var holder string
	if _, err := p.lockWriter(short, lockImport, func(h string) { holder = h }); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("second writer got the lock while the first held it: %v", err)
	}
	if !strings.Contains(holder, "another task") {
		t.Errorf("holder description: %q", holder)
	}
	// An import waits for the lock too (and says why).
	waitCtx, cancel2 := context.WithTimeout(ctx, 3*lockPoll)
	defer cancel2()
	var stages []string
	sample, _ := filepath.Abs("../../assets/sample")
	if _, err := p.Import(waitCtx, []string{sample}, func(pr Progress) { stages = append(stages, pr.Stage) }); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("import ran while another writer held the lock: %v", err)
	}
	if len(stages) == 0 || stages[0] != "waiting" {
		t.Errorf("import did not report waiting: %v", stages)
	}
	// Released: the next writer gets it at once.
	go func() { time.Sleep(lockPoll); unlock() }()
	u2, err := p.lockWriter(ctx, lockImport, nil)
	if err != nil {
		t.Fatal(err)
	}
	u2()
	// Indexing has its own lock: it does not wait for an import.
	ui, err := p.lockWriter(ctx, lockImport, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ui()
	quick, cancel3 := context.WithTimeout(ctx, 2*lockPoll)
	defer cancel3()
	ux, err := p.lockWriter(quick, lockIndex, nil)
	if err != nil {
		t.Fatalf("index lock waited for the import lock: %v", err)
	}
	ux()
}

func TestRetryRereadsFromStoredCopy(t *testing.T) {
	ctx := context.Background()
	p, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	pdf := shared(t, "bad/encrypted-rc4-userpw.pdf")
	res, err := p.Import(ctx, []string{pdf}, nil)
	if err != nil || len(res) != 1 {
		t.Fatal(err, res)
	}
	if res[0].Status != "needs_password" {
		t.Skipf("encrypted sample gave %s", res[0].Status)
	}
	// Leftover partial copies from a killed writer are swept when the next writer starts.
	junk := filepath.Join(p.Dir(), FilesDir, ".incoming-123")
	if err := os.WriteFile(junk, []byte("partial"), 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := p.Retry(ctx, []int64{res[0].DocID}, ImportOptions{}, nil)
	if err != nil || len(again) != 1 || again[0].DocID != res[0].DocID || again[0].Status != "needs_password" {
		t.Fatalf("retry without password: %v %+v", err, again)
	}
	if _, err := os.Stat(junk); !os.IsNotExist(err) {
		t.Errorf("partial copy not swept: %v", err)
	}
	d, _ := p.Store().Document(ctx, res[0].DocID)
	if d.FileName != filepath.Base(pdf) {
		t.Errorf("retry renamed the document: %q", d.FileName)
	}
}
