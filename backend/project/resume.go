package project

import (
	"context"
	"fmt"

	"cairn/backend/kb"
)

// Interrupted imports. A document is recorded pending once its original is
// stored in files/ and before it is read; reading it and saving its passages
// end the pending state in one transaction. An import killed or interrupted
// (Ctrl-C, a closed window, a crash) in between leaves the document pending
// with its stored copy in place. The next import, the next `cairn index` and
// the next app start read such documents again from their stored copies:
// only with the import lock held, so a document a live import is reading
// is never touched.

// resumePending reads the pending documents again from their stored
// copies. The import lock must be held. Each comes back as a result
// (progress too) whose File says it was resumed.
func (p *Project) resumePending(ctx context.Context, opt ImportOptions, progress func(Progress)) ([]ImportResult, error) {
	pending, err := p.store.PendingDocuments(ctx)
	if err != nil || len(pending) == 0 {
		return nil, err
	}
	var results []ImportResult
	for i, d := range pending {
		if err := ctx.Err(); err != nil {
			return results, err
		}
		label := d.FileName + " (resumed: its import was interrupted)"
		f, err := p.storedFile(d.StoredPath)
		if err != nil {
			// a row pointing outside files/: check reports it; never read
			continue
		}
		progress(Progress{File: label, Index: i + 1, Total: len(pending), Stage: "reading"})
		o := opt
		o.names = map[string]string{f: d.FileName}
		r, err := p.importFile(ctx, f, o, func(stage string) {
			progress(Progress{File: label, Index: i + 1, Total: len(pending), Stage: stage})
		})
		if err != nil {
			return results, err
		}
		r.File = label
		results = append(results, r)
		progress(Progress{File: label, Index: i + 1, Total: len(pending), Stage: "done", Result: &r})
	}
	return results, nil
}

// ResumeInterrupted reads again the documents an interrupted import left
// pending, waiting for the import lock (the app calls it at start).
func (p *Project) ResumeInterrupted(ctx context.Context, progress func(Progress)) ([]ImportResult, error) {
	return p.ImportWith(ctx, nil, ImportOptions{}, progress)
}

// PendingCount is how many documents an interrupted import left pending
// (or a running import is reading now).
func (p *Project) PendingCount(ctx context.Context) (int, error) {
	d, err := p.store.PendingDocuments(ctx)
	return len(d), err
}

// resumeBeforeIndex resumes interrupted imports when no import is running
// (one that is running resumes them itself, having started with them); an
// indexing run then finds their passages.
func (p *Project) resumeBeforeIndex(ctx context.Context, progress func(IndexProgress)) error {
	n, err := p.PendingCount(ctx)
	if err != nil || n == 0 {
		return err
	}
	unlock, ok, err := p.tryWriter(lockImport)
	if err != nil || !ok {
		return err
	}
	defer unlock()
	p.removeIncoming()
	results, err := p.resumePending(ctx, ImportOptions{}, func(pr Progress) {
		if pr.Stage == "done" {
			progress(IndexProgress{Stage: "resume", Done: pr.Index, Total: pr.Total, Note: pr.File})
		}
	})
	if err != nil {
		return fmt.Errorf("resume interrupted imports: %w", err)
	}
	ok2 := 0
	for _, r := range results {
		if r.Status == kb.StatusOK || r.Status == kb.StatusNeedsOCR {
			ok2++
		}
	}
	progress(IndexProgress{Stage: "resume", Done: len(results), Total: len(results),
		Note: fmt.Sprintf("%d interrupted document(s) read again from their stored copies (%d ok)", len(results), ok2)})
	return nil
}

// pendingProblems reports documents left pending when no import is
// running (an import that runs is reading them, or will resume them).
func (p *Project) pendingProblems(ctx context.Context) ([]string, error) {
	pending, err := p.store.PendingDocuments(ctx)
	if err != nil || len(pending) == 0 || p.store.ReadOnly() {
		return nil, err
	}
	unlock, ok, err := p.tryWriter(lockImport)
	if err != nil || !ok {
		return nil, err // an import is running: pending is its work in progress
	}
	unlock()
	var out []string
	for _, d := range pending {
		out = append(out, fmt.Sprintf("document %d (%s) is pending: its import was interrupted before it was read; cairn index (or the next import, or opening the app) reads it again from its stored copy", d.ID, d.FileName))
	}
	return out, nil
}
