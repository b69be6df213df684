package project

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// removeAll is os.RemoveAll with a second, plainer attempt: when it fails,
// the tree is removed entry by entry with os.Remove, deepest first. Wine
// (which runs Cairn's Windows tests here) fails Go's os.RemoveAll on every
// file with "Invalid function", while os.Remove works; on Windows, Linux and
// macOS the first attempt does it all.
func removeAll(dir string) error {
	err := os.RemoveAll(dir)
	if err == nil {
		return nil
	}
	var paths []string
	walkErr := filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err == nil {
			paths = append(paths, p)
		}
		return nil
	})
	if walkErr != nil {
		return errors.Join(err, walkErr)
	}
	slices.Reverse(paths) // children before their folders
	for _, p := range paths {
		if rerr := os.Remove(p); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			return errors.Join(err, rerr)
		}
	}
	return nil
}
