package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"time"

	"cairn/app/cli"
	"cairn/backend/cachedir"
	"cairn/backend/embed"
	"cairn/backend/evalset"
	"cairn/backend/extract"
	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/project"
	"cairn/backend/question"
	"cairn/backend/reason"
	"cairn/backend/retrieve"
	"cairn/backend/search"
	"cairn/backend/store"
)

// evalProject opens the cached project built from the corpus file, building
// and indexing it (knowledge graph, mind maps) on first use. The cache key is
// the corpus file's hash, the embedder, the schema version and the index
// stages.
func evalProject(ctx context.Context, corpusPath string, log io.Writer) (*project.Project, error) {
	sum, err := kb.HashFile(corpusPath)
	if err != nil {
		return nil, fmt.Errorf("EVAL_CORPUS: %w", err)
	}
	e := embed.NewHashed(embed.DefaultDim)
	key := sum[:16] + "-" + e.Info().Model + "-s" + fmt.Sprint(store.SchemaVersion()) + "-x" + extract.OfflineVersion
	if st := evalset.IndexKey(); st != "" {
		h := sha256.Sum256([]byte(st))
		key += "-i" + hex.EncodeToString(h[:4])
	}
	dir := filepath.Join(cachedir.Sub("eval"), key)
	if _, err := os.Stat(filepath.Join(dir, project.DBName)); err == nil {
		return project.Open(dir)
	}
	corpus, err := evalset.LoadCorpus(corpusPath)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "building-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	start := time.Now()
	p, err := evalset.BuildProject(ctx, tmp, corpus, nil)
	if err != nil {
		return nil, err
	}
	if err := p.Close(); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, dir); err != nil && !os.IsExist(err) {
		if _, serr := os.Stat(filepath.Join(dir, project.DBName)); serr != nil { // lost a race to another builder: fine if theirs exists
			return nil, err
		}
	}
	fmt.Fprintf(log, "cairn: built and indexed eval project of %d passages in %s (%s)\n", len(corpus), time.Since(start).Round(time.Millisecond), dir)
	return project.Open(dir)
}

// cmdEvalRetrieve implements ../shared/eval's scoring interface: question on
// stdin, EVAL_CORPUS in the environment, passage ids best first on stdout.
func cmdEvalRetrieve(ctx context.Context, env *cli.Env, args []string) int {
	fs := env.Flags("eval-retrieve")
	k := fs.Int("k", 20, "how many passage ids to print")
	passagesOnly := fs.Bool("passages-only", false, "passage search alone (no knowledge-graph lists)")
	if _, ok := env.Parse(fs, args); !ok {
		return 2
	}
	corpus := os.Getenv("EVAL_CORPUS")
	if corpus == "" {
		return env.Fail(fmt.Errorf("EVAL_CORPUS is not set (absolute path of a corpus.jsonl)"))
	}
	q, err := bufio.NewReader(env.Stdin).ReadString('\n')
	if err != nil && err != io.EOF {
		return env.Fail(err)
	}
	q = strings.TrimSpace(q)
	p, err := evalProject(ctx, corpus, env.Stderr)
	if err != nil {
		return env.Fail(err)
	}
	defer p.Close()
	ids, err := retrievePassages(ctx, p, q, *k, *passagesOnly)
	if err != nil {
		return env.Fail(err)
	}
	for _, id := range ids {
		fmt.Fprintln(env.Stdout, id)
	}
	return 0
}

// retrievePassages ranks passage ids for q: the full retrieval (passages,
// knowledge-graph lists, PPR) unless passagesOnly.
func retrievePassages(ctx context.Context, p *project.Project, q string, k int, passagesOnly bool) ([]string, error) {
	var hits []kb.Hit
	var err error
	if passagesOnly {
		s := &search.Searcher{Store: p.Store(), Embedder: p.Embedder(), Settings: search.DefaultSettings()}
		hits, err = s.Search(ctx, q, k)
	} else {
		var res *retrieve.Result
		res, err = p.Retriever().Retrieve(ctx, question.New(q), k)
		if res != nil {
			hits = res.Hits
		}
	}
	if err != nil {
		return nil, err
	}
	return evalset.PassageIDs(ctx, p.Store(), hits)
}

