package app

import (
	"context"

	"cairn/backend/project"
)

// OrphanedOriginals lists the stored originals in the project's files/
// folder that no document references (a document row lost after a crash,
// or an interrupted import), as paths relative to the project folder. The
// Library offers to import them again (RepairOrphans), as `cairn check
// --repair` does.
func (a *App) OrphanedOriginals() ([]string, error) {
	defer a.enter()()
	p, err := a.openProject()
	if err != nil {
		return nil, err
	}
	out, err := p.Orphans(a.context())
	if out == nil {
		out = []string{}
	}
	return out, err
}

// RepairOrphans imports the orphaned originals again, with the usual import
// events, then indexes them.
func (a *App) RepairOrphans() ([]project.ImportResult, error) {
	defer a.enter()()
	p, err := a.openProject()
	if err != nil {
		return nil, err
	}
	orphans, err := p.Orphans(a.context())
	if err != nil {
		return nil, err
	}
	return a.runImportWith(a.context(), orphans, func(ctx context.Context, _ []string, progress func(project.Progress)) ([]project.ImportResult, error) {
		return p.Repair(ctx, progress)
	})
}

// resumeInterrupted reads again, once the UI is up, the documents an
// import left pending when it was interrupted (the window closed, a crash,
// Ctrl-C in a CLI import), with the usual import events; indexing follows
// as after any import. With none pending, indexing left to do runs.
func (a *App) resumeInterrupted() {
	defer a.enter()()
	p, err := a.openProject()
	if err != nil {
		return
	}
	if n, err := p.PendingCount(a.context()); err != nil || n == 0 {
		if err == nil {
			// Nothing to read again; indexing may still be left to do
			// (an import with --no-index, a window closed while
			// indexing, a newer reader or extractor): it runs, shown
			// only when there is work.
			_ = a.indexRun(a.context(), true)
		}
		return
	}
	a.runImportWith(a.context(), nil, func(ctx context.Context, _ []string, progress func(project.Progress)) ([]project.ImportResult, error) {
		return p.ResumeInterrupted(ctx, progress)
	})
}
