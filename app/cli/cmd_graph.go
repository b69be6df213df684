package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"cairn/backend/llm"
	"cairn/backend/project"
)

// graphProvider connects the project to the model indexing uses (Ollama
// when reachable and not --offline, else the offline provider; the mode
// line goes to stderr). Tests may replace it.
var graphProvider = func(ctx context.Context, env *Env, p *project.Project) {
	env.connect(ctx, p)
}

// indexReport is what `index --json` prints last.
type indexReport struct {
	Event       string         `json:"event"` // "done" or "interrupted"
	Counts      map[string]int `json:"counts"`
	Chunks      int            `json:"chunks"`       // chunks with an extraction status
	ChunkTokens int            `json:"chunk_tokens"` // their tokens
	Calls       int            `json:"calls"`
	Prompt      int            `json:"prompt_tokens"`
	Completion  int            `json:"completion_tokens"`
	Elapsed     float64        `json:"elapsed_s"`
	Error       string         `json:"error,omitempty"`
	// Warnings say what a stage could not do (the model went away at chunk
	// 88 of 352, …) and what happens to the rest.
	Warnings []string `json:"warnings,omitempty"`
	// Model and ModelPending: the chat model indexing uses, or would use
	// once Ollama is back, and the chunks still waiting for it (extracted
	// offline, failed, or not yet extracted). Absent with --offline.
	Model        string `json:"model,omitempty"`
	ModelPending int    `json:"model_pending,omitempty"`
	Offline      bool   `json:"offline,omitempty"` // the run had no model (Ollama away)
	// Extractors counts chunks by who extracted them: a model's name,
	// "offline", or "offline-fallback" (the model failed; offline kept).
	Extractors map[string]int `json:"extractors,omitempty"`
	// Run is what this run did and spent (Counts, Calls, Prompt and
	// Completion above are the project's stored totals).
	Run runUsage `json:"this_run"`
}

// runUsage is one index run's extraction work and model usage.
type runUsage struct {
	Chunks     int `json:"chunks"` // chunks extracted in this run
	Calls      int `json:"calls"`
	Prompt     int `json:"prompt_tokens"`
	Completion int `json:"completion_tokens"`
}

// runIndex runs every index stage with throttled progress on out (JSON
// lines when asJSON) and returns the final report.
func runIndex(ctx context.Context, env *Env, p *project.Project, out io.Writer, asJSON bool) (indexReport, error) {
	graphProvider(ctx, env, p)
	start := time.Now()
	var last time.Time
	lastStage := ""
	var warnings []string
	var run runUsage
	err := p.Index(ctx, func(pr project.IndexProgress) {
		if pr.Warning != "" {
			warnings = append(warnings, pr.Warning)
		}
		if pr.Stage == "graph" && pr.Usage != nil {
			// cumulative within the stage's run
			run = runUsage{Chunks: pr.Done, Calls: pr.Usage.Calls, Prompt: pr.Usage.PromptTokens, Completion: pr.Usage.CompletionTokens}
		}
		final := pr.Total > 0 && pr.Done == pr.Total
		if pr.Stage == lastStage && !final && time.Since(last) < time.Second {
			return
		}
		last, lastStage = time.Now(), pr.Stage
		if asJSON {
			json.NewEncoder(out).Encode(struct {
				Event string `json:"event"`
				project.IndexProgress
			}{"progress", pr})
			return
		}
		line := fmt.Sprintf("%-8s %d/%d", pr.Stage, pr.Done, pr.Total)
		if pr.ETA > 0 && !final {
			line += fmt.Sprintf("  eta %s", pr.ETA.Round(time.Second))
		}
		if pr.Note != "" {
			line += "  " + pr.Note
		}
		fmt.Fprintln(out, line)
	})
	rep := indexReport{Event: "done", Elapsed: time.Since(start).Seconds(), Warnings: warnings, Run: run}
	bg := context.WithoutCancel(ctx)
	if g, gerr := graphOfDoc(bg, p, 0); gerr == nil {
		rep.Extractors = g.Chunks
	}
	if m, n, merr := p.ModelPending(bg); merr == nil {
		rep.Model, rep.ModelPending = m, n
		rep.Offline = m != "" && p.Provider() != nil && p.Provider().Mode() == llm.ModeOffline
	}
	if c, cerr := p.ExtractionCounts(bg); cerr == nil {
		rep.Counts = c
	}
	if u, uerr := p.ExtractionUsage(bg); uerr == nil {
		rep.Chunks, rep.ChunkTokens, rep.Calls, rep.Prompt, rep.Completion = u.Chunks, u.ChunkTokens, u.Calls, u.PromptTokens, u.CompletionTokens
	}
	if err != nil {
		rep.Error = err.Error()
		if errors.Is(err, context.Canceled) {
			rep.Event = "interrupted"
		}
	}
	return rep, err
}

