// Package version holds what `make dist` stamps into a release build
// (-ldflags -X): the version and the commit it was built from. A plain
// `go build` says "dev".
package version

import "runtime"

var (
	// Version is the release, e.g. "0.1.0" (wails.json's productVersion).
	Version = "dev"
	// Commit is the short git commit the release was built from.
	Commit = ""
)

// String is the one line `cairn --version` prints and the About box shows:
// "cairn 0.1.0 (abc1234, windows/amd64)".
func String() string {
	s := "cairn " + Version + " ("
	if Commit != "" {
		s += Commit + ", "
	}
	return s + runtime.GOOS + "/" + runtime.GOARCH + ")"
}
