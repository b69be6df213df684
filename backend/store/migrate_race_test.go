package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"cairn/backend/kb"

	sqlite "modernc.org/sqlite"
)

// raceRounds is how many rounds the open/migrate races run: a handful in
// `make test`, CAIRN_RACE_ROUNDS=100 for the long run.
func raceRounds() int {
	if n, err := strconv.Atoi(os.Getenv("CAIRN_RACE_ROUNDS")); err == nil && n > 0 {
		return n
	}
	return 5
}

// oldDatabase writes a database at path migrated only up to version v, as
// an older Cairn left it.
func oldDatabase(t *testing.T, path string, v int) {
	t.Helper()
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	dsn, err := connString(path, false)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, m := range ms[:v] {
		if _, err := db.Exec(m.sql); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
	}
	if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", v)); err != nil {
		t.Fatal(err)
	}
}

// TestConcurrentOpenMigratesOnce: several handles (each its own SQLite
// connections, as separate processes have) open a new project, or one an
// older Cairn wrote, at the same instant. Every open succeeds, the schema is
// current and was built once (issue 31: "migration 0003_graph.sql: table
// entities already exists" on a new project, 5 of 5 rounds).
func TestConcurrentOpenMigratesOnce(t *testing.T) {
	for _, tc := range []struct {
		name string
		from int // 0: a new project
	}{{"new project", 0}, {"project at schema 2", 2}, {"project at schema 10", 10}} {
		t.Run(tc.name, func(t *testing.T) {
			for round := range raceRounds() {
				path := filepath.Join(t.TempDir(), "cairn.db")
				if tc.from > 0 {
					oldDatabase(t, path, tc.from)
				}
				const n = 4
				var wg sync.WaitGroup
				start := make(chan struct{})
				errs := make([]error, n)
				stores := make([]*Store, n)
				for i := range n {
					wg.Add(1)
					go func() {
						defer wg.Done()
						<-start
						stores[i], errs[i] = Open(path)
					}()
				}
				close(start)
				wg.Wait()
				for i, err := range errs {
					if err != nil {
						t.Fatalf("round %d: open %d: %v", round, i, err)
					}
				}
				v, err := stores[0].userVersion(context.Background(), stores[0].db)
				if err != nil || v != SchemaVersion() {
					t.Fatalf("round %d: schema %d (%v), want %d", round, v, err, SchemaVersion())
				}
				for i, s := range stores {
					if _, err := s.AddDocument(context.Background(), testDoc(round*n+i)); err != nil {
						t.Fatalf("round %d: write after open: %v", round, err)
					}
					s.Close()
				}
			}
		})
	}
}

// TestWriterWaitsForWriter: a write transaction that reads first and then
// writes (a deferred one used to fail at once with SQLITE_BUSY 5 or 517)
// waits for another connection's write transaction and then succeeds.
func TestWriterWaitsForWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cairn.db")
	a, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	id, err := a.AddDocument(ctx, testDoc(1))
	if err != nil {
		t.Fatal(err)
	}
	held, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := held.ExecContext(ctx, "UPDATE documents SET title = 'held' WHERE id = ?", id); err != nil {
		t.Fatal(err)
	}
	released := make(chan time.Time, 1)
	go func() {
		time.Sleep(700 * time.Millisecond)
		released <- time.Now()
		held.Commit()
	}()
	if _, err := b.RemoveDocuments(ctx, id); err != nil {
		t.Fatalf("remove while another connection wrote: %v", err)
	}
	if at := <-released; time.Now().Before(at) {
		t.Fatal("remove finished before the other write ended")
	}
}

func testDoc(i int) kb.Document {
	return kb.Document{Title: fmt.Sprint("doc ", i), FileName: fmt.Sprint("doc", i, ".txt"), StoredPath: fmt.Sprint("files/doc", i, ".txt"), Kind: "txt", Hash: fmt.Sprintf("%064x", i+1), Bytes: 1}
}

// TestPlainWords: SQLite's bare lock and read-only codes (real ones, from
// real connections) become words; other errors come back unchanged.
func TestPlainWords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cairn.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	held, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Rollback()
	abs, _ := filepath.Abs(path)
	impatient, err := sql.Open("sqlite", "file:"+escapeURIPath(abs)+"?_pragma=busy_timeout(0)&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer impatient.Close()
	_, busy := impatient.BeginTx(ctx, nil)
	ro, err := sql.Open("sqlite", "file:"+escapeURIPath(abs)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	_, readOnly := ro.Exec("INSERT INTO meta(key, value) VALUES('x', 'y')")
	var se *sqlite.Error
	for _, tc := range []struct {
		err  error
		want error
	}{{busy, ErrBusy}, {readOnly, ErrReadOnly}} {
		if !errors.As(tc.err, &se) {
			t.Fatalf("not an SQLite error: %v", tc.err)
		}
		if got := Plain(fmt.Errorf("remove: %w", tc.err)); !errors.Is(got, tc.want) {
			t.Errorf("%v: %v", tc.err, got)
		}
	}
	other := errors.New("x")
	if Plain(other) != other {
		t.Error("other errors must come back unchanged")
	}
}
