package project

import (
	"cairn/backend/llm"
	"context"
	"fmt"
	"strings"
	"time"
)

// Indexing is everything derived after import: knowledge-graph extraction,
// mind maps, fusion. Each is a stage that finds its own pending work in the
// database (so a restart resumes where it stopped) and registers itself here
// from the file that owns it.

// IndexProgress reports one stage's progress.
type IndexProgress struct {
	Stage string        `json:"stage"`
	DocID int64         `json:"doc_id,omitempty"`
	Done  int           `json:"done"`
	Total int           `json:"total"`
	ETA   time.Duration `json:"eta_ns,omitempty"`
	Note  string        `json:"note,omitempty"`
	// Warning says, for a person, that the stage could not do all it
	// meant to and what happens to the rest (the model went away at chunk
	// 88 of 352, …); it is set on the stage's last event.
	Warning string `json:"warning,omitempty"`
	// Usage is what the stage's model calls cost so far in this run (the
	// graph stage; nil for stages that do not meter it).
	Usage *llm.Usage `json:"usage,omitempty"`
}

// IndexStage is one resumable step of indexing. Run does the stage's pending
// work and reports progress; it must leave the database consistent when ctx
// is cancelled at any moment.
type IndexStage struct {
	Name string
	Run  func(ctx context.Context, p *Project, progress func(IndexProgress)) error
}

// indexStages are the indexing stages, in the order they run: documents an
// older reader produced are read again first (reread.go), so the later
// stages build on their new passages; then scanned pages are read with OCR
// (ocr.go), page by page; then the knowledge graph (graph.go),
// then the mind maps, whose model mode organises the graph's facts, then
// their fusion across documents (mindmap.go).
var indexStages = []IndexStage{
	{Name: "reread", Run: runReread},
	{Name: "ocr", Run: runOCR},
	{Name: "graph", Run: runGraph},
	{Name: "mindmap", Run: runMindMaps},
	{Name: "fusion", Run: runFusion},
}

// IndexStages names the stages in the order they run.
func IndexStages() []string {
	out := make([]string, len(indexStages))
	for i, s := range indexStages {
		out[i] = s.Name
	}
	return out
}

// Index runs every stage's pending work in order. progress may be nil.
func (p *Project) Index(ctx context.Context, progress func(IndexProgress)) error {
	return p.IndexOnly(ctx, IndexStages(), progress)
}

// IndexOnly runs the pending work of the named stages, in stage order
// (benchmarks index a corpus without its slowest stage); an unknown name is
// an error. progress may be nil.
func (p *Project) IndexOnly(ctx context.Context, names []string, progress func(IndexProgress)) error {
	if err := p.retitleIfStale(ctx); err != nil {
		return err
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var stages []IndexStage
	for _, s := range indexStages {
		if want[s.Name] {
			stages = append(stages, s)
			delete(want, s.Name)
		}
	}
	for n := range want {
		return fmt.Errorf("no index stage %q (stages: %s)", n, strings.Join(IndexStages(), ", "))
	}
	if progress == nil {
		progress = func(IndexProgress) {}
	}
	unlock, err := p.lockWriter(ctx, lockIndex, func(holder string) {
		progress(IndexProgress{Stage: "waiting", Note: waitingFor(lockIndex, holder)})
	})
	if err != nil {
		return err
	}
	defer unlock()
	// Documents an interrupted import left pending are read first, unless
	// an import is running (it resumes them itself): resume.go.
	if err := p.resumeBeforeIndex(ctx, progress); err != nil {
		return err
	}
	for _, s := range stages {
		if err := s.Run(ctx, p, progress); err != nil {
			return fmt.Errorf("%s: %w", s.Name, err)
		}
	}
	return nil
}
