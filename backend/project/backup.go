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

// The database in a backup may unpack to at most restoreDBRatio times its
// compressed size, or restoreDBFloor, whichever is larger (SQLite files
// deflate 2–5×; a bomb deflates 1000×).
const (
	restoreDBRatio = 50
	restoreDBFloor = 64 << 20
	// a stored original over restoreDBFloor may unpack to at most this
	// many times its compressed size (imported files are at most
	// MaxFileBytes, and documents deflate a few times, not hundreds)
	restoreFileRatio = 200
)

// Export writes the project to the zip file out (written to a temporary
// name and renamed, so a crash never leaves a half-written backup under the
// final name). It never replaces an existing file: see ExportOver.
func (p *Project) Export(ctx context.Context, out string) error { return p.ExportOver(ctx, out, false) }

// ExportOver is Export that, with force, replaces an existing regular file
// at out. Whatever else is there — a folder, a link, a FIFO, a device — is
// always refused.
func (p *Project) ExportOver(ctx context.Context, out string, force bool) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	if strings.HasPrefix(abs, p.dir+string(filepath.Separator)) {
		return fmt.Errorf("export: %s is inside the project folder; choose a place outside it", out)
	}
	if err := exportDestination(abs, out, force); err != nil {
		return err
	}
	tmpDir, err := os.MkdirTemp(filepath.Dir(abs), ".cairn-export-*")
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	defer os.RemoveAll(tmpDir)
	snap := filepath.Join(tmpDir, DBName)
	if err := p.store.Snapshot(ctx, snap); err != nil {
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
	// Checked again just before the rename: something may have appeared
	// at the destination while the backup was written.
	if err := exportDestination(abs, out, force); err != nil {
		return err
	}
	if err := os.Rename(part, abs); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// exportDestination says whether a backup may be written at abs (shown to
// the user as out): nothing there, or a regular file and force.
func exportDestination(abs, out string, force bool) error {
	st, err := os.Lstat(abs)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("export: %s is %s; a backup is only written as a new file (or over a regular file with --force)", out, modeName(st.Mode()))
	}
	if !force {
		return fmt.Errorf("export: %s already exists; choose another name, or add --force to replace it", out)
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
	// The database first, under a ratio cap: a SQLite file compresses a few
	// times, never a thousand.
	var db *zip.File
	for _, f := range zr.File {
		if _, ok := safeBackupName(f.Name); !ok {
			return fail(fmt.Errorf("entry %q is outside the project layout", f.Name))
		}
		if f.Name == DBName {
			db = f
		}
	}
	dbBudget := int64(min(uint64(maxRestoreBytes), max(uint64(restoreDBFloor), db.CompressedSize64*restoreDBRatio)))
	if db.UncompressedSize64 > uint64(dbBudget) {
		return fail(fmt.Errorf("%s unpacks to %d MiB from %d KiB, which no Cairn database does: the backup is damaged or a decompression bomb", DBName, db.UncompressedSize64>>20, db.CompressedSize64>>10))
	}
	if _, err := extractZipEntry(db, filepath.Join(abs, DBName), dbBudget); err != nil {
		return fail(fmt.Errorf("%s: %w", DBName, err))
	}
	p, err := Open(abs)
	if err != nil {
		return fail(err)
	}
	failOpen := func(err error) (*Project, error) {
		p.Close()
		return fail(err)
	}
	// Every other entry must be the stored copy of a document, of the size
	// the document records; rows must point inside files/.
	docs, err := p.store.Documents(ctx)
	if err != nil {
		return failOpen(err)
	}
	want := map[string]int64{}
	for _, d := range docs {
		if d.StoredPath == "" {
			continue
		}
		if _, err := confineStored(d.StoredPath); err != nil {
			return failOpen(fmt.Errorf("document %d's stored copy %q is outside the project's files folder; this backup cannot be restored safely", d.ID, d.StoredPath))
		}
		want[d.StoredPath] = d.Bytes
	}
	var total int64
	for _, f := range zr.File {
		if ctx.Err() != nil {
			return failOpen(ctx.Err())
		}
		if f.Name == DBName || f.FileInfo().IsDir() {
			continue
		}
		size, ok := want[f.Name]
		if !ok {
			return failOpen(fmt.Errorf("entry %q is not the stored copy of any document in the backup; refusing unknown files", f.Name))
		}
		if f.UncompressedSize64 != uint64(size) {
			return failOpen(fmt.Errorf("entry %q unpacks to %d bytes but its document has %d", f.Name, f.UncompressedSize64, size))
		}
		if size > MaxFileBytes || (size > restoreDBFloor && f.UncompressedSize64 > restoreFileRatio*f.CompressedSize64) {
			return failOpen(fmt.Errorf("entry %q unpacks to %d MiB from %d KiB: no imported file is that large or that compressible; the backup is damaged or a decompression bomb", f.Name, size>>20, f.CompressedSize64>>10))
		}
		if total+size > maxRestoreBytes {
			return failOpen(errors.New("backup larger than the restore limit"))
		}
		dst := filepath.Join(abs, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return failOpen(err)
		}
		n, err := extractZipEntry(f, dst, size)
		total += n
		if err != nil {
			return failOpen(fmt.Errorf("%s: %w", f.Name, err))
		}
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
