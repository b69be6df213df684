package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Paths read from the database (a document's stored copy) are data, not
// trusted: a project folder or backup received from someone else may hold any
// row. Every such path is confined to files/ before anything reads or deletes
// it.

// errOutside says a stored path leaves the project's files/ folder.
var errOutside = errors.New("stored path is outside the project's files folder")

// confineStored checks a stored path as recorded in the database: it must be
// "files/NAME" — relative, slash-separated, clean, below files/, no part
// hidden or "..", no drive letters — and returns it in the host's form.
func confineStored(rel string) (string, error) {
	if rel == "" || strings.ContainsAny(rel, "\\\x00") || path.IsAbs(rel) || filepath.IsAbs(rel) || filepath.VolumeName(rel) != "" {
		return "", errOutside
	}
	if path.Clean(rel) != rel {
		return "", errOutside
	}
	name, ok := strings.CutPrefix(rel, FilesDir+"/")
	if !ok || name == "" || strings.Contains(name, ":") {
		return "", errOutside
	}
	for _, part := range strings.Split(name, "/") {
		if part == "" || strings.HasPrefix(part, ".") {
			return "", errOutside
		}
	}
	return filepath.FromSlash(rel), nil
}

// ConfineStored is confineStored for the app's source viewer.
func ConfineStored(rel string) (string, error) { return confineStored(rel) }

// storedFile resolves a document's stored path to an absolute path inside
// the project: the path must pass confineStored and files/ must be a real
// folder of the project, not a symbolic link out of it.
func (p *Project) storedFile(rel string) (string, error) { return storedFileIn(p.dir, rel) }

// OpenStored opens the stored copy rel of the project in dir for reading
// (the app's source viewer): only a regular file inside files/.
func OpenStored(dir, rel string) (*os.File, error) { return openStoredIn(dir, rel) }

func storedFileIn(dir, rel string) (string, error) {
	local, err := confineStored(rel)
	if err != nil {
		return "", fmt.Errorf("%w: %q", err, rel)
	}
	files := filepath.Join(dir, FilesDir)
	st, err := os.Lstat(files)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return "", fmt.Errorf("%s in the project is not a folder (a link?); refusing to use it", FilesDir)
	}
	abs := filepath.Join(dir, local)
	if parent := filepath.Dir(abs); parent != files {
		// a sub-folder of files/ must not be a link out of it either
		realFiles, err1 := filepath.EvalSymlinks(files)
		realParent, err2 := filepath.EvalSymlinks(parent)
		if err1 != nil || err2 != nil {
			return "", fmt.Errorf("%w: %q", errOutside, rel)
		}
		if r, err := filepath.Rel(realFiles, realParent); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return "", fmt.Errorf("%w: %q", errOutside, rel)
		}
	}
	return abs, nil
}

// openStored opens a stored copy for reading: only a regular file (not a
// link, FIFO or device) inside the project.
func (p *Project) openStored(rel string) (*os.File, error) { return openStoredIn(p.dir, rel) }

func openStoredIn(dir, rel string) (*os.File, error) {
	abs, err := storedFileIn(dir, rel)
	if err != nil {
		return nil, err
	}
	st, err := os.Lstat(abs)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("stored copy %q is %s, not a regular file", rel, modeName(st.Mode()))
	}
	return openRegular(abs)
}

// modeName names a file type for a message.
func modeName(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "not a regular file"
}

// errNotRegular is returned by openRegular for anything but a regular file.
type errNotRegular struct{ mode fs.FileMode }

func (e errNotRegular) Error() string {
	return "it is " + modeName(e.mode) + ", not a regular file; only regular files are imported"
}

// openRegular opens path for reading without blocking (a FIFO opened for
// reading would wait forever for a writer) and returns it only when it is a
// regular file; a link is followed to what it names, which must be regular
// too (a link to /dev/zero is refused).
func openRegular(path string) (*os.File, error) {
	f, err := openNoBlock(path)
	if err != nil {
		// a socket cannot be opened at all: say what it is, not ENXIO
		if st, serr := os.Stat(path); serr == nil && !st.Mode().IsRegular() {
			return nil, errNotRegular{st.Mode()}
		}
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, errNotRegular{st.Mode()}
	}
	return f, nil
}
