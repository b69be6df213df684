package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"time"

	"cairn/app/cli"
	"cairn/backend/evalset"
	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/project"
	"cairn/backend/reason"
)

// cmdEval answers a dataset's questions and scores the answers' evidence
// (Recall@2/5 of the passages given to the answer), the answers themselves
// (EM/F1, with a model) and how often it declined. With --corpus the
// questions are asked against another dataset's corpus (abstention check).
func cmdEval(ctx context.Context, env *cli.Env, args []string) int {
	fs := env.Flags("eval")
	dataset := fs.String("dataset", "", "dataset folder (questions.jsonl, corpus.jsonl)")
	mode := fs.String("mode", "quick", "quick or deep")
	asJSON := fs.Bool("json", false, "print one JSON object")
	corpus := fs.String("corpus", "", "ask against this corpus.jsonl instead of the dataset's (abstention)")
	limit := fs.Int("limit", 0, "only the first N questions")
	abstain := fs.Float64("abstain", -1, "override the abstention threshold (question coverage); tuning only")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the answering to this file")
	show := fs.Bool("show", false, "print each question with its gold answers and the short answer (tuning)")
	curve := fs.String("thresholds", "", "also print the decline rate at these abstention thresholds, T1,T2,... (tuning)")
	if _, ok := env.Parse(fs, args); !ok {
		return 2
	}
	if *dataset == "" || (*mode != "quick" && *mode != "deep") {
		fmt.Fprintln(env.Stderr, "usage: cairn-eval eval --dataset DIR [--mode quick|deep] [--json] [--corpus FILE] [--limit N]")
		return 2
	}
	corpusPath := filepath.Join(*dataset, "corpus.jsonl")
	if *corpus != "" {
		corpusPath = *corpus
	}
	qs, err := evalset.LoadQuestions(filepath.Join(*dataset, "questions.jsonl"))
	if err != nil {
		return env.Fail(err)
	}
	if *limit > 0 && *limit < len(qs) {
		qs = qs[:*limit]
	}
	p, err := evalProject(ctx, corpusPath, env.Stderr)
	if err != nil {
		return env.Fail(err)
	}
	defer p.Close()
	prov, status := env.Connect(ctx, p)
	r := reason.New(p.Retriever(), prov)
	if *abstain >= 0 {
		r.Settings.Abstain = *abstain
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return env.Fail(err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return env.Fail(err)
		}
		defer pprof.StopCPUProfile()
	}
	var r2, r5, em, f1, contains, sem, sf1, path1, path3 float64
	declined, shortN := 0, 0
	var lat []float64
	var coverage, joint []float64
	start := time.Now()
	for _, q := range qs {
		var a kb.Answer
		t0 := time.Now()
		if *mode == "deep" {
			a, err = r.Deep(ctx, q.Question, nil)
		} else {
			a, err = r.Quick(ctx, q.Question, nil)
		}
		if err != nil {
			return env.Fail(fmt.Errorf("question %s: %w", q.ID, err))
		}
		lat = append(lat, float64(time.Since(t0).Microseconds())/1000)
		if evalset.Contains(answerBody(a), q.Answers) {
			contains++
		}
		short := ""
		if a.Short != nil {
			short = a.Short.Text
			shortN++
		}
		sem += evalset.ExactMatch(short, q.Answers)
		sf1 += evalset.F1(short, q.Answers)
		p1, p3 := evalset.PathHits(a.Paths, q.Answers)
		path1 += p1
		path3 += p3
		if *show {
			mark := "  "
			if evalset.ExactMatch(short, q.Answers) == 1 {
				mark = "OK"
			} else if evalset.Contains(answerBody(a), q.Answers) {
				mark = "c "
			}
			var tr reason.Trace
			json.Unmarshal(a.Trace, &tr)
			rank := "-"
			for i, c := range tr.Candidates {
				if evalset.ExactMatch(c.Text, q.Answers) == 1 {
					rank = strconv.Itoa(i + 1)
					break
				}
			}
			kind := ""
			if a.Short != nil {
				kind = a.Short.Kind
			}
			fmt.Fprintf(env.Stdout, "%s r%s [%s] %q gold=%q short=%q\n", mark, rank, kind, q.Question, q.Answers, short)
			if os.Getenv("CAIRN_EVAL_SHOW") == "2" {
				showDetail(ctx, env, p, tr, a, q.Answers)
			}
		}
		if a.Declined {
			declined++
		}
		var tr reason.Trace
		if err := json.Unmarshal(a.Trace, &tr); err != nil {
			return env.Fail(err)
		}
		coverage = append(coverage, tr.Support.Coverage)
		joint = append(joint, tr.Support.Joint)
		hits, err := p.Store().ChunkHits(ctx, tr.Retrieval.Evidence)
		if err != nil {
			return env.Fail(err)
		}
		ids, err := evalset.PassageIDs(ctx, p.Store(), hits)
		if err != nil {
			return env.Fail(err)
		}
		r2 += evalset.Recall(ids, q.SupportingIDs, 2)
		r5 += evalset.Recall(ids, q.SupportingIDs, 5)
		if prov.Mode() != llm.ModeOffline {
			em += evalset.ExactMatch(a.Answer, q.Answers)
			f1 += evalset.F1(a.Answer, q.Answers)
		}
	}
	n := float64(max(1, len(qs)))
	res := map[string]any{"dataset": filepath.Base(filepath.Clean(*dataset)), "corpus": corpusPath, "mode": *mode, "questions": len(qs),
		"recall@2": round1(100 * r2 / n), "recall@5": round1(100 * r5 / n), "declined": round1(100 * float64(declined) / n),
		"model": string(prov.Mode()), "provider": status, "ms_per_question": round1(float64(time.Since(start).Milliseconds()) / n),
		"answer_contains": round1(100 * contains / n), "short_answered": round1(100 * float64(shortN) / n),
		"short_em": round1(100 * sem / n), "short_f1": round1(100 * sf1 / n),
		"path_answer@1": round1(100 * path1 / n), "path_answer@3": round1(100 * path3 / n),
		"ms_p50": round1(percentile(lat, 50)), "ms_p95": round1(percentile(lat, 95))}
	if prov.Mode() != llm.ModeOffline {
		res["em"], res["f1"] = round1(100*em/n), round1(100*f1/n)
	}
	if *curve != "" {
		ts, err := floats(*curve)
		if err != nil {
			return env.Fail(err)
		}
		// A question is declined when its coverage is under the threshold,
		// whatever else happened, so one run gives the whole curve; the
		// joint coverage (all evidence passages together) is shown beside it.
		// "both": declined when the best passage is under the threshold in
		// use (r.Settings.Abstain) and the joint coverage under t.
		at := map[string]float64{}
		atJoint := map[string]float64{}
		atBoth := map[string]float64{}
		for _, th := range ts {
			d, dj, db := 0, 0, 0
			for i, c := range coverage {
				if c < th {
					d++
				}
				if joint[i] < th {
					dj++
				}
				if c < r.Settings.Abstain && joint[i] < th {
					db++
				}
			}
			key := strconv.FormatFloat(th, 'f', -1, 64)
			at[key] = round1(100 * float64(d) / n)
			atJoint[key] = round1(100 * float64(dj) / n)
			atBoth[key] = round1(100 * float64(db) / n)
		}
		res["declined_at_joint"] = atJoint
		res["declined_at_both"] = atBoth
		res["declined_at"] = at
	}
	if *asJSON {
		json.NewEncoder(env.Stdout).Encode(res)
		return 0
	}
	fmt.Fprintf(env.Stdout, "%-18s %s questions %4d  R@2 %5.1f  R@5 %5.1f  declined %5.1f%%", res["dataset"], *mode, len(qs), res["recall@2"], res["recall@5"], res["declined"])
	if v, ok := res["em"]; ok {
		fmt.Fprintf(env.Stdout, "  EM %5.1f  F1 %5.1f", v, res["f1"])
	}
	fmt.Fprintf(env.Stdout, "  (%.1f ms/question, p95 %.1f ms, %s)\n", res["ms_per_question"], res["ms_p95"], res["model"])
	fmt.Fprintf(env.Stdout, "%-18s answer contains a gold answer %5.1f%%  short answer given %5.1f%%  short EM %5.1f  F1 %5.1f  gold on top path %5.1f%%  on top 3 %5.1f%%\n",
		"", res["answer_contains"], res["short_answered"], res["short_em"], res["short_f1"], res["path_answer@1"], res["path_answer@3"])
	if at, ok := res["declined_at"].(map[string]float64); ok {
		keys := make([]string, 0, len(at))
		for k := range at {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(env.Stdout, "  declined at threshold %s: %5.1f%% (best passage), %5.1f%% (joint), %5.1f%% (best < %g and joint < %s)\n",
				k, at[k], res["declined_at_joint"].(map[string]float64)[k], res["declined_at_both"].(map[string]float64)[k], r.Settings.Abstain, k)
		}
	}
	return 0
}

