package version

import (
	"runtime"
	"testing"
)

func TestString(t *testing.T) {
	v, c := Version, Commit
	defer func() { Version, Commit = v, c }()
	plat := runtime.GOOS + "/" + runtime.GOARCH
	Version, Commit = "dev", ""
	if got := String(); got != "cairn dev ("+plat+")" {
		t.Errorf("unstamped: %q", got)
	}
	Version, Commit = "0.1.0", "abc1234"
	if got := String(); got != "cairn 0.1.0 (abc1234, "+plat+")" {
		t.Errorf("stamped: %q", got)
	}
}
