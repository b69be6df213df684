package project

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"cairn/backend/store"
)

// Projects folder: the app keeps its projects as sibling folders under one
// root (<CAIRN_HOME>/projects). These helpers list, create, rename and
// delete them by name. They only ever touch folders directly under the root
// that hold a Cairn database (DBName), so a mistyped name can never reach
// anything else on the disk.

// Entry describes one project folder under a root.
type Entry struct {
	Name      string    `json:"name"`
	Dir       string    `json:"dir"`
	Documents int       `json:"documents"`
	Modified  time.Time `json:"modified,omitzero"`
	Error     string    `json:"error,omitempty"` // why Documents could not be counted
}

// MaxNameLen is the longest project name, in characters.
const MaxNameLen = 80

// ErrNotProject is returned for a folder without a Cairn database.
var ErrNotProject = errors.New("not a Cairn project")

// ValidateName checks a project name: it becomes a folder name, so it must
// be one path element that every desktop file system accepts.
func ValidateName(name string) error {
	switch {
	case name == "":
		return errors.New("a project needs a name")
	case name != strings.TrimSpace(name):
		return errors.New("a project name cannot start or end with spaces")
	case utf8.RuneCountInString(name) > MaxNameLen:
		return fmt.Errorf("a project name has at most %d characters", MaxNameLen)
	case name == "." || name == "..":
		return fmt.Errorf("%q cannot be a project name", name)
	case strings.HasPrefix(name, "."):
		return errors.New("a project name cannot start with a dot")
	case strings.HasSuffix(name, "."):
		return errors.New("a project name cannot end with a dot")
	}
	for _, r := range name {
		if unicode.IsControl(r) || strings.ContainsRune(`/\:*?"<>|`, r) {
			return fmt.Errorf("a project name cannot contain %q", r)
		}
	}
	return nil
}

// IsProject reports whether dir holds a Cairn database.
func IsProject(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, DBName))
	return err == nil && st.Mode().IsRegular()
}

// projectDir resolves name under root and checks it is a project.
func projectDir(root, name string) (string, error) {
	if err := ValidateName(name); err != nil {
		return "", err
	}
	dir := filepath.Join(root, name)
	if !IsProject(dir) {
		return "", fmt.Errorf("%s: %w", name, ErrNotProject)
	}
	return dir, nil
}

// List returns the projects directly under root, sorted by name (case
// folded). A missing root is an empty list.
func List(ctx context.Context, root string) ([]Entry, error) {
	des, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return []Entry{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list projects in %s: %w", root, err)
	}
	out := []Entry{}
	for _, de := range des {
		if !de.IsDir() || ValidateName(de.Name()) != nil {
			continue
		}
		dir := filepath.Join(root, de.Name())
		if !IsProject(dir) {
			continue
		}
		out = append(out, Describe(ctx, dir))
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := strings.ToLower(out[i].Name), strings.ToLower(out[j].Name)
		if a != b {
			return a < b
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

// Describe summarises the project in dir without opening it for writing:
// the document count comes from a read-only query, so listing never
// migrates or locks a project.
func Describe(ctx context.Context, dir string) Entry {
	e := Entry{Name: filepath.Base(dir), Dir: dir}
	if st, err := os.Stat(filepath.Join(dir, DBName)); err == nil {
		e.Modified = st.ModTime().UTC().Truncate(time.Second)
	}
	n, err := countDocuments(ctx, filepath.Join(dir, DBName))
	if err != nil {
		e.Error = err.Error()
	}
	e.Documents = n
	return e
}

func countDocuments(ctx context.Context, path string) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return store.CountDocuments(ctx, path)
}

// Create makes a new, empty project called name under root and returns its
// folder. The name must not be taken (by a project or any other file).
func Create(root, name string) (string, error) {
	if err := ValidateName(name); err != nil {
		return "", err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", fmt.Errorf("create projects folder: %w", err)
	}
	dir := filepath.Join(root, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("a project or folder called %q already exists", name)
		}
		return "", fmt.Errorf("create project %q: %w", name, err)
	}
	p, err := Open(dir)
	if err != nil {
		os.RemoveAll(dir) // only what Open just created
		return "", err
	}
	if err := p.Close(); err != nil {
		return "", err
	}
	return dir, nil
}

// Rename renames project from to to (both under root) and returns the new
// folder. The project must not be open: callers close it first.
func Rename(root, from, to string) (string, error) {
	src, err := projectDir(root, from)
	if err != nil {
		return "", err
	}
	if err := ValidateName(to); err != nil {
		return "", err
	}
	if from == to {
		return src, nil
	}
	dst := filepath.Join(root, to)
	// Only a case change may find dst "existing" (case-insensitive file
	// systems): then it is the same folder.
	if _, err := os.Lstat(dst); err == nil && !strings.EqualFold(from, to) {
		return "", fmt.Errorf("a project or folder called %q already exists", to)
	}
	if err := os.Rename(src, dst); err != nil {
		return "", fmt.Errorf("rename project %q to %q: %w", from, to, err)
	}
	return dst, nil
}

// Delete removes project name under root with everything in it (its
// database and its copies of the imported files; the user's originals are
// elsewhere and untouched). The project must not be open.
func Delete(root, name string) error {
	dir, err := projectDir(root, name)
	if err != nil {
		return err
	}
	// Move it aside first, so a deletion interrupted halfway never leaves a
	// half project that still lists under its name.
	trash, err := os.MkdirTemp(root, ".deleting-")
	if err != nil {
		return fmt.Errorf("delete project %q: %w", name, err)
	}
	aside := filepath.Join(trash, "p")
	if err := os.Rename(dir, aside); err != nil {
		os.Remove(trash)
		return fmt.Errorf("delete project %q: %w", name, err)
	}
	if err := removeAll(trash); err != nil {
		return fmt.Errorf("delete project %q: %w", name, err)
	}
	return nil
}
