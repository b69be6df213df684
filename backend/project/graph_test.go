package project

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cairn/backend/extract"
	"cairn/backend/graph"
	"cairn/backend/kb"
)

// importAll imports files into p and fails the test on a whole-import error.
func importAll(t *testing.T, p *Project, files ...string) {
	t.Helper()
	rs, err := p.Import(context.Background(), files, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.Status != kb.StatusOK && r.Status != kb.StatusNeedsOCR {
			t.Logf("import %s: %s %s", filepath.Base(r.File), r.Status, r.Error)
		}
	}
}

// checkGraphProvenance: every relation has a source chunk with a page span,
// every entity a mention, and the spans lie inside their chunks' text.
func checkGraphProvenance(t *testing.T, p *Project, g kb.Graph) {
	t.Helper()
	if len(g.Entities) == 0 || len(g.Relations) == 0 {
		t.Fatalf("empty graph: %d entities, %d relations", len(g.Entities), len(g.Relations))
	}
	for _, r := range g.Relations {
		if len(r.Sources) == 0 {
			t.Fatalf("relation %d (%s %s %s) has no source", r.ID, r.SubjectName, r.Predicate, r.ObjectName)
		}
		for _, s := range r.Sources {
			if s.ChunkID == 0 || s.PageStart < 1 || s.PageEnd < s.PageStart || s.CharEnd <= s.CharStart {
				t.Fatalf("relation %d: bad source %+v", r.ID, s)
			}
		}
	}
	for _, e := range g.Entities {
		if len(e.Mentions) == 0 {
			t.Fatalf("entity %d %q without mentions", e.ID, e.Name)
		}
	}
	check(t, p)
}

