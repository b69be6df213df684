package project

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"cairn/backend/chunk"
	"cairn/backend/ingest"
	"cairn/backend/ingest/parsed"
	"cairn/backend/kb"
	"cairn/backend/search"
	"cairn/backend/store"
)

// OCR as an indexing stage. Reading a PDF does not OCR it: its pages
// without a text layer are stored awaiting OCR (kb.OCRPending) and the
// document is ok at once, its text pages searchable. The "ocr" stage then
// reads the awaiting pages with tesseract one by one, in a worker process
// that gives every page its own time limit (ingest.OCRPages), and saves
// each page as soon as it is read: its text, passages, lexical rows and
// vectors, with the page's number as their provenance, in one transaction
// (store.SaveOCRPage). A run killed at any point resumes at the next page;
// a page saved already is never saved twice. Progress counts pages, with
// an ETA.

// runOCR, the "ocr" indexing stage (after "reread", before the graph is
// built from the passages), reads the pages awaiting OCR.
func runOCR(ctx context.Context, p *Project, progress func(IndexProgress)) error {
	if !ingest.OCRAvailable() {
		return nil // the documents say how to make OCR available (ocrMessage)
	}
	jobs, err := p.store.OCRQueue(ctx)
	if err != nil || len(jobs) == 0 {
		return err
	}
	total := 0
	for _, j := range jobs {
		total += len(j.Pages)
	}
	r := ocrRun{p: p, progress: progress, total: total, start: time.Now()}
	progress(IndexProgress{Stage: "ocr", DocID: jobs[0].DocID, Total: total, Note: fmt.Sprintf("%d scanned pages to read with OCR", total)})
	var failed []string
	for _, j := range jobs {
		if err := ctx.Err(); err != nil {
			return err
		}
		path, err := p.storedFile(j.StoredPath)
		if err != nil {
			// a row pointing outside files/: check reports it; never read
			failed = append(failed, fmt.Sprintf("%s: its stored copy cannot be used (%v)", j.FileName, err))
			continue
		}
		if err := r.document(ctx, j, path); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if errors.Is(err, store.ErrNotFound) {
				continue // removed while its pages were read
			}
			return fmt.Errorf("%s: %w", j.FileName, err)
		}
		if r.failed > 0 {
			failed = append(failed, fmt.Sprintf("%s: %d pages", j.FileName, r.failed))
		}
	}
	ev := IndexProgress{Stage: "ocr", Done: r.done, Total: total, Note: fmt.Sprintf("%d scanned pages read in %s", r.done, time.Since(r.start).Round(time.Second))}
	if len(failed) > 0 {
		ev.Warning = "OCR stopped on some scanned pages (" + strings.Join(failed, "; ") + "); the other pages were read. `cairn index --retry-failed` (or Build index in the app) tries them again."
	}
	progress(ev)
	if r.found > 0 {
		// Titles and identities may read the scanned cover now.
		return p.Retitle(ctx)
	}
	return nil
}

// ocrRun is one run of the OCR stage: pages done of total, for progress.
type ocrRun struct {
	p           *Project
	progress    func(IndexProgress)
	total, done int
	found       int // pages whose OCR text was saved
	failed      int // pages failed in the current document
	start       time.Time
}

// document OCRs one document's awaiting pages and saves each as it is done.
func (r *ocrRun) document(ctx context.Context, j store.OCRJob, path string) error {
	r.failed = 0
	left := len(j.Pages)
	return ingest.OCRPages(ctx, path, "", j.Pages, r.p.limits, func(res ingest.OCRResult) error {
		left--
		// The chunk embedder cannot switch between embedding and saving.
		release := r.p.holdEmbedder()
		defer release()
		pg, err := r.p.ocrPage(ctx, j.DocID, res)
		if err != nil {
			return err
		}
		if left == 0 {
			if pg.Doc, err = r.p.ocrOutcome(ctx, j.DocID, pg); err != nil {
				return err
			}
		}
		if _, err := r.p.store.SaveOCRPage(ctx, j.DocID, pg); err != nil {
			return err
		}
		r.done++
		switch pg.Status {
		case kb.OCRDone:
			r.found++
		case kb.OCRFailed:
			r.failed++
		}
		ev := IndexProgress{Stage: "ocr", DocID: j.DocID, Done: r.done, Total: r.total,
			Note: fmt.Sprintf("page %d of %s", res.Page, j.FileName)}
		if el := time.Since(r.start); r.done < r.total {
			ev.ETA = time.Duration(float64(el) / float64(r.done) * float64(r.total-r.done))
		}
		r.progress(ev)
		return nil
	})
}

