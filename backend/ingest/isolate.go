package ingest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime/debug"
	"strings"
	"time"

	"cairn/backend/cachedir"
	"cairn/backend/ingest/parsed"
)

// Readers run in a child process — the same executable, re-started with
// WorkerEnv set — so that what recover() cannot catch (out of memory, stack
// exhaustion, a runaway loop in a third-party parser) kills only the child.
// The parent enforces a wall-clock limit and a resident-memory cap.

// WorkerEnv marks a process as a reader worker.
const WorkerEnv = "CAIRN_READER_WORKER"

// Limits bound one isolated read.
type Limits struct {
	Timeout   time.Duration // wall clock for the whole read
	MaxRSS    int64         // bytes of resident memory before the child is killed
	InProcess bool          // read in this process (tests, fuzzing): no isolation
	// OCRPageTimeout bounds the OCR of one scanned page (OCRPages; 0:
	// DefaultOCRPageTimeout). OCR runs after reading, as an indexing
	// stage, so Timeout never has to cover it.
	OCRPageTimeout time.Duration
}

// DefaultLimits suit a laptop: 5 minutes and 3 GiB per file, 5 minutes per
// scanned page's OCR. CAIRN_READ_TIMEOUT and CAIRN_OCR_PAGE_TIMEOUT (Go
// durations: "20m") change the time limits.
func DefaultLimits() Limits {
	l := Limits{Timeout: 5 * time.Minute, MaxRSS: 3 << 30, OCRPageTimeout: DefaultOCRPageTimeout}
	if s := os.Getenv("CAIRN_READ_TIMEOUT"); s != "" {
		if d, err := time.ParseDuration(s); err == nil {
			l.Timeout = d
		}
	}
	if s := os.Getenv("CAIRN_OCR_PAGE_TIMEOUT"); s != "" {
		if d, err := time.ParseDuration(s); err == nil && d > 0 {
			l.OCRPageTimeout = d
		}
	}
	return l
}

type workerRequest struct {
	Path     string         `json:"path"`
	Name     string         `json:"name"`
	Options  parsed.Options `json:"options"`
	MemLimit int64          `json:"mem_limit"`
	// OCRPages, when set, makes the worker OCR these pages of a PDF
	// (OCRPages) instead of reading the file.
	OCRPages []int `json:"ocr_pages,omitempty"`
}

type workerReply struct {
	Doc       *parsed.Document `json:"doc,omitempty"`
	ErrorCode parsed.Code      `json:"error_code,omitempty"`
	Error     string           `json:"error,omitempty"`
}

// MaybeRunWorker turns this process into a reader worker when WorkerEnv is
// set, and never returns in that case. Call it first thing in main (and in
// TestMain of packages whose tests import files).
func MaybeRunWorker() {
	if os.Getenv(WorkerEnv) != "1" {
		return
	}
	os.Exit(runWorker(os.Stdin, os.Stdout))
}

// workerTmpEnv names the reader's temporary folder, which the reader
// removes too when it ends (its parent may have been killed).
const workerTmpEnv = "CAIRN_READER_TMP"

func runWorker(in io.Reader, out io.Writer) int {
	// Ctrl-C in a terminal reaches the whole process group: the parent
	// decides (it stops this process and removes its temporary folder).
	signal.Ignore(os.Interrupt)
	tmp := os.Getenv(workerTmpEnv)
	defer os.RemoveAll(tmp) // "" removes nothing
	var req workerRequest
	if err := json.NewDecoder(in).Decode(&req); err != nil {
		fmt.Fprintln(os.Stderr, "reader worker: bad request:", err)
		return 3
	}
	if req.MemLimit > 0 {
		debug.SetMemoryLimit(req.MemLimit)
	}
	if len(req.OCRPages) > 0 {
		return runOCRWorker(req, out)
	}
	var rep workerReply
	doc, err := ReadFile(req.Path, req.Name, req.Options)
	// The temporary folder goes before the reply is written: a parent
	// killed meanwhile leaves a closed pipe, and writing to it ends this
	// process with SIGPIPE before any deferred call runs.
	os.RemoveAll(tmp)
	if err != nil {
		rep.ErrorCode, rep.Error = parsed.CodeOf(err), err.Error()
	} else {
		rep.Doc = doc
	}
	w := bufio.NewWriter(out)
	if err := json.NewEncoder(w).Encode(rep); err != nil {
		return 3
	}
	if err := w.Flush(); err != nil {
		return 3
	}
	return 0
}

// ReadFile reads a file in this process, recovering from panics.
func ReadFile(path, name string, opt parsed.Options) (doc *parsed.Document, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, parsed.Errorf(parsed.CodeCorrupt, "cannot read the file: %v", err)
	}
	defer func() {
		if r := recover(); r != nil {
			doc, err = nil, parsed.Errorf(parsed.CodeCorrupt, "the file is damaged and could not be read (reader failed: %v)", r)
		}
	}()
	return Read(data, name, opt)
}

