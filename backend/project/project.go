// Package project is a Cairn project on disk: a folder holding cairn.db (the
// SQLite store) and files/ (a copy of every imported original, so the source
// viewer and re-indexing work after the user moves the original). It ties
// readers, chunker, embedder, store and search together, so the desktop app
// and the CLI share exactly the same behaviour.
package project

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"cairn/backend/embed"
	"cairn/backend/ingest"
	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/search"
	"cairn/backend/store"
)

// DBName and FilesDir are the fixed names inside a project folder.
const (
	DBName   = "cairn.db"
	FilesDir = "files"
)

// ImportResult is the outcome of importing one file, as the CLI prints it.
type ImportResult struct {
	File      string       `json:"file"`
	DocID     int64        `json:"doc_id"`
	Status    kb.DocStatus `json:"status"` // ok|failed|needs_ocr|needs_password|duplicate
	Pages     int          `json:"pages"`
	Chunks    int          `json:"chunks"`
	Error     string       `json:"error"`
	ErrorCode string       `json:"error_code,omitempty"`
	Warnings  []string     `json:"warnings,omitempty"`
	// OCRPages counts the scanned pages awaiting the "ocr" index stage,
	// which reads them page by page after the import (ocr.go).
	OCRPages int `json:"ocr_pages,omitempty"`
}

// Progress reports import progress: file Index of Total (1-based) has
// reached Stage ("reading", "indexing", "done"); Result is set when done.
type Progress struct {
	File   string        `json:"file"`
	Index  int           `json:"index"`
	Total  int           `json:"total"`
	Stage  string        `json:"stage"`
	Result *ImportResult `json:"result,omitempty"`
}

// Info summarises a project.
type Info struct {
	Name      string          `json:"name"`
	Dir       string          `json:"dir"`
	Documents int             `json:"documents"`
	Chunks    int             `json:"chunks"`
	Embedder  kb.EmbedderInfo `json:"embedder"`
}

// Project is an open project folder.
type Project struct {
	dir    string
	store  *store.Store
	emb    *embedState // the chunk embedder (embedder.go); read it with Embedder()
	limits ingest.Limits

	mu       sync.RWMutex
	provider llm.Provider // the language model, or llm.Offline

	skel skeletonCache // the Graph view's ranked skeleton (graphview.go)
}

// Open opens the project in dir, creating the folder, database and files/
// on first use.
func Open(dir string) (*Project, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(abs, FilesDir), 0o755); err != nil {
		return nil, fmt.Errorf("create project folder: %w", err)
	}
	unlock := lockOpen(abs, store.BusyTimeout)
	st, err := store.Open(filepath.Join(abs, DBName))
	unlock()
	if err != nil {
		return nil, fmt.Errorf("open project %s: %w", abs, err)
	}
	es, err := openEmbedder(context.Background(), st)
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("open project %s: %w", abs, err)
	}
	return &Project{dir: abs, store: st, emb: es, limits: ingest.DefaultLimits(),
		provider: llm.Offline{Embedder: es.hashed}}, nil
}

// SetProvider sets the language model the pipelines use (llm.Offline when
// none is reachable). Safe to call while the project is in use.
func (p *Project) SetProvider(lp llm.Provider) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.provider = lp
}

// Provider is the language model the pipelines use now.
func (p *Project) Provider() llm.Provider {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.provider
}

// Embedder is the embedder that made (and queries) the project's vectors.
func (p *Project) Embedder() embed.Embedder { return p.emb.current.Load().e }

// SetReadLimits changes how files are read (time, memory, isolation).
func (p *Project) SetReadLimits(l ingest.Limits) { p.limits = l }

// Close releases the database.
func (p *Project) Close() error { return p.store.Close() }

// Dir is the project folder.
func (p *Project) Dir() string { return p.dir }

// Store gives later pipelines (graph, mind maps) the project database.
func (p *Project) Store() *store.Store { return p.store }

// Info summarises the project.
func (p *Project) Info(ctx context.Context) (Info, error) {
	docs, chunks, err := p.store.Counts(ctx)
	if err != nil {
		return Info{}, err
	}
	e, err := p.store.Embedder(ctx)
	return Info{Name: filepath.Base(p.dir), Dir: p.dir, Documents: docs, Chunks: chunks, Embedder: e}, err
}

// Counts returns the number of documents and chunks.
func (p *Project) Counts(ctx context.Context) (docs, chunks int, err error) {
	return p.store.Counts(ctx)
}

// Documents lists the project's documents.
func (p *Project) Documents(ctx context.Context) ([]kb.Document, error) {
	if err := p.retitleIfStale(ctx); err != nil {
		return nil, err
	}
	return p.store.Documents(ctx)
}

