package project

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Backup: a project exported as one zip holding a consistent snapshot of
// cairn.db (SQLite's VACUUM INTO, which reads inside one transaction, so it
// is safe while the app is indexing or answering) and every stored original
// under files/. Restoring unpacks it into an empty folder and checks it.

// maxRestoreBytes bounds what a restore will unpack (a hostile or damaged zip
// must not fill the disk): 64 GiB.
const maxRestoreBytes = 64 << 30

// Export writes the project to the zip file out (written to a temporary
// name and renamed, so a crash never leaves a half-written backup under the
// final name).
func (p *Project) Export(ctx context.Context, out string) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	if strings.HasPrefix(abs, p.dir+string(filepath.Separator)) {
		return fmt.Errorf("export: %s is inside the project folder; choose a place outside it", out)
	}
	tmpDir, err := os.MkdirTemp(filepath.Dir(abs), ".cairn-export-*")
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	defer os.RemoveAll(tmpDir)
	snap := filepath.Join(tmpDir, DBName)
	if _, err := p.store.DB.ExecContext(ctx, "VACUUM INTO ?", snap); err != nil {
		return fmt.Errorf("export: snapshot of the database: %w", err)
	}
	part := filepath.Join(tmpDir, "backup.zip")
	f, err := os.Create(part)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	zw := zip.NewWriter(f)
	err = addFileToZip(zw, snap, DBName)
	if err == nil {
		err = filepath.WalkDir(filepath.Join(p.dir, FilesDir), func(pth string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if !d.Type().IsRegular() || strings.HasPrefix(d.Name(), ".") {
				return nil
			}
			rel, err := filepath.Rel(p.dir, pth)
			if err != nil {
				return err
			}
			return addFileToZip(zw, pth, filepath.ToSlash(rel))
		})
	}
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := os.Rename(part, abs); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

func addFileToZip(zw *zip.Writer, src, name string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	h, err := zip.FileInfoHeader(st)
	if err != nil {
		return err
	}
	h.Name = name
	h.Method = zip.Deflate
	w, err := zw.CreateHeader(h)
	if err != nil {
		return err
	}
	_, err = io.Copy(w, in)
	return err
}

// Restore unpacks a zip written by Export into dir, which must not exist or
// be empty, then opens and checks the project. On any error the partly
// restored folder is removed.
func Restore(ctx context.Context, zipPath, dir string) (*Project, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if entries, err := os.ReadDir(abs); err == nil && len(entries) > 0 {
		return nil, fmt.Errorf("restore: %s is not empty; choose a new folder", dir)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("restore: %w", err)
	}
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		return nil, fmt.Errorf("restore: %s is not a readable zip: %w", zipPath, err)
	}
	defer zr.Close()
	hasDB := false
	for _, f := range zr.File {
		if f.Name == DBName {
			hasDB = true
		}
	}
	if !hasDB {
		return nil, fmt.Errorf("restore: %s is not a Cairn backup (no %s inside)", zipPath, DBName)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	fail := func(err error) (*Project, error) {
		os.RemoveAll(abs)
		return nil, fmt.Errorf("restore: %w", err)
	}
	var total int64
	for _, f := range zr.File {
		if ctx.Err() != nil {
			return fail(ctx.Err())
		}
		name, ok := safeBackupName(f.Name)
		if !ok {
			return fail(fmt.Errorf("entry %q is outside the project layout", f.Name))
		}
		if f.FileInfo().IsDir() {
			continue
		}
		dst := filepath.Join(abs, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fail(err)
		}
		n, err := extractZipEntry(f, dst, maxRestoreBytes-total)
		total += n
		if err != nil {
			return fail(fmt.Errorf("%s: %w", f.Name, err))
		}
	}
	p, err := Open(abs)
	if err != nil {
		return fail(err)
	}
	problems, err := p.Check(ctx)
	if err == nil && len(problems) > 0 {
		err = fmt.Errorf("the restored project fails its check: %s", strings.Join(problems, "; "))
	}
	if err != nil {
		p.Close()
		return fail(err)
	}
	return p, nil
}

// safeBackupName accepts only cairn.db and files/<name> (no traversal, no
// absolute paths, no other top-level entries).
func safeBackupName(name string) (string, bool) {
	if strings.Contains(name, "\\") || path.IsAbs(name) {
		return "", false
	}
	clean := path.Clean(name)
	if clean != name && clean+"/" != name {
		return "", false
	}
	if clean == DBName || clean == FilesDir {
		return clean, true
	}
	rest, ok := strings.CutPrefix(clean, FilesDir+"/")
	if !ok || rest == "" || strings.HasPrefix(rest, "..") || strings.Contains(rest, "/../") {
		return "", false
	}
	return clean, true
}

func extractZipEntry(f *zip.File, dst string, budget int64) (int64, error) {
	rc, err := f.Open()
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(out, io.LimitReader(rc, budget+1))
	if err == nil && n > budget {
		err = errors.New("backup larger than the restore limit")
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return n, err
}
