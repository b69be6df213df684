package cli

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"cairn/backend/embed"
	"cairn/backend/evalset"
	"cairn/backend/kb"
	"cairn/backend/project"
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
	key := sum[:16] + "-" + e.Info().Model + "-s" + fmt.Sprint(store.SchemaVersion())
	if st := evalset.IndexKey(); st != "" {
		h := sha256.Sum256([]byte(st))
		key += "-i" + hex.EncodeToString(h[:4])
	}
	dir := filepath.Join(cacheDir(), "eval", key)
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

func cacheDir() string {
	if d := os.Getenv("CAIRN_CACHE_DIR"); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "cairn")
	}
	return filepath.Join(os.TempDir(), "cairn-cache")
}

// cmdEvalRetrieve implements ../shared/eval's scoring interface: question on
// stdin, EVAL_CORPUS in the environment, passage ids best first on stdout.
func cmdEvalRetrieve(ctx context.Context, env *Env, args []string) int {
	fs := env.flags("eval-retrieve")
	k := fs.Int("k", 20, "how many passage ids to print")
	passagesOnly := fs.Bool("passages-only", false, "passage search alone (no knowledge-graph lists)")
	if _, ok := env.parse(fs, args); !ok {
		return 2
	}
	corpus := os.Getenv("EVAL_CORPUS")
	if corpus == "" {
		return env.fail(fmt.Errorf("EVAL_CORPUS is not set (absolute path of a corpus.jsonl)"))
	}
	q, err := bufio.NewReader(env.Stdin).ReadString('\n')
	if err != nil && err != io.EOF {
		return env.fail(err)
	}
	q = strings.TrimSpace(q)
	p, err := evalProject(ctx, corpus, env.Stderr)
	if err != nil {
		return env.fail(err)
	}
	defer p.Close()
	ids, err := retrievePassages(ctx, p, q, *k, *passagesOnly)
	if err != nil {
		return env.fail(err)
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
		res, err = p.Retriever().Retrieve(ctx, q, k)
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
func cmdEvalScore(ctx context.Context, env *Env, args []string) int {
	fs := env.flags("eval-score")
	asJSON := fs.Bool("json", false, "print one JSON object per dataset")
	passagesOnly := fs.Bool("passages-only", false, "passage search alone (no knowledge-graph lists)")
	rest, ok := env.parse(fs, args)
	if !ok || len(rest) == 0 {
		fmt.Fprintln(env.Stderr, "usage: cairn eval-score [--json] DATASET_DIR...")
		return 2
	}
	e := embed.NewHashed(embed.DefaultDim)
	for _, dir := range rest {
		st, err := evalProject(ctx, filepath.Join(dir, "corpus.jsonl"), env.Stderr)
		if err != nil {
			return env.fail(err)
		}
		qs, err := evalset.LoadQuestions(filepath.Join(dir, "questions.jsonl"))
		if err != nil {
			st.Close()
			return env.fail(err)
		}
		var r2, r5 float64
		start := time.Now()
		for _, q := range qs {
			ids, err := retrievePassages(ctx, st, q.Question, 5, *passagesOnly)
			if err != nil {
				st.Close()
				return env.fail(err)
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
