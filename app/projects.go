package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"cairn/backend/llm"
	"cairn/backend/project"
)

// Projects: the app serves one project at a time and can switch to another
// one in its projects folder (<HomeDir>/projects), create, rename and delete
// them.
//
// Switching is safe for work in flight: the switch cancels the project's
// work context (imports, indexing and answers stop at their next check;
// what they finished is kept and resumes later), waits until no call uses
// the old project (every exported method that touches the project holds the
// gate while it runs), closes it, opens the new one, hands it the language
// model and emits EventProjectChanged, after which the UI reloads.
//
// Which projects are listed: when the open project lives in the app's
// projects folder, all of that folder's projects. When it lives anywhere
// else (`cairn serve --project /some/dir`, `cairn-desktop` on a folder), the
// list is that one project and create/rename/delete are refused: listing,
// let alone deleting, the siblings of an arbitrary folder could reach
// folders that are not Cairn's.

// EventProjectChanged carries project.Info after another project was opened
// (or the open one renamed).
const EventProjectChanged = "project:changed"

// ProjectEntry is one project in ListProjects.
type ProjectEntry struct {
	Name      string     `json:"name"`
	Dir       string     `json:"dir"`
	Open      bool       `json:"open"`
	Documents int        `json:"documents"`
	Modified  *time.Time `json:"modified,omitempty"`
	Error     string     `json:"error,omitempty"`
}

// ProjectList is ListProjects' reply.
type ProjectList struct {
	// Root is the projects folder ("" when only the open project is served).
	Root string `json:"root"`
	// Managed says whether create, rename and delete are available.
	Managed  bool           `json:"managed"`
	Projects []ProjectEntry `json:"projects"`
}

// projectsRoot is where the app's projects live ("" = only the open one).
type projectsRoot struct {
	mu   sync.Mutex
	root string
}

// projGate counts the calls using the open project; a switch waits for
// none and holds new calls back meanwhile.
type projGate struct {
	mu       sync.Mutex
	idle     *sync.Cond
	users    int
	swapping bool
}

// enter marks a call as using the open project until the returned func is
// called: `defer a.enter()()`. It waits while a switch runs. Calls made
// while holding the gate must not enter again (a waiting switch would
// deadlock them); they use retain for work they hand to a goroutine.
func (a *App) enter() func() {
	g := &a.gate
	g.mu.Lock()
	for g.swapping {
		g.idle.Wait()
	}
	g.users++
	g.mu.Unlock()
	return a.leave
}

// retain is enter for a caller that already holds the gate.
func (a *App) retain() func() {
	g := &a.gate
	g.mu.Lock()
	g.users++
	g.mu.Unlock()
	return a.leave
}

func (a *App) leave() {
	g := &a.gate
	g.mu.Lock()
	g.users--
	if g.users == 0 {
		g.idle.Broadcast()
	}
	g.mu.Unlock()
}

// exclusive runs fn with no call using the project: running work is
// cancelled and waited for, new calls wait until fn returns. fn returns the
// backend to serve afterwards (the same one when it failed).
func (a *App) exclusive(fn func(old backend) (backend, error)) error {
	g := &a.gate
	g.mu.Lock()
	if g.swapping {
		g.mu.Unlock()
		return errors.New("another project is being opened; try again in a moment")
	}
	g.swapping = true
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		g.swapping = false
		g.idle.Broadcast()
		g.mu.Unlock()
	}()

	a.mu.Lock()
	a.cancelWork()
	a.mu.Unlock()
	g.mu.Lock()
	for g.users > 0 {
		g.idle.Wait()
	}
	g.mu.Unlock()

	old := a.cur()
	next, err := fn(old)
	a.mu.Lock()
	if next != nil {
		a.proj = next
	}
	if next != old {
		a.status = ImportStatus{}
		a.index = IndexState{}
	}
	a.work, a.cancelWork = context.WithCancel(a.ctx)
	a.mu.Unlock()
	a.applyProvider()
	return err
}