// ReadIsolated reads path (shown to the user as name) in a child process
// under lim. A child that crashes, runs out of memory or time yields a typed
// error (CodeCrashed, CodeTooLarge, CodeTimeout) and nothing else is affected.
func ReadIsolated(ctx context.Context, path, name string, opt parsed.Options, lim Limits) (*parsed.Document, error) {
	if lim.InProcess || smallPlainText(path, name) {
		return ReadFile(path, name, opt)
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find own executable for the reader process: %w", err)
	}
	if lim.Timeout <= 0 {
		lim.Timeout = DefaultLimits().Timeout
	}
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	req, _ := json.Marshal(workerRequest{Path: path, Name: name, Options: opt, MemLimit: lim.MaxRSS * 3 / 4})
	// The child's temporary files (OCR page images in cairn-ocr-*) go in a
	// folder this process makes and removes after the child ends, however
	// it ends: killed for time or memory, or on Ctrl-C (the child ignores
	// the terminal's interrupt; this process stops it through ctx).
	tmp, err := os.MkdirTemp("", "cairn-read-")
	if err != nil {
		return nil, fmt.Errorf("temporary folder for the reader process: %w", err)
	}
	defer os.RemoveAll(tmp)
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(os.Environ(), WorkerEnv+"=1", "TMPDIR="+tmp, "TMP="+tmp, "TEMP="+tmp, workerTmpEnv+"="+tmp,
		"CAIRN_CACHE_DIR="+cachedir.Root()) // the cache stays where it was, whatever TMPDIR says
	cmd.Stdin = bytes.NewReader(req)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &limitedBuffer{b: &stderr, max: 64 << 10}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start reader process: %w", err)
	}
	release := capProcess(cmd.Process, lim.MaxRSS) // Windows: a job object (isolate_windows.go)
	defer release()
	overMemory := make(chan struct{})
	done := make(chan struct{})
	go watchRSS(cmd.Process.Pid, lim.MaxRSS, done, overMemory, cmd.Process.Kill)
	werr := cmd.Wait()
	close(done)
	select {
	case <-overMemory:
		return nil, parsed.Errorf(parsed.CodeTooLarge, "reading this file needed more than %d MiB of memory, so it was stopped (the file may be a decompression bomb or far too large)", lim.MaxRSS>>20)
	default:
	}
	if ctx.Err() == context.DeadlineExceeded {
		return nil, parsed.Errorf(parsed.CodeTimeout, "reading this file took longer than %s, so it was stopped. A very large file on a busy computer can need longer (CAIRN_READ_TIMEOUT allows more, e.g. 20m; retry it then); a file that never finishes reading may be damaged. Scanned pages do not count against this limit: they are read with OCR afterwards, page by page", lim.Timeout)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var rep workerReply
	if jerr := json.Unmarshal(stdout.Bytes(), &rep); jerr != nil || werr != nil {
		if strings.Contains(stderr.String(), "out of memory") {
			return nil, parsed.Errorf(parsed.CodeTooLarge, "reading this file ran out of memory, so it was stopped (the file may be a decompression bomb or far too large)")
		}
		return nil, parsed.Errorf(parsed.CodeCrashed, "the reader crashed on this file: %s; the file is probably damaged or built to crash readers, and nothing else was affected", crashWords(stderr.String(), werr))
	}
	if rep.Error != "" {
		return nil, &parsed.Error{Code: rep.ErrorCode, Msg: rep.Error}
	}
	if rep.Doc == nil {
		return nil, errors.New("reader process returned nothing")
	}
	return rep.Doc, nil
}

// watchRSS polls the child's resident memory and kills it past max.
func watchRSS(pid int, max int64, done <-chan struct{}, over chan<- struct{}, kill func() error) {
	if max <= 0 {
		return
	}
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			if rss := residentBytes(pid); rss > max {
				close(over)
				kill()
				return
			}
		}
	}
}

type limitedBuffer struct {
	b   *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.b.Len(); room > 0 {
		if len(p) > room {
			l.b.Write(p[len(p)-room:])
		} else {
			l.b.Write(p)
		}
	}
	return len(p), nil
}

// crashWords says in words why a reader process died, from its stderr and
// exit status: never a Go source line or a goroutine dump.
func crashWords(stderr string, werr error) string {
	switch {
	case strings.Contains(stderr, "stack exceeds") || strings.Contains(stderr, "stack overflow"):
		return "it ran out of stack space, because the file's objects nest or refer to themselves without end"
	case strings.Contains(stderr, "SIGSEGV") || strings.Contains(stderr, "SIGBUS"):
		return "it made an invalid memory access"
	}
	for _, line := range strings.Split(stderr, "\n") {
		if msg, ok := strings.CutPrefix(strings.TrimSpace(line), "panic: "); ok {
			msg, _, _ = strings.Cut(msg, " [recovered]")
			msg, _, _ = strings.Cut(msg, "\ngoroutine")
			if len(msg) > 160 {
				msg = msg[:160] + "…"
			}
			return "it stopped with an internal error (" + msg + ")"
		}
		if msg, ok := strings.CutPrefix(strings.TrimSpace(line), "fatal error: "); ok {
			return "it stopped with a fatal error (" + msg + ")"
		}
	}
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		if st := ee.String(); strings.HasPrefix(st, "signal: ") {
			return "the reader process was stopped by a " + strings.TrimPrefix(st, "signal: ") + " signal"
		}
		return fmt.Sprintf("the reader process ended unexpectedly (exit code %d)", ee.ExitCode())
	}
	if werr != nil {
		return "the reader process ended unexpectedly (" + werr.Error() + ")"
	}
	return "the reader process returned no result"
}

// inProcessTextMax is the size under which a plain-text or Markdown file is
// read in this process: their reader is linear in time and memory, so the
// child process (tens of milliseconds each) would only slow down a folder of
// thousands of notes.
const inProcessTextMax = 4 << 20

// smallPlainText reports whether path is a small file whose bytes sniff as
// plain text or Markdown.
func smallPlainText(path, name string) bool {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() > inProcessTextMax {
		return false
	}
	data, err := os.ReadFile(path)
	if err != nil || len(data) > inProcessTextMax {
		return false
	}
	kind, err := Sniff(data, name)
	return err == nil && (kind == parsed.KindTXT || kind == parsed.KindMD)
}
