// Package bench is Cairn's benchmark suite (issue 9, `make bench`): it
// measures import speed against pdftotext and a raw DOCX walk, offline
// indexing throughput and peak memory, query latency at 1k/10k/100k chunks
// with vector k-NN against a memory-bandwidth bound, storage per chunk, the
// LLM budget and time to first answer token, and the desktop app's cold
// start and graph-explorer frame time (appbench.go). Every
// figure keeps the command that reproduces it, its repeated runs
// (min/median/max) and, where one exists, a reference measured in the same
// run. Results go to results.json and a readable RESULTS.md.
//
// A measurement is one entry in the measurements table: a name (the value
// of `cairnbench -only`) and a function returning figures.
package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"cairn/backend/cachedir"
)

// Config says what to measure and where the inputs are.
type Config struct {
	Root     string // repository root (holds go.mod)
	DocsDir  string // real documents (../shared/docs/real)
	EvalDir  string // multi-hop QA corpora (../shared/eval)
	CacheDir string // scale corpora cache (CAIRN_CACHE_DIR/bench)
	Quick    bool   // BENCH_QUICK=1: a fast subset
	Runs     int    // repetitions of each timed measurement
	Scales   []int  // chunk counts of the query-latency corpora
	Queries  int    // questions per latency run (0: all)
	// GraphMaxChunks: scale corpora up to this size also get project.Index
	// (knowledge graph, mind maps, offline); larger ones are chunks only.
	// Default: every scale, so hybrid retrieval at 100k chunks runs its graph
	// lists; the 100k graph takes most of an hour to build on 2 cores the
	// first time (cached after). BENCH_GRAPH_MAX_CHUNKS=10000 skips it.
	GraphMaxChunks int
	// FuseMaxChunks: scale corpora above this size are indexed without the
	// cross-document mind-map fusion stage (retrieval does not use it by
	// default). Default: every scale; fusing the 100k corpus takes about
	// 2 minutes on 2 cores. BENCH_FUSE_MAX_CHUNKS overrides.
	FuseMaxChunks int
	LLMDocs       []string // documents indexed with the fake server (default assets/sample)
	Only          []string // measurement names to run (empty: all)
	Log           io.Writer
}

// DefaultConfig is `make bench`: 3 runs, 1k/10k/100k chunks, 100 questions; quick is one
// run at 1k and 10k chunks with 50 questions.
func DefaultConfig(root string, quick bool) Config {
	c := Config{
		Root:     root,
		DocsDir:  filepath.Join(root, "..", "shared", "docs", "real"),
		EvalDir:  filepath.Join(root, "..", "shared", "eval"),
		CacheDir: cachedir.Sub("bench"),
		Quick:    quick,
		Runs:     3,
		Scales:   []int{1000, 10000, 100000},
		Queries:  100,
		Log:      os.Stderr,

		GraphMaxChunks: 100000,
		FuseMaxChunks:  100000,
	}
	if n, err := strconv.Atoi(os.Getenv("BENCH_GRAPH_MAX_CHUNKS")); err == nil {
		c.GraphMaxChunks = n
	}
	if n, err := strconv.Atoi(os.Getenv("BENCH_FUSE_MAX_CHUNKS")); err == nil {
		c.FuseMaxChunks = n
	}
	if quick {
		c.Runs, c.Scales, c.Queries = 1, []int{1000, 10000}, 50
	}
	return c
}

// Stat is min/median/max of repeated runs.
type Stat struct {
	Runs   []float64 `json:"runs"`
	Min    float64   `json:"min"`
	Median float64   `json:"median"`
	Max    float64   `json:"max"`
}

// Reference is what a figure is compared with, measured in the same run.
type Reference struct {
	Name    string `json:"name"`
	Command string `json:"command"`
	Stat
}

// Figure is one measured number.
type Figure struct {
	ID      string `json:"id"`    // stable key, e.g. "import.pdf.pages_per_s"
	Group   string `json:"group"` // section of RESULTS.md
	Name    string `json:"name"`
	Unit    string `json:"unit"`
	Command string `json:"command"` // reproduces this figure
	Stat
	Reference *Reference `json:"reference,omitempty"`
	// Ratio is Median / Reference.Median (0 without a reference).
	Ratio  float64 `json:"ratio,omitempty"`
	Target string  `json:"target,omitempty"` // the target, in words
	Note   string  `json:"note,omitempty"`
}

// Measurement produces figures. Later parts (LLM budget, answers, graph
// paths) add one entry each to measurements.
type Measurement struct {
	Name string // `cairnbench -only NAME`
	Run  func(ctx context.Context, env *Env) ([]Figure, error)
}

