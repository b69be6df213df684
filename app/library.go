package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"cairn/backend/kb"
	"cairn/backend/project"
)

// Library verbs beyond import and removal: retrying a document (with a
// password for encrypted PDFs), indexing (knowledge graph, mind maps) with
// progress events, and the original file's bytes for the source viewer.

// Index events.
const (
	// EventIndexStarted has no payload.
	EventIndexStarted = "index:started"
	// EventIndexProgress carries a project.IndexProgress.
	EventIndexProgress = "index:progress"
	// EventIndexDone carries IndexDone.
	EventIndexDone = "index:done"
)

// IndexDone is the payload of EventIndexDone.
type IndexDone struct {
	Error   string `json:"error,omitempty"`
	Seconds int64  `json:"seconds"`
	// Warning says what indexing could not do and what happens to the rest
	// ("Ollama stopped responding at chunk 88 of 352; …").
	Warning string `json:"warning,omitempty"`
}

// IndexState says whether indexing runs and how far it has got, for a UI
// that connects in the middle of it.
type IndexState struct {
	Running bool                   `json:"running"`
	Last    *project.IndexProgress `json:"last,omitempty"`
	Done    *IndexDone             `json:"done,omitempty"`
}

// openProject is the *project.Project behind a, for the verbs that need
// more than the backend interface.
func (a *App) openProject() (*project.Project, error) {
	if pb, ok := a.cur().(projectBackend); ok && pb.p != nil {
		return pb.p, nil
	}
	return nil, errNoProject
}

// document finds one document by id.
func (a *App) document(ctx context.Context, docID int64) (kb.Document, error) {
	if docID <= 0 {
		return kb.Document{}, fmt.Errorf("invalid document id %d", docID)
	}
	docs, err := a.cur().Documents(ctx)
	if err != nil {
		return kb.Document{}, err
	}
	for _, d := range docs {
		if d.ID == docID {
			return d, nil
		}
	}
	return kb.Document{}, fmt.Errorf("document %d is not in this project", docID)
}

// storedPath is the absolute path of a document's stored copy; it must lie
// inside the project folder.
func (a *App) storedPath(d kb.Document) (string, error) {
	if d.StoredPath == "" {
		return "", fmt.Errorf("document %d has no stored copy", d.ID)
	}
	root := a.cur().Dir()
	local, err := project.ConfineStored(d.StoredPath)
	if err != nil {
		return "", fmt.Errorf("document %d: %w: %q", d.ID, err, d.StoredPath)
	}
	p := filepath.Join(root, local)
	return p, nil
}

// RetryDocument reads a document again from its stored copy: after a
// failure, an interrupted import, or with the password of an encrypted PDF
// (password may be empty). Progress and results arrive as import events.
func (a *App) RetryDocument(docID int64, password string) ([]project.ImportResult, error) {
	defer a.enter()()
	ctx := a.context()
	d, err := a.document(ctx, docID)
	if err != nil {
		return nil, err
	}
	switch d.Status {
	case kb.StatusOK, kb.StatusNeedsOCR:
		return nil, fmt.Errorf("%s is already imported; nothing to retry", d.FileName)
	}
	p, err := a.storedPath(d)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(p); err != nil {
		return nil, fmt.Errorf("the stored copy of %s is missing; import the original again", d.FileName)
	}
	do := a.cur().Import
	if password != "" {
		pr, err := a.openProject()
		if err != nil {
			return nil, err
		}
		opt := project.ImportOptions{Password: password}
		do = func(ctx context.Context, paths []string, progress func(project.Progress)) ([]project.ImportResult, error) {
			return pr.ImportWith(ctx, paths, opt, progress)
		}
	}
	return a.runImportWith(ctx, []string{p}, do)
}

// IndexStatus reports the indexing in progress, or the last one's outcome.
func (a *App) IndexStatus() IndexState {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.index
}

// Reindex runs every pending indexing stage (OCR of scanned pages,
// knowledge graph, mind maps, fusion) now and returns when it is done; progress is emitted as
// EventIndexProgress. It waits for a running import to finish first. It is
// the user asking again: chunks left failed after their attempts with the
// model are sent to it once more, and scanned pages whose OCR failed are
// read again.
func (a *App) Reindex() error {
	defer a.enter()()
	if p, err := a.openProject(); err == nil {
		if _, err := p.RetryFailed(a.context()); err != nil {
			return err
		}
		if _, err := p.RetryFailedOCR(a.context()); err != nil {
			return err
		}
	}
	return a.runIndex(a.context())
}

// indexAfterImport starts indexing in the background when an import added
// anything to index.
func (a *App) indexAfterImport(results []project.ImportResult) {
	if _, err := a.openProject(); err != nil {
		return
	}
	any := false
	for _, r := range results {
		if r.Status == kb.StatusOK || r.Status == kb.StatusNeedsOCR {
			any = true
		}
	}
	if !any {
		return
	}
	ctx := a.context()
	release := a.retain() // the caller holds the project; so does the indexing
	go func() {
		defer release()
		_ = a.runIndex(ctx)
	}()
}

func (a *App) runIndex(ctx context.Context) error { return a.indexRun(ctx, false) }

// indexRun runs every pending indexing stage. With quiet, nothing is
// announced (no started, progress or done events, no running state) until
// a stage reports work to do: opening a project whose index is complete
// shows no indexing at all, one with work left shows it as after an import.
func (a *App) indexRun(ctx context.Context, quiet bool) error {
	pr, err := a.openProject()
	if err != nil {
		return err
	}
	select {
	case a.importSem <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-a.importSem }()

	announced := false
	announce := func() {
		if announced {
			return
		}
		announced = true
		a.mu.Lock()
		a.index = IndexState{Running: true}
		a.mu.Unlock()
		a.emit(EventIndexStarted, nil)
	}
	if !quiet {
		announce()
	}
	t0 := time.Now()
	var warnings []string
	err = pr.Index(ctx, func(p project.IndexProgress) {
		if !announced && p.Total == 0 && p.Warning == "" {
			return // a stage with nothing to do
		}
		announce()
		if p.Warning != "" {
			warnings = append(warnings, p.Warning)
		}
		a.mu.Lock()
		last := p
		a.index.Last = &last
		a.mu.Unlock()
		a.emit(EventIndexProgress, p)
	})
	if !announced && err == nil {
		return nil
	}
	announce()
	done := IndexDone{Seconds: int64(time.Since(t0).Seconds()), Warning: strings.Join(warnings, " ")}
	if err != nil {
		done.Error = err.Error()
	}
	a.indexEnded(done.Warning)
	a.mu.Lock()
	a.index = IndexState{Done: &done}
	a.mu.Unlock()
	a.emit(EventIndexDone, done)
	a.emit(EventLibraryChanged, nil)
	return err
}
