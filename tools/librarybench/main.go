// Command librarybench times search and offline asking in one open project
// (in process, as the app runs them: routing, scope, hybrid search), over
// the questions of a questions.jsonl (one JSON object a line with a
// "question" field, e.g. ../shared/eval/docqa/financebench-dev), and
// prints p50/p95/max per operation. Import the documents first (cairn
// import); this measures the library at that size.
//
//	go run ./tools/librarybench -project DIR -questions FILE [-k 5] [-ask] [-runs 2]
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"time"

	"cairn/backend/project"
	"cairn/backend/question"
)

func main() {
	dir := flag.String("project", "", "project folder (already imported)")
	qfile := flag.String("questions", "", "questions.jsonl")
	k := flag.Int("k", 5, "passages per search")
	ask := flag.Bool("ask", false, "also time offline answers")
	runs := flag.Int("runs", 2, "passes over the questions (the first warms the caches)")
	flag.Parse()
	if *dir == "" || *qfile == "" {
		flag.Usage()
		os.Exit(2)
	}
	qs, err := questions(*qfile)
	if err != nil {
		fail(err)
	}
	p, err := project.Open(*dir)
	if err != nil {
		fail(err)
	}
	defer p.Close()
	ctx := context.Background()
	docs, chunks, err := p.Counts(ctx)
	if err != nil {
		fail(err)
	}
	fmt.Printf("project: %d documents, %d passages; %d questions, %d runs (the first not counted)\n", docs, chunks, len(qs), *runs)
	var search, answer []time.Duration
	for r := 0; r < *runs; r++ {
		for _, q := range qs {
			t0 := time.Now()
			if _, _, err := p.SearchIn(ctx, q, *k, nil); err != nil {
				fail(err)
			}
			if r > 0 || *runs == 1 {
				search = append(search, time.Since(t0))
			}
			if *ask {
				t0 = time.Now()
				aq := question.New(q)
				r2, err := p.Reasoner(ctx, aq, nil)
				if err != nil {
					fail(err)
				}
				if _, err := r2.QuickAnalysed(ctx, aq, nil); err != nil {
					fail(err)
				}
				if r > 0 || *runs == 1 {
					answer = append(answer, time.Since(t0))
				}
			}
		}
	}
	report("search", search)
	if *ask {
		report("ask (offline, not stored)", answer)
	}
}

func questions(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var q struct {
			Question string `json:"question"`
		}
		if json.Unmarshal(sc.Bytes(), &q) == nil && q.Question != "" {
			out = append(out, q.Question)
		}
	}
	return out, sc.Err()
}

func report(name string, ds []time.Duration) {
	if len(ds) == 0 {
		return
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	at := func(q float64) time.Duration { return ds[min(len(ds)-1, int(q*float64(len(ds))))] }
	fmt.Printf("%-28s n %4d  p50 %6.1f ms  p95 %6.1f ms  max %6.1f ms\n", name, len(ds),
		float64(at(0.5).Microseconds())/1000, float64(at(0.95).Microseconds())/1000, float64(ds[len(ds)-1].Microseconds())/1000)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "librarybench:", err)
	os.Exit(1)
}