// answerBody is the answer text a gold answer is sought in: an evidence
// answer without its lead, which names the documents the passages are in
// (a title holding the gold answer is not an answer).
func answerBody(a kb.Answer) string {
	if a.Outcome == kb.OutcomeEvidence {
		if _, rest, ok := strings.Cut(a.Answer, "\n\n"); ok {
			return rest
		}
	}
	return a.Answer
}

// showDetail prints, for tuning (CAIRN_EVAL_SHOW=2 with --show), the
// candidates with their scores, the evidence titles (a star where the
// passage holds a gold answer) and the top paths.
func showDetail(ctx context.Context, env *cli.Env, p *project.Project, tr reason.Trace, a kb.Answer, gold []string) {
	for i, c := range tr.Candidates {
		if i >= 5 {
			break
		}
		fmt.Fprintf(env.Stdout, "      cand %.3f %s %q\n", c.Score, c.Type, c.Text)
	}
	hits, _ := p.Store().ChunkHits(ctx, tr.Retrieval.Evidence)
	var ev []string
	for _, h := range hits {
		star := ""
		if evalset.Contains(h.Text, gold) {
			star = "*"
		}
		ev = append(ev, star+h.DocTitle)
	}
	fmt.Fprintf(env.Stdout, "      evidence %q\n", ev)
	for i, pa := range a.Paths {
		if i >= 3 {
			break
		}
		fmt.Fprintf(env.Stdout, "      path %.2f %q\n", pa.Score, pa.Nodes)
	}
}
