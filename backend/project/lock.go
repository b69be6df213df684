package project

import (
	"cairn/backend/store"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Writer locks: one process (or task) at a time imports into a project, and
// one at a time indexes it; an import and an indexing run may overlap (each
// writes in its own transactions, and indexing picks up what imports add).
// Readers (search, browsing, answers) never take it — SQLite's WAL lets them
// run beside the writer. A second app window or CLI on the same project
// waits for the lock (saying so through onWait) instead of racing the first
// one; the lock is released by the kernel if the holder dies, so a crash
// never leaves the project locked.

// Lock kinds, each a file .cairn-<kind>.lock inside the project folder.
const (
	lockImport = "import"
	lockIndex  = "index"
)

// lockPoll is how often a waiting writer retries.
const lockPoll = 200 * time.Millisecond

// lockNoticeAfter is how long a writer waits quietly before onWait says so
// (a lock held for a moment is not worth a message).
var lockNoticeAfter = time.Second

// lockWriter takes one of the project's writer locks (kind), waiting while another process
// (or another writer in this one) holds it. onWait, if set, is called once
// with a description of the holder when the wait has lasted lockNoticeAfter.
// The wait ends with ctx (Ctrl-C, or a caller's time limit).
func (p *Project) lockWriter(ctx context.Context, kind string, onWait func(holder string)) (unlock func(), err error) {
	if p.store.ReadOnly() {
		return nil, store.ErrReadOnly
	}
	path := filepath.Join(p.dir, ".cairn-"+kind+".lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("project lock: %w", err)
	}
	told := false
	start := time.Now()
	for {
		ok, err := tryLockFile(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("project lock: %w", err)
		}
		if ok {
			break
		}
		if !told && onWait != nil && time.Since(start) >= lockNoticeAfter {
			onWait(lockHolder(path))
			told = true
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(lockPoll):
		}
	}
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	if kind == lockImport {
		p.removeIncoming()
	}
	return func() {
		f.Truncate(0)
		unlockFile(f)
		f.Close()
	}, nil
}

// tryWriter takes the writer lock of kind if nobody holds it, without
// waiting; ok is false when another process or task holds it.
func (p *Project) tryWriter(kind string) (unlock func(), ok bool, err error) {
	if p.store.ReadOnly() {
		return nil, false, store.ErrReadOnly
	}
	path := filepath.Join(p.dir, ".cairn-"+kind+".lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, false, fmt.Errorf("project lock: %w", err)
	}
	got, err := tryLockFile(f)
	if err != nil || !got {
		f.Close()
		return nil, false, err
	}
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return func() {
		f.Truncate(0)
		unlockFile(f)
		f.Close()
	}, true, nil
}

// waitingFor is the message a writer shows while another holds the lock:
// "another import is running on this project (pid 4242); waiting…".
func waitingFor(kind, holder string) string {
	what := "another import is running"
	if kind == lockIndex {
		what = "indexing is running"
	}
	what += " on this project"
	if who := strings.TrimPrefix(holder, "another Cairn process"); who != holder && who != "" {
		what += who
	} else if holder == "another task in this window" {
		what += " (in this window)"
	}
	return what + "; waiting…"
}

// lockOpen serialises opening the project's database across processes
// (.cairn-open.lock, held only while the database is opened and migrated):
// two processes creating a new project at the same moment could otherwise
// meet SQLite between creating the file and switching it to WAL, where a
// connection can fail with SQLITE_BUSY without waiting. It gives up waiting
// after limit (the open then goes ahead and SQLite's own locking decides);
// a folder where the lock file cannot be made (read-only) needs no lock.
func lockOpen(dir string, limit time.Duration) (unlock func()) {
	f, err := os.OpenFile(filepath.Join(dir, ".cairn-open.lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return func() {}
	}
	for deadline := time.Now().Add(limit); ; {
		ok, err := tryLockFile(f)
		if err != nil || (!ok && time.Now().After(deadline)) {
			f.Close()
			return func() {}
		}
		if ok {
			return func() {
				unlockFile(f)
				f.Close()
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// lockHolder describes who holds the lock, from the pid it wrote.
func lockHolder(path string) string {
	b, _ := os.ReadFile(path)
	pid := strings.TrimSpace(string(b))
	if pid == "" {
		return "another Cairn process"
	}
	if pid == strconv.Itoa(os.Getpid()) {
		return "another task in this window"
	}
	return "another Cairn process (pid " + pid + ")"
}

// removeIncoming deletes partial copies (files/.incoming-*) a killed import
// left behind. Only called with the import lock held, so no live copy is hit.
func (p *Project) removeIncoming() {
	leftovers, _ := filepath.Glob(filepath.Join(p.dir, FilesDir, ".incoming-*"))
	for _, f := range leftovers {
		os.Remove(f)
	}
}
