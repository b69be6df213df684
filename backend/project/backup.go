package project

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"cairn/backend/kb"
	"cairn/backend/store"
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

// What a backup holds — the one definition Export writes and Restore
// accepts: cairn.db (a snapshot), and for every document of that snapshot
// with a stored copy, that copy under its stored path (files/NAME, confined
// to files/), of the size and hash its row records. Nothing else: an
// orphaned original (its row lost), a folder or hidden file left in files/
// (an interrupted export's temporary folder, a partial import copy) is
// skipped by Export with a note, and refused by Restore.

// backupFiles maps each stored path a backup holds to the size its row
// records, from the backup's own document rows. A row pointing outside
// files/ is an error: such a backup cannot be written or restored safely.
func backupFiles(docs []kb.Document) (map[string]kb.Document, error) {
	want := map[string]kb.Document{}
	for _, d := range docs {
		if d.StoredPath == "" {
			continue
		}
		if _, err := confineStored(d.StoredPath); err != nil {
			return nil, fmt.Errorf("document %d's stored copy %q is outside the project's files folder; this backup cannot be restored safely", d.ID, d.StoredPath)
		}
		want[d.StoredPath] = d
	}
	return want, nil
}

// ExportReport says what Export wrote and what it left out.
type ExportReport struct {
	Out       string   `json:"out"`       // the backup's real path (links resolved)
	Documents int      `json:"documents"` // document rows in the snapshot
	Files     int      `json:"files"`     // stored copies in the backup
	Bytes     int64    `json:"bytes"`     // the zip's size
	Skipped   []string `json:"skipped"`   // what files/ holds that a backup does not, and why
}

// Export writes the project to the zip file out (written to a temporary
// name and renamed, so a crash never leaves a half-written backup under the
// final name). It never replaces an existing file: see ExportOver.
func (p *Project) Export(ctx context.Context, out string) error { return p.ExportOver(ctx, out, false) }

// ExportOver is Export that, with force, replaces an existing regular file
// at out. Whatever else is there — a folder, a link, a FIFO, a device — is
// always refused.
func (p *Project) ExportOver(ctx context.Context, out string, force bool) error {
	_, err := p.ExportWith(ctx, out, force)
	return err
}

// ExportWith is ExportOver, reporting what was written and skipped. The
// destination is judged by its real path: links and ".." in out (or in its
// folders) are resolved, and a destination inside the project folder —
// however it is reached, a bind mount included when the folder is the same
// file — is refused. The temporary folder lives beside the destination, so
// outside the project; the zip holds only what backupFiles names, each
// stored copy read up to the size its row records, so export never reads
// its own output and its size is bounded by the project's documents. ctx
// (Ctrl-C) stops it; everything temporary is removed on every return.
func (p *Project) ExportWith(ctx context.Context, out string, force bool) (ExportReport, error) {
	var rep ExportReport
	abs, err := filepath.Abs(out)
	if err != nil {
		return rep, err
	}
	real, err := p.exportPath(abs, out)
	if err != nil {
		return rep, err
	}
	rep.Out = real
	for _, dst := range []string{abs, real} {
		if err := exportDestination(dst, out, force); err != nil {
			return rep, err
		}
	}
	tmpDir, err := os.MkdirTemp(filepath.Dir(real), ".cairn-export-*")
	if err != nil {
		return rep, fmt.Errorf("export: %w", err)
	}
	defer removeAll(tmpDir)
	snap := filepath.Join(tmpDir, DBName)
	if err := p.store.Snapshot(ctx, snap); err != nil {
		if ctx.Err() != nil {
			return rep, fmt.Errorf("export: stopped: %w", ctx.Err())
		}
		return rep, fmt.Errorf("export: snapshot of the database: %w", err)
	}
	docs, err := store.SnapshotDocuments(ctx, snap)
	if err != nil {
		return rep, fmt.Errorf("export: %w", err)
	}
	want, err := backupFiles(docs)
	if err != nil {
		return rep, fmt.Errorf("export: %w", err)
	}
	rep.Documents, rep.Skipped = len(docs), p.notBackedUp(want)
	part := filepath.Join(tmpDir, "backup.zip")
	f, err := os.OpenFile(part, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return rep, fmt.Errorf("export: %w", err)
	}
	zw := zip.NewWriter(f)
	err = addFileToZip(ctx, zw, snap, DBName)
	for _, rel := range sortedKeys(want) {
		if err != nil {
			break
		}
		err = p.addStoredToZip(ctx, zw, want[rel])
		rep.Files++
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
		if ctx.Err() != nil {
			return rep, fmt.Errorf("export: stopped, nothing written: %w", ctx.Err())
		}
		return rep, fmt.Errorf("export: %w", err)
	}
	// Checked again just before the rename: something may have appeared
	// at the destination while the backup was written.
	for _, dst := range []string{abs, real} {
		if err := exportDestination(dst, out, force); err != nil {
			return rep, err
		}
	}
	if st, err := os.Stat(part); err == nil {
		rep.Bytes = st.Size()
	}
	if err := os.Rename(part, real); err != nil {
		return rep, fmt.Errorf("export: %w", err)
	}
	return rep, nil
}

