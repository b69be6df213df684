package app

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	"cairn/assets"
	"cairn/backend/project"
)

// sampleMarker is written into the Sample project once its documents have
// been imported, so that removing them is not undone at the next start.
const sampleMarker = ".cairn-sample-imported"

// HomeDir is Cairn's own data folder: $CAIRN_HOME when set, otherwise
// <data dir>/cairn where the data dir is $XDG_DATA_HOME or ~/.local/share on
// Linux and other Unixes, ~/Library/Application Support on macOS and
// %AppData% on Windows.
func HomeDir() (string, error) {
	if h := os.Getenv("CAIRN_HOME"); h != "" {
		return filepath.Abs(h)
	}
	base, err := dataDir(runtime.GOOS, os.Getenv, os.UserHomeDir)
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "cairn"), nil
}

func dataDir(goos string, getenv func(string) string, home func() (string, error)) (string, error) {
	switch goos {
	case "windows":
		if d := getenv("AppData"); d != "" {
			return d, nil
		}
		return "", errors.New("%AppData% is not set")
	case "darwin":
		h, err := home()
		if err != nil {
			return "", fmt.Errorf("find home folder: %w", err)
		}
		return filepath.Join(h, "Library", "Application Support"), nil
	default:
		if d := getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
			return d, nil
		}
		h, err := home()
		if err != nil {
			return "", fmt.Errorf("find home folder: %w", err)
		}
		return filepath.Join(h, ".local", "share"), nil
	}
}

// DefaultProjectDir is the project the desktop opens when given none:
// <HomeDir>/projects/Sample.
func DefaultProjectDir() (string, error) {
	h, err := HomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(h, "projects", "Sample"), nil
}

// RunDefaultDesktop is what `cairn` with no arguments does: open (creating it
// on first run) the Sample project in DefaultProjectDir, show the desktop
// window, and, the first time only, import the bundled sample documents in
// the background once the window is up, with progress shown in the Library.
func RunDefaultDesktop(assetsFS fs.FS) error {
	if generatingBindings {
		return RunDesktop(New(nil), assetsFS)
	}
	dir, err := DefaultProjectDir()
	if err != nil {
		return err
	}
	if last := lastProjectDir(dir); last != "" { // settings.go: the project opened last
		return runProjectDesktop(last, assetsFS, false)
	}
	return runProjectDesktop(dir, assetsFS, true)
}

// RunProjectDesktop opens the desktop window on the project in dir
// (created if missing), without the sample documents.
func RunProjectDesktop(dir string, assetsFS fs.FS) error {
	return runProjectDesktop(dir, assetsFS, false)
}

func runProjectDesktop(dir string, assetsFS fs.FS, sample bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create project folder: %w", err)
	}
	startupMark("open project")
	p, err := project.Open(dir)
	if err != nil {
		return fmt.Errorf("open project %s: %w", dir, err)
	}
	defer p.Close()
	startupMark("project opened")
	a := New(p)
	startupMark("app ready")
	if sample {
		ImportSampleOnReady(a)
	}
	return RunDesktop(a, assetsFS)
}

// ImportSampleOnReady arranges for the bundled sample documents to be
// imported into a's project once the UI is up (desktop window loaded, or
// server listening), unless that project has had them imported before.
func ImportSampleOnReady(a *App) {
	a.onReady(func() {
		if err := importSample(a); err != nil {
			slog.Warn("sample import", "err", err)
		}
	})
}

// importSample writes the embedded sample files to a temporary folder and
// imports them, then marks the project so it never happens twice.
func importSample(a *App) error {
	defer a.enter()()
	dir := a.cur().Dir()
	if _, err := os.Stat(filepath.Join(dir, sampleMarker)); err == nil {
		return nil
	}
	tmp, err := os.MkdirTemp("", "cairn-sample-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	files, err := extractSample(tmp)
	if err != nil {
		return err
	}
	if _, err := a.runImport(a.context(), files); err != nil {
		return fmt.Errorf("import sample documents: %w", err)
	}
	return os.WriteFile(filepath.Join(dir, sampleMarker), []byte("The sample documents were imported into this project.\n"), 0o644)
}

// extractSample copies the sample documents (not their README) into dir and
// returns their paths, sorted by name.
func extractSample(dir string) ([]string, error) {
	entries, err := fs.ReadDir(assets.Sample, "sample")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, e := range entries {
		if e.IsDir() || strings.EqualFold(e.Name(), "README.md") {
			continue
		}
		b, err := fs.ReadFile(assets.Sample, path.Join("sample", e.Name()))
		if err != nil {
			return nil, err
		}
		p := filepath.Join(dir, e.Name())
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}