func printIndexReport(w io.Writer, rep indexReport, asJSON bool) {
	if asJSON {
		json.NewEncoder(w).Encode(rep)
		return
	}
	c := rep.Counts
	fmt.Fprintf(w, "this run: %d chunks extracted", rep.Run.Chunks)
	if rep.Run.Calls > 0 {
		fmt.Fprintf(w, ", model: %d calls, %d prompt + %d completion tokens", rep.Run.Calls, rep.Run.Prompt, rep.Run.Completion)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "knowledge graph: %d chunks ok, %d empty, %d failed, %d pending", c["ok"], c["empty"], c["failed"], c["pending"])
	if len(rep.Extractors) > 1 || (rep.Model != "" && rep.Extractors[rep.Model] == 0 && len(rep.Extractors) > 0) {
		fmt.Fprintf(w, " (%s)", strings.TrimPrefix(docGraph{Chunks: rep.Extractors}.line(""), "graph: "))
	}
	if rep.Calls > 0 {
		per := 1000 / float64(max(rep.ChunkTokens, 1))
		fmt.Fprintf(w, "; stored model usage (all runs): %d calls, %d prompt + %d completion tokens (%.2f calls, %.0f tokens per 1k chunk tokens)",
			rep.Calls, rep.Prompt, rep.Completion, float64(rep.Calls)*per, float64(rep.Prompt+rep.Completion)*per)
	}
	fmt.Fprintln(w)
	if rep.Event == "interrupted" {
		fmt.Fprintln(w, "interrupted: run `cairn index` again to resume where it stopped")
	}
	for _, warn := range rep.Warnings {
		fmt.Fprintln(w, "warning: "+warn)
	}
	switch {
	case rep.Offline && rep.ModelPending > 0 && len(rep.Warnings) == 0:
		fmt.Fprintf(w, "Ollama is not available: %d chunks have the offline extraction and will be redone with %s when it is back (run `cairn index` again)\n",
			rep.ModelPending, rep.Model)
	case rep.ModelPending > 0 && len(rep.Warnings) == 0 && c["failed"] > 0:
		fmt.Fprintf(w, "%d failed chunks keep the offline extraction and are retried with %s on the next run\n", rep.ModelPending, rep.Model)
	case c["failed"] > 0 && len(rep.Warnings) == 0:
		fmt.Fprintln(w, "failed chunks keep the offline extraction and are retried with the model on the next run")
	}
}