// cmdEvalScore scores eval-retrieve's ranking on every question of a dataset
// folder in one process (same index, same ranking as the per-question
// interface) and prints Recall@2/@5.
func cmdEvalScore(ctx context.Context, env *cli.Env, args []string) int {
	fs := env.Flags("eval-score")
	asJSON := fs.Bool("json", false, "print one JSON object per dataset")
	passagesOnly := fs.Bool("passages-only", false, "passage search alone (no knowledge-graph lists)")
	rest, ok := env.Parse(fs, args)
	if !ok || len(rest) == 0 {
		fmt.Fprintln(env.Stderr, "usage: cairn-eval eval-score [--json] DATASET_DIR...")
		return 2
	}
	e := embed.NewHashed(embed.DefaultDim)
	for _, dir := range rest {
		st, err := evalProject(ctx, filepath.Join(dir, "corpus.jsonl"), env.Stderr)
		if err != nil {
			return env.Fail(err)
		}
		qs, err := evalset.LoadQuestions(filepath.Join(dir, "questions.jsonl"))
		if err != nil {
			st.Close()
			return env.Fail(err)
		}
		var r2, r5 float64
		start := time.Now()
		for _, q := range qs {
			ids, err := retrievePassages(ctx, st, q.Question, 5, *passagesOnly)
			if err != nil {
				st.Close()
				return env.Fail(err)
			}
			r2 += evalset.Recall(ids, q.SupportingIDs, 2)
			r5 += evalset.Recall(ids, q.SupportingIDs, 5)
		}
		st.Close()
		n := float64(len(qs))
		res := map[string]any{"dataset": filepath.Base(filepath.Clean(dir)), "questions": len(qs), "recall@2": round1(100 * r2 / n), "recall@5": round1(100 * r5 / n),
			"ms_per_question": round1(float64(time.Since(start).Milliseconds()) / n), "embedder": e.Info().Model, "passages_only": *passagesOnly}
		if *asJSON {
			json.NewEncoder(env.Stdout).Encode(res)
		} else {
			fmt.Fprintf(env.Stdout, "%-18s questions %4d  R@2 %5.1f  R@5 %5.1f  (%.1f ms/question)\n", res["dataset"], len(qs), res["recall@2"], res["recall@5"], res["ms_per_question"])
		}
	}
	return 0
}

func round1(x float64) float64 { return float64(int(x*10+0.5)) / 10 }

