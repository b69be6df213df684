package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"cairn/backend/kb"
	"cairn/backend/project"
	"cairn/backend/testshared"
)

// managedApp opens project name in a fresh CAIRN_HOME's projects folder.
func managedApp(t *testing.T, name string) (*App, string) {
	t.Helper()
	t.Setenv("CAIRN_HOME", t.TempDir())
	def, err := DefaultProjectDir()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(def)
	dir, err := project.Create(root, name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := project.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	a := New(p)
	t.Cleanup(func() {
		a.stop()
		a.closeProject()
		p.Close()
	})
	return a, root
}

func names(l ProjectList) []string {
	var out []string
	for _, p := range l.Projects {
		n := p.Name
		if p.Open {
			n += "*"
		}
		out = append(out, n)
	}
	return out
}

func TestProjectsSwitchStopsWorkAndReloads(t *testing.T) {
	a, root := managedApp(t, "One")
	events := record(a)

	l, err := a.ListProjects()
	if err != nil || !l.Managed || l.Root != root || strings.Join(names(l), ",") != "One*" {
		t.Fatalf("list %+v %v", l, err)
	}
	if _, err := a.CreateProject("Two"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.CreateProject("Two"); err == nil {
		t.Fatal("a taken name was created twice")
	}
	if _, err := a.CreateProject("../Three"); err == nil {
		t.Fatal("a name with a separator was accepted")
	}

	// A long import into One (a 113-page book and more) runs while the
	// user opens Two: it is stopped, Two opens empty.
	real := filepath.Join("..", "..", "shared", "docs", "real")
	if _, err := os.Stat(filepath.Join("/work/shared/docs/real")); err == nil {
		real = "/work/shared/docs/real"
	}
	files := []string{
		filepath.Join(real, "en-paper-2col-dpr-2p.pdf"),
		filepath.Join(real, "en-book-r-intro-113p.pdf"),
		filepath.Join(real, "en-guide-breast-cancer-76p.pdf"),
		filepath.Join(real, "en-handbook-doj-872p.docx"),
	}
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			testshared.Missing(t, fmt.Sprintf("real documents missing: %v", err))
		}
	}
	type res struct {
		r   []project.ImportResult
		err error
	}
	done := make(chan res, 1)
	go func() {
		r, err := a.ImportPaths(files)
		done <- res{r, err}
	}()
	waitFor(t, "first file imported", func() bool {
		st := a.ImportStatus()
		return st.Running && st.Last != nil && (st.Last.Index >= 2 || st.Last.Stage == "done")
	})

	start := time.Now()
	info, err := a.OpenProject("Two")
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	if info.Name != "Two" || info.Documents != 0 {
		t.Fatalf("opened %+v", info)
	}
	select {
	case r := <-done:
		// The import returned before the switch finished: stopped, or done.
		t.Logf("import into One ended (%d results, err %v) within the %v switch", len(r.r), r.err, took)
	default:
		t.Fatal("OpenProject returned while the import into the old project still ran")
	}
	if st := a.ImportStatus(); st.Running || st.Done != nil {
		t.Fatalf("import status carried over to the new project: %+v", st)
	}
	docs, err := a.ListDocuments()
	if err != nil || len(docs) != 0 {
		t.Fatalf("Two's documents: %v %v", docs, err)
	}
	var changed []string
	for _, e := range events() {
		if e.name == EventProjectChanged {
			changed = append(changed, e.data.(project.Info).Name)
		}
	}
	if strings.Join(changed, ",") != "Two" {
		t.Fatalf("project:changed events %v", changed)
	}
	l, _ = a.ListProjects()
	if strings.Join(names(l), ",") != "One,Two*" {
		t.Fatalf("list after switch %v", names(l))
	}
	if a.GetSettings().LastProject != "Two" {
		t.Fatalf("last project = %q", a.GetSettings().LastProject)
	}

	// Back to One: what was imported before the stop is there, and it is
	// consistent (every document either ok or waiting to be retried).
	if _, err := a.OpenProject("One"); err != nil {
		t.Fatal(err)
	}
	docs, err = a.ListDocuments()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if d.Status != kb.StatusOK && d.Status != kb.StatusPending && d.Status != kb.StatusFailed {
			t.Errorf("%s: status %s", d.FileName, d.Status)
		}
	}
	if len(docs) == 0 {
		t.Fatal("the file imported before the switch is gone")
	}
	t.Logf("One has %d documents after the interrupted import", len(docs))

	// Rename the open project: it stays open under its new name.
	if _, err := a.RenameProject("One", "Two"); err == nil {
		t.Fatal("renamed onto an existing project")
	}
	e, err := a.RenameProject("One", "Uno")
	if err != nil || !e.Open || e.Name != "Uno" {
		t.Fatalf("rename open: %+v %v", e, err)
	}
	if info, _ := a.ProjectInfo(); info.Name != "Uno" || info.Documents != len(docs) {
		t.Fatalf("after rename: %+v", info)
	}
	// Rename another one.
	if e, err := a.RenameProject("Two", "Deux"); err != nil || e.Open {
		t.Fatalf("rename closed: %+v %v", e, err)
	}
	// Delete: not the open one, not a folder that is not a project.
	if err := a.DeleteProject("Uno"); err == nil {
		t.Fatal("deleted the open project")
	}
	os.MkdirAll(filepath.Join(root, "Photos"), 0o755)
	if err := a.DeleteProject("Photos"); !errors.Is(err, project.ErrNotProject) {
		t.Fatalf("delete a plain folder: %v", err)
	}
	if err := a.DeleteProject("Deux"); err != nil {
		t.Fatal(err)
	}
	l, _ = a.ListProjects()
	if strings.Join(names(l), ",") != "Uno*" {
		t.Fatalf("after delete %v", names(l))
	}
	if _, err := os.Stat(filepath.Join(root, "Photos")); err != nil {
		t.Fatal("the plain folder is gone")
	}
}

