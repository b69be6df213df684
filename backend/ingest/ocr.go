package ingest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"cairn/backend/cachedir"
	"cairn/backend/ingest/parsed"
	"cairn/backend/ingest/pdf"
)

// OCR of image-only PDF pages, page by page, outside the reader's time
// limit. OCRPages runs a reader worker (the same executable, as for
// ReadIsolated) that renders and recognises the pages one after another and
// writes each page's result as one JSON line the moment it is done. The
// parent gives each page its own time limit: a page that runs past it is
// reported failed, the worker is stopped and a new one carries on with the
// next page. A worker that crashes or runs out of memory costs the page it
// was on, not the document.

// OCRResult is one page's OCR outcome.
type OCRResult struct {
	Page  int      `json:"page"`            // 1-based
	Found bool     `json:"found,omitempty"` // tesseract found text it is confident of
	Paras []string `json:"paras,omitempty"` // the page's paragraphs (Found)
	// Error says why OCR stopped on this page ("" when it did not).
	Error string `json:"error,omitempty"`
}

// ocrLine is one line of an OCR worker's output: a page's result, or why
// the worker could not start on the document at all.
type ocrLine struct {
	OCRResult
	Fatal string `json:"fatal,omitempty"`
}

// DefaultOCRPageTimeout bounds the OCR of one page (rendering, script
// detection and up to two tesseract runs): generous for a busy laptop, and
// CAIRN_OCR_PAGE_TIMEOUT changes it.
const DefaultOCRPageTimeout = 5 * time.Minute

// ocrPageTimeout is lim's per-page limit, or the default.
func (lim Limits) ocrPageTimeout() time.Duration {
	if lim.OCRPageTimeout > 0 {
		return lim.OCRPageTimeout
	}
	return DefaultOCRPageTimeout
}

// OCRAvailable reports whether scanned pages can be OCRed on this machine
// (tesseract installed, CAIRN_OCR not 0).
func OCRAvailable() bool { return pdf.OCRAvailable() }

// OCRSwitchedOff reports whether CAIRN_OCR=0 switches OCR off.
func OCRSwitchedOff() bool { return pdf.OCRSwitchedOff() }

// OCRPages OCRs the given pages (1-based, in order) of the PDF at path and
// calls each with every page's result as soon as it is done, in order.
// Each page is bounded by lim.OCRPageTimeout and the worker by lim.MaxRSS;
// a page that fails or times out comes back with Error set and the rest go
// on. An error from each, or ctx ending, stops everything and is returned.
func OCRPages(ctx context.Context, path, password string, pages []int, lim Limits, each func(OCRResult) error) error {
	if lim.InProcess {
		return ocrInProcess(ctx, path, password, pages, each)
	}
	for len(pages) > 0 {
		rest, err := ocrWorkerRun(ctx, path, password, pages, lim, each)
		if err != nil {
			return err
		}
		pages = rest
	}
	return nil
}

