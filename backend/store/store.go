// Package store is Cairn's persistence: one SQLite file per project
// (modernc.org/sqlite, CGO-free) in WAL mode with foreign keys on, embedded
// versioned migrations, an FTS5 lexical index and a sqlite-vec vec0 vector
// table. It speaks kb types and knows nothing of readers or ranking.
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	_ "modernc.org/sqlite"     // SQLite driver "sqlite"
	_ "modernc.org/sqlite/vec" // registers vec0 and vec_* in every connection
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// ErrTooNew is returned when the database was written by a newer Cairn.
type ErrTooNew struct {
	Have, Know int
}

func (e *ErrTooNew) Error() string {
	return fmt.Sprintf("this project was saved by a newer version of Cairn (database schema %d; this version understands up to %d). Update Cairn to open it; the project was not changed", e.Have, e.Know)
}

// Store is an open project database.
type Store struct {
	db       *sql.DB
	path     string
	readOnly bool      // opened read-only: the folder is not writable (open.go)
	notice   string    // what Open did that the user should hear of (open.go)
	vecs     vecCaches // in-memory vector indexes (vectors.go)
	stmts    stmtCache // statements prepared once (stmtcache.go)
}

// Open opens (creating if needed) the database at path and migrates it to
// the current schema. A database from a newer Cairn is refused with
// *ErrTooNew and left untouched. Reads go through a memory map of up to
// 1 GiB (mmap_size): vector k-NN scans read every vector page, and without
// the map each page is a pread system call (retrieval ran about twice as
// slow, `cairn-eval eval-tune` timings).
func Open(path string) (*Store, error) {
	notice, err := adoptLegacy(path)
	if err != nil {
		return nil, err
	}
	if fileReadOnly(path) {
		return openReadOnly(path, !dirWritable(filepath.Dir(path)))
	}
	s, err := openReadWriteRetrying(path)
	if err == nil {
		s.notice = notice
		return s, nil
	}
	ro, msg := openError(path, err)
	switch {
	case msg != nil:
		return nil, msg
	case !ro:
		return nil, err
	}
	if _, statErr := os.Stat(path); statErr != nil {
		return nil, fmt.Errorf("cannot create the project database in a read-only folder: %s", path)
	}
	return openReadOnly(path, true)
}

// openReadWriteRetrying is openReadWrite, tried again for up to
// BusyTimeout while it fails because the database is busy. SQLite does not
// always wait on its own when several connections open a new database at
// the same moment: one that holds a read lock and needs the write lock
// (switching a new file to WAL, the first read before migrating) gets
// SQLITE_BUSY at once rather than risk a deadlock, and only starting
// over from scratch gets past it.
func openReadWriteRetrying(path string) (*Store, error) {
	deadline := time.Now().Add(BusyTimeout)
	wait := 5 * time.Millisecond
	for {
		s, err := openReadWrite(path)
		if err == nil || !errors.Is(busyWords(err), ErrBusy) || time.Now().After(deadline) {
			return s, err
		}
		time.Sleep(wait + time.Duration(rand.Int64N(int64(wait))))
		wait = min(2*wait, 200*time.Millisecond)
	}
}

func openReadWrite(path string) (*Store, error) {
	dsn, err := connString(path, false)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(4)
	s := &Store{db: db, path: path}
	if err := s.migrate(context.Background()); err != nil {
		db.Close()
		return nil, err
	}
	if err := s.fillTopicKeys(context.Background()); err != nil {
		db.Close()
		return nil, fmt.Errorf("open project database: fill topic keys: %w", err)
	}
	if err := s.fillChunkFTS(context.Background()); err != nil {
		db.Close()
		return nil, fmt.Errorf("open project database: rebuild the lexical index: %w", err)
	}
	return s, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Path is the database file.
func (s *Store) Path() string { return s.path }

type migration struct {
	version int
	name    string
	sql     string
}

func migrations() ([]migration, error) {
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []migration
	for i, n := range names {
		base := strings.TrimPrefix(n, "migrations/")
		v, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil || v != i+1 {
			return nil, fmt.Errorf("migration %s: want version %d", base, i+1)
		}
		b, err := migrationFS.ReadFile(n)
		if err != nil {
			return nil, err
		}
		out = append(out, migration{v, base, string(b)})
	}
	return out, nil
}

// SchemaVersion is the newest schema this build knows.
func SchemaVersion() int {
	m, _ := migrations()
	return len(m)
}

// migrate brings the schema to the current version. Several processes may
// open the same project at the same moment (two imports, the app and a CLI
// command): the check and the migrations run in one BEGIN IMMEDIATE
// transaction, so the first process to take SQLite's write lock migrates,
// the others wait for it (busy_timeout), read the version again under the
// lock and find nothing left to do. A crash mid-way leaves the old version.
func (s *Store) migrate(ctx context.Context) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	have, err := s.userVersion(ctx, s.db)
	if err != nil {
		return fmt.Errorf("open project database: %w", err)
	}
	if have > len(ms) {
		return &ErrTooNew{Have: have, Know: len(ms)}
	}
	if have == len(ms) {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE (_txlock in connString)
	if err != nil {
		return fmt.Errorf("open project database: %w", busyWords(err))
	}
	defer tx.Rollback()
	if have, err = s.userVersion(ctx, tx); err != nil {
		return fmt.Errorf("open project database: %w", err)
	}
	if have > len(ms) {
		return &ErrTooNew{Have: have, Know: len(ms)}
	}
	if have == len(ms) {
		return nil // another process migrated while this one waited
	}
	for _, m := range ms[have:] {
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(ms))); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrations %s to %s: %w", ms[have].name, ms[len(ms)-1].name, busyWords(err))
	}
	return nil
}

type rowQueryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func (s *Store) userVersion(ctx context.Context, q rowQueryer) (int, error) {
	var v int
	err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	return v, err
}

// fillPending fills, once, what a migration left for Go to write (meta key
// 'pending' until then): fill runs in one transaction that ends by marking
// the key 'ready', so a crash leaves it pending and the next open starts
// over. The flag is read again once the transaction holds the write lock,
// so a process that waited while another one filled it does nothing.
func (s *Store) fillPending(ctx context.Context, key string, fill func(*sql.Tx) error) error {
	state, err := s.Meta(ctx, key)
	if err != nil || state != "pending" {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE meta SET value = value WHERE key = ?", key); err != nil {
		return err
	}
	if err := tx.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", key).Scan(&state); err != nil || state != "pending" {
		return err
	}
	if err := fill(tx); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE meta SET value = 'ready' WHERE key = ?", key); err != nil {
		return err
	}
	return tx.Commit()
}

// Meta reads a project setting ("" when unset).
func (s *Store) Meta(ctx context.Context, key string) (string, error) {
	var v string
	err := s.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

// SetMeta writes a project setting.
func (s *Store) SetMeta(ctx context.Context, key, value string) error {
	_, err := s.db.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, value)
	return err
}
