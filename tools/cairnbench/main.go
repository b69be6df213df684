// Command cairnbench runs Cairn's benchmark suite (`make bench`; the
// measurements live in backend/bench) and writes backend/bench/results.json
// and RESULTS.md.
//
//	go run ./tools/cairnbench [-quick] [-only NAME,...] [-runs N] [-scales 1000,10000,100000] [-out DIR] [-cpuprofile FILE]
//
// BENCH_QUICK=1 is -quick: one run at 1k and 10k chunks. Scale corpora are
// cached under $CAIRN_CACHE_DIR/bench (default ~/.cache/cairn/bench).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"

	"cairn/backend/bench"
	"cairn/backend/ingest"
)

func main() {
	ingest.MaybeRunWorker()
	bench.MaybeRunChild()
	quick := flag.Bool("quick", os.Getenv("BENCH_QUICK") == "1", "fast subset (also BENCH_QUICK=1)")
	only := flag.String("only", "", "comma-separated measurements to run: "+strings.Join(bench.Names(), ", "))
	runs := flag.Int("runs", 0, "repetitions (default 3, quick 1)")
	scales := flag.String("scales", "", "chunk counts of the query corpora (default 1000,10000,100000; quick 1000,10000)")
	queries := flag.Int("queries", -1, "questions per latency run (default 100, 50 above 20k chunks, quick 50; 0 = all)")
	out := flag.String("out", "", "folder for results.json and RESULTS.md (default backend/bench; -only: none unless given)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file (go tool pprof)")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fail(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fail(err)
		}
		defer pprof.StopCPUProfile()
	}

	root, err := repoRoot()
	if err != nil {
		fail(err)
	}
	cfg := bench.DefaultConfig(root, *quick)
	if *only != "" {
		cfg.Only = strings.Split(*only, ",")
	}
	if *runs > 0 {
		cfg.Runs = *runs
	}
	if *queries >= 0 {
		cfg.Queries = *queries
	}
	if *scales != "" {
		cfg.Scales = nil
		for _, s := range strings.Split(*scales, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || n <= 0 {
				fail(fmt.Errorf("bad -scales %q", *scales))
			}
			cfg.Scales = append(cfg.Scales, n)
		}
	}
	dir := *out
	if dir == "" && *only == "" {
		dir = filepath.Join(root, "backend", "bench")
	}
	if dir != "" {
		// made before the run, so a long run never ends unable to write
		if err := os.MkdirAll(dir, 0o755); err != nil {
			fail(err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := bench.Run(ctx, cfg)
	if err != nil {
		pprof.StopCPUProfile()
		fail(err)
	}
	res.Command = bench.Runner + " " + strings.Join(os.Args[1:], " ")
	if *quick && !strings.Contains(res.Command, "-quick") {
		res.Command = "BENCH_QUICK=1 " + res.Command
	}
	res.Command = strings.TrimSpace(res.Command)
	if dir != "" {
		if err := bench.WriteJSON(filepath.Join(dir, "results.json"), res); err != nil {
			fail(err)
		}
		if err := bench.WriteMarkdown(filepath.Join(dir, "RESULTS.md"), res); err != nil {
			fail(err)
		}
		fmt.Fprintf(os.Stderr, "cairnbench: wrote %s and %s\n", filepath.Join(dir, "results.json"), filepath.Join(dir, "RESULTS.md"))
	} else {
		fmt.Print(bench.Markdown(res))
	}
	if len(res.Failures) > 0 {
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

// repoRoot walks up from the working directory to the folder holding go.mod.
func repoRoot() (string, error) {
	d, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		p := filepath.Dir(d)
		if p == d {
			return "", fmt.Errorf("run cairnbench inside the Cairn repository (no go.mod above %s)", d)
		}
		d = p
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "cairnbench:", err)
	os.Exit(1)
}