// cmdEvalTune gathers every question's ranked lists once per dataset (full
// retrieval without fusion), then scores a grid of fusion settings (list
// weights, reciprocal-rank constant) on them in memory, and prints each
// list alone, the current defaults and the best settings by their smallest
// margin over the goal (BM25 + 5 and passage-only, whichever is higher).
func cmdEvalTune(ctx context.Context, env *cli.Env, args []string) int {
	fs := env.Flags("eval-tune")
	sets := fs.String("set", "", "retrieval settings that shape the lists, NAME=V,... (pprseed, hops, maxseed, relk, entk, entminsim, maxrel)")
	top := fs.Int("top", 20, "how many grid settings to print")
	values := fs.String("values", "0,0.1,0.2,0.4,0.7,1", "weights tried for each graph list")
	ks := fs.String("rrfk", "5,10,20,40", "reciprocal-rank constants tried")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the gathering to this file")
	vary := fs.String("lists", "entity,relation,expand,ppr,topic", "the lists whose weight the grid varies (the others keep their default weight)")
	save := fs.String("save", "", "save the gathered lists to this file (gob)")
	load := fs.String("load", "", "score the grid on lists saved by --save instead of gathering")
	rest, ok := env.Parse(fs, args)
	if !ok || (len(rest) == 0 && *load == "") {
		fmt.Fprintln(env.Stderr, "usage: cairn-eval eval-tune [--set NAME=V,...] DATASET_DIR...")
		return 2
	}
	set := retrieve.DefaultSettings()
	if err := applySets(&set, *sets); err != nil {
		return env.Fail(err)
	}
	vals, err := floats(*values)
	if err != nil {
		return env.Fail(err)
	}
	rrfks, err := floats(*ks)
	if err != nil {
		return env.Fail(err)
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return env.Fail(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return env.Fail(err)
		}
		defer f.Close()
		defer pprof.StopCPUProfile()
	}
	type dataset struct {
		Name     string
		Qs       []evalset.TuneQuestion
		PassOnly float64
		Goal     float64
	}
	var dss []dataset
	names := []string{"passage", "entity", "relation", "expand", "ppr", "topic"}
	if *load != "" {
		f, err := os.Open(*load)
		if err != nil {
			return env.Fail(err)
		}
		err = gob.NewDecoder(f).Decode(&dss)
		f.Close()
		if err != nil {
			return env.Fail(fmt.Errorf("%s: %w", *load, err))
		}
		rest = nil
	}
	for _, dir := range rest {
		p, err := evalProject(ctx, filepath.Join(dir, "corpus.jsonl"), env.Stderr)
		if err != nil {
			return env.Fail(err)
		}
		qs, err := evalset.LoadQuestions(filepath.Join(dir, "questions.jsonl"))
		if err != nil {
			p.Close()
			return env.Fail(err)
		}
		passage, err := chunkPassages(ctx, p)
		if err != nil {
			p.Close()
			return env.Fail(err)
		}
		r := p.Retriever()
		r.Settings = set
		ds := dataset{Name: filepath.Base(filepath.Clean(dir))}
		lat := map[string][]float64{}
		for _, q := range qs {
			t0 := time.Now()
			res, err := r.Gather(ctx, question.New(q.Question), 5)
			if err != nil {
				p.Close()
				return env.Fail(err)
			}
			lat["total"] = append(lat["total"], float64(time.Since(t0).Microseconds())/1000)
			for n, ms := range res.Timings {
				lat[n] = append(lat[n], float64(ms))
			}
			lists := make([][]int64, len(names))
			for _, l := range res.Lists {
				for i, n := range names {
					if n == l.Name {
						lists[i] = l.IDs
					}
				}
			}
			ds.Qs = append(ds.Qs, evalset.NewTuneQuestion(names, lists, func(c int64) string { return passage[c] }, q.SupportingIDs))
		}
		p.Close()
		ds.PassOnly = evalset.MeanRecall(ds.Qs, evalset.Fusion{RRFK: set.RRFK, Weights: map[string]float64{"passage": 1}}, 5)
		ds.Goal = max(ds.PassOnly, evalset.BM25Recall5[ds.Name]+5)
		dss = append(dss, ds)
		fmt.Fprintf(env.Stdout, "%s: %d questions, goal R@5 %.1f (BM25 %.1f + 5, passage-only %.1f)\n", ds.Name, len(qs), ds.Goal, evalset.BM25Recall5[ds.Name], ds.PassOnly)
		var parts []string
		for _, n := range append([]string{"total"}, names...) {
			if v := lat[n]; len(v) > 0 {
				parts = append(parts, fmt.Sprintf("%s %.0f/%.0f", n, percentile(v, 50), percentile(v, 95)))
			}
		}
		for _, n := range []string{"link", "subgraph"} {
			if v := lat[n]; len(v) > 0 {
				parts = append(parts, fmt.Sprintf("%s %.0f/%.0f", n, percentile(v, 50), percentile(v, 95)))
			}
		}
		fmt.Fprintf(env.Stdout, "  ms per question p50/p95: %s\n", strings.Join(parts, ", "))
		for _, n := range names {
			alone := evalset.Fusion{RRFK: set.RRFK, Weights: map[string]float64{n: 1}}
			fmt.Fprintf(env.Stdout, "  %-8s alone R@5 %5.1f  R@20 %5.1f  R@50 %5.1f\n", n, evalset.MeanRecall(ds.Qs, alone, 5), evalset.MeanRecall(ds.Qs, alone, 20), evalset.MeanRecall(ds.Qs, alone, 50))
		}
	}
	if *save != "" {
		f, err := os.Create(*save)
		if err != nil {
			return env.Fail(err)
		}
		err = gob.NewEncoder(f).Encode(dss)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return env.Fail(err)
		}
	}
	eval := func(f evalset.Fusion) (rs []float64, margin, mean float64) {
		margin = math.Inf(1)
		for _, ds := range dss {
			r := evalset.MeanRecall(ds.Qs, f, 5)
			rs = append(rs, r)
			margin = min(margin, r-ds.Goal)
			mean += r / float64(len(dss))
		}
		return rs, margin, mean
	}
	line := func(label string, f evalset.Fusion) {
		rs, margin, mean := eval(f)
		var parts []string
		for i, ds := range dss {
			parts = append(parts, fmt.Sprintf("%s %5.1f", ds.Name, rs[i]))
		}
		fmt.Fprintf(env.Stdout, "%-8s %s  min margin %+5.1f  mean %5.1f  | %s\n", label, strings.Join(parts, "  "), margin, mean, f)
	}
	def := evalset.Fusion{RRFK: set.RRFK, Weights: map[string]float64{"passage": set.PassageWeight, "entity": set.EntityWeight, "relation": set.RelationWeight,
		"expand": set.ExpandWeight, "ppr": set.PPRWeight, "topic": set.TopicWeight}}
	line("default", def)
	varied := strings.Split(*vary, ",")
	fixed := map[string]float64{}
	for n, w := range def.Weights {
		fixed[n] = w
	}
	grid := evalset.Grid(rrfks, fixed, varied, vals)
	type scored struct {
		f            evalset.Fusion
		margin, mean float64
	}
	all := make([]scored, len(grid))
	for i, f := range grid {
		_, m, mean := eval(f)
		all[i] = scored{f, m, mean}
	}
	sort.SliceStable(all, func(a, b int) bool {
		if math.Abs(all[a].margin-all[b].margin) > 1e-9 {
			return all[a].margin > all[b].margin
		}
		return all[a].mean > all[b].mean
	})
	fmt.Fprintf(env.Stdout, "grid: %d settings (others at their defaults; %s each of %s; rrfK %s), best by min margin over the goal:\n", len(grid), *values, *vary, *ks)
	for i := 0; i < min(*top, len(all)); i++ {
		line(fmt.Sprintf("#%d", i+1), all[i].f)
	}
	return 0
}