// ocrPage turns one page's OCR result into what SaveOCRPage stores: the
// page text laid out as the reader lays out pages, and its passages,
// embedded, under the heading path in force where the page begins. The
// caller holds the embedder.
func (p *Project) ocrPage(ctx context.Context, docID int64, res ingest.OCRResult) (store.OCRPage, error) {
	pg := store.OCRPage{Number: res.Page}
	switch {
	case res.Error != "":
		pg.Status, pg.Note = kb.OCRFailed, res.Error
		return pg, nil
	case !res.Found:
		pg.Status = kb.OCREmpty
		return pg, nil
	}
	doc := &parsed.Document{Kind: parsed.KindPDF, Pages: []parsed.PageInfo{{Number: 1, OCR: true}}}
	for _, t := range res.Paras {
		doc.Blocks = append(doc.Blocks, parsed.Block{Page: 1, Kind: parsed.BlockParagraph, Text: t})
	}
	pages, chunks := chunk.Split(doc, chunk.Options{})
	if len(pages) != 1 || strings.TrimSpace(pages[0].Text) == "" {
		pg.Status = kb.OCREmpty
		return pg, nil
	}
	title, path, err := p.store.OCRContext(ctx, docID, res.Page)
	if err != nil {
		return pg, err
	}
	for i := range chunks {
		if len(chunks[i].HeadingPath) == 0 {
			chunks[i].HeadingPath = path
		}
		chunks[i].PageStart, chunks[i].PageEnd = res.Page, res.Page
	}
	rows, texts := search.ChunkRows(title, chunks)
	vecs, err := p.embedChunks(ctx, texts)
	if err != nil {
		return pg, err
	}
	for i := range rows {
		rows[i].Vector = vecs[i]
	}
	pg.Status, pg.Text, pg.Layout, pg.Chunks = kb.OCRDone, pages[0].Text, pages[0].PageLayout, rows
	return pg, nil
}

// ocrOutcome is a document's status and warnings once its last awaiting
// page (last) is saved: ok when any page has text, needs_ocr when none
// has; the reader's warnings stay, the OCR warning is written anew.
func (p *Project) ocrOutcome(ctx context.Context, docID int64, last store.OCRPage) (*store.DocOutcome, error) {
	d, err := p.store.Document(ctx, docID)
	if err != nil {
		return nil, err
	}
	pages, err := p.store.Pages(ctx, docID, 0)
	if err != nil {
		return nil, err
	}
	text := false
	for i := range pages {
		if pages[i].Number == last.Number {
			pages[i].OCRStatus, pages[i].OCRNote = last.Status, last.Note
			if last.Status == kb.OCRDone {
				pages[i].Text, pages[i].NoText, pages[i].OCR = last.Text, false, true
			}
		}
		text = text || strings.TrimSpace(pages[i].Text) != ""
	}
	out := &store.DocOutcome{Status: kb.StatusOK}
	if !text {
		out.Status = kb.StatusNeedsOCR
	}
	for _, w := range d.Warnings {
		if !isOCRWarning(w) {
			out.Warnings = append(out.Warnings, w)
		}
	}
	if m := ocrMessage(pages, ocrRan); m != "" {
		out.Warnings = append(out.Warnings, m)
	}
	return out, nil
}

// RetryFailedOCR puts the scanned pages whose OCR failed (a page past its
// time limit on a busy machine, a crash) back in the OCR stage's queue; it
// returns how many.
func (p *Project) RetryFailedOCR(ctx context.Context) (int, error) {
	return p.store.RetryFailedOCR(ctx)
}
