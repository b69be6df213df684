package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	sqlite "modernc.org/sqlite"
)

// maxPathBytes is the longest database path SQLite's unix file layer opens:
// its buffer is 512 bytes including the terminating NUL (MAX_PATHNAME).
const maxPathBytes = 511

// BusyTimeout is how long a write waits for another connection's write
// transaction (another process importing, indexing or removing) before it
// gives up with ErrBusy's message. Writers' transactions are short (one
// document, one batch of chunks), so a wait this long means something held
// the project far longer than any step should.
const BusyTimeout = 60 * time.Second

// pragmas are set on every read-write connection (busy_timeout first: the
// driver applies it before the others, so switching a new database to WAL
// waits for another process doing the same instead of failing).
// busy_timeout comes first: the pragmas run in order as a connection
// opens, and journal_mode(WAL) on a new database needs a lock that another
// process (or connection) opening it at the same moment may hold; without
// the timeout set yet it failed at once with SQLITE_BUSY.
var pragmas = []string{fmt.Sprintf("busy_timeout(%d)", BusyTimeout.Milliseconds()), "foreign_keys(1)", "journal_mode(WAL)", "synchronous(NORMAL)", "mmap_size(1073741824)"}

// connString is the connection string that opens the file at path exactly:
// a file: URI whose path has every byte except unreserved characters and '/'
// percent-escaped, so '#', '?', '%', spaces, quotes and non-ASCII names are
// taken literally (SQLite reads '#' as the start of a fragment and '?' as the
// start of the options, and decodes %XX), followed by the options. ro opens
// the file read-only and immutable (a read-only folder, where SQLite cannot
// create the -wal and -shm files a reader of a WAL database needs).
func connString(path string, ro bool) (string, error) {
	return connStringMode(path, ro, ro)
}

// connStringMode is connString with read-only and immutable apart: a
// read-only database file in a writable folder is opened read-only but not
// immutable (SQLite can still read its -wal through a -shm it creates).
func connStringMode(path string, ro, immutable bool) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	q := url.Values{}
	if ro {
		q.Set("mode", "ro")
		if immutable {
			q.Set("immutable", "1")
		}
		q.Add("_pragma", "foreign_keys(1)")
		q.Add("_pragma", "query_only(1)")
		q.Add("_pragma", "mmap_size(1073741824)")
	} else {
		for _, p := range pragmas {
			q.Add("_pragma", p)
		}
		// Every read-write transaction starts with BEGIN IMMEDIATE: it
		// takes the write lock first (waiting under busy_timeout), so a
		// transaction that read and then writes never meets SQLITE_BUSY
		// without waiting (a deferred one that read an older snapshot
		// while another process committed fails at once with code 5 or
		// 517). Read-only transactions (sql.TxOptions.ReadOnly) stay
		// deferred and never wait.
		q.Set("_txlock", "immediate")
	}
	return "file:" + escapeURIPath(filepath.ToSlash(abs)) + "?" + q.Encode(), nil
}

