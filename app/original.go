package app

import (
	"net/http"
	"strconv"
	"strings"

	"cairn/backend/project"
)

// originalPrefix is the URL path of the originals endpoint: GET
// /original/<document id> answers with the document's stored original as
// bytes (not base64 JSON), with range requests, so pdf.js fetches what it
// needs of a large PDF. Serve mode routes it behind the token checks;
// the desktop window's asset server passes it the requests its assets do
// not answer.
const originalPrefix = "/original/"

// serveOriginal answers GET/HEAD originalPrefix<id>.
func (a *App) serveOriginal(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.URL.Path, originalPrefix) {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(r.URL.Path, originalPrefix), 10, 64)
	if err != nil || id <= 0 {
		http.Error(w, "no such document", http.StatusNotFound)
		return
	}
	defer a.enter()()
	d, err := a.document(r.Context(), id)
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	if _, err := a.storedPath(d); err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	// opened only as a regular file inside files/ (not through a link out
	// of the project: the database may come from someone else)
	f, err := project.OpenStored(a.cur().Dir(), d.StoredPath)
	if err != nil {
		http.Error(w, "the stored copy of "+d.FileName+" is missing or unusable", http.StatusNotFound)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		http.Error(w, "the stored copy of "+d.FileName+" is not a file", http.StatusNotFound)
		return
	}
	ctype := "application/octet-stream"
	if d.Kind == "pdf" {
		ctype = "application/pdf"
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Cache-Control", "no-store")
	// ServeContent answers Range and If-Range, with Accept-Ranges: bytes.
	http.ServeContent(w, r, "", st.ModTime(), f)
}