func TestGraphOfflineSample(t *testing.T) {
	ctx := context.Background()
	p := open(t)
	dir, _ := filepath.Abs("../../assets/sample")
	importAll(t, p, dir)
	start := time.Now()
	sum, err := p.BuildGraph(ctx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := p.Graph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("sample: %d chunks in %v: ok %d empty %d failed %d; %d entities, %d relations", sum.Total, time.Since(start).Round(time.Millisecond),
		sum.Counts.OK, sum.Counts.Empty, sum.Counts.Failed, len(g.Entities), len(g.Relations))
	checkGraphProvenance(t, p, g)
	counts, err := p.ExtractionCounts(ctx)
	if err != nil || counts["pending"] != 0 || counts["failed"] != 0 || counts["ok"] == 0 {
		t.Fatalf("counts %v %v", counts, err)
	}
	// a second run finds nothing to do: each chunk is extracted once
	again, err := p.BuildGraph(ctx, nil, nil)
	if err != nil || again.Total != 0 {
		t.Fatalf("second run: %+v %v", again, err)
	}
	if os.Getenv("CAIRN_GRAPH_DUMP") != "" {
		for _, l := range graph.Content(g)[:min(200, len(graph.Content(g)))] {
			t.Log(l)
		}
	}
}

// TestGraphAddRemove: graph(A+B) − B == graph(A), content compared
// (names, types, descriptions, aliases, mentions and sources with their
// chunk, page and char spans).
func TestGraphAddRemove(t *testing.T) {
	ctx := context.Background()
	a, _ := filepath.Abs("../../assets/sample/en-report-dmca-summary.pdf")
	b, _ := filepath.Abs("../../assets/sample/en-report-3col-federal-register.pdf")

	pa := open(t)
	importAll(t, pa, a)
	if _, err := pa.BuildGraph(ctx, nil, nil); err != nil {
		t.Fatal(err)
	}
	ga, _ := pa.Graph(ctx)

	pab := open(t)
	importAll(t, pab, a)
	if _, err := pab.BuildGraph(ctx, nil, nil); err != nil {
		t.Fatal(err)
	}
	importAll(t, pab, b)
	if _, err := pab.BuildGraph(ctx, nil, nil); err != nil {
		t.Fatal(err)
	}
	gab, _ := pab.Graph(ctx)
	docs, _ := pab.Documents(ctx)
	if len(docs) != 2 || len(gab.Entities) <= len(ga.Entities) {
		t.Fatalf("A+B: %d docs, %d entities (A alone %d)", len(docs), len(gab.Entities), len(ga.Entities))
	}
	shared := 0
	for _, e := range gab.Entities {
		d := map[int64]bool{}
		for _, m := range e.Mentions {
			d[m.DocID] = true
		}
		if len(d) == 2 {
			shared++
		}
	}
	if shared == 0 {
		t.Fatal("no entity shared by A and B: the test would not exercise recomputation")
	}
	if err := pab.Remove(ctx, docs[1].ID); err != nil {
		t.Fatal(err)
	}
	check(t, pab)
	gr, _ := pab.Graph(ctx)
	want, got := graph.Content(ga), graph.Content(gr)
	if strings.Join(want, "\n") != strings.Join(got, "\n") {
		for i := 0; i < max(len(want), len(got)); i++ {
			var w, g string
			if i < len(want) {
				w = want[i]
			}
			if i < len(got) {
				g = got[i]
			}
			if w != g {
				if os.Getenv("CAIRN_GRAPH_DUMP") != "" {
					os.WriteFile("/tmp/ga.txt", []byte(strings.Join(want, "\n")), 0o644)
					os.WriteFile("/tmp/gr.txt", []byte(strings.Join(got, "\n")), 0o644)
				}
				t.Fatalf("graph(A+B)-B differs from graph(A) at line %d (%d vs %d lines):\nA:     %s\nA+B-B: %s", i, len(want), len(got), w, g)
			}
		}
	}
	t.Logf("graph(A): %d entities, %d relations; %d entities shared with B; equal after removing B", len(ga.Entities), len(ga.Relations), shared)
}

// TestGraphOfflineRulesChanged: a project whose graph the offline
// extractor read under older rules has it read again by the next index
// run, chunk by chunk, to the same graph the current rules give; a run
// under the current rules reads nothing again.
func TestGraphOfflineRulesChanged(t *testing.T) {
	ctx := context.Background()
	p := open(t)
	a, _ := filepath.Abs("../../assets/sample/en-report-dmca-summary.pdf")
	importAll(t, p, a)
	var notes []string
	index := func() {
		t.Helper()
		notes = nil
		if err := p.Index(ctx, func(e IndexProgress) {
			if e.Stage == "graph" && strings.Contains(e.Note, "read again") {
				notes = append(notes, e.Note)
			}
		}); err != nil {
			t.Fatal(err)
		}
	}
	index()
	if len(notes) != 0 {
		t.Fatalf("a new project's first run reads again: %v", notes)
	}
	if v, _ := p.store.Meta(ctx, offlineVersionKey); v != extract.OfflineVersion {
		t.Fatalf("rules version %q, want %q", v, extract.OfflineVersion)
	}
	before, _ := p.Graph(ctx)
	counts, _ := p.ExtractionCounts(ctx)

	if err := p.store.SetMeta(ctx, offlineVersionKey, "1"); err != nil {
		t.Fatal(err)
	}
	index()
	if len(notes) != 1 || !strings.Contains(notes[0], fmt.Sprintf("%d passages", counts["ok"]+counts["empty"])) {
		t.Fatalf("older rules: notes %v, want one naming %d passages", notes, counts["ok"]+counts["empty"])
	}
	after, _ := p.Graph(ctx)
	if b, a := strings.Join(graph.Content(before), "\n"), strings.Join(graph.Content(after), "\n"); a != b {
		bl, al := graph.Content(before), graph.Content(after)
		seen := map[string]int{}
		for _, l := range bl {
			seen[l]++
		}
		for _, l := range al {
			seen[l]--
		}
		n := 0
		for l, c := range seen {
			if c != 0 && n < 12 {
				t.Logf("%+d %s", c, l)
				n++
			}
		}
		t.Fatalf("the graph read again differs from the one the same rules gave (%d vs %d lines)", len(bl), len(al))
	}
	checkGraphProvenance(t, p, after)
	again, _ := p.ExtractionCounts(ctx)
	if again["pending"] != 0 || again["ok"] != counts["ok"] {
		t.Fatalf("counts after reading again %v, before %v", again, counts)
	}
	index()
	if len(notes) != 0 {
		t.Fatalf("current rules read again: %v", notes)
	}
}
