package store

import (
	"context"
	"database/sql"
	"sync"
)

// cachedTx runs a transaction's statements through statements the store
// prepared once per connection: SaveChunkGraph runs the same few dozen
// statements for every chunk, and parsing them (with the triggers they
// fire) was a fifth of the graph stage's time.
type cachedTx struct {
	*sql.Tx
	s *Store
}

// ExecContext runs q in the transaction.
func (t cachedTx) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	if st := t.s.stmts.get(ctx, t.s.db, q); st != nil {
		return t.Tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	}
	return t.Tx.ExecContext(ctx, q, args...)
}

// QueryContext runs q in the transaction.
func (t cachedTx) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if st := t.s.stmts.get(ctx, t.s.db, q); st != nil {
		return t.Tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	}
	return t.Tx.QueryContext(ctx, q, args...)
}

// QueryRowContext runs q in the transaction.
func (t cachedTx) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	if st := t.s.stmts.get(ctx, t.s.db, q); st != nil {
		return t.Tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return t.Tx.QueryRowContext(ctx, q, args...)
}

// stmtCache holds statements prepared on the store's pool, by text.
type stmtCache struct {
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

// maxCachedStmts bounds the cache (IN lists make texts of many lengths).
const maxCachedStmts = 256

// get returns q prepared (nil when the cache is full or q fails to
// prepare: the caller runs it unprepared and sees the error there).
func (c *stmtCache) get(ctx context.Context, db *sql.DB, q string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.m[q]; ok {
		return st
	}
	if len(c.m) >= maxCachedStmts {
		return nil
	}
	st, err := db.PrepareContext(context.WithoutCancel(ctx), q)
	if err != nil {
		return nil
	}
	if c.m == nil {
		c.m = map[string]*sql.Stmt{}
	}
	c.m[q] = st
	return st
}

type queryer interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

type execQueryer interface {
	queryer
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
}