// chunkPassages maps every chunk of an eval project to its passage id.
func chunkPassages(ctx context.Context, p *project.Project) (map[int64]string, error) {
	return p.Store().ChunkFileNames(ctx)
}

func applySets(set *retrieve.Settings, s string) error {
	for _, kv := range strings.Split(s, ",") {
		if strings.TrimSpace(kv) == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if !ok || err != nil {
			return fmt.Errorf("--set %q: want NAME=NUMBER", kv)
		}
		switch strings.TrimSpace(k) {
		case "pprseed":
			set.PPRPassageSeed = f
		case "hops":
			set.Hops = int(f)
		case "maxseed":
			set.MaxSeedChunks = int(f)
		case "relk":
			set.RelationK = int(f)
		case "entk":
			set.EntityK = int(f)
		case "entminsim":
			set.EntityMinSim = f
		case "maxrel":
			set.MaxRelations = int(f)
		case "depth":
			set.Depth = int(f)
		case "topicpassages":
			set.TopicPassages = int(f)
		default:
			return fmt.Errorf("--set: unknown setting %q", k)
		}
	}
	return nil
}

func floats(s string) ([]float64, error) {
	var out []float64
	for _, x := range strings.Split(s, ",") {
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", x)
		}
		out = append(out, f)
	}
	return out, nil
}

