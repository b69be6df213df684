package retrieve_test

import (
	"context"
	"fmt"
	"os"
	"sort"
	"sync"
	"testing"

	"cairn/backend/evalset"
	"cairn/backend/kb"
	"cairn/backend/project"
	"cairn/backend/question"
	"cairn/backend/retrieve"
)

// The unit tests of the retrieval lists share one small project built from
// testdata/corpus.jsonl: twelve short passages about made-up people, places
// and works, one document per passage titled by what it is about (the shape
// of the multi-hop evaluation sets), indexed as the app indexes offline
// (evalset.BuildProject: built-in embedder, offline extractor, every index
// stage). Its two-hop chains:
//
//   - Orlen Vasquith → his father Castor Vasquith → buried in Kelbridge;
//   - The Glass Orchard → written by Mirela Tansk → born in Ostravel, studied
//     at Halden Academy → founded by Ivo Brant.
//
// Only Kelbridge's passage has the word "quillwort". It needs nothing from
// ../shared and builds in well under a second.

// fixture is the indexed project with names for its chunks and entities.
type fixture struct {
	p       *project.Project
	chunk   map[string]int64 // passage id (testdata) → its chunk
	passage map[int64]string // chunk → passage id
	entity  map[int64]kb.Entity
}

var shared struct {
	once sync.Once
	dir  string
	f    *fixture
	err  error
}

// TestMain removes the shared fixture project after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if shared.f != nil {
		shared.f.p.Close()
	}
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// loadFixture builds the fixture project once per test binary.
func loadFixture(t testing.TB) *fixture {
	t.Helper()
	shared.once.Do(func() {
		shared.f, shared.err = buildFixture()
	})
	if shared.err != nil {
		t.Fatalf("fixture: %v", shared.err)
	}
	return shared.f
}

func buildFixture() (*fixture, error) {
	ctx := context.Background()
	corpus, err := evalset.LoadCorpus("testdata/corpus.jsonl")
	if err != nil {
		return nil, err
	}
	if shared.dir, err = os.MkdirTemp("", "cairn-retrieve-fixture-"); err != nil {
		return nil, err
	}
	p, err := evalset.BuildProject(ctx, shared.dir, corpus, nil)
	if err != nil {
		return nil, err
	}
	f := &fixture{p: p, chunk: map[string]int64{}, entity: map[int64]kb.Entity{}}
	if f.passage, err = p.Store().ChunkFileNames(ctx); err != nil {
		return nil, err
	}
	for c, name := range f.passage {
		f.chunk[name] = c
	}
	if len(f.chunk) != len(corpus) {
		return nil, fmt.Errorf("%d chunks for %d passages", len(f.chunk), len(corpus))
	}
	g, err := p.Graph(ctx)
	if err != nil {
		return nil, err
	}
	for _, e := range g.Entities {
		f.entity[e.ID] = e
	}
	return f, nil
}

// retriever returns a retriever over the fixture with the default settings
// changed by tune (may be nil).
func (f *fixture) retriever(tune func(*retrieve.Settings)) *retrieve.Retriever {
	r := retrieve.New(f.p.Store(), f.p.Embedder())
	if tune != nil {
		tune(&r.Settings)
	}
	return r
}

// gather runs Gather for question and returns the result and its lists by
// name.
func (f *fixture) gather(t *testing.T, r *retrieve.Retriever, text string) (*retrieve.Result, map[string]retrieve.List) {
	t.Helper()
	res, err := r.Gather(context.Background(), question.New(text), 5)
	if err != nil {
		t.Fatalf("Gather(%q): %v", text, err)
	}
	lists := map[string]retrieve.List{}
	for _, l := range res.Lists {
		if _, dup := lists[l.Name]; dup {
			t.Fatalf("two lists named %q", l.Name)
		}
		lists[l.Name] = l
	}
	return res, lists
}

// names maps chunk ids to passage ids (testdata), in order.
func (f *fixture) names(ids []int64) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = f.passage[id]
		if out[i] == "" {
			out[i] = fmt.Sprintf("chunk#%d", id)
		}
	}
	return out
}

// entityName is an entity's name ("entity#id" when unknown).
func (f *fixture) entityName(id int64) string {
	if e, ok := f.entity[id]; ok {
		return e.Name
	}
	return fmt.Sprintf("entity#%d", id)
}

// sorted returns a sorted copy.
func sorted(xs []string) []string {
	out := append([]string(nil), xs...)
	sort.Strings(out)
	return out
}