// Env is what a measurement gets: the configuration, a scratch folder and
// the state shared between measurements (scale corpora built once).
type Env struct {
	Config
	Tmp     string
	current string // name of the running measurement (for commands)
	scales  map[int]*scaleCorpus
	notes   []string
}

// Logf prints progress to the log.
func (e *Env) Logf(format string, args ...any) {
	if e.Log != nil {
		fmt.Fprintf(e.Log, "bench: "+format+"\n", args...)
	}
}

// Notef records a remark for RESULTS.md (skipped parts, assumptions).
func (e *Env) Notef(format string, args ...any) {
	n := fmt.Sprintf(format, args...)
	e.notes = append(e.notes, n)
	e.Logf("note: %s", n)
}

// Runner starts the suite from the repository root (the command lives in
// tools/cairnbench); results and figures name it in the command line that
// reproduces them.
const Runner = "go run ./tools/cairnbench"

// Command is the command line that reproduces the running measurement.
func (e *Env) Command() string {
	c := Runner + " -only " + e.current
	if e.Quick {
		c = "BENCH_QUICK=1 " + c
	}
	return c
}

// Results is the whole run, as results.json holds it.
type Results struct {
	Date     time.Time `json:"date"`
	Commit   string    `json:"commit"`
	Dirty    bool      `json:"dirty"`
	Command  string    `json:"command"`
	Quick    bool      `json:"quick"`
	Runs     int       `json:"runs"`
	Machine  Machine   `json:"machine"`
	Load     Load      `json:"load"`
	Elapsed  float64   `json:"elapsed_s"`
	Figures  []Figure  `json:"figures"`
	Notes    []string  `json:"notes,omitempty"`
	Failures []string  `json:"failures,omitempty"`
}

// measurements run in this order (the priority order).
var measurements = []Measurement{
	{"import", measureImport},
	{"index", measureIndex},
	{"query", measureQuery},
	{"vector", measureVector},
	{"storage", measureStorage},
	{"llm", measureLLM},
	{"app", measureApp},     // appbench.go
	{"graph", measureGraph}, // graphbench.go
}

// Names lists the measurements, for `cairnbench -list`.
func Names() []string {
	out := make([]string, len(measurements))
	for i, m := range measurements {
		out[i] = m.Name
	}
	return out
}

func (c Config) wants(name string) bool {
	if len(c.Only) == 0 {
		return true
	}
	for _, o := range c.Only {
		if o == name {
			return true
		}
	}
	return false
}

// Run runs the configured measurements. A measurement that fails is
// recorded in Failures and the others still run.
func Run(ctx context.Context, cfg Config) (*Results, error) {
	if cfg.Runs <= 0 {
		cfg.Runs = 1
	}
	for _, o := range cfg.Only {
		known := false
		for _, m := range measurements {
			known = known || m.Name == o
		}
		if !known {
			return nil, fmt.Errorf("unknown measurement %q (have %s)", o, strings.Join(Names(), ", "))
		}
	}
	tmp, err := os.MkdirTemp("", "cairnbench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	env := &Env{Config: cfg, Tmp: tmp, scales: map[int]*scaleCorpus{}}
	res := &Results{Date: time.Now().UTC(), Quick: cfg.Quick, Runs: cfg.Runs, Machine: ReadMachine()}
	res.Commit, res.Dirty = gitCommit(cfg.Root)
	start := time.Now()
	cpu0 := readCPU()
	for _, m := range measurements {
		if !cfg.wants(m.Name) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		env.current = m.Name
		env.Logf("%s ...", m.Name)
		t0 := time.Now()
		figs, err := m.Run(ctx, env)
		for i := range figs {
			finish(&figs[i], env.Command())
		}
		res.Figures = append(res.Figures, figs...)
		if err != nil {
			res.Failures = append(res.Failures, fmt.Sprintf("%s: %v", m.Name, err))
			env.Logf("%s FAILED: %v", m.Name, err)
			continue
		}
		env.Logf("%s done in %s (%d figures)", m.Name, time.Since(t0).Round(time.Millisecond), len(figs))
	}
	res.Elapsed = time.Since(start).Seconds()
	res.Load = loadSince(cpu0)
	res.Notes = env.notes
	return res, nil
}

// finish fills a figure's statistics, ratio and command.
func finish(f *Figure, cmd string) {
	f.Stat = Summarise(f.Runs)
	if f.Command == "" {
		f.Command = cmd
	}
	if f.Reference != nil {
		f.Reference.Stat = Summarise(f.Reference.Runs)
		if f.Reference.Median != 0 {
			f.Ratio = f.Median / f.Reference.Median
		}
	}
}
