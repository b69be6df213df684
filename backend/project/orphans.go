package project

import (
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Orphans are stored originals in files/ that no document references: a
// document row lost with a deleted -wal file after a crash, an import killed
// between copying the file and recording it, or a file put there by hand.
// `cairn check` reports them and `cairn check --repair` imports them again.

// Orphans lists the stored originals no document references, as paths
// relative to the project folder ("files/NAME").
func (p *Project) Orphans(ctx context.Context) ([]string, error) {
	docs, err := p.store.Documents(ctx)
	if err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, d := range docs {
		known[d.StoredPath] = true
	}
	entries, err := os.ReadDir(filepath.Join(p.dir, FilesDir))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || e.IsDir() {
			continue
		}
		if rel := FilesDir + "/" + e.Name(); !known[rel] {
			out = append(out, rel)
		}
	}
	sort.Strings(out)
	return out, nil
}

// Repair imports the orphans again, under the file name they were stored
// with (the part after the content-hash prefix). An orphan whose bytes end
// up stored under another name (a duplicate of a document, or a file whose
// name does not match its content) is removed once the project holds them.
func (p *Project) Repair(ctx context.Context, progress func(Progress)) ([]ImportResult, error) {
	orphans, err := p.Orphans(ctx)
	if err != nil || len(orphans) == 0 {
		return nil, err
	}
	opt := ImportOptions{names: map[string]string{}}
	var paths []string
	byPath := map[string]string{}
	for _, rel := range orphans {
		abs, err := p.storedFile(rel)
		if err != nil {
			continue
		}
		paths = append(paths, abs)
		byPath[abs] = rel
		opt.names[abs] = originalName(filepath.Base(abs))
	}
	results, err := p.ImportWith(ctx, paths, opt, progress)
	for _, r := range results {
		rel := byPath[r.File]
		if r.DocID == 0 || rel == "" {
			continue
		}
		d, derr := p.store.Document(ctx, r.DocID)
		if derr != nil || d.StoredPath == rel {
			continue
		}
		if h, herr := p.hashStored(d.StoredPath); herr == nil && h == d.Hash {
			if oh, oerr := p.hashStored(rel); oerr == nil && oh == d.Hash {
				os.Remove(filepath.Join(p.dir, filepath.FromSlash(rel)))
			}
		}
	}
	return results, err
}

// originalName strips the 12-hex-digit content prefix Cairn gives stored
// copies ("0123456789ab-report.pdf" → "report.pdf").
func originalName(base string) string {
	if len(base) > 13 && base[12] == '-' {
		if _, err := hex.DecodeString(base[:12]); err == nil {
			return base[13:]
		}
	}
	return base
}

// leftovers reports what files/ holds besides stored originals: folders
// and hidden files (a temporary folder an older export left, a partial copy
// of an import killed midway) that no document uses. A backup skips them.
// Partial copies of a running import (.incoming-*) are not reported.
func (p *Project) leftovers() []string {
	entries, err := os.ReadDir(filepath.Join(p.dir, FilesDir))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, ".incoming-"):
		case e.IsDir():
			out = append(out, fmt.Sprintf("files/%s is a folder no document uses (a leftover, such as an interrupted export's temporary folder); backups skip it: delete it to free the space", name))
		case strings.HasPrefix(name, "."):
			out = append(out, fmt.Sprintf("files/%s is a hidden file no document uses (a leftover); backups skip it: delete it to free the space", name))
		}
	}
	return out
}
