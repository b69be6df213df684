// Package testshared is for tests that read ../shared, the test corpus that
// sits beside the repository (documents and evaluation sets, too large to
// commit). Where it is missing such a test skips, except in CI (CI=true):
// there a missing corpus fails the test, so the gate can never pass by
// skipping what it was meant to check.
package testshared

import (
	"fmt"
	"os"
	"strconv"
	"testing"
)

// InCI reports whether the tests run in CI (CI is set to a true value, as
// CI services and .ci/run set it).
func InCI() bool {
	v, err := strconv.ParseBool(os.Getenv("CI"))
	return err == nil && v
}

// Missing ends a test whose shared input is not there: a skip, or in CI a
// failure saying what is missing.
func Missing(t testing.TB, args ...any) {
	t.Helper()
	if InCI() {
		t.Fatal("CI=true and the shared test corpus is incomplete: " + fmt.Sprint(args...))
		return
	}
	t.Skip(args...)
}
