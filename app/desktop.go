package app

import (
	"context"
	"io/fs"
	"net/http"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"cairn/assets"
)

// importFilters are the file types offered by the native open dialog.
var importFilters = []runtime.FileFilter{
	{DisplayName: "Documents (*.pdf, *.docx, *.txt, *.md)", Pattern: "*.pdf;*.docx;*.txt;*.md"},
	{DisplayName: "All files", Pattern: "*"},
}

// uiReadyEvent is emitted by the page (App.tsx) once the Library has loaded.
const uiReadyEvent = "ui:ready"

// uiReadyFallback: how long after the page has loaded background work waits
// for uiReadyEvent at most.
const uiReadyFallback = 5 * time.Second

// RunDesktop opens the desktop window on a and blocks until it is closed.
// assets is the embedded frontend (index.html at its root or under
// frontend/dist). Files and folders dropped onto the window are imported;
// events reach the page through the Wails runtime.
//
// It needs a binary built by `wails build` (tags desktop,production,
// webkit2_41); a plain `go build` links Wails' stub, which returns an error.
func RunDesktop(a *App, assetsFS fs.FS) error {
	dist, err := distRoot(assetsFS)
	if err != nil && !generatingBindings { // bindings are generated before the frontend is built
		return err
	}
	defer a.closeProject() // the project opened last, if the user switched
	startupMark("wails run")
	return wails.Run(&options.App{
		Title:            "Cairn",
		Width:            1240,
		Height:           820,
		MinWidth:         900,
		MinHeight:        600,
		BackgroundColour: &options.RGBA{R: 250, G: 249, B: 246, A: 255},
		AssetServer:      &assetserver.Options{Assets: dist, Handler: http.HandlerFunc(a.serveOriginal)}, // original.go
		Bind:             []any{a},
		ErrorFormatter:   formatError, // errors.go: {message, code}
		// The webview must stay a drop target: on Linux, DisableWebViewDrop
		// unsets it and then no drop reaches Wails either. The page calls
		// preventDefault on file drops so the webview never navigates to them.
		DragAndDrop: &options.DragAndDrop{EnableFileDrop: true},
		Linux: &linux.Options{
			Icon:             assets.Icon,
			ProgramName:      "cairn",
			WebviewGpuPolicy: linux.WebviewGpuPolicyOnDemand,
		},
		OnStartup: func(ctx context.Context) {
			startupMark("wails startup")
			a.setContext(ctx)
			a.mu.Lock()
			a.pick = func(ctx context.Context) ([]string, error) {
				return runtime.OpenMultipleFilesDialog(ctx, runtime.OpenDialogOptions{
					Title:   "Import documents",
					Filters: importFilters,
				})
			}
			a.save = func(ctx context.Context, name string) (string, error) {
				return runtime.SaveFileDialog(ctx, runtime.SaveDialogOptions{
					Title:                "Save",
					DefaultFilename:      name,
					CanCreateDirectories: true,
				})
			}
			a.mu.Unlock()
			a.subscribe(func(name string, data any) { runtime.EventsEmit(ctx, name, data) })
			runtime.EventsOnce(ctx, uiReadyEvent, func(data ...any) {
				startupMark("ui ready")
				if len(data) > 0 {
					tracePage(data[0])
				}
				a.runReady()
			})
			runtime.OnFileDrop(ctx, func(_, _ int, paths []string) {
				if len(paths) == 0 {
					return
				}
				go func() {
					if _, err := a.ImportPaths(paths); err != nil {
						runtime.LogErrorf(ctx, "import dropped files: %v", err)
					}
				}()
			})
		},
		// Background work (the sample import, warming the vector index,
		// probing Ollama) waits until the page says the Library is on screen
		// (uiReadyEvent), so that it does not compete with the first paint
		// for the CPU; a page that never says so gets it uiReadyFallback
		// after loading.
		OnDomReady: func(ctx context.Context) {
			startupMark("dom ready")
			time.AfterFunc(uiReadyFallback, func() {
				if !a.readyRan.Load() {
					startupMark("ui ready fallback")
				}
				a.runReady()
			})
		},
		OnShutdown: func(ctx context.Context) { a.stop() },
	})
}