// ocrWorkerRun runs one worker over pages until it finishes, fails a page
// or stops; it returns the pages still to do.
func ocrWorkerRun(ctx context.Context, path, password string, pages []int, lim Limits, each func(OCRResult) error) ([]int, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find own executable for the OCR process: %w", err)
	}
	tmp, err := os.MkdirTemp("", "cairn-ocr-run-")
	if err != nil {
		return nil, fmt.Errorf("temporary folder for the OCR process: %w", err)
	}
	defer os.RemoveAll(tmp)
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	req, _ := json.Marshal(workerRequest{Path: path, OCRPages: pages, MemLimit: lim.MaxRSS * 3 / 4, Options: parsed.Options{Password: password}})
	cmd := exec.CommandContext(wctx, exe)
	cmd.Env = append(os.Environ(), WorkerEnv+"=1", "TMPDIR="+tmp, "TMP="+tmp, "TEMP="+tmp, workerTmpEnv+"="+tmp,
		"CAIRN_CACHE_DIR="+cachedir.Root())
	cmd.Stdin = bytes.NewReader(req)
	var stderr bytes.Buffer
	cmd.Stderr = &limitedBuffer{b: &stderr, max: 64 << 10}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start OCR process: %w", err)
	}
	release := capProcess(cmd.Process, lim.MaxRSS)
	defer release()
	overMemory := make(chan struct{})
	done := make(chan struct{})
	go watchRSS(cmd.Process.Pid, lim.MaxRSS, done, overMemory, cmd.Process.Kill)
	lines := make(chan ocrLine)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			var l ocrLine
			if json.Unmarshal(sc.Bytes(), &l) != nil {
				continue
			}
			select {
			case lines <- l:
			case <-wctx.Done():
				return
			}
		}
	}()
	stop := func() {
		cancel()
		cmd.Process.Kill()
		for range lines { // let the reading goroutine end
		}
		cmd.Wait()
		close(done)
	}
	limit := lim.ocrPageTimeout()
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for len(pages) > 0 {
		select {
		case <-ctx.Done():
			stop()
			return nil, ctx.Err()
		case <-timer.C:
			stop()
			return pages[1:], each(OCRResult{Page: pages[0], Error: fmt.Sprintf("OCR of this page took longer than %s, so it was stopped (a large or detailed page on a busy computer can take that long; CAIRN_OCR_PAGE_TIMEOUT allows more); the other pages were read", limit)})
		case <-overMemory:
			stop()
			return pages[1:], each(OCRResult{Page: pages[0], Error: fmt.Sprintf("OCR of this page needed more than %d MiB of memory, so it was stopped; the other pages were read", lim.MaxRSS>>20)})
		case l, ok := <-lines:
			if !ok {
				// The worker ended before the page was done.
				werr := cmd.Wait()
				close(done)
				select {
				case <-overMemory:
					return pages[1:], each(OCRResult{Page: pages[0], Error: fmt.Sprintf("OCR of this page needed more than %d MiB of memory, so it was stopped; the other pages were read", lim.MaxRSS>>20)})
				default:
				}
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				return pages[1:], each(OCRResult{Page: pages[0], Error: "OCR stopped on this page: " + crashWords(stderr.String(), werr) + "; the other pages were read"})
			}
			if l.Fatal != "" {
				stop()
				for _, n := range pages {
					if err := each(OCRResult{Page: n, Error: l.Fatal}); err != nil {
						return nil, err
					}
				}
				return nil, nil
			}
			if l.Page != pages[0] {
				stop()
				return nil, fmt.Errorf("OCR process answered for page %d while page %d was due", l.Page, pages[0])
			}
			if err := each(l.OCRResult); err != nil {
				stop()
				return nil, err
			}
			pages = pages[1:]
			if !timer.Stop() {
				select {
				case <-timer.C:
				default:
				}
			}
			timer.Reset(limit)
		}
	}
	for range lines {
	}
	cmd.Wait()
	close(done)
	return nil, nil
}

// runOCRWorker is the worker's side of OCRPages: it OCRs req.OCRPages of
// req.Path and writes one JSON line per page as soon as the page is done.
func runOCRWorker(req workerRequest, out io.Writer) int {
	w := bufio.NewWriter(out)
	emit := func(l ocrLine) bool {
		if json.NewEncoder(w).Encode(l) != nil {
			return false
		}
		return w.Flush() == nil
	}
	data, err := os.ReadFile(req.Path)
	if err != nil {
		emit(ocrLine{Fatal: "cannot read the stored copy of this file: " + err.Error()})
		return 0
	}
	doc, err := pdf.OpenOCR(data, req.Options.Password)
	if err != nil {
		emit(ocrLine{Fatal: "the pages could not be rendered for OCR: " + err.Error()})
		return 0
	}
	defer doc.Close()
	for _, n := range req.OCRPages {
		t, err := doc.Page(n)
		l := ocrLine{OCRResult: OCRResult{Page: n, Found: t.Found, Paras: t.Paras}}
		if err != nil {
			l.Error = "OCR failed on this page: " + strings.TrimSpace(err.Error())
		}
		if !emit(l) {
			return 3
		}
	}
	return 0
}

// ocrInProcess is OCRPages without a worker (Limits.InProcess: tests,
// fuzzing): no time or memory limit beyond tesseract's own.
func ocrInProcess(ctx context.Context, path, password string, pages []int, each func(OCRResult) error) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	doc, err := pdf.OpenOCR(data, password)
	if err != nil {
		for _, n := range pages {
			if err := each(OCRResult{Page: n, Error: "the pages could not be rendered for OCR: " + err.Error()}); err != nil {
				return err
			}
		}
		return nil
	}
	defer doc.Close()
	for _, n := range pages {
		if err := ctx.Err(); err != nil {
			return err
		}
		t, err := doc.Page(n)
		r := OCRResult{Page: n, Found: t.Found, Paras: t.Paras}
		if err != nil {
			r.Error = "OCR failed on this page: " + err.Error()
		}
		if err := each(r); err != nil {
			return err
		}
	}
	return nil
}
