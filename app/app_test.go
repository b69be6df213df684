package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"cairn/backend/analyze"
	"cairn/backend/kb"
	"cairn/backend/project"
)

// fakeBackend records calls and returns canned answers.
type fakeBackend struct {
	mu         sync.Mutex
	dir        string
	docs       []kb.Document
	importErr  error
	imported   [][]string
	scopes     [][]int64 // SearchIn's docs, per call
	removed    []int64
	searched   []string
	k          []int
	searchInfo project.SearchInfo // what SearchInfo reports
	release    chan struct{}      // when set, Import waits on it
}

func (f *fakeBackend) Dir() string { return f.dir }
func (f *fakeBackend) Info(ctx context.Context) (project.Info, error) {
	return project.Info{Name: "Fake", Dir: f.dir, Documents: len(f.docs)}, nil
}
func (f *fakeBackend) Import(ctx context.Context, paths []string, progress func(project.Progress)) ([]project.ImportResult, error) {
	f.mu.Lock()
	f.imported = append(f.imported, paths)
	release := f.release
	f.mu.Unlock()
	if release != nil {
		<-release
	}
	var out []project.ImportResult
	for i, p := range paths {
		progress(project.Progress{File: p, Index: i + 1, Total: len(paths), Stage: "reading"})
		r := project.ImportResult{File: p, DocID: int64(i + 1), Status: kb.StatusOK, Pages: 1, Chunks: 1}
		progress(project.Progress{File: p, Index: i + 1, Total: len(paths), Stage: "done", Result: &r})
		out = append(out, r)
	}
	return out, f.importErr
}
func (f *fakeBackend) Documents(ctx context.Context) ([]kb.Document, error) { return f.docs, nil }
func (f *fakeBackend) Remove(ctx context.Context, ids ...int64) error {
	f.removed = append(f.removed, ids...)
	return nil
}
func (f *fakeBackend) SearchIn(ctx context.Context, query string, k int, docs []int64) ([]kb.Hit, project.SearchInfo, error) {
	f.mu.Lock() // calls in flight run at once (TestSwitchWaitsForCallsInFlight)
	defer f.mu.Unlock()
	f.searched = append(f.searched, query)
	f.k = append(f.k, k)
	f.scopes = append(f.scopes, docs)
	return nil, f.searchInfo, nil
}
func (f *fakeBackend) Pages(ctx context.Context, docID int64, page int) ([]kb.Page, error) {
	return nil, nil
}

type recorded struct {
	name string
	data any
}

func record(a *App) (get func() []recorded) {
	var mu sync.Mutex
	var evs []recorded
	a.subscribe(func(name string, data any) {
		mu.Lock()
		defer mu.Unlock()
		evs = append(evs, recorded{name, data})
	})
	return func() []recorded {
		mu.Lock()
		defer mu.Unlock()
		return append([]recorded{}, evs...)
	}
}

// TestBoundMethods pins the UI's API: the exported methods of App are what
// Wails binds and what serve mode dispatches. Changing this set means
// regenerating frontend/wailsjs (`go tool wails generate module`).
func TestBoundMethods(t *testing.T) {
	var got []string
	for name := range boundMethods(newApp(&fakeBackend{})) {
		got = append(got, strings.TrimPrefix(name, "App."))
	}
	slices.Sort(got)
	want := []string{"Answer", "AnswerTrace", "Answers", "Ask", "AskIn", "CancelPull", "CreateProject", "DeleteProject", "DocumentPages", "EditDocumentIdentity", "EmbedderStatus", "Entity", "ExportDocumentMarkdown", "ExportMindMap", "ExtractionCounts", "FusedMindMap", "GetSettings", "Graph", "GraphNeighbours", "GraphOverview", "GraphSearch", "ImportPaths", "ImportStatus", "IndexStatus", "LLMStatus", "ListDocuments", "ListProjects", "MCPConfig", "Marks", "MindMap", "Mode", "Models", "Neighbourhood", "OpenProject", "OrphanedOriginals", "PickAndImport", "ProjectInfo", "PullModel", "Reindex", "RemoveDocuments", "RenameDocument", "RenameProject", "RepairOrphans", "ResetDocumentTitle", "RetryDocument", "SaveSettings", "SaveTextFile", "Search", "SearchIn", "SetOllamaHost", "SwitchEmbedder", "Version"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("bound methods = %v, want %v", got, want)
	}
}

