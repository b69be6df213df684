package store

import "database/sql"

// Exec runs a statement directly, for the external tests (package store_test)
// that break a database on purpose.
func (s *Store) Exec(q string, args ...any) (sql.Result, error) { return s.db.Exec(q, args...) }
