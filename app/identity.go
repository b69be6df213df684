package app

import (
	"fmt"
	"strings"

	"cairn/backend/kb"
)

// Document identity and scope: the user renames a document (its title and,
// optionally, its organisation, kind and period), or gives the title back to
// Cairn's choice; and questions and searches are aimed at chosen documents
// (scopeIDs checks the ids the UI sends).

// maxScopeDocs caps the documents one scope names.
const maxScopeDocs = 10000

// scopeIDs checks the document ids of a scope: positive, at most
// maxScopeDocs, duplicates dropped (order kept). None (nil or empty) is the
// whole project. Ids not in the project are refused by the project itself.
func scopeIDs(docs []int64) ([]int64, error) {
	if len(docs) == 0 {
		return nil, nil
	}
	if len(docs) > maxScopeDocs {
		return nil, fmt.Errorf("a question can be aimed at %d documents at most, not %d", maxScopeDocs, len(docs))
	}
	out := make([]int64, 0, len(docs))
	seen := make(map[int64]bool, len(docs))
	for _, id := range docs {
		if id <= 0 {
			return nil, fmt.Errorf("invalid document id %d", id)
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out, nil
}

// DocumentIdentity is what the user may edit of a document: the title
// shown everywhere (Library, citations, search results, mind maps) and the
// organisation, kind and period beside it.
type DocumentIdentity struct {
	Title        string `json:"title"`
	Organisation string `json:"organisation"`
	DocType      string `json:"doc_type"`
	Period       string `json:"period"`
}

// RenameDocument gives a document the user's title, keeping its
// organisation, kind and period. The file is not read again; citations and
// search results show the new title from now on, and recomputing the
// library's titles leaves it alone (ResetDocumentTitle undoes it).
func (a *App) RenameDocument(docID int64, title string) (kb.Document, error) {
	defer a.enter()()
	d, err := a.document(a.context(), docID)
	if err != nil {
		return kb.Document{}, err
	}
	return a.editIdentity(docID, DocumentIdentity{Title: title, Organisation: d.Organisation, DocType: d.DocType, Period: d.Period})
}

// EditDocumentIdentity sets a document's title, organisation, kind and
// period as the user wrote them (a blank field is stored blank; a blank
// title is refused).
func (a *App) EditDocumentIdentity(docID int64, edit DocumentIdentity) (kb.Document, error) {
	defer a.enter()()
	if _, err := a.document(a.context(), docID); err != nil {
		return kb.Document{}, err
	}
	return a.editIdentity(docID, edit)
}

func (a *App) editIdentity(docID int64, edit DocumentIdentity) (kb.Document, error) {
	title := oneLine(edit.Title)
	if title == "" {
		return kb.Document{}, fmt.Errorf("type a title for the document")
	}
	p, err := a.openProject()
	if err != nil {
		return kb.Document{}, err
	}
	d, err := p.EditIdentity(a.context(), docID, title, oneLine(edit.Organisation), oneLine(edit.DocType), oneLine(edit.Period))
	if err != nil {
		return kb.Document{}, err
	}
	a.emit(EventLibraryChanged, nil)
	return d, nil
}

// ResetDocumentTitle gives a document's title, organisation, kind and
// period back to Cairn's choice, decided again for the whole library.
func (a *App) ResetDocumentTitle(docID int64) (kb.Document, error) {
	defer a.enter()()
	if _, err := a.document(a.context(), docID); err != nil {
		return kb.Document{}, err
	}
	p, err := a.openProject()
	if err != nil {
		return kb.Document{}, err
	}
	d, err := p.ResetIdentity(a.context(), docID)
	if err != nil {
		return kb.Document{}, err
	}
	a.emit(EventLibraryChanged, nil)
	return d, nil
}

// oneLine folds a field's whitespace (newlines included) into single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
