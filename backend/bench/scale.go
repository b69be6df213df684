package bench

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"cairn/backend/embed"
	"cairn/backend/evalset"
	"cairn/backend/kb"
	"cairn/backend/project"
)

// The query-latency corpora are built from ../shared/eval: the passages of
// hotpotqa, musique and 2wikimultihopqa in that order (11,830 passages),
// one document and one chunk per passage as evalset.Build makes them,
// repeated as disjoint copies (ids suffixed "~copyN", same text) up to the
// chunk count. Each scale is a prefix of the next, so the 100k corpus is
// built once on top of the 10k one. They are cached by content under
// CacheDir.

var scaleDatasets = []string{"hotpotqa", "musique", "2wikimultihopqa"}

// scaleBuilderVersion changes the cache key when the recipe changes. The
// key does not follow the schema: a cached corpus from an older schema is
// migrated when it is opened, as a user's project is (and keeps its costly
// knowledge graph). Bump this when a fresh build would store different
// data: a new chunker or embedder, or a migration that rewrites content.
const scaleBuilderVersion = "2"

type scaleCorpus struct {
	Chunks  int
	Dir     string        // project folder holding cairn.db
	Built   time.Duration // time to build the chunks added in this run (0: cached)
	Indexed time.Duration // time project.Index took on this corpus in this run (0: cached or not indexed)
	Graph   bool          // project.Index ran: knowledge graph and mind maps present
	Stages  []string      // the index stages it ran
	Added   int           // chunks added in this run
	Queries []evalset.Question
}

// DB is the corpus' database file.
func (s *scaleCorpus) DB() string { return filepath.Join(s.Dir, "cairn.db") }

// scaleBase loads the eval passages and questions and the cache key.
func scaleBase(evalDir string, e embed.Embedder) ([]evalset.Passage, []evalset.Question, string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "scale v%s embedder %s/%d\n", scaleBuilderVersion, e.Info().Model, e.Info().Dim)
	var ps []evalset.Passage
	var qs []evalset.Question
	for _, ds := range scaleDatasets {
		cp := filepath.Join(evalDir, ds, "corpus.jsonl")
		sum, err := kb.HashFile(cp)
		if err != nil {
			return nil, nil, "", fmt.Errorf("scale corpora need ../shared/eval: %w", err)
		}
		fmt.Fprintf(h, "%s %s\n", ds, sum)
		c, err := evalset.LoadCorpus(cp)
		if err != nil {
			return nil, nil, "", err
		}
		q, err := evalset.LoadQuestions(filepath.Join(evalDir, ds, "questions.jsonl"))
		if err != nil {
			return nil, nil, "", err
		}
		ps, qs = append(ps, c...), append(qs, q...)
	}
	return ps, qs, hex.EncodeToString(h.Sum(nil))[:16], nil
}

// ScalePassages returns the first n passages of the scale corpus built from
// base: base in order, then disjoint copies with ids suffixed "~copyN".
func ScalePassages(base []evalset.Passage, from, to int) []evalset.Passage {
	out := make([]evalset.Passage, 0, max(0, to-from))
	for i := from; i < to; i++ {
		p := base[i%len(base)]
		if c := i / len(base); c > 0 {
			p.ID = fmt.Sprintf("%s~copy%d", p.ID, c)
		}
		out = append(out, p)
	}
	return out
}

// scaleCorpora returns the configured scales, building (or reusing) them.
func (env *Env) scaleCorpora(ctx context.Context) ([]*scaleCorpus, error) {
	sizes := append([]int(nil), env.Scales...)
	sort.Ints(sizes)
	var out []*scaleCorpus
	missing := false
	for _, n := range sizes {
		if s := env.scales[n]; s != nil {
			out = append(out, s)
		} else {
			missing = true
		}
	}
	if !missing {
		return out, nil
	}
	e := embed.NewHashed(embed.DefaultDim)
	base, qs, key, err := scaleBase(env.EvalDir, e)
	if err != nil {
		return nil, err
	}
	root := filepath.Join(env.CacheDir, "scale-"+key)
	dir := func(n int) string { return filepath.Join(root, fmt.Sprint(n)) }
	cached := func(n int) bool {
		_, err := os.Stat(filepath.Join(dir(n), "cairn.db"))
		return err == nil
	}
	out = out[:0]
	prev := 0
	for _, n := range sizes {
		s := &scaleCorpus{Chunks: n, Dir: dir(n), Queries: qs}
		if !cached(n) {
			if err := buildScale(ctx, env, e, base, prev, dir(prev), s); err != nil {
				return nil, fmt.Errorf("build %d-chunk corpus: %w", n, err)
			}
		}
		prev = n
		if stages := scaleStages(n, env.FuseMaxChunks); len(stages) > 0 && n <= env.GraphMaxChunks {
			if len(stages) < len(project.IndexStages()) {
				env.Notef("the %d-chunk corpus is indexed without mind-map fusion (%s only; BENCH_FUSE_MAX_CHUNKS=%d); retrieval does not use the pseudo-graph by default", n, strings.Join(stages, ", "), env.FuseMaxChunks)
			}
			if err := indexScale(ctx, env, s, stages, filepath.Join(root, fmt.Sprintf("%d-indexed-%s", n, stagesKey(stages)))); err != nil {
				return nil, fmt.Errorf("index %d-chunk corpus: %w", n, err)
			}
		} else if len(stages) > 0 {
			env.Notef("the %d-chunk corpus has no knowledge graph or mind maps: this run indexed only up to %d chunks (BENCH_GRAPH_MAX_CHUNKS)", n, env.GraphMaxChunks)
		}
		env.scales[n] = s
		out = append(out, s)
	}
	return out, nil
}

