// Command pgeval measures what the pseudo-graph walk adds to passage search:
// Recall@2/@5 on the DEV sets of ../shared/eval, for passage search alone
// and fused (search.Fuse) with the walk's ranked list, over a small grid of
// the walk's thresholds and the list's weight.
//
//	go run ./tools/pgeval [-sets hotpotqa,musique,2wikimultihopqa] [-n 0]
//
// Each corpus is built once into -cache (one passage per document, offline
// mind maps, fusion) and reused. The walk's defaults
// (mindmap.DefaultPGSettings) were measured with it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"cairn/backend/embed"
	"cairn/backend/evalset"
	"cairn/backend/llm"
	"cairn/backend/mindmap"
	"cairn/backend/search"
	"cairn/backend/store"
)

func main() {
	data := flag.String("data", "../shared/eval", "eval folder")
	sets := flag.String("sets", "hotpotqa,musique,2wikimultihopqa", "datasets")
	cache := flag.String("cache", filepath.Join(os.TempDir(), "cairn-pgeval"), "where built corpora are kept")
	n := flag.Int("n", 0, "questions per set (0: all)")
	grid := flag.Bool("grid", true, "try several thresholds and weights")
	flag.Parse()
	ctx := context.Background()
	for _, ds := range strings.Split(*sets, ",") {
		if err := run(ctx, *data, ds, *cache, *n, *grid); err != nil {
			fmt.Fprintln(os.Stderr, ds+":", err)
			os.Exit(1)
		}
	}
}

type variant struct {
	name    string
	s       mindmap.PGSettings
	weights []float64
}

func run(ctx context.Context, data, ds, cache string, n int, grid bool) error {
	corpus, qs, err := evalset.LoadDir(filepath.Join(data, ds))
	if err != nil {
		return err
	}
	if n > 0 && n < len(qs) {
		qs = qs[:n]
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return err
	}
	path := filepath.Join(cache, fmt.Sprintf("%s-s%d.db", ds, store.SchemaVersion()))
	_, statErr := os.Stat(path)
	st, err := store.Open(path)
	if err != nil {
		return err
	}
	defer st.Close()
	e := embed.NewHashed(embed.DefaultDim)
	if statErr != nil {
		t0 := time.Now()
		if err := evalset.Build(ctx, st, e, corpus); err != nil {
			return err
		}
		t1 := time.Now()
		ix := mindmap.NewIndexer(st, llm.Offline{})
		if err := ix.BuildPending(ctx, nil); err != nil {
			return err
		}
		t2 := time.Now()
		fr, err := ix.FusePending(ctx)
		if err != nil {
			return err
		}
		counts, _ := st.MindNodeCount(ctx)
		fmt.Printf("%s: built %d passages in %s, mind maps in %s (%v), fusion in %s (%d supernodes, %d joins)\n",
			ds, len(corpus), t1.Sub(t0).Round(time.Second), t2.Sub(t1).Round(time.Second), counts, time.Since(t2).Round(time.Second), fr.Created, fr.Joined)
	}
	passageOf, err := st.ChunkFileNames(ctx)
	if err != nil {
		return err
	}
	toPassages := func(ids []int64) []string {
		var out []string
		seen := map[string]bool{}
		for _, id := range ids {
			if p := passageOf[id]; p != "" && !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
		return out
	}
	def := mindmap.DefaultPGSettings()
	variants := []variant{{"default", def, []float64{0.3, 0.5, 1}}}
	if grid {
		for _, th := range [][2]float64{{0.01, 0.02}, {0.03, 0.05}, {0.05, 0.1}} {
			for _, hop := range []bool{false, true} {
				s := def
				s.Support, s.Fuzzy, s.Hop = th[0], th[1], hop
				variants = append(variants, variant{fmt.Sprintf("δ=%.2f/%.2f hop=%v", th[0], th[1], hop), s, []float64{0.3, 0.5, 1}})
			}
		}
	}
	searcher := &search.Searcher{Store: st, Embedder: e, Settings: search.DefaultSettings()}
	type acc struct{ r2, r5 float64 }
	base := acc{}
	alone := make([]acc, len(variants))
	fused := make([][]acc, len(variants))
	for i := range fused {
		fused[i] = make([]acc, len(variants[i].weights))
	}
	var pgTime time.Duration
	for _, q := range qs {
		hits, err := searcher.Search(ctx, q.Question, 50)
		if err != nil {
			return err
		}
		pass := make([]int64, len(hits))
		for i, h := range hits {
			pass[i] = h.ID
		}
		bp := toPassages(pass)
		base.r2 += evalset.Recall(bp, q.SupportingIDs, 2)
		base.r5 += evalset.Recall(bp, q.SupportingIDs, 5)
		for vi, v := range variants {
			t0 := time.Now()
			pg, err := mindmap.PseudoGraph(ctx, st, q.Question, v.s)
			if err != nil {
				return err
			}
			pgTime += time.Since(t0)
			ids := make([]int64, len(pg))
			for i, h := range pg {
				ids[i] = h.ChunkID
			}
			ap := toPassages(ids)
			alone[vi].r2 += evalset.Recall(ap, q.SupportingIDs, 2)
			alone[vi].r5 += evalset.Recall(ap, q.SupportingIDs, 5)
			for wi, w := range v.weights {
				f, _, _ := search.Fuse(search.DefaultSettings().RRFK, search.Ranked{Name: "passage", Weight: 1, IDs: pass}, search.Ranked{Name: "pseudo", Weight: w, IDs: ids})
				fp := toPassages(f)
				fused[vi][wi].r2 += evalset.Recall(fp, q.SupportingIDs, 2)
				fused[vi][wi].r5 += evalset.Recall(fp, q.SupportingIDs, 5)
			}
		}
	}
	nq := float64(len(qs))
	pct := func(x float64) string { return fmt.Sprintf("%.1f", 100*x/nq) }
	fmt.Printf("%s (%d questions): passage search R@2 %s R@5 %s; walk %.0f ms/question/variant\n", ds, len(qs), pct(base.r2), pct(base.r5),
		float64(pgTime.Milliseconds())/nq/float64(len(variants)))
	for vi, v := range variants {
		line := fmt.Sprintf("  %-26s PG alone R@2 %5s R@5 %5s |", v.name, pct(alone[vi].r2), pct(alone[vi].r5))
		for wi, w := range v.weights {
			line += fmt.Sprintf(" fused w=%.1f R@2 %5s R@5 %5s |", w, pct(fused[vi][wi].r2), pct(fused[vi][wi].r5))
		}
		fmt.Println(line)
	}
	return nil
}
