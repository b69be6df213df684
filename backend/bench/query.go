package bench

import (
	"context"
	"fmt"
	"time"

	"cairn/backend/embed"
	"cairn/backend/evalset"
	"cairn/backend/project"
	"cairn/backend/search"
)

// Query latency without a model, per scale: project.Search (hybrid BM25 +
// vec0 KNN, fused, hits loaded with snippets) and its two retrievers alone.
// Questions are the eval DEV questions (an even spread when Queries limits
// them); each run times every question once after a warm-up pass over 20.

// queryLatencyMeasure is one timed operation over a question.
type queryLatencyMeasure struct {
	id, name string
	prepare  func(ctx context.Context, p *project.Project, qs []string) (func(ctx context.Context, i int) error, error)
}

var queryMeasures = []queryLatencyMeasure{
	{"search", "passage search, project.Search k=10 (BM25 + vec0 KNN depth 50, fused)", prepareSearch},
	{"lexical", "  FTS5 BM25 alone (depth 50)", prepareLexical},
	{"knn", "  vec0 KNN alone (k=50, question vector precomputed)", prepareKNN},
}

func prepareSearch(ctx context.Context, p *project.Project, qs []string) (func(context.Context, int) error, error) {
	return func(ctx context.Context, i int) error {
		_, err := p.Search(ctx, qs[i], 10)
		return err
	}, nil
}

func prepareLexical(ctx context.Context, p *project.Project, qs []string) (func(context.Context, int) error, error) {
	w := search.DefaultSettings().ColumnWeights
	return func(ctx context.Context, i int) error {
		_, err := p.Store().LexicalSearch(ctx, search.MatchExpr(qs[i]), w, 50)
		return err
	}, nil
}

func prepareKNN(ctx context.Context, p *project.Project, qs []string) (func(context.Context, int) error, error) {
	vecs, err := queryVectors(ctx, p, qs)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, i int) error {
		_, err := p.Store().NearestChunks(ctx, vecs[i], 50)
		return err
	}, nil
}

// queryVectors embeds the questions as project.Search does (IDF-weighted).
func queryVectors(ctx context.Context, p *project.Project, qs []string) ([][]float32, error) {
	h, ok := p.Embedder().(*embed.Hashed)
	if !ok {
		return nil, fmt.Errorf("project embedder is %T, not the built-in one", p.Embedder())
	}
	out := make([][]float32, len(qs))
	for i, q := range qs {
		v, err := search.IDFQueryVector(ctx, p.Store(), h, q)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// pickQuestions spreads n questions evenly over qs (all when n ≤ 0 or ≥ len).
func pickQuestions(qs []evalset.Question, n int) []string {
	if n <= 0 || n >= len(qs) {
		n = len(qs)
	}
	out := make([]string, n)
	for i := range out {
		out[i] = qs[i*len(qs)/n].Question
	}
	return out
}

// timeEach runs f for every question and returns the latencies.
func timeEach(ctx context.Context, n int, f func(context.Context, int) error) ([]time.Duration, error) {
	out := make([]time.Duration, n)
	for i := 0; i < n; i++ {
		t0 := time.Now()
		if err := f(ctx, i); err != nil {
			return nil, err
		}
		out[i] = time.Since(t0)
	}
	return out, nil
}

func measureQuery(ctx context.Context, env *Env) ([]Figure, error) {
	scales, err := env.scaleCorpora(ctx)
	if err != nil {
		return nil, err
	}
	const group = "4. Query latency (no LLM)"
	var figs []Figure
	for _, s := range scales {
		if s.Added > 0 {
			figs = append(figs, Figure{ID: fmt.Sprintf("index.scale.%d.chunks_per_s", s.Chunks), Group: "2. Offline indexing",
				Name: fmt.Sprintf("building the %d-chunk eval corpus (evalset.Build: FTS + built-in embedding + SQLite, one transaction per passage; %d chunks added this run, one run)", s.Chunks, s.Added),
				Unit: "chunks/s", Stat: Stat{Runs: []float64{Rate(float64(s.Added), s.Built)}}})
		}
		p, err := project.Open(s.Dir)
		if err != nil {
			return figs, err
		}
		qs := pickQuestions(s.Queries, env.Queries)
		for _, m := range queryMeasures {
			f, err := m.prepare(ctx, p, qs)
			if err != nil {
				p.Close()
				return figs, err
			}
			if _, err := timeEach(ctx, min(20, len(qs)), f); err != nil { // warm-up
				p.Close()
				return figs, err
			}
			var p50, p95 []float64
			for r := 0; r < env.Runs; r++ {
				lat, err := timeEach(ctx, len(qs), f)
				if err != nil {
					p.Close()
					return figs, err
				}
				ms := Millis(lat)
				p50, p95 = append(p50, Percentile(ms, 50)), append(p95, Percentile(ms, 95))
			}
			name := fmt.Sprintf("%s at %d chunks, %d questions", m.name, s.Chunks, len(qs))
			figs = append(figs,
				Figure{ID: fmt.Sprintf("query.%s.%d.p50_ms", m.id, s.Chunks), Group: group, Name: name + ", p50", Unit: "ms", Stat: Stat{Runs: p50}},
				Figure{ID: fmt.Sprintf("query.%s.%d.p95_ms", m.id, s.Chunks), Group: group, Name: name + ", p95", Unit: "ms", Stat: Stat{Runs: p95}})
		}
		if err := p.Close(); err != nil {
			return figs, err
		}
	}
	return figs, nil
}
