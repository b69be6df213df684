// Package project is a Cairn project on disk: a folder holding cairn.db (the
// SQLite store) and files/ (a copy of every imported original). It is the
// one place that ties readers, chunker, embedder, store and search together,
// so the desktop app and the CLI share exactly the same behaviour.
package project

import (
	"context"
	"errors"

	"cairn/backend/kb"
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
}

// Progress reports import progress: file i of n (1-based) has reached stage
// ("reading", "indexing", "done").
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

var errTODO = errors.New("not implemented yet")

// Project is an open project folder.
type Project struct {
	dir string
}

// Open opens (creating if needed) the project in dir.
func Open(dir string) (*Project, error) { return &Project{dir: dir}, nil }

// Close releases the database.
func (p *Project) Close() error { return nil }

// Dir is the project folder.
func (p *Project) Dir() string { return p.dir }

// Info summarises the project.
func (p *Project) Info(ctx context.Context) (Info, error) { return Info{Dir: p.dir}, nil }

// Import reads, chunks and indexes files and folders (recursively).
func (p *Project) Import(ctx context.Context, paths []string, progress func(Progress)) ([]ImportResult, error) {
	return nil, errTODO
}

// Documents lists the project's documents.
func (p *Project) Documents(ctx context.Context) ([]kb.Document, error) { return nil, errTODO }

// Remove deletes documents and everything derived from them.
func (p *Project) Remove(ctx context.Context, ids ...int64) error { return errTODO }

// Search runs hybrid passage search.
func (p *Project) Search(ctx context.Context, query string, k int) ([]kb.Hit, error) {
	return nil, errTODO
}

// Pages returns a document's pages (all when page == 0).
func (p *Project) Pages(ctx context.Context, docID int64, page int) ([]kb.Page, error) {
	return nil, errTODO
}