// exportPath is where a backup named abs (out as the user wrote it) really
// goes: its folder with every link and ".." resolved. A folder that is the
// project or inside it is refused, by path and by identity (os.SameFile on
// each ancestor catches a bind mount or another name of the same folder).
func (p *Project) exportPath(abs, out string) (string, error) {
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return "", fmt.Errorf("export: the folder for %s cannot be used: %w", out, err)
	}
	real := filepath.Join(dir, filepath.Base(abs))
	proj, err := filepath.EvalSymlinks(p.dir)
	if err != nil {
		return "", fmt.Errorf("export: %w", err)
	}
	refuse := fmt.Errorf("export: %s is inside the project folder (%s is %s); a backup is written outside the project: choose another place", out, filepath.Dir(out), filepathInside(dir, proj))
	if dir == proj || strings.HasPrefix(dir, proj+string(filepath.Separator)) {
		return "", refuse
	}
	pst, err := os.Stat(proj)
	if err != nil {
		return "", fmt.Errorf("export: %w", err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if st, err := os.Stat(d); err == nil && os.SameFile(st, pst) {
			return "", refuse
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return real, nil
}

// filepathInside words where dir lies in the project proj.
func filepathInside(dir, proj string) string {
	if rel, err := filepath.Rel(proj, dir); err == nil && !strings.HasPrefix(rel, "..") {
		if rel == "." {
			return "the project folder " + proj
		}
		return filepath.Join(proj, rel)
	}
	return "the project folder under another name " + dir
}

// notBackedUp lists, for the user, what files/ holds that a backup does not.
func (p *Project) notBackedUp(want map[string]kb.Document) []string {
	entries, err := os.ReadDir(filepath.Join(p.dir, FilesDir))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		rel := FilesDir + "/" + e.Name()
		if _, ok := want[rel]; ok {
			continue
		}
		switch {
		case e.IsDir():
			out = append(out, rel+"/: a folder no document uses (a leftover)")
		case strings.HasPrefix(e.Name(), ".incoming-"):
			out = append(out, rel+": a partial copy of an import in progress or interrupted")
		case strings.HasPrefix(e.Name(), "."):
			out = append(out, rel+": a hidden file no document uses (a leftover)")
		default:
			out = append(out, rel+": an original no document references (cairn check --repair imports it again)")
		}
	}
	return out
}

// addStoredToZip adds document d's stored copy, reading at most the size
// its row records and checking its size and hash: a copy that differs
// stops the export (the backup would not restore).
func (p *Project) addStoredToZip(ctx context.Context, zw *zip.Writer, d kb.Document) error {
	in, err := p.openStored(d.StoredPath)
	if err != nil {
		return fmt.Errorf("document %d (%s): its stored copy cannot be read (%v); cairn check shows it, cairn remove %d drops the document; the backup was not written", d.ID, d.FileName, err, d.ID)
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
	h.Name, h.Method = d.StoredPath, zip.Deflate
	w, err := zw.CreateHeader(h)
	if err != nil {
		return err
	}
	sum := sha256.New()
	n, err := io.Copy(io.MultiWriter(w, sum), &ctxReader{ctx: ctx, r: io.LimitReader(in, d.Bytes+1)})
	if err != nil {
		return err
	}
	if n != d.Bytes || hex.EncodeToString(sum.Sum(nil)) != d.Hash {
		return fmt.Errorf("document %d (%s): its stored copy differs from what the project recorded (size %d, recorded %d); cairn check shows it; the backup was not written", d.ID, d.FileName, n, d.Bytes)
	}
	return nil
}

// ctxReader stops a copy when ctx ends (Ctrl-C).
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *ctxReader) Read(b []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(b)
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

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

func addFileToZip(ctx context.Context, zw *zip.Writer, src, name string) error {
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
	_, err = io.Copy(w, &ctxReader{ctx: ctx, r: in})
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
	want, err := backupFiles(docs) // the same definition Export wrote
	if err != nil {
		return failOpen(err)
	}
	var total int64
	for _, f := range zr.File {
		if ctx.Err() != nil {
			return failOpen(ctx.Err())
		}
		if f.Name == DBName || f.FileInfo().IsDir() {
			continue
		}
		d, ok := want[f.Name]
		size := d.Bytes
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
	problems, err := p.checkContent(ctx)
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
