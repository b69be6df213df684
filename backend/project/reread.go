package project

import (
	"context"
	"fmt"
	"path/filepath"

	"cairn/backend/ingest"
	"cairn/backend/ingest/parsed"
)

// Re-reading documents after a reader upgrade. A project made by an older
// Cairn holds PDF pages read without layout analysis (columns read across,
// running headers in the text, no page layouts). The "reread" index stage
// reads each such document again from its stored original, in the
// background like every index stage, one document per transaction: its
// pages and passages are replaced, and the graph and mind map of the
// document are rebuilt by the later stages. Answers, settings and other
// documents are untouched; a run stopped at any point resumes with the
// documents not yet re-read.

// runReread, the "reread" indexing stage (the first, see index.go),
// re-reads the documents an older reader produced.
func runReread(ctx context.Context, p *Project, progress func(IndexProgress)) error {
	ids, err := p.store.OutdatedDocs(ctx, string(parsed.KindPDF))
	if err != nil || len(ids) == 0 {
		return err
	}
	var failed []string
	// The next document is read (in the reader process) while this one is
	// chunked, embedded and saved, as on import.
	readCtx, stopReading := context.WithCancel(ctx)
	start := func(id int64) chan storedRead {
		ch := make(chan storedRead, 1)
		go func() { ch <- p.readStored(readCtx, id) }()
		return ch
	}
	next := start(ids[0])
	defer func() {
		stopReading()
		if next != nil {
			<-next // no reader outlives the stage
		}
	}()
	for i, id := range ids {
		if err := ctx.Err(); err != nil {
			return err
		}
		progress(IndexProgress{Stage: "reread", DocID: id, Done: i, Total: len(ids), Note: "reading again with the new page-layout reader"})
		r := <-next
		next = nil
		if i+1 < len(ids) {
			next = start(ids[i+1])
		}
		err := r.err
		if err == nil {
			err = p.saveReread(ctx, id, r)
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			failed = append(failed, fmt.Sprintf("document %d: %v", id, err))
		}
	}
	ev := IndexProgress{Stage: "reread", Done: len(ids), Total: len(ids)}
	if len(failed) > 0 {
		ev.Warning = fmt.Sprintf("%d of %d documents could not be read again and keep their earlier text: %s", len(failed), len(ids), failed[0])
	}
	progress(ev)
	return nil
}

// storedRead is a document read again from its stored original.
type storedRead struct {
	name string
	doc  *parsed.Document
	err  error
}

// readStored reads document id again from its stored original, in the
// reader process; it writes nothing.
func (p *Project) readStored(ctx context.Context, id int64) storedRead {
	d, err := p.store.Document(ctx, id)
	if err != nil {
		return storedRead{err: err}
	}
	path := filepath.Join(p.dir, filepath.FromSlash(d.StoredPath))
	doc, err := ingest.ReadIsolated(ctx, path, d.FileName, parsed.Options{}, p.limits)
	return storedRead{name: d.FileName, doc: doc, err: err}
}

// saveReread replaces document id's pages and passages with those read
// again. A read that found no text leaves the document as it was.
func (p *Project) saveReread(ctx context.Context, id int64, r storedRead) error {
	defer p.holdEmbedder()()
	content, err := p.index(ctx, r.name, r.doc)
	if err != nil {
		return err
	}
	if len(content.Chunks) == 0 && !awaitingOCR(content.Pages) {
		return fmt.Errorf("no text found when reading it again")
	}
	return p.store.SaveContent(ctx, id, content)
}
