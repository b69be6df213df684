// Package app is Cairn's application facade: the one API the user interface
// speaks, whatever carries it. The exported methods of App are bound to the
// Wails desktop window (desktop.go) and served over loopback HTTP with
// server-sent events in serve mode (serve.go), so both transports expose
// exactly the same verbs with the same JSON shapes. Everything below App is
// backend/project; this package adds only validation, serialisation of
// imports and events.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"

	"cairn/backend/analyze"
	"cairn/backend/kb"
	"cairn/backend/project"
)

// Event names emitted to the UI. The desktop sends them with Wails'
// runtime.EventsEmit; serve mode sends the same names and payloads over
// /api/events.
const (
	// EventImportStarted carries ImportStatus when an import begins.
	EventImportStarted = "import:started"
	// EventImportProgress carries a project.Progress for each stage of each file.
	EventImportProgress = "import:progress"
	// EventImportDone carries ImportDone when an import ends, however it ends.
	EventImportDone = "import:done"
	// EventLibraryChanged has no payload: the document list should be reloaded.
	EventLibraryChanged = "library:changed"
)

// Search limits: k outside [1, maxK] is clamped.
const (
	defaultK = 20
	maxK     = 100
)

// ImportStatus says whether an import is running and how far it has got, so
// a UI that (re)connects in the middle of one can show it; when none runs,
// Done is the outcome of the latest one (nil before the first), so a UI
// that connects after a quick import still learns how it went.
type ImportStatus struct {
	Running bool              `json:"running"`
	Files   []string          `json:"files"`
	Last    *project.Progress `json:"last,omitempty"`
	Done    *ImportDone       `json:"done,omitempty"`
}

// ImportDone is the payload of EventImportDone.
type ImportDone struct {
	Results []project.ImportResult `json:"results"`
	Error   string                 `json:"error,omitempty"`
}

// backend is what App needs of a project. *project.Project provides it
// through projectBackend; tests substitute a fake.
type backend interface {
	Dir() string
	Info(ctx context.Context) (project.Info, error)
	Import(ctx context.Context, paths []string, progress func(project.Progress)) ([]project.ImportResult, error)
	Documents(ctx context.Context) ([]kb.Document, error)
	Remove(ctx context.Context, ids ...int64) error
	SearchIn(ctx context.Context, query string, k int, docs []int64) ([]kb.Hit, project.SearchInfo, error)
	Pages(ctx context.Context, docID int64, page int) ([]kb.Page, error)
}

// projectBackend adapts *project.Project to backend.
type projectBackend struct{ p *project.Project }

func (b projectBackend) Dir() string { return b.p.Dir() }
func (b projectBackend) Info(ctx context.Context) (project.Info, error) {
	return b.p.Info(ctx)
}
func (b projectBackend) Import(ctx context.Context, paths []string, progress func(project.Progress)) ([]project.ImportResult, error) {
	return b.p.Import(ctx, paths, progress)
}
func (b projectBackend) Documents(ctx context.Context) ([]kb.Document, error) {
	return b.p.Documents(ctx)
}
func (b projectBackend) Remove(ctx context.Context, ids ...int64) error {
	return b.p.Remove(ctx, ids...)
}
func (b projectBackend) SearchIn(ctx context.Context, query string, k int, docs []int64) ([]kb.Hit, project.SearchInfo, error) {
	return b.p.SearchIn(ctx, query, k, docs)
}
func (b projectBackend) Pages(ctx context.Context, docID int64, page int) ([]kb.Page, error) {
	return b.p.Pages(ctx, docID, page)
}

// App is the Wails-bound facade over one open project. It is safe for
// concurrent use: Wails and the HTTP server call methods concurrently.
type App struct {
	proj backend

	mu     sync.Mutex
	ctx    context.Context // base context for work started by the UI
	cancel context.CancelFunc
	pick   func(ctx context.Context) ([]string, error) // native file dialog; nil outside the desktop
	save   saveFunc                                    // native save dialog; nil outside the desktop (export.go)
	status ImportStatus
	index  IndexState // library.go
	subs   map[int]func(name string, data any)
	nextID int
	ready  []func()

	importSem chan struct{} // one token: held for the whole of an import
	readyOnce sync.Once
	readyRan  atomic.Bool // runReady has started the hooks

	llm llmState // mode.go

	// Projects (projects.go): work is the context of project work (imports,
	// indexing, answers), a child of ctx cancelled when the project is
	// switched; gate lets a switch wait until no call uses the old project.
	work       context.Context
	cancelWork context.CancelFunc
	gate       projGate
	projects   projectsRoot
	settings   settingsState // settings.go
}