func TestImportPathsEmitsProgressAndDone(t *testing.T) {
	f := &fakeBackend{dir: t.TempDir()}
	a := newApp(f)
	events := record(a)

	res, err := a.ImportPaths([]string{" /x/a.pdf ", "", "/x/b.docx"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || !reflect.DeepEqual(f.imported[0], []string{"/x/a.pdf", "/x/b.docx"}) {
		t.Fatalf("results %v, imported %v", res, f.imported)
	}
	var names []string
	for _, e := range events() {
		names = append(names, e.name)
	}
	want := []string{EventImportStarted, EventImportProgress, EventImportProgress, EventImportProgress, EventImportProgress, EventImportDone, EventLibraryChanged}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("events = %v, want %v", names, want)
	}
	if st := a.ImportStatus(); st.Running || st.Done == nil || len(st.Done.Results) != 2 {
		t.Fatalf("status after the import = %+v", st)
	}
}

func TestImportPathsReportsError(t *testing.T) {
	f := &fakeBackend{importErr: errors.New("disk full")}
	a := newApp(f)
	events := record(a)
	if _, err := a.ImportPaths([]string{"/x/a.pdf"}); err == nil {
		t.Fatal("want the backend's error")
	}
	evs := events()
	var done ImportDone
	for _, e := range evs {
		if e.name == EventImportDone {
			done = e.data.(ImportDone)
		}
	}
	if done.Error != "disk full" || done.Results == nil {
		t.Fatalf("done event = %+v", done)
	}
}

func TestImportPathsRejectsNothing(t *testing.T) {
	a := newApp(&fakeBackend{})
	if _, err := a.ImportPaths([]string{"  ", ""}); err == nil {
		t.Fatal("want an error for no paths")
	}
}

func TestImportsRunOneAtATime(t *testing.T) {
	f := &fakeBackend{release: make(chan struct{})}
	a := newApp(f)
	first := make(chan error)
	go func() { _, err := a.ImportPaths([]string{"/a"}); first <- err }()
	// Wait until the first import is inside the backend.
	for {
		f.mu.Lock()
		n := len(f.imported)
		f.mu.Unlock()
		if n == 1 {
			break
		}
	}
	if st := a.ImportStatus(); !st.Running || !reflect.DeepEqual(st.Files, []string{"/a"}) {
		t.Fatalf("status during import = %+v", st)
	}
	second := make(chan error)
	go func() { _, err := a.ImportPaths([]string{"/b"}); second <- err }()
	f.mu.Lock()
	if len(f.imported) != 1 {
		t.Error("second import started while the first ran")
	}
	f.mu.Unlock()
	close(f.release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if err := <-second; err != nil {
		t.Fatal(err)
	}
	if len(f.imported) != 2 {
		t.Fatalf("imports = %v", f.imported)
	}
}

func TestPickAndImportOutsideDesktop(t *testing.T) {
	a := newApp(&fakeBackend{})
	if _, err := a.PickAndImport(); err == nil || !strings.Contains(err.Error(), "desktop") {
		t.Fatalf("err = %v", err)
	}
}

func TestPickAndImportCancelled(t *testing.T) {
	f := &fakeBackend{}
	a := newApp(f)
	a.pick = func(context.Context) ([]string, error) { return nil, nil }
	res, err := a.PickAndImport()
	if err != nil || res == nil || len(res) != 0 || len(f.imported) != 0 {
		t.Fatalf("res %v err %v imported %v", res, err, f.imported)
	}
}

// TestMarks: the UI's highlights come from the analyzer search uses, one
// list of marks per text.
func TestMarks(t *testing.T) {
	a := newApp(&fakeBackend{})
	got := a.Marks("deduction of taxes", []string{"You can deduct state income taxes.", "nothing here", ""})
	if len(got) != 3 || len(got[0].Marks) != 2 || got[0].Marks[0] != (analyze.Mark{Start: 8, End: 14}) || got[1].Marks == nil || len(got[1].Marks) != 0 {
		t.Fatalf("Marks = %+v", got)
	}
}

func TestSearchClampsAndSkipsEmpty(t *testing.T) {
	f := &fakeBackend{}
	a := newApp(f)
	res, err := a.Search("   ", 5)
	if err != nil || res.Hits == nil || len(f.searched) != 0 {
		t.Fatalf("empty query: hits %v err %v searched %v", res.Hits, err, f.searched)
	}
	for _, k := range []int{0, -3, 7, 1000} {
		if _, err := a.Search(" tax ", k); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(f.k, []int{20, 20, 7, 100}) || f.searched[0] != "tax" {
		t.Fatalf("k = %v searched %v", f.k, f.searched)
	}
}

func TestListAndPagesNeverNull(t *testing.T) {
	a := newApp(&fakeBackend{})
	docs, err := a.ListDocuments()
	if err != nil || docs == nil {
		t.Fatalf("docs %v err %v", docs, err)
	}
	pages, err := a.DocumentPages(3)
	if err != nil || pages == nil {
		t.Fatalf("pages %v err %v", pages, err)
	}
	if _, err := a.DocumentPages(0); err == nil {
		t.Fatal("want an error for doc id 0")
	}
}

func TestRemoveDocuments(t *testing.T) {
	f := &fakeBackend{}
	a := newApp(f)
	events := record(a)
	if err := a.RemoveDocuments(nil); err == nil {
		t.Fatal("want an error for no ids")
	}
	if err := a.RemoveDocuments([]int64{4, 5}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(f.removed, []int64{4, 5}) || len(events()) != 1 {
		t.Fatalf("removed %v events %v", f.removed, events())
	}
}

func TestDataDir(t *testing.T) {
	home := func() (string, error) { return "/home/u", nil }
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		goos string
		env  map[string]string
		want string
	}{
		{"linux", nil, "/home/u/.local/share"},
		{"linux", map[string]string{"XDG_DATA_HOME": "/data"}, "/data"},
		{"linux", map[string]string{"XDG_DATA_HOME": "relative"}, "/home/u/.local/share"},
		{"darwin", nil, "/home/u/Library/Application Support"},
		{"windows", map[string]string{"AppData": `C:\Users\u\AppData\Roaming`}, `C:\Users\u\AppData\Roaming`},
	}
	for _, c := range cases {
		got, err := dataDir(c.goos, env(c.env), home)
		if err != nil || filepath.ToSlash(got) != filepath.ToSlash(c.want) {
			t.Errorf("%s %v: got %q, %v; want %q", c.goos, c.env, got, err, c.want)
		}
	}
	if _, err := dataDir("windows", env(nil), home); err == nil {
		t.Error("windows without AppData: want an error")
	}
}

func TestDefaultProjectDirHonoursCairnHome(t *testing.T) {
	h := t.TempDir()
	t.Setenv("CAIRN_HOME", h)
	got, err := DefaultProjectDir()
	if err != nil || got != filepath.Join(h, "projects", "Sample") {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestExtractSample(t *testing.T) {
	dir := t.TempDir()
	paths, err := extractSample(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range paths {
		names = append(names, filepath.Base(p))
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", p, err)
		}
	}
	want := []string{"en-report-3col-federal-register.pdf", "en-report-dmca-summary.pdf", "en-report-tables-irs-i1040nr.pdf", "zh-civil-code.docx"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("sample files = %v, want %v", names, want)
	}
}

func TestImportSampleOnce(t *testing.T) {
	f := &fakeBackend{dir: t.TempDir()}
	a := newApp(f)
	if err := importSample(a); err != nil {
		t.Fatal(err)
	}
	if err := importSample(a); err != nil {
		t.Fatal(err)
	}
	if len(f.imported) != 1 || len(f.imported[0]) != 4 {
		t.Fatalf("imports = %v", f.imported)
	}
	if _, err := os.Stat(filepath.Join(f.dir, sampleMarker)); err != nil {
		t.Fatal(err)
	}
}

func TestImportSampleRetriesAfterFailure(t *testing.T) {
	f := &fakeBackend{dir: t.TempDir(), importErr: errors.New("not implemented yet")}
	a := newApp(f)
	if err := importSample(a); err == nil {
		t.Fatal("want the import error")
	}
	if _, err := os.Stat(filepath.Join(f.dir, sampleMarker)); err == nil {
		t.Fatal("marker written although the import failed")
	}
}

// TestRealProject runs the facade over a real project folder: whatever the
// backend can do yet, the facade must not panic and must return JSON-able
// values.
func TestRealProject(t *testing.T) {
	p, err := project.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	a := New(p)
	if _, err := a.ProjectInfo(); err != nil {
		t.Fatal(err)
	}
	if a.Mode() != "offline" {
		t.Fatal(a.Mode())
	}
}