// TestProjectsOutsideTheProjectsFolder: `cairn serve --project /some/dir`
// lists that project only and manages nothing around it.
func TestProjectsOutsideTheProjectsFolder(t *testing.T) {
	t.Setenv("CAIRN_HOME", t.TempDir())
	parent := t.TempDir()
	os.MkdirAll(filepath.Join(parent, "Other", "files"), 0o755)
	os.WriteFile(filepath.Join(parent, "Other", project.DBName), nil, 0o644)
	dir := filepath.Join(parent, "Mine")
	p, err := project.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	a := New(p)
	l, err := a.ListProjects()
	if err != nil || l.Managed || l.Root != "" || strings.Join(names(l), ",") != "Mine*" {
		t.Fatalf("list %+v %v", l, err)
	}
	if _, err := a.CreateProject("New"); err == nil {
		t.Fatal("created a project next to a served folder")
	}
	if err := a.DeleteProject("Other"); err == nil {
		t.Fatal("deleted a sibling of a served folder")
	}
	if _, err := a.OpenProject("Other"); err == nil {
		t.Fatal("opened a sibling of a served folder")
	}
	if info, err := a.OpenProject("Mine"); err != nil || info.Name != "Mine" {
		t.Fatalf("opening the served project: %+v %v", info, err)
	}
	if _, err := os.Stat(filepath.Join(parent, "Other", project.DBName)); err != nil {
		t.Fatal(err)
	}
}

// TestSwitchWaitsForCallsInFlight: a switch waits for calls using the old
// project, cancels their context, and holds new calls until it is done.
func TestSwitchWaitsForCallsInFlight(t *testing.T) {
	old := &fakeBackend{dir: "/old", release: make(chan struct{})}
	a := newApp(old)
	importDone := make(chan error, 1)
	go func() {
		_, err := a.ImportPaths([]string{"/x/a.pdf"})
		importDone <- err
	}()
	waitFor(t, "import running", func() bool { return a.ImportStatus().Running })
	ctx := a.context()

	next := &fakeBackend{dir: "/new"}
	swapped := make(chan struct{})
	go func() {
		a.exclusive(func(b backend) (backend, error) {
			if b != old {
				t.Errorf("exclusive got %v", b)
			}
			return next, nil
		})
		close(swapped)
	}()
	waitFor(t, "work cancelled", func() bool { return ctx.Err() != nil })
	// New calls wait for the switch.
	infoDir := make(chan string, 1)
	go func() {
		i, _ := a.ProjectInfo()
		infoDir <- i.Dir
	}()
	select {
	case <-swapped:
		t.Fatal("the switch did not wait for the import using the old project")
	case <-infoDir:
		t.Fatal("a call ran during the switch")
	case <-time.After(100 * time.Millisecond):
	}
	close(old.release) // the import returns
	<-importDone
	<-swapped
	if d := <-infoDir; d != "/new" {
		t.Fatalf("call after the switch saw %q", d)
	}
	if a.context().Err() != nil {
		t.Fatal("the new project's work context is cancelled")
	}

	// Many calls racing with switches never see a closed project.
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				a.Search("x", 5)
				a.ListDocuments()
			}
		}()
	}
	for i := 0; i < 20; i++ {
		b := &fakeBackend{dir: "/p"}
		a.exclusive(func(backend) (backend, error) { return b, nil })
	}
	wg.Wait()
	if err := a.exclusive(func(b backend) (backend, error) { return b, errors.New("boom") }); err == nil {
		t.Fatal("error lost")
	}
}