// New wraps an open project. The caller keeps ownership of p (closes it).
func New(p *project.Project) *App {
	a := newApp(projectBackend{p})
	if !generatingBindings {
		a.initProjectsRoot() // projects.go: which projects can be listed and managed
		if path, err := settingsPath(); err == nil {
			if err := a.useSettingsFile(path, true); err != nil { // settings.go
				slog.Warn("settings", "err", err)
			}
		}
	}
	a.onReady(a.startLLM) // mode.go: connect to Ollama once the UI is up
	a.onReady(func() { warmVectors(a.baseContext(), p) })
	a.onReady(a.resumeInterrupted) // orphans.go: imports cut short last time
	return a
}

func newApp(b backend) *App {
	ctx, cancel := context.WithCancel(context.Background())
	a := &App{
		proj: b, ctx: ctx, cancel: cancel,
		subs:      map[int]func(string, any){},
		importSem: make(chan struct{}, 1),
	}
	a.work, a.cancelWork = context.WithCancel(ctx)
	a.gate.idle = sync.NewCond(&a.gate.mu)
	return a
}

// setContext replaces the base context (the desktop's or the server's); work
// started after this call is cancelled when ctx is, or when stop is called.
func (a *App) setContext(ctx context.Context) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.cancel()
	a.ctx, a.cancel = context.WithCancel(ctx)
	a.work, a.cancelWork = context.WithCancel(a.ctx)
}

// stop cancels running work (an import in progress).
func (a *App) stop() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.cancel()
}

// context is the context of project work: cancelled when the app stops or
// the project is switched.
func (a *App) context() context.Context {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.work
}

// baseContext is the app's own context (Ollama following, model pulls),
// which outlives project switches.
func (a *App) baseContext() context.Context {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ctx
}

// cur is the open project.
func (a *App) cur() backend {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.proj
}

// subscribe registers an event sink (the Wails runtime or one SSE client)
// and returns its cancel function.
func (a *App) subscribe(fn func(name string, data any)) (cancel func()) {
	a.mu.Lock()
	defer a.mu.Unlock()
	id := a.nextID
	a.nextID++
	a.subs[id] = fn
	return func() {
		a.mu.Lock()
		defer a.mu.Unlock()
		delete(a.subs, id)
	}
}

func (a *App) emit(name string, data any) {
	a.mu.Lock()
	sinks := make([]func(string, any), 0, len(a.subs))
	for _, fn := range a.subs {
		sinks = append(sinks, fn)
	}
	a.mu.Unlock()
	for _, fn := range sinks {
		fn(name, data)
	}
}

// onReady queues fn to run (in its own goroutine) once the UI is up: after
// the desktop page has loaded, or once the server listens.
func (a *App) onReady(fn func()) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.ready = append(a.ready, fn)
}

func (a *App) runReady() {
	a.readyOnce.Do(func() {
		a.readyRan.Store(true)
		startupMark("background work started")
		a.mu.Lock()
		hooks := a.ready
		a.mu.Unlock()
		for _, fn := range hooks {
			go fn()
		}
	})
}

// Mode names the answering engine: "ollama" while a reachable Ollama with a
// chat model answers, "offline" (built-in components) otherwise; it follows
// Ollama starting and stopping (mode.go, EventModeChanged).
func (a *App) Mode() string { return string(a.LLMStatus().Mode) }

// ProjectInfo summarises the open project.
func (a *App) ProjectInfo() (project.Info, error) {
	defer a.enter()()
	startupMark("first ProjectInfo call")
	defer startupMark("first ProjectInfo answered")
	return a.cur().Info(a.context())
}

// ListDocuments lists the project's documents, in the project's order.
func (a *App) ListDocuments() ([]kb.Document, error) {
	defer a.enter()()
	startupMark("first ListDocuments call")
	defer startupMark("first ListDocuments answered")
	docs, err := a.cur().Documents(a.context())
	if docs == nil && err == nil {
		docs = []kb.Document{}
	}
	return docs, err
}

// ImportStatus reports the import in progress, if any.
func (a *App) ImportStatus() ImportStatus {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.status
	s.Files = append([]string{}, s.Files...)
	return s
}

// ImportPaths imports files and folders (recursively) given as paths on the
// machine running Cairn. It returns when the import is done; progress is
// emitted as EventImportProgress meanwhile. Imports run one at a time: a
// call made while another import runs waits for it.
func (a *App) ImportPaths(paths []string) ([]project.ImportResult, error) {
	defer a.enter()()
	clean := make([]string, 0, len(paths))
	for _, p := range paths {
		if p = strings.TrimSpace(p); p != "" {
			clean = append(clean, p)
		}
	}
	if len(clean) == 0 {
		return nil, errors.New("no files to import: give at least one file or folder path")
	}
	return a.runImport(a.context(), clean)
}