func cmdIndex(ctx context.Context, env *Env, args []string) int {
	fs := env.flags("index")
	dir := fs.String("project", "", "project folder")
	asJSON := fs.Bool("json", false, "progress and the result as JSON lines")
	retry := fs.Bool("retry-failed", false, "send chunks that already failed several times with the model to it again, and OCR scanned pages that failed again")
	if _, ok := env.parse(fs, args); !ok {
		return 2
	}
	p, code := openProject(env, *dir)
	if p == nil {
		return code
	}
	defer p.Close()
	if *retry {
		n, err := p.RetryFailed(ctx)
		if err != nil {
			return env.fail(err)
		}
		fmt.Fprintf(env.Stderr, "retry: %d chunks that had failed with a model will be sent to it again\n", n)
		if n, err := p.RetryFailedOCR(ctx); err != nil {
			return env.fail(err)
		} else if n > 0 {
			fmt.Fprintf(env.Stderr, "retry: %d scanned pages whose OCR failed will be read again\n", n)
		}
	}
	out := env.Stderr
	if *asJSON {
		out = env.Stdout
	}
	rep, err := runIndex(ctx, env, p, out, *asJSON)
	printIndexReport(env.Stdout, rep, *asJSON)
	if errors.Is(err, context.Canceled) {
		return 130 // Ctrl-C: the report said it was interrupted and how to resume
	}
	if err != nil {
		if !*asJSON {
			fmt.Fprintln(env.Stderr, "cairn:", err)
		}
		return 1
	}
	return 0
}

func cmdGraph(ctx context.Context, env *Env, args []string) int {
	fs := env.flags("graph")
	dir := fs.String("project", "", "project folder")
	format := fs.String("format", "json", "json or graphml")
	cooc := fs.Bool("cooccurrence", false, "also the co-occurrence edges (names side by side in a sentence that states nothing between them)")
	var docs docList
	fs.Var(&docs, "doc", "only what this document states (repeatable, or ids joined by commas)")
	if _, ok := env.parse(fs, args); !ok {
		return 2
	}
	if *format != "json" && *format != "graphml" {
		fmt.Fprintf(env.Stderr, "cairn: --format must be json or graphml, not %q\n", *format)
		return 2
	}
	p, code := openProject(env, *dir)
	if p == nil {
		return code
	}
	defer p.Close()
	var err error
	if *format == "graphml" {
		err = p.GraphML(ctx, env.Stdout, *cooc, docs...)
	} else {
		err = p.GraphJSON(ctx, env.Stdout, *cooc, docs...)
	}
	if err != nil {
		return env.fail(err)
	}
	return 0
}

func cmdEntity(ctx context.Context, env *Env, args []string) int {
	fs := env.flags("entity")
	dir := fs.String("project", "", "project folder")
	asJSON := fs.Bool("json", false, "one JSON object")
	rest, ok := env.parse(fs, args)
	if !ok {
		return 2
	}
	name := strings.TrimSpace(strings.Join(rest, " "))
	if name == "" {
		fmt.Fprintln(env.Stderr, "usage: cairn entity --project DIR [--json] NAME")
		return 2
	}
	p, code := openProject(env, *dir)
	if p == nil {
		return code
	}
	defer p.Close()
	e, rels, err := p.Entity(ctx, name)
	if err != nil {
		return env.fail(err)
	}
	concepts, err := p.EntityConcepts(ctx, e.ID)
	if err != nil {
		return env.fail(err)
	}
	if concepts == nil {
		concepts = []string{}
	}
	if *asJSON {
		json.NewEncoder(env.Stdout).Encode(struct {
			Entity    any      `json:"entity"`
			Concepts  []string `json:"concepts"`
			Relations any      `json:"relations"`
		}{e, concepts, rels})
		return 0
	}
	w := env.Stdout
	fmt.Fprintf(w, "%s  (entity %d, %s", e.Name, e.ID, e.Type)
	if e.SemanticType != "" {
		fmt.Fprintf(w, " / %s", e.SemanticType)
	}
	fmt.Fprintln(w, ")")
	if e.Description != "" {
		fmt.Fprintln(w, "  "+e.Description)
	}
	if len(e.Aliases) > 0 {
		fmt.Fprintln(w, "  aliases: "+strings.Join(e.Aliases, "; "))
	}
	if len(concepts) > 0 {
		fmt.Fprintln(w, "  is a: "+strings.Join(concepts, " > "))
	}
	fmt.Fprintf(w, "  mentioned %d times:\n", len(e.Mentions))
	for i, m := range e.Mentions {
		if i == 10 {
			fmt.Fprintf(w, "    … %d more\n", len(e.Mentions)-10)
			break
		}
		fmt.Fprintf(w, "    doc %d, page %s, chunk %d, chars %d–%d\n", m.DocID, pages(m.PageStart, m.PageEnd), m.ChunkID, m.CharStart, m.CharEnd)
	}
	if len(e.Values) > 0 {
		fmt.Fprintf(w, "  values (%d):\n", len(e.Values))
		for _, v := range e.Values {
			fmt.Fprintf(w, "    %s %s  (doc %d, page %s, chars %d–%d)\n", v.Kind, v.Text, v.Source.DocID, pages(v.Source.PageStart, v.Source.PageEnd), v.Source.CharStart, v.Source.CharEnd)
		}
	}
	fmt.Fprintf(w, "  relations (%d):\n", len(rels))
	for _, r := range rels {
		fmt.Fprintf(w, "    %s —%s→ %s  (%.2f)\n", r.SubjectName, r.Predicate, r.ObjectName, r.Confidence)
		fmt.Fprintf(w, "      %q\n", r.Statement)
		for _, s := range r.Sources {
			fmt.Fprintf(w, "      doc %d, page %s, chunk %d\n", s.DocID, pages(s.PageStart, s.PageEnd), s.ChunkID)
		}
	}
	return 0
}

