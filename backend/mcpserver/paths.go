package mcpserver

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"cairn/backend/project"
)

var evalSymlinks = filepath.EvalSymlinks

// insideProject resolves a path given to the import tool (relative paths
// are relative to the project folder) and accepts it only when it, with
// its symlinks resolved, is inside the project folder and is not the
// project's own database or store of originals.
func (s *Server) insideProject(p string) (string, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		return "", errors.New("a path is empty")
	}
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("path %q contains a NUL byte", p)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(s.root, p)
	}
	real, err := evalSymlinks(filepath.Clean(p))
	if err != nil {
		if os.IsNotExist(err) {
			return "", fmt.Errorf("path %q does not exist", p)
		}
		return "", fmt.Errorf("path %q: %v", p, err)
	}
	rel, err := filepath.Rel(s.root, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", fmt.Errorf("path %q is outside the project folder %s: only files inside it can be imported", p, s.root)
	}
	first := strings.Split(rel, string(filepath.Separator))[0]
	if rel == "." || first == project.FilesDir || strings.HasPrefix(first, project.DBName) || strings.HasPrefix(first, ".cairn-") {
		return "", fmt.Errorf("path %q is the project's own data, not a document to import", p)
	}
	return real, nil
}
