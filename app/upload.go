package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"

	"cairn/backend/project"
)

// Uploads (serve mode): a browser cannot hand Cairn the paths of files
// dropped on the page, so it sends their bytes.
//
//	POST /upload   multipart/form-data, one part per file; a part's file
//	               name may be a relative path ("folder/sub/a.pdf") for a
//	               dropped folder. Reply: {"result": [ImportResult…]} or
//	               {"error": "…"}.
//
// Like every request it needs the token, comes from loopback only and from
// the page's own origin (serve.go). The body is capped (uploadLimit) and
// streamed part by part to a temporary folder inside the open project, then
// imported exactly like files dropped on the desktop window (import events,
// indexing afterwards); the temporary copies are removed when the import
// ends, whatever its outcome (the project keeps its own copy of each
// imported original in files/).

// uploadLimit caps one upload request's body (all files together).
var uploadLimit int64 = 2 << 30

// uploadMaxFiles caps the number of files in one upload.
const uploadMaxFiles = 5000

// uploadDirPrefix names the temporary folders inside a project.
const uploadDirPrefix = ".upload-"

func (s *server) upload(w http.ResponseWriter, r *http.Request) {
	reply := func(code int, v callReply) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(v)
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		reply(http.StatusMethodNotAllowed, callReply{Error: "use POST"})
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "multipart/form-data" {
		reply(http.StatusUnsupportedMediaType, callReply{Error: "send the files as multipart/form-data"})
		return
	}
	if r.ContentLength > uploadLimit {
		reply(http.StatusRequestEntityTooLarge, callReply{Error: tooLarge()})
		return
	}
	a := s.app
	defer a.enter()()
	ctx := a.context()
	tmp, err := os.MkdirTemp(a.cur().Dir(), uploadDirPrefix)
	if err != nil {
		reply(http.StatusInternalServerError, callReply{Error: "make a temporary folder for the upload: " + err.Error()})
		return
	}
	defer os.RemoveAll(tmp)

	r.Body = http.MaxBytesReader(w, r.Body, uploadLimit)
	files, code, err := receiveFiles(r, tmp)
	if err != nil {
		reply(code, callReply{Error: err.Error()})
		return
	}
	if err := ctx.Err(); err != nil {
		reply(http.StatusServiceUnavailable, callReply{Error: "the project was closed during the upload"})
		return
	}
	// Import what was received as one batch, like a desktop drop.
	results, err := a.runImport(ctx, files)
	if results == nil {
		results = []project.ImportResult{}
	}
	if err != nil {
		reply(http.StatusOK, callReply{Error: err.Error()})
		return
	}
	reply(http.StatusOK, callReply{Result: results})
}

func tooLarge() string {
	return fmt.Sprintf("the files are too large to upload at once (limit %d MiB); import them by their paths instead", uploadLimit>>20)
}

// receiveFiles streams every file part of r's multipart body into dir and
// returns the paths to import: the files at dir's top level and the top
// folders of dropped folders (imported recursively). The HTTP status goes
// with an error.
func receiveFiles(r *http.Request, dir string) ([]string, int, error) {
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, http.StatusBadRequest, fmt.Errorf("read the upload: %w", err)
	}
	var tops []string
	seen := map[string]bool{}
	n := 0
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, uploadStatus(err), uploadError(err)
		}
		name := rawFileName(part)
		if name == "" {
			part.Close() // a plain form field: not a file
			continue
		}
		n++
		if n > uploadMaxFiles {
			return nil, http.StatusRequestEntityTooLarge, fmt.Errorf("too many files in one upload (limit %d)", uploadMaxFiles)
		}
		rel, err := uploadPath(name)
		if err != nil {
			return nil, http.StatusBadRequest, err
		}
		dst := filepath.Join(dir, filepath.FromSlash(rel))
		if seen[dst] {
			return nil, http.StatusBadRequest, fmt.Errorf("%s is in the upload twice", rel)
		}
		seen[dst] = true
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, http.StatusInternalServerError, err
		}
		f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return nil, http.StatusBadRequest, fmt.Errorf("%s: %w", rel, err)
		}
		_, cerr := io.Copy(f, part)
		if err := errors.Join(cerr, f.Close()); err != nil {
			return nil, uploadStatus(err), uploadError(err)
		}
		top := filepath.Join(dir, strings.SplitN(rel, "/", 2)[0])
		if !seen["top:"+top] {
			seen["top:"+top] = true
			tops = append(tops, top)
		}
	}
	if len(tops) == 0 {
		return nil, http.StatusBadRequest, errors.New("the upload holds no files")
	}
	return tops, http.StatusOK, nil
}

// rawFileName is a part's file name as sent: Part.FileName keeps only the
// base name, which would flatten a dropped folder.
func rawFileName(part *multipart.Part) string {
	_, params, err := mime.ParseMediaType(part.Header.Get("Content-Disposition"))
	if err != nil {
		return part.FileName()
	}
	return params["filename"]
}

// uploadPath turns a part's file name into a clean relative slash path with
// no empty, ".", ".." or hidden-by-accident elements; browsers send base
// names, or relative paths for folders; Windows ones may use backslashes.
func uploadPath(name string) (string, error) {
	name = strings.ReplaceAll(name, `\`, "/")
	var out []string
	for _, el := range strings.Split(name, "/") {
		switch {
		case el == "" || el == ".":
			continue
		case el == "..":
			return "", fmt.Errorf("file name %q climbs out of its folder", name)
		case strings.ContainsRune(el, 0) || strings.ContainsAny(el, ":"):
			return "", fmt.Errorf("file name %q is not allowed", name)
		}
		out = append(out, el)
	}
	if len(out) == 0 {
		return "", fmt.Errorf("file name %q is empty", name)
	}
	p := path.Join(out...)
	if len(p) > 1024 {
		return "", errors.New("file name too long")
	}
	return p, nil
}

func uploadStatus(err error) int {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return http.StatusRequestEntityTooLarge
	}
	return http.StatusBadRequest
}

func uploadError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return errors.New(tooLarge())
	}
	return fmt.Errorf("read the upload: %w", err)
}