func percentile(v []float64, p float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

// cmdEvalPaths answers each question offline keeping the 20 best candidate
// paths (θ = 0), then re-scores the paths under a grid of λ1 (semantic),
// λ2 = 1 − λ1 (structural) and θ, and prints per setting: how often a gold
// answer is a node of the top 1 / top 3 paths, how often the top path has
// an edge stated in a gold passage, and how many paths are kept.
func cmdEvalPaths(ctx context.Context, env *cli.Env, args []string) int {
	fs := env.Flags("eval-paths")
	limit := fs.Int("limit", 0, "only the first N questions of each set")
	rest, ok := env.Parse(fs, args)
	if !ok || len(rest) == 0 {
		fmt.Fprintln(env.Stderr, "usage: cairn-eval eval-paths [--limit N] DATASET_DIR...")
		return 2
	}
	type question struct {
		answers []string
		gold    map[int64]bool // chunks of the gold passages
		paths   []kb.Path
	}
	var all []question
	var touch reason.PathCounts // over the candidate paths (20 a question, θ = 0)
	drawn := 0
	for _, dir := range rest {
		p, err := evalProject(ctx, filepath.Join(dir, "corpus.jsonl"), env.Stderr)
		if err != nil {
			return env.Fail(err)
		}
		qs, err := evalset.LoadQuestions(filepath.Join(dir, "questions.jsonl"))
		if err != nil {
			p.Close()
			return env.Fail(err)
		}
		if *limit > 0 && *limit < len(qs) {
			qs = qs[:*limit]
		}
		passage, err := chunkPassages(ctx, p)
		if err != nil {
			p.Close()
			return env.Fail(err)
		}
		r := reason.New(p.Retriever(), llm.Offline{})
		r.Settings.Theta, r.Settings.MaxPaths = 0, 20
		withPaths := 0
		for _, q := range qs {
			a, err := r.Quick(ctx, q.Question, nil)
			if err != nil {
				p.Close()
				return env.Fail(err)
			}
			var tr reason.Trace
			if json.Unmarshal(a.Trace, &tr) == nil && tr.PathsTouch != nil {
				touch.Question += tr.PathsTouch.Question
				touch.Answer += tr.PathsTouch.Answer
				touch.Dropped += tr.PathsTouch.Dropped
			}
			drawn += len(a.Paths)
			gold := map[int64]bool{}
			want := map[string]bool{}
			for _, id := range q.SupportingIDs {
				want[id] = true
			}
			for c, id := range passage {
				if want[id] {
					gold[c] = true
				}
			}
			if len(a.Paths) > 0 {
				withPaths++
			}
			all = append(all, question{answers: q.Answers, gold: gold, paths: a.Paths})
		}
		p.Close()
		fmt.Fprintf(env.Stdout, "%s: %d questions, %d with paths\n", filepath.Base(filepath.Clean(dir)), len(qs), withPaths)
	}
	pct := func(n, of int) float64 { return 100 * float64(n) / float64(max(1, of)) }
	fmt.Fprintf(env.Stdout, "candidate paths drawn: %d of %d (%.1f%%); left out, touching neither the question nor the answer: %d\n",
		drawn, drawn+touch.Dropped, pct(drawn, drawn+touch.Dropped), touch.Dropped)
	fmt.Fprintf(env.Stdout, "drawn paths touching a question entity (or its document): %.1f%%, the answer (named or cited): %.1f%%, either: 100%%\n",
		pct(touch.Question, drawn), pct(touch.Answer, drawn))
	h := embed.NewHashed(embed.DefaultDim)
	fmt.Fprintf(env.Stdout, "%-5s %-5s %-5s  %8s %8s %10s %6s\n", "λ1", "λ2", "θ", "answer@1", "answer@3", "gold-src@1", "kept")
	for _, l1 := range []float64{0, 0.25, 0.5, 0.75, 1} {
		for _, th := range []float64{0, 0.1, 0.2, 0.3, 0.4} {
			var a1, a3, g1, kept float64
			for _, q := range all {
				ps := reason.Rethink(h, "", q.paths, l1, 1-l1, th, 0)
				kept += float64(len(ps))
				for i, p := range ps {
					if i >= 3 {
						break
					}
					on := false
					for _, n := range p.Nodes {
						for _, ans := range q.answers {
							if evalset.NormalizeAnswer(n) == evalset.NormalizeAnswer(ans) {
								on = true
							}
						}
					}
					if on {
						a3++
						if i == 0 {
							a1++
						}
						break
					}
				}
				if len(ps) > 0 {
					for _, e := range ps[0].Edges {
						if q.gold[e.Source.ChunkID] {
							g1++
							break
						}
					}
				}
			}
			n := float64(max(1, len(all)))
			fmt.Fprintf(env.Stdout, "%-5g %-5g %-5g  %7.1f%% %7.1f%% %9.1f%% %6.1f\n", l1, 1-l1, th, 100*a1/n, 100*a3/n, 100*g1/n, kept/n)
		}
	}
	return 0
}