// applyProvider hands the current language model to the open project.
func (a *App) applyProvider() {
	a.llm.mu.Lock()
	auto := a.llm.auto
	a.llm.mu.Unlock()
	pb, ok := a.cur().(projectBackend)
	if !ok || pb.p == nil || auto == nil {
		return
	}
	pb.p.SetProvider(auto)
	if auto.Mode() == llm.ModeOllama {
		pb.p.SetOllama(auto.Ollama())
	} else {
		pb.p.SetOllama(nil)
	}
}

// closeProject stops the project's work, waits for it and closes the open
// project (at exit). Closing twice is harmless, so a caller that also closes
// the project it passed to New may.
func (a *App) closeProject() {
	_ = a.exclusive(func(old backend) (backend, error) {
		if pb, ok := old.(projectBackend); ok && pb.p != nil {
			pb.p.Close()
		}
		return old, nil
	})
}

// initProjectsRoot decides which projects the app manages (see above).
func (a *App) initProjectsRoot() {
	pb, ok := a.cur().(projectBackend)
	if !ok || pb.p == nil {
		return
	}
	def, err := DefaultProjectDir()
	if err != nil {
		return
	}
	a.setProjectsRoot(managedRoot(pb.p.Dir(), filepath.Dir(def)))
}

// managedRoot is root when dir is directly inside it, else "".
func managedRoot(dir, root string) string {
	clean := func(p string) string {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = r
		}
		abs, _ := filepath.Abs(p)
		return abs
	}
	if root == "" || dir == "" {
		return ""
	}
	if clean(filepath.Dir(dir)) == clean(root) {
		return filepath.Dir(dir)
	}
	return ""
}

func (a *App) setProjectsRoot(root string) {
	a.projects.mu.Lock()
	a.projects.root = root
	a.projects.mu.Unlock()
}

func (a *App) projectsRootDir() (string, error) {
	a.projects.mu.Lock()
	defer a.projects.mu.Unlock()
	if a.projects.root == "" {
		return "", errors.New("this Cairn serves one project folder (given on the command line), so projects cannot be created, renamed or deleted here; use a project inside the app's projects folder for that")
	}
	return a.projects.root, nil
}

func entryOf(e project.Entry, openDir string) ProjectEntry {
	pe := ProjectEntry{Name: e.Name, Dir: e.Dir, Documents: e.Documents, Error: e.Error, Open: sameDir(e.Dir, openDir)}
	if !e.Modified.IsZero() {
		m := e.Modified
		pe.Modified = &m
	}
	return pe
}

func sameDir(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	return filepath.Clean(a) == filepath.Clean(b)
}

// ListProjects lists the projects the app can open, marking the open one.
func (a *App) ListProjects() (ProjectList, error) {
	open := a.cur().Dir()
	ctx := a.baseContext()
	root, err := a.projectsRootDir()
	if err != nil {
		return ProjectList{Projects: []ProjectEntry{entryOf(project.Describe(ctx, open), open)}}, nil
	}
	es, err := project.List(ctx, root)
	if err != nil {
		return ProjectList{}, err
	}
	out := ProjectList{Root: root, Managed: true, Projects: make([]ProjectEntry, 0, len(es))}
	for _, e := range es {
		out.Projects = append(out.Projects, entryOf(e, open))
	}
	return out, nil
}

// CreateProject creates an empty project (it does not open it).
func (a *App) CreateProject(name string) (ProjectEntry, error) {
	root, err := a.projectsRootDir()
	if err != nil {
		return ProjectEntry{}, err
	}
	dir, err := project.Create(root, name)
	if err != nil {
		return ProjectEntry{}, err
	}
	return entryOf(project.Describe(a.baseContext(), dir), a.cur().Dir()), nil
}

