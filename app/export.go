package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"cairn/backend/pagetext"
)

// ExportDocumentMarkdown returns a document as Markdown: '#' headings of
// their level, pipe tables, each page after a "=== page N ===" line,
// written by the same code as `cairn text --format md` (pagetext). The
// Library's "Markdown" action saves it (SaveTextFile on the desktop, a
// download in the browser).
func (a *App) ExportDocumentMarkdown(docID int64) (string, error) {
	defer a.enter()()
	if docID <= 0 {
		return "", fmt.Errorf("invalid document id %d", docID)
	}
	pages, err := a.cur().Pages(a.context(), docID, 0)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := pagetext.WriteDocument(&b, pages, true); err != nil {
		return "", err
	}
	return b.String(), nil
}

// errDesktopOnly is returned by verbs that need the desktop window's
// native dialogs; in the browser (serve mode) the page does the same its
// own way (a download, typed paths).
var errDesktopOnly = errors.New("this needs the desktop app's file dialog")

// SaveTextFile asks where to save a file (the desktop's native save
// dialog, offering name) and writes text there. It returns the path
// written, or "" when the user cancelled. In the browser the page
// downloads the file instead: this verb fails there (code desktop_only).
func (a *App) SaveTextFile(name, text string) (string, error) {
	a.mu.Lock()
	save := a.save
	a.mu.Unlock()
	if save == nil {
		return "", errDesktopOnly
	}
	name = filepath.Base(strings.TrimSpace(name))
	if name == "." || name == string(filepath.Separator) {
		name = ""
	}
	path, err := save(a.baseContext(), name)
	if err != nil {
		return "", fmt.Errorf("open save dialog: %w", err)
	}
	if path == "" {
		return "", nil
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return "", fmt.Errorf("save %s: %w", filepath.Base(path), err)
	}
	return path, nil
}

// saveFunc is the desktop's save dialog: the chosen path, "" when cancelled.
type saveFunc func(ctx context.Context, name string) (string, error)