// scaleStages are the index stages a corpus of n chunks gets: all, but
// fusion only up to fuseMax chunks.
func scaleStages(n, fuseMax int) []string {
	var out []string
	for _, st := range project.IndexStages() {
		if st == "fusion" && n > fuseMax {
			continue
		}
		out = append(out, st)
	}
	return out
}

// stagesKey names the index stages in a cache folder name.
func stagesKey(stages []string) string {
	sum := sha256.Sum256([]byte(strings.Join(stages, "+")))
	return hex.EncodeToString(sum[:])[:8]
}

// indexScale makes (or reuses) an indexed copy of s in dir: the chunk-only
// corpus copied, then project.Index with the offline provider. s then
// points at the indexed copy.
func indexScale(ctx context.Context, env *Env, s *scaleCorpus, stages []string, dir string) error {
	s.Graph, s.Stages = true, stages
	if _, err := os.Stat(filepath.Join(dir, project.DBName)); err == nil {
		s.Dir = dir
		return nil
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "indexing-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := copyFile(s.DB(), filepath.Join(tmp, project.DBName)); err != nil {
		return err
	}
	env.Logf("indexing the %d-chunk corpus offline (%s) in %s", s.Chunks, strings.Join(stages, ", "), dir)
	p, err := project.Open(tmp)
	if err != nil {
		return err
	}
	defer p.Close()
	t0 := time.Now()
	last := time.Now()
	err = p.IndexOnly(ctx, stages, func(pr project.IndexProgress) {
		if time.Since(last) > 30*time.Second {
			last = time.Now()
			env.Logf("  index %s %d/%d", pr.Stage, pr.Done, pr.Total)
		}
	})
	if err != nil {
		return err
	}
	s.Indexed = time.Since(t0)
	if err := p.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return err
	}
	s.Dir = dir
	return nil
}

// buildScale makes s from the prefix corpus in prevDir (prev chunks; none
// when prev is 0) plus passages prev..s.Chunks, in a temporary folder
// renamed into place when complete.
func buildScale(ctx context.Context, env *Env, e embed.Embedder, base []evalset.Passage, prev int, prevDir string, s *scaleCorpus) error {
	if err := os.MkdirAll(filepath.Dir(s.Dir), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(s.Dir), "building-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	db := filepath.Join(tmp, "cairn.db")
	if prev > 0 {
		if err := copyFile(filepath.Join(prevDir, "cairn.db"), db); err != nil {
			return err
		}
	}
	env.Logf("building the %d-chunk corpus (from %d) in %s", s.Chunks, prev, s.Dir)
	p, err := project.Open(tmp)
	if err != nil {
		return err
	}
	defer p.Close()
	st := p.Store()
	t0 := time.Now()
	const batch = 2000
	for i := prev; i < s.Chunks; i += batch {
		if err := evalset.Build(ctx, st, e, ScalePassages(base, i, min(i+batch, s.Chunks))); err != nil {
			return err
		}
		if d := time.Since(t0); i > prev && (i-prev)%20000 == 0 {
			env.Logf("  %d/%d chunks, %.0f chunks/s", i, s.Chunks, Rate(float64(i-prev), d))
		}
	}
	s.Built, s.Added = time.Since(t0), s.Chunks-prev
	if _, n, err := st.Counts(ctx); err != nil || n != s.Chunks {
		return fmt.Errorf("built %d chunks, want %d (%v)", n, s.Chunks, err)
	}
	if err := p.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, s.Dir)
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
