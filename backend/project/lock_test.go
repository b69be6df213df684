package project

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestWriterLockSerialisesWriters(t *testing.T) {
	p, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx := context.Background()
	unlock, err := p.lockWriter(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 3*lockPoll)
	defer cancel()
	var holder string
	if _, err := p.lockWriter(short, func(h string) { holder = h }); !errors.Is(err, context.DeadlineExceeded) {
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
	u2, err := p.lockWriter(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	u2()
}
