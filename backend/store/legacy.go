package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// adoptLegacy moves a project's database into the project folder from where
// an older Cairn put it (LegacyPath: a folder name with '#', '?' or '%' cut
// the path short, so "C# notes/cairn.db" was written as "C"). It does so
// only when the project has no database yet, the misplaced file is a Cairn
// database, and it passes a consistency check: SQLite's integrity and
// foreign-key checks, and every document's stored original present in this
// project's folder (a database two projects shared fails this, and is left
// where it is with an error saying so). The -wal and -shm files move with
// it. It returns what it did, for the user ("" when nothing).
func adoptLegacy(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	legacy := LegacyPath(abs)
	if legacy == abs {
		return "", nil
	}
	if _, err := os.Lstat(abs); err == nil {
		return "", nil // the project has its own database
	}
	if !isCairnDB(legacy) {
		return "", nil
	}
	if why := legacyProblem(legacy, filepath.Dir(abs)); why != "" {
		return "", fmt.Errorf("this project's database was written by an older version of Cairn to %s, outside the project folder (because of the %q in the folder's name), and was not moved in: %s. Move it by hand to %s, or delete it to start the project empty", legacy, abs[strings.IndexAny(abs, "#?%"):][:1], why, abs)
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if _, err := os.Lstat(legacy + suffix); err != nil {
			continue
		}
		if err := os.Rename(legacy+suffix, abs+suffix); err != nil {
			return "", fmt.Errorf("move the project database from %s into the project folder: %w", legacy, err)
		}
	}
	return fmt.Sprintf("moved this project's database into the project folder from %s, where an older version of Cairn had put it", legacy), nil
}

// isCairnDB reports whether the regular file at path is an SQLite database
// with Cairn's tables.
func isCairnDB(path string) bool {
	st, err := os.Lstat(path)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	head := make([]byte, 16)
	_, err = f.Read(head)
	f.Close()
	if err != nil || !bytes.Equal(head, []byte("SQLite format 3\x00")) {
		return false
	}
	db, err := openCheck(path)
	if err != nil {
		return false
	}
	defer db.Close()
	var n int
	err = db.QueryRow("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('documents', 'chunks', 'meta')").Scan(&n)
	return err == nil && n == 3
}

// openCheck opens path read-only without changing its journal mode.
func openCheck(path string) (*sql.DB, error) {
	dsn, err := connString(path, false)
	if err != nil {
		return nil, err
	}
	dsn = dsn[:strings.IndexByte(dsn, '?')] + "?mode=ro&_pragma=busy_timeout(10000)"
	return sql.Open("sqlite", dsn)
}

// legacyProblem is why the database at legacy may not become the database of
// the project in dir ("" when it may).
func legacyProblem(legacy, dir string) string {
	db, err := openCheck(legacy)
	if err != nil {
		return err.Error()
	}
	defer db.Close()
	ctx := context.Background()
	var ok string
	if err := db.QueryRowContext(ctx, "PRAGMA quick_check").Scan(&ok); err != nil {
		return "the integrity check failed: " + err.Error()
	}
	if ok != "ok" {
		return "the integrity check failed: " + ok
	}
	var fk int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM pragma_foreign_key_check").Scan(&fk); err != nil {
		return "the foreign-key check failed: " + err.Error()
	}
	if fk > 0 {
		return fmt.Sprintf("%d rows violate foreign keys", fk)
	}
	rows, err := db.QueryContext(ctx, "SELECT stored_path FROM documents WHERE stored_path <> ''")
	if err != nil {
		return err.Error()
	}
	defer rows.Close()
	missing, total := 0, 0
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return err.Error()
		}
		total++
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
			missing++
		}
	}
	if err := rows.Err(); err != nil {
		return err.Error()
	}
	if missing > 0 {
		return fmt.Sprintf("%d of its %d documents' originals are not in this project's files folder (it may be shared with another project whose folder name starts the same way)", missing, total)
	}
	return ""
}
