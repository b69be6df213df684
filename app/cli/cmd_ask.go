package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/project"
)

// askJSON is `ask --json`'s object: the answer (answer, outcome,
// declined, citations, paths, trace, ...) and the model it was asked with.
type askJSON struct {
	kb.Answer
	Provider llm.Status `json:"provider"`
}

func cmdAsk(ctx context.Context, env *Env, args []string) int {
	fs := env.flags("ask")
	dir := fs.String("project", "", "project folder")
	deep := fs.Bool("deep", false, "plan multi-step questions (needs a model)")
	asJSON := fs.Bool("json", false, "print the answer as one JSON object")
	k := fs.Int("k", 0, "evidence passages (default 5)")
	var docs docList
	fs.Var(&docs, "doc", "ask only this document (repeatable, or ids joined by commas); default: the documents the question names, else all")
	rest, ok := env.parse(fs, args)
	if !ok {
		return 2
	}
	q := strings.TrimSpace(strings.Join(rest, " "))
	if q == "" {
		fmt.Fprintln(env.Stderr, "usage: cairn ask --project DIR [--deep] [--json] [--doc ID]... QUESTION")
		return 2
	}
	p, code := openProject(env, *dir)
	if p == nil {
		return code
	}
	defer p.Close()
	_, status := env.connect(ctx, p)
	var onToken func(string)
	if !*asJSON {
		onToken = func(t string) { fmt.Fprint(env.Stdout, t) }
	}
	a, err := p.Ask(ctx, q, project.AskOptions{Deep: *deep, K: *k, Docs: docs}, onToken)
	if err != nil {
		return env.fail(err)
	}
	if *asJSON {
		if err := json.NewEncoder(env.Stdout).Encode(askJSON{Answer: a, Provider: status}); err != nil {
			return env.fail(err)
		}
		return 0
	}
	fmt.Fprintln(env.Stdout)
	printAnswer(env, a)
	return 0
}

// printAnswer prints citations and paths under a streamed answer.
func printAnswer(env *Env, a kb.Answer) {
	if len(a.Citations) > 0 {
		fmt.Fprintln(env.Stdout)
		if a.Declined {
			fmt.Fprintln(env.Stdout, "Closest passages:")
		} else if a.Outcome == kb.OutcomeEvidence {
			fmt.Fprintln(env.Stdout, "Passages about the question:")
		} else {
			fmt.Fprintln(env.Stdout, "Sources:")
		}
	}
	for _, c := range a.Citations {
		pages := fmt.Sprintf("p. %d", c.PageStart)
		if c.PageEnd > c.PageStart {
			pages = fmt.Sprintf("pp. %d-%d", c.PageStart, c.PageEnd)
		}
		fmt.Fprintf(env.Stdout, "  [%d] %s, %s (doc %d, chunk %d, chars %d-%d): %s\n", c.N, c.DocTitle, pages, c.DocID, c.ChunkID, c.CharStart, c.CharEnd, clip(kb.OneLine(c.Text), 160))
	}
	if len(a.Paths) > 0 {
		fmt.Fprintln(env.Stdout)
		fmt.Fprintln(env.Stdout, "Reasoning paths (most important first):")
	}
	for _, p := range a.Paths {
		var parts []string
		for _, e := range p.Edges {
			parts = append(parts, fmt.Sprintf("%s -[%s]-> %s (chunk %d, p. %d)", e.From, e.Predicate, e.To, e.Source.ChunkID, e.Source.PageStart))
		}
		fmt.Fprintf(env.Stdout, "  %.2f  %s\n", p.Score, strings.Join(parts, "; "))
	}
	if a.Cut != "" {
		fmt.Fprintf(env.Stdout, "\n(answer %d, %s mode, %s, CUT OFF: %s)\n", a.ID, a.Mode, outcomeText(a), a.Cut)
		return
	}
	fmt.Fprintf(env.Stdout, "\n(answer %d, %s mode, %s)\n", a.ID, a.Mode, outcomeText(a))
}

// outcomeText names an answer's outcome for the line under it.
func outcomeText(a kb.Answer) string {
	switch {
	case a.Declined || a.Outcome == kb.OutcomeDeclined:
		return "outcome: declined, the documents do not answer it"
	case a.Outcome == kb.OutcomeEvidence:
		return "outcome: evidence only, no answer formed offline"
	}
	return "outcome: answer"
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
