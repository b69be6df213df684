package bench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"cairn/backend/embed"
	"cairn/backend/evalset"
	"cairn/backend/graph/walk"
	"cairn/backend/kb"
	"cairn/backend/project"
	"cairn/backend/question"
	"cairn/backend/retrieve"
	"cairn/backend/search"
	"cairn/backend/store"
)

// entityCount is the number of knowledge-graph entities in a corpus.
func entityCount(ctx context.Context, s *scaleCorpus) (int, error) {
	st, err := store.Open(s.DB())
	if err != nil {
		return 0, err
	}
	defer st.Close()
	return st.EntityCount(ctx)
}

// Query latency without a model, per scale: project.Search (hybrid BM25 +
// vector k-NN, fused, hits loaded with snippets), BM25 alone, full hybrid
// retrieval and path finding (k-NN alone is in vector.go).
// Questions are the eval DEV questions (an even spread when Queries limits
// them); each run times every question once after a warm-up pass over 20.

// queryLatencyMeasure is one timed operation over a question.
type queryLatencyMeasure struct {
	id, name string
	prepare  func(ctx context.Context, p *project.Project, qs []string) (func(ctx context.Context, i int) error, error)
}

var queryMeasures = []queryLatencyMeasure{
	{"search", "passage search, project.Search k=10 (BM25 beside vector k-NN, depth 50, fused)", prepareSearch},
	{"lexical", "  BM25 alone, search.Lexical (depth 50; on large projects common words only score the rows rarer words select)", prepareLexical},
	{"lexical_or", "  BM25 alone over a plain OR of the question's words (depth 50; the query before the common-word split, for reference)", prepareLexicalOR},
	{"hybrid", "full hybrid retrieval, retrieve.Retrieve k=10 (passage, entity, relation, expansion and PPR lists, fused)", prepareHybrid},
	{"paths", "path finding, walk.Structural over the retrieved subgraph (question entities → candidate answers, PPR agreement)", preparePaths},
}

func prepareHybrid(ctx context.Context, p *project.Project, qs []string) (func(context.Context, int) error, error) {
	r := retrieve.New(p.Store(), p.Embedder())
	return func(ctx context.Context, i int) error {
		_, err := r.Retrieve(ctx, question.New(qs[i]), 10)
		return err
	}, nil
}

// preparePaths retrieves each question's subgraph (untimed), then times
// the structural path search reasoning paths start from. Questions with no
// linked entity or no candidate are skipped; none at all is errNoGraph.
func preparePaths(ctx context.Context, p *project.Project, qs []string) (func(context.Context, int) error, error) {
	r := retrieve.New(p.Store(), p.Embedder())
	type job struct {
		g        *walk.Graph
		from, to []int
	}
	var jobs []job
	for _, q := range qs {
		res, err := r.Retrieve(ctx, question.New(q), 10)
		if err != nil {
			return nil, err
		}
		g, node := SubgraphWalk(res.Subgraph)
		var from, to []int
		for _, l := range res.Linked {
			if v, ok := node[l.Entity]; ok {
				from = append(from, v)
			}
		}
		for _, c := range res.Candidates {
			if v, ok := node[c]; ok {
				to = append(to, v)
			}
		}
		if len(from) > 0 && len(to) > 0 {
			jobs = append(jobs, job{g, from, to})
		}
	}
	if len(jobs) == 0 {
		return nil, errNoGraph
	}
	opt := walk.DefaultPaths()
	return func(ctx context.Context, i int) error {
		j := jobs[i%len(jobs)]
		walk.Structural(j.g, j.from, j.to, walk.DefaultPPR(), opt)
		return nil
	}, nil
}

// errNoGraph says the corpus has no knowledge graph to find paths in.
var errNoGraph = errors.New("no question has linked entities and candidate answers in its subgraph (no knowledge graph)")

// SubgraphWalk turns a retrieved subgraph into a walk.Graph with one node
// per entity and an edge per sourced relation (weight: confidence, at least
// 0.1), as reasoning paths use it; node maps entity ids to nodes.
func SubgraphWalk(sub kb.Graph) (*walk.Graph, map[int64]int) {
	g := walk.NewGraph(0)
	node := map[int64]int{}
	add := func(id int64) int {
		if v, ok := node[id]; ok {
			return v
		}
		v := g.AddNode()
		node[id] = v
		return v
	}
	for _, e := range sub.Entities {
		add(e.ID)
	}
	for _, rel := range sub.Relations {
		if len(rel.Sources) == 0 {
			continue
		}
		g.AddEdge(add(rel.Subject), add(rel.Object), math.Max(rel.Confidence, 0.1), rel.ID)
	}
	return g, node
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
		_, err := search.Lexical(ctx, p.Store(), question.New(qs[i]), w, 50)
		return err
	}, nil
}