// escapeURIPath percent-escapes every byte of p except A-Z a-z 0-9 - . _ ~ /.
// A Windows path (C:/x) gets the leading slash a file URI needs.
func escapeURIPath(p string) string {
	var b strings.Builder
	if !strings.HasPrefix(p, "/") {
		b.WriteByte('/')
	}
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("-._~/", c) >= 0:
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// LegacyPath is where Cairn before the connection-string fix opened the
// database at path: it pasted the path into a file: URI unescaped, so SQLite
// cut it at the first '#' or '?' and decoded %XX. It equals path when the path
// has none of those characters.
func LegacyPath(path string) string {
	p := path
	if i := strings.IndexAny(p, "#?"); i >= 0 {
		p = p[:i]
	}
	if !strings.Contains(p, "%") {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '%' && i+2 < len(p) && isHex(p[i+1]) && isHex(p[i+2]) {
			b.WriteByte(unhex(p[i+1])<<4 | unhex(p[i+2]))
			i += 2
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// openError says in words why SQLite could not open the database at path
// when it answered "unable to open database file" (SQLITE_CANTOPEN) or "read
// only": a path too long for SQLite, or a folder Cairn may not write to. ok
// is false for other errors and when neither explains it.
func openError(path string, err error) (readOnlyDir bool, msg error) {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false, nil
	}
	switch se.Code() & 0xff {
	case 14, 8: // SQLITE_CANTOPEN, SQLITE_READONLY
	default:
		return false, nil
	}
	abs, _ := filepath.Abs(path)
	if len(abs) > maxPathBytes || len(abs)+len("-journal") > maxPathBytes {
		return false, fmt.Errorf("the project's path is too long for SQLite (%d bytes; it opens at most %d): move or rename the project folder so its path is shorter: %s", len(abs), maxPathBytes-len("-journal"), abs)
	}
	if !dirWritable(filepath.Dir(abs)) {
		return true, nil
	}
	return false, nil
}

// dirWritable reports whether a file can be created in dir (a read-only
// mount or a folder without write permission says no). Tests replace it.
var dirWritable = func(dir string) bool {
	f, err := os.CreateTemp(dir, ".cairn-write-test-*")
	if err != nil {
		return false
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return true
}

// ErrReadOnlyOld is returned for a project in a read-only folder whose
// database needs an upgrade that writes to it.
type ErrReadOnlyOld struct{ Path string }

func (e *ErrReadOnlyOld) Error() string {
	return fmt.Sprintf("this project is in a read-only folder and was saved by an older version of Cairn: opening it needs a one-time upgrade that writes to it. Copy the project folder somewhere writable and open the copy (%s)", e.Path)
}

// ErrReadOnly is returned by writes to a project opened read-only.
var ErrReadOnly = errors.New("this project is read-only (its folder or its database file cannot be written): it can be read, searched and checked, but not changed; copy it somewhere writable, or give yourself write permission, to change it")

// fileReadOnly reports whether the database file at path exists but cannot
// be opened for writing (chmod a-w, a read-only mount): SQLite would open it
// read-write in name and fail every write with "attempt to write a readonly
// database".
func fileReadOnly(path string) bool {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err == nil {
		f.Close()
		return false
	}
	return errors.Is(err, fs.ErrPermission) || isReadOnlyFS(err)
}

// openReadOnly opens the database at path read-only; the schema must be
// current and nothing left pending for the first open.
func openReadOnly(path string, immutable bool) (*Store, error) {
	dsn, err := connStringMode(path, true, immutable)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(4)
	s := &Store{db: db, path: path, readOnly: true}
	ctx := context.Background()
	var have int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&have); err != nil {
		db.Close()
		return nil, fmt.Errorf("open project database (read-only folder): %w", err)
	}
	switch know := SchemaVersion(); {
	case have > know:
		db.Close()
		return nil, &ErrTooNew{Have: have, Know: know}
	case have < know:
		db.Close()
		return nil, &ErrReadOnlyOld{Path: path}
	}
	for _, key := range []string{"topic_keys", "chunks_fts"} {
		if v, err := s.Meta(ctx, key); err != nil || v == "pending" {
			db.Close()
			if err != nil {
				return nil, err
			}
			return nil, &ErrReadOnlyOld{Path: path}
		}
	}
	return s, nil
}

// ReadOnly reports whether the database was opened read-only (its folder is
// not writable).
func (s *Store) ReadOnly() bool { return s.readOnly }

// Notice is what Open did that the user should hear of ("" when nothing):
// a database moved into the project from where an older Cairn put it.
func (s *Store) Notice() string { return s.notice }

// FileName is the file SQLite actually opened for the main database.
func (s *Store) FileName(ctx context.Context) (string, error) {
	var name string
	err := s.db.QueryRowContext(ctx, "SELECT file FROM pragma_database_list WHERE name = 'main'").Scan(&name)
	return name, err
}

// CountDocuments counts the documents of the database at path without
// opening it for writing (no migration, no lock), for listing projects. A
// database in a read-only folder is read as immutable.
func CountDocuments(ctx context.Context, path string) (int, error) {
	n, err := countDocuments(ctx, path, false)
	if err != nil {
		if ro, _ := openError(path, err); ro {
			return countDocuments(ctx, path, true)
		}
	}
	return n, err
}

func countDocuments(ctx context.Context, path string, immutable bool) (int, error) {
	dsn, err := connString(path, immutable)
	if err != nil {
		return 0, err
	}
	if !immutable {
		dsn = dsn[:strings.IndexByte(dsn, '?')] + "?mode=ro&_pragma=busy_timeout(2000)"
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM documents`).Scan(&n); err != nil {
		return 0, fmt.Errorf("count documents: %w", err)
	}
	return n, nil
}

// ErrBusy is what a write says when another Cairn process kept the project's
// database locked past BusyTimeout.
var ErrBusy = fmt.Errorf("another Cairn process (an import, indexing, a removal or the app) kept this project's database locked for more than %s; nothing was changed by this step: try again when it has finished", BusyTimeout)

// Plain turns SQLite's bare lock and read-only codes into what happened, in
// words; other errors come back unchanged. Callers that show errors to a
// person (the CLI, the app) pass them through it.
func Plain(err error) error {
	return busyWords(err)
}

func busyWords(err error) error {
	if err == nil {
		return nil
	}
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err
	}
	switch se.Code() & 0xff {
	case 5, 6: // SQLITE_BUSY, SQLITE_LOCKED
		return fmt.Errorf("%w (%v)", ErrBusy, err)
	case 8: // SQLITE_READONLY
		return fmt.Errorf("%w (%v)", ErrReadOnly, err)
	}
	return err
}
