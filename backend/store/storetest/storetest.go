// Package storetest lets tests outside backend/store damage a project's
// database on purpose, as a hostile or broken file would be, so that the SQL
// they need stays under backend/store (the store itself offers no way to
// write rows it would never write).
package storetest

import (
	"database/sql"
	"testing"

	_ "modernc.org/sqlite" // the driver the store uses
)

// Exec runs one statement on the database file at path through a connection
// of its own (the store may hold the file open: both write through WAL).
func Exec(t testing.TB, path, q string, args ...any) {
	t.Helper()
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}