func prepareLexicalOR(ctx context.Context, p *project.Project, qs []string) (func(context.Context, int) error, error) {
	w := search.DefaultSettings().ColumnWeights
	return func(ctx context.Context, i int) error {
		_, err := p.Store().LexicalSearch(ctx, search.MatchExpr(qs[i]), w, 50)
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

// questionsFor is how many questions a latency run asks at n chunks: a
// third (at least 50) above 20k chunks, where one question takes long.
func (c Config) questionsFor(n int) int {
	if n > 20000 && c.Queries > 0 {
		return max(50, c.Queries/3)
	}
	if n > 20000 {
		return 100
	}
	return c.Queries
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
		if s.Indexed > 0 {
			figs = append(figs, Figure{ID: fmt.Sprintf("index.scale.%d.index_chunks_per_s", s.Chunks), Group: "2. Offline indexing",
				Name: fmt.Sprintf("project.IndexOnly on the %d-chunk eval corpus, offline (%s), one run", s.Chunks, strings.Join(s.Stages, ", ")),
				Unit: "chunks/s", Stat: Stat{Runs: []float64{Rate(float64(s.Chunks), s.Indexed)}}})
		}
		if n, err := entityCount(ctx, s); err == nil && n == 0 {
			env.Notef("the %d-chunk corpus has no knowledge graph: hybrid retrieval there is the passage list plus empty graph look-ups", s.Chunks)
		}
		p, err := project.Open(s.Dir)
		if err != nil {
			return figs, err
		}
		qs := pickQuestions(s.Queries, env.questionsFor(s.Chunks))
		for _, m := range queryMeasures {
			f, err := m.prepare(ctx, p, qs)
			if errors.Is(err, errNoGraph) {
				env.Notef("%s at %d chunks not measured: %v", m.id, s.Chunks, err)
				continue
			}
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
			env.Logf("  %s at %d chunks: p50 %.1f ms, p95 %.1f ms", m.id, s.Chunks, Summarise(p50).Median, Summarise(p95).Median)
			name := fmt.Sprintf("%s at %d chunks, %d questions", m.name, s.Chunks, len(qs))
			figs = append(figs,
				Figure{ID: fmt.Sprintf("query.%s.%d.p50_ms", m.id, s.Chunks), Group: group, Name: name + ", p50", Unit: "ms", Stat: Stat{Runs: p50}},
				Figure{ID: fmt.Sprintf("query.%s.%d.p95_ms", m.id, s.Chunks), Group: group, Name: name + ", p95", Unit: "ms", Stat: Stat{Runs: p95}})
		}
		agree, err := splitAgreement(ctx, p, qs)
		if err != nil {
			p.Close()
			return figs, err
		}
		figs = append(figs, Figure{ID: fmt.Sprintf("query.lexical_split.%d.top50_agreement_pct", s.Chunks), Group: group,
			Name: fmt.Sprintf("  common-word split: share of the plain OR's top 50 that search.Lexical also returns, at %d chunks, %d questions", s.Chunks, len(qs)),
			Unit: "%", Stat: Stat{Runs: []float64{agree}}})
		if err := p.Close(); err != nil {
			return figs, err
		}
	}
	return figs, nil
}

// splitAgreement is the share (%) of the plain-OR BM25 top 50 that
// search.Lexical's top 50 holds too, over the questions: what the
// common-word split costs in ranking.
func splitAgreement(ctx context.Context, p *project.Project, qs []string) (float64, error) {
	w := search.DefaultSettings().ColumnWeights
	same, all := 0, 0
	for _, q := range qs {
		plain, err := p.Store().LexicalSearch(ctx, search.MatchExpr(q), w, 50)
		if err != nil {
			return 0, err
		}
		split, err := search.Lexical(ctx, p.Store(), question.New(q), w, 50)
		if err != nil {
			return 0, err
		}
		got := map[int64]bool{}
		for _, h := range split {
			got[h.ChunkID] = true
		}
		for _, h := range plain {
			if got[h.ChunkID] {
				same++
			}
		}
		all += len(plain)
	}
	if all == 0 {
		return 100, nil
	}
	return 100 * float64(same) / float64(all), nil
}
