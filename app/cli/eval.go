package cli

import (
	"bufio"
	"context"
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
	"cairn/backend/search"
	"cairn/backend/store"
)

// evalStore opens the cached project built from the corpus file, building it
// on first use. The cache key is the corpus file's hash and the embedder.
func evalStore(ctx context.Context, corpusPath string, e embed.Embedder, log io.Writer) (*store.Store, error) {
	sum, err := kb.HashFile(corpusPath)
	if err != nil {
		return nil, fmt.Errorf("EVAL_CORPUS: %w", err)
	}
	dir := filepath.Join(cacheDir(), "eval", sum[:16]+"-"+e.Info().Model+"-s"+fmt.Sprint(store.SchemaVersion()))
	db := filepath.Join(dir, "cairn.db")
	if _, err := os.Stat(db); err == nil {
		return store.Open(db)
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
	st, err := store.Open(filepath.Join(tmp, "cairn.db"))
	if err != nil {
		return nil, err
	}
	if err := evalset.Build(ctx, st, e, corpus); err != nil {
		st.Close()
		return nil, err
	}
	if err := st.Close(); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, dir); err != nil && !os.IsExist(err) {
		if _, serr := os.Stat(db); serr != nil { // lost a race to another builder: fine if theirs exists
			return nil, err
		}
	}
	fmt.Fprintf(log, "cairn: built eval index of %d passages in %s (%s)\n", len(corpus), time.Since(start).Round(time.Millisecond), dir)
	return store.Open(db)
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
	e := embed.NewHashed(embed.DefaultDim)
	st, err := evalStore(ctx, corpus, e, env.Stderr)
	if err != nil {
		return env.fail(err)
	}
	defer st.Close()
	ids, err := retrievePassages(ctx, st, e, q, *k)
	if err != nil {
		return env.fail(err)
	}
	for _, id := range ids {
		fmt.Fprintln(env.Stdout, id)
	}
	return 0
}

func retrievePassages(ctx context.Context, st *store.Store, e embed.Embedder, q string, k int) ([]string, error) {
	s := &search.Searcher{Store: st, Embedder: e, Settings: search.DefaultSettings()}
	hits, err := s.Search(ctx, q, k)
	if err != nil {
		return nil, err
	}
	return evalset.PassageIDs(ctx, st, hits)
}

// cmdEvalScore scores eval-retrieve's ranking on every question of a dataset
// folder in one process (same index, same ranking as the per-question
// interface) and prints Recall@2/@5.
func cmdEvalScore(ctx context.Context, env *Env, args []string) int {
	fs := env.flags("eval-score")
	asJSON := fs.Bool("json", false, "print one JSON object per dataset")
	rest, ok := env.parse(fs, args)
	if !ok || len(rest) == 0 {
		fmt.Fprintln(env.Stderr, "usage: cairn eval-score [--json] DATASET_DIR...")
		return 2
	}
	e := embed.NewHashed(embed.DefaultDim)
	for _, dir := range rest {
		st, err := evalStore(ctx, filepath.Join(dir, "corpus.jsonl"), e, env.Stderr)
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
			ids, err := retrievePassages(ctx, st, e, q.Question, 5)
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
			"ms_per_question": round1(float64(time.Since(start).Milliseconds()) / n), "embedder": e.Info().Model}
		if *asJSON {
			json.NewEncoder(env.Stdout).Encode(res)
		} else {
			fmt.Fprintf(env.Stdout, "%-18s questions %4d  R@2 %5.1f  R@5 %5.1f  (%.1f ms/question)\n", res["dataset"], len(qs), res["recall@2"], res["recall@5"], res["ms_per_question"])
		}
	}
	return 0
}

func round1(x float64) float64 { return float64(int(x*10+0.5)) / 10 }