func pages(a, b int) string {
	if a == b {
		return fmt.Sprint(a)
	}
	return fmt.Sprintf("%d–%d", a, b)
}

// docGraph is one document's knowledge-graph extraction, for `cairn docs`:
// chunks per extractor (a model's name, "offline", "offline-fallback" for
// failed model calls) and why the last failed chunk failed.
type docGraph struct {
	Chunks      map[string]int `json:"chunks"`
	Failed      int            `json:"failed"`
	LastFailure string         `json:"last_failure,omitempty"`
}

func graphOfDoc(ctx context.Context, p *project.Project, docID int64) (docGraph, error) {
	g := docGraph{Chunks: map[string]int{}}
	sts, err := p.Store().ExtractionStatuses(ctx, docID)
	if err != nil {
		return g, err
	}
	for _, s := range sts {
		g.Chunks[s.Extractor]++
		if s.Status == "failed" {
			g.Failed++
			g.LastFailure = s.Reason
		}
	}
	return g, nil
}

// line says it for a person ("" when nothing was extracted yet).
func (g docGraph) line(model string) string {
	if len(g.Chunks) == 0 {
		return ""
	}
	names := make([]string, 0, len(g.Chunks))
	for n := range g.Chunks {
		names = append(names, n)
	}
	rank := func(n string) int {
		switch n {
		case "offline":
			return 1
		case "offline-fallback":
			return 2
		}
		return 0
	}
	sort.Slice(names, func(i, j int) bool {
		if rank(names[i]) != rank(names[j]) {
			return rank(names[i]) < rank(names[j])
		}
		return names[i] < names[j]
	})
	var parts []string
	for _, n := range names {
		switch n {
		case "offline-fallback":
			parts = append(parts, fmt.Sprintf("%d failed with the model (offline extraction kept)", g.Chunks[n]))
		case "offline":
			parts = append(parts, fmt.Sprintf("%d offline", g.Chunks[n]))
		default:
			parts = append(parts, fmt.Sprintf("%d by %s", g.Chunks[n], n))
		}
	}
	line := "graph: " + strings.Join(parts, ", ")
	if g.LastFailure != "" {
		r := []rune(g.LastFailure)
		if len(r) > 160 {
			r = append(r[:160], '…')
		}
		line += "; last failure: " + string(r)
	}
	if model != "" && g.Chunks[model] < sumCounts(g.Chunks) {
		line += "; the rest will be redone with " + model
	}
	return line
}

func sumCounts(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
