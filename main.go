// Command cairn is the Cairn desktop app and its command line. With no
// arguments it opens the desktop window on the Sample project; with a
// command (import, search, serve, …; `cairn help` lists them) it runs
// headless.
package main

import (
	"embed"
	"fmt"
	"os"

	"cairn/app"
	"cairn/app/cli"
	"cairn/app/version"
	"cairn/backend/ingest"
)

// distFS is the built frontend (frontend/dist, made by `npm run build`).
// frontend/dist/.keep is committed (a copy of frontend/public/.keep, which
// Vite writes back on every build), so the pattern matches on a fresh clone
// and `go build ./...` works before the frontend is built; such a binary
// says the frontend is not built when it opens a window or serves
// (app.distRoot). See docs/development.md.
//
//go:embed all:frontend/dist
var distFS embed.FS

func main() {
	// A file reader started by this binary (see backend/ingest/isolate.go)
	// does its one read and exits here.
	ingest.MaybeRunWorker()
	if len(os.Args) > 1 {
		attachConsole() // Windows: the release exe is a GUI program; print to the console it was started from
		if len(os.Args) == 2 && (os.Args[1] == "--version" || os.Args[1] == "version") {
			fmt.Println(version.String())
			return
		}
		os.Exit(cli.Main(os.Args[1:], distFS))
	}
	if err := app.RunDefaultDesktop(distFS); err != nil {
		fmt.Fprintln(os.Stderr, "cairn:", err)
		os.Exit(1)
	}
}