// Remove deletes documents, everything derived from them and their stored
// copies. The database change is one transaction; files go after it commits.
func (p *Project) Remove(ctx context.Context, ids ...int64) error {
	_, err := p.RemoveDocuments(ctx, ids...)
	return err
}

// RemoveDocuments is Remove, returning what was removed.
func (p *Project) RemoveDocuments(ctx context.Context, ids ...int64) ([]kb.Document, error) {
	removed, err := p.store.RemoveDocuments(ctx, ids...)
	if err != nil {
		return nil, err
	}
	if err := p.Retitle(ctx); err != nil {
		return removed, err
	}
	for _, d := range removed {
		if d.StoredPath == "" {
			continue
		}
		// Only a copy inside files/ is ever deleted: a row pointing
		// elsewhere (a hostile or damaged database) deletes nothing.
		if f, err := p.storedFile(d.StoredPath); err == nil {
			os.Remove(f)
		}
	}
	return removed, nil
}

// Search runs hybrid passage search.
func (p *Project) Search(ctx context.Context, query string, k int) ([]kb.Hit, error) {
	if k <= 0 {
		k = 10
	}
	s := &search.Searcher{Store: p.store, Embedder: p.Embedder(), Settings: search.DefaultSettings()}
	return s.Search(ctx, query, k)
}

// Pages returns a document's pages (all when page == 0).
func (p *Project) Pages(ctx context.Context, docID int64, page int) ([]kb.Page, error) {
	if _, err := p.store.Document(ctx, docID); err != nil {
		return nil, err
	}
	return p.store.Pages(ctx, docID, page)
}

// Notice is what opening the project did that the user should hear of ("" when
// nothing): its database moved in from where an older Cairn had put it.
func (p *Project) Notice() string { return p.store.Notice() }

// ReadOnly reports whether the project is in a folder Cairn cannot write to:
// it can be read, searched and checked, not changed.
func (p *Project) ReadOnly() bool { return p.store.ReadOnly() }

// Check verifies the database and the stored copies of the originals, and
// reports documents an interrupted import left pending (when no import is
// running) and leftovers in files/ that belong to no document.
func (p *Project) Check(ctx context.Context) ([]string, error) {
	problems, err := p.checkContent(ctx)
	if err != nil {
		return nil, err
	}
	pending, err := p.pendingProblems(ctx)
	if err != nil {
		return nil, err
	}
	problems = append(problems, pending...)
	return append(problems, p.leftovers()...), nil
}

// checkContent is Check without the interrupted-import and leftover
// reports (a restore checks what it unpacked with it: a backup of a project
// with a pending document is restored, and the document resumed later).
func (p *Project) checkContent(ctx context.Context) ([]string, error) {
	problems, err := p.store.Check(ctx)
	if err != nil {
		return nil, err
	}
	if where := p.databaseOutside(ctx); where != "" {
		problems = append(problems, where)
	}
	docs, err := p.store.Documents(ctx)
	if err != nil {
		return nil, err
	}
	for _, d := range docs {
		if d.StoredPath == "" {
			problems = append(problems, fmt.Sprintf("document %d (%s) has no stored copy", d.ID, d.FileName))
			continue
		}
		if _, err := confineStored(d.StoredPath); err != nil {
			problems = append(problems, fmt.Sprintf("document %d: stored path %q leaves the project's files folder", d.ID, d.StoredPath))
			continue
		}
		h, err := p.hashStored(d.StoredPath)
		if err != nil {
			problems = append(problems, fmt.Sprintf("document %d (%s): stored copy missing: %v", d.ID, d.FileName, err))
		} else if h != d.Hash {
			problems = append(problems, fmt.Sprintf("document %d (%s): stored copy changed (hash differs)", d.ID, d.FileName))
		}
	}
	return problems, nil
}

// hashStored hashes a stored copy, read only when it is a regular file
// inside the project.
func (p *Project) hashStored(rel string) (string, error) {
	f, err := p.openStored(rel)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// databaseOutside says where the database SQLite opened is when that is not
// the project's cairn.db ("" when it is): a folder name SQLite misread, or a
// cairn.db that links elsewhere, would let two projects share one database.
func (p *Project) databaseOutside(ctx context.Context) string {
	opened, err := p.store.FileName(ctx)
	if err != nil {
		return "cannot tell which database file is open: " + err.Error()
	}
	dir := p.dir
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	want := filepath.Join(dir, DBName)
	if opened == want {
		return ""
	}
	return fmt.Sprintf("the project's database is not inside the project folder: %s is open, not %s (another project may share it)", opened, want)
}