// OpenProject switches the app to the project called name: running imports
// and indexing of the open project stop (they resume when it is opened
// again), then EventProjectChanged is emitted.
func (a *App) OpenProject(name string) (project.Info, error) {
	root, err := a.projectsRootDir()
	if err != nil {
		if pb, ok := a.cur().(projectBackend); ok && name == filepath.Base(pb.p.Dir()) {
			return a.ProjectInfo() // the one project: already open
		}
		return project.Info{}, err
	}
	if err := project.ValidateName(name); err != nil {
		return project.Info{}, err
	}
	dir := filepath.Join(root, name)
	if !project.IsProject(dir) {
		return project.Info{}, fmt.Errorf("there is no project called %q", name)
	}
	if sameDir(dir, a.cur().Dir()) {
		return a.ProjectInfo()
	}
	err = a.exclusive(func(old backend) (backend, error) {
		p, err := project.Open(dir)
		if err != nil {
			return old, fmt.Errorf("open project %q: %w", name, err)
		}
		if pb, ok := old.(projectBackend); ok && pb.p != nil {
			pb.p.Close()
		}
		if n := p.Notice(); n != "" {
			slog.Warn("open project", "project", name, "note", n)
		}
		warmVectors(a.baseContext(), p)
		return projectBackend{p}, nil
	})
	if err != nil {
		return project.Info{}, err
	}
	a.rememberProject()
	info, err := a.projectChanged()
	if a.readyRan.Load() {
		go a.resumeInterrupted() // what the switch stopped, or left undone
	}
	return info, err
}

// projectChanged tells the UI about the (new) open project.
func (a *App) projectChanged() (project.Info, error) {
	info, err := a.ProjectInfo()
	if err != nil {
		return info, err
	}
	a.emit(EventProjectChanged, info)
	a.emit(EventLibraryChanged, nil)
	return info, nil
}

// RenameProject renames a project; the open one is closed, renamed and
// opened again (its running work stops, as for a switch).
func (a *App) RenameProject(from, to string) (ProjectEntry, error) {
	root, err := a.projectsRootDir()
	if err != nil {
		return ProjectEntry{}, err
	}
	if err := project.ValidateName(to); err != nil {
		return ProjectEntry{}, err
	}
	src := filepath.Join(root, from)
	if !sameDir(src, a.cur().Dir()) {
		dir, err := project.Rename(root, from, to)
		if err != nil {
			return ProjectEntry{}, err
		}
		return entryOf(project.Describe(a.baseContext(), dir), a.cur().Dir()), nil
	}
	var dir string
	err = a.exclusive(func(old backend) (backend, error) {
		pb, ok := old.(projectBackend)
		if !ok || pb.p == nil {
			return old, errNoProject
		}
		pb.p.Close()
		d, rerr := project.Rename(root, from, to)
		if rerr != nil {
			d = src // reopen it where it is
		}
		p, err := project.Open(d)
		if err != nil {
			return old, errors.Join(rerr, fmt.Errorf("reopen project: %w", err))
		}
		dir = d
		return projectBackend{p}, rerr
	})
	if err != nil {
		return ProjectEntry{}, err
	}
	a.rememberProject()
	if _, err := a.projectChanged(); err != nil {
		return ProjectEntry{}, err
	}
	return entryOf(project.Describe(a.baseContext(), dir), dir), nil
}

// DeleteProject deletes a project and everything in it (its database and
// its copies of the imported files; the originals elsewhere are untouched).
// The open project cannot be deleted: open another one first.
func (a *App) DeleteProject(name string) error {
	root, err := a.projectsRootDir()
	if err != nil {
		return err
	}
	if err := project.ValidateName(name); err != nil {
		return err
	}
	if sameDir(filepath.Join(root, name), a.cur().Dir()) {
		return fmt.Errorf("%q is the open project; open another project before deleting it", name)
	}
	if _, err := os.Stat(filepath.Join(root, name)); err != nil {
		return fmt.Errorf("there is no project called %q", name)
	}
	return project.Delete(root, name)
}

// warmVectors loads the project's in-memory vector indexes in the
// background, so the first question after opening a project does not wait
// for them (≈2.7 s at 10k chunks). Errors (a project closed meanwhile) only
// mean the first search loads them itself.
func warmVectors(ctx context.Context, p *project.Project) {
	go func() {
		if _, err := p.Store().WarmVectors(ctx); err != nil && ctx.Err() == nil {
			slog.Debug("warm vectors", "err", err)
		}
	}()
}