// PickAndImport opens the native file dialog (desktop only) and imports what
// the user picks. Cancelling the dialog returns no results and no error.
func (a *App) PickAndImport() ([]project.ImportResult, error) {
	defer a.enter()()
	a.mu.Lock()
	pick := a.pick
	a.mu.Unlock()
	if pick == nil {
		return nil, fmt.Errorf("%w: type the paths of the files instead", errDesktopOnly)
	}
	ctx := a.context()
	paths, err := pick(ctx)
	if err != nil {
		return nil, fmt.Errorf("open file dialog: %w", err)
	}
	if len(paths) == 0 {
		return []project.ImportResult{}, nil
	}
	return a.runImport(ctx, paths)
}

func (a *App) runImport(ctx context.Context, paths []string) ([]project.ImportResult, error) {
	return a.runImportWith(ctx, paths, a.cur().Import)
}

// importFunc is project.Import or an ImportWith bound to options.
type importFunc func(ctx context.Context, paths []string, progress func(project.Progress)) ([]project.ImportResult, error)

// runImportWith runs one import through do, holding the import token and
// emitting the import events; afterwards it starts indexing (library.go).
func (a *App) runImportWith(ctx context.Context, paths []string, do importFunc) ([]project.ImportResult, error) {
	select {
	case a.importSem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-a.importSem }()

	a.mu.Lock()
	a.status = ImportStatus{Running: true, Files: append([]string{}, paths...)}
	started := a.status
	a.mu.Unlock()
	a.emit(EventImportStarted, started)

	results, err := do(ctx, paths, func(p project.Progress) {
		a.mu.Lock()
		last := p
		a.status.Last = &last
		a.mu.Unlock()
		a.emit(EventImportProgress, p)
	})
	if results == nil {
		results = []project.ImportResult{}
	}

	done := ImportDone{Results: results}
	if err != nil {
		done.Error = err.Error()
	}
	a.mu.Lock()
	a.status = ImportStatus{Done: &done}
	a.mu.Unlock()
	a.emit(EventImportDone, done)
	a.emit(EventLibraryChanged, nil)
	a.indexAfterImport(results)
	return results, err
}

// RemoveDocuments deletes documents and everything derived from them. The
// original files the user imported are never touched.
func (a *App) RemoveDocuments(ids []int64) error {
	defer a.enter()()
	if len(ids) == 0 {
		return errors.New("no documents to remove")
	}
	err := a.cur().Remove(a.context(), ids...)
	a.emit(EventLibraryChanged, nil)
	return err
}

// SearchResult is App.Search's reply: the hits and how the query was
// embedded (Info.Vectors false and Info.Note saying why when it could not
// be, e.g. Ollama unreachable for a project embedded by an Ollama model:
// the passages were then ranked by keywords only).
type SearchResult struct {
	Hits []kb.Hit           `json:"hits"`
	Info project.SearchInfo `json:"info"`
}

// Search runs passage search; k is clamped to [1, 100] (0 means 20). A
// query that names a document is routed to it (Info.Scope says so).
func (a *App) Search(query string, k int) (SearchResult, error) {
	return a.SearchIn(query, k, nil)
}

// SearchIn is Search within the documents docs (none: the whole project).
func (a *App) SearchIn(query string, k int, docs []int64) (SearchResult, error) {
	defer a.enter()()
	docs, err := scopeIDs(docs)
	if err != nil {
		return SearchResult{Hits: []kb.Hit{}}, err
	}
	query = strings.TrimSpace(query)
	if query == "" {
		return SearchResult{Hits: []kb.Hit{}}, nil
	}
	switch {
	case k <= 0:
		k = defaultK
	case k > maxK:
		k = maxK
	}
	hits, info, err := a.cur().SearchIn(a.context(), query, k, docs)
	if hits == nil {
		hits = []kb.Hit{}
	}
	return SearchResult{Hits: hits, Info: info}, err
}

// Marked is what Marks finds in one text.
type Marked struct {
	Marks []analyze.Mark `json:"marks"`
}

// maxMarkTexts caps the texts one Marks call looks at.
const maxMarkTexts = 10000

// Marks tells the UI what to highlight of a query in each of texts (search
// snippets, the passage a source view shows): the words search matches it
// with (by stem, stop words left out) and its CJK bigrams, as UTF-16
// ranges (analyze.Marks), so the highlighting and the search agree
// on what a match is.
func (a *App) Marks(query string, texts []string) []Marked {
	out := make([]Marked, min(len(texts), maxMarkTexts))
	for i := range out {
		if out[i].Marks = analyze.Marks(query, texts[i]); out[i].Marks == nil {
			out[i].Marks = []analyze.Mark{}
		}
	}
	return out
}

// DocumentPages returns every page of a document, in order.
func (a *App) DocumentPages(docID int64) ([]kb.Page, error) {
	defer a.enter()()
	if docID <= 0 {
		return nil, fmt.Errorf("invalid document id %d", docID)
	}
	pages, err := a.cur().Pages(a.context(), docID, 0)
	if pages == nil && err == nil {
		pages = []kb.Page{}
	}
	return pages, err
}
