package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"cairn/backend/llm"
	"cairn/backend/llm/fakeollama"
	"cairn/backend/project"
)

// LLM budget and time to first answer token, against the fake Ollama
// server (a real HTTP server answering instantly). Calls and prompt tokens
// are the server's own accounting (its request log and tokenizer);
// completion tokens are what it reports per reply (eval_count). The fake
// answers schema requests with the smallest valid JSON, so completion
// tokens — and any calls that depend on what a model found — are lower
// bounds of what a real model spends; prompt tokens are exact for Cairn's
// prompts.

// KAG's published indexing cost (the reference): about 3 LLM calls
// and 7k tokens per 500-token chunk.
const (
	kagCallsPerChunk  = 3
	kagTokensPerChunk = 7000
)

// Laptop model speed assumed for projections (a 7B model, 4-bit, on a
// laptop CPU/iGPU): prompt processing 300 tokens/s, generation 20 tokens/s.
const (
	assumedPromptTokS = 300.0
	assumedGenTokS    = 20.0
)

// meteredProvider sums the usage the provider reports for each reply.
type meteredProvider struct {
	llm.Provider
	mu    sync.Mutex
	usage llm.Usage
}

func (m *meteredProvider) add(u llm.Usage) {
	m.mu.Lock()
	m.usage = m.usage.Add(u)
	m.mu.Unlock()
}

func (m *meteredProvider) ChatJSON(ctx context.Context, req llm.JSONRequest) (llm.JSONReply, error) {
	r, err := m.Provider.ChatJSON(ctx, req)
	m.add(r.Usage)
	return r, err
}

func (m *meteredProvider) ChatStream(ctx context.Context, req llm.ChatRequest, onToken func(string)) (llm.ChatReply, error) {
	r, err := m.Provider.ChatStream(ctx, req, onToken)
	m.add(r.Usage)
	return r, err
}

func (m *meteredProvider) take() llm.Usage {
	m.mu.Lock()
	defer m.mu.Unlock()
	u := m.usage
	m.usage = llm.Usage{}
	return u
}

// serverCount is the fake server's accounting since request n0.
type serverCount struct {
	Calls, PromptTokens, Embeds int
}

func countRequests(srv *fakeollama.Server, n0 int) (serverCount, int) {
	reqs := srv.Requests()
	var c serverCount
	for _, r := range reqs[min(n0, len(reqs)):] {
		switch r.Path {
		case "/api/chat":
			c.Calls++
			c.PromptTokens += r.PromptTokens
		case "/api/embed":
			c.Embeds++
		}
	}
	return c, len(reqs)
}

func projectedSeconds(prompt, completion float64) float64 {
	return prompt/assumedPromptTokS + completion/assumedGenTokS
}

func measureLLM(ctx context.Context, env *Env) ([]Figure, error) {
	srv := fakeollama.New()
	defer srv.Close()
	ol, err := llm.NewOllama(llm.OllamaConfig{Host: srv.URL()})
	if err != nil {
		return nil, err
	}
	prov := &meteredProvider{Provider: ol}
	const group = "3. LLM budget (fake Ollama server)"
	var figs []Figure

	// Indexing: the Sample documents, imported offline, then indexed with
	// the model.
	samples := env.LLMDocs
	if len(samples) == 0 {
		samples, _ = filepath.Glob(filepath.Join(env.Root, "assets", "sample", "*.pdf"))
		docx, _ := filepath.Glob(filepath.Join(env.Root, "assets", "sample", "*.docx"))
		samples = append(samples, docx...)
		sort.Strings(samples)
	}
	if len(samples) == 0 {
		return nil, fmt.Errorf("no documents in assets/sample")
	}
	dir := filepath.Join(env.Tmp, "llm-index")
	p, err := project.Open(dir)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	if _, err := p.Import(ctx, samples, nil); err != nil {
		return nil, err
	}
	chunkTok, chunks, err := modelTokens(ctx, p)
	if err != nil {
		return nil, err
	}
	p.SetProvider(prov)
	_, n0 := countRequests(srv, 0)
	prov.take()
	t0 := time.Now()
	if err := p.Index(ctx, nil); err != nil {
		return figs, fmt.Errorf("index with the fake server: %w", err)
	}
	idxWall := time.Since(t0)
	sc, _ := countRequests(srv, n0)
	u := prov.take()
	per1k := func(x int) float64 { return float64(x) / (float64(chunkTok) / 1000) }
	per500 := func(x int) float64 { return float64(x) / (float64(chunkTok) / 500) }
	what := fmt.Sprintf("%d documents of assets/sample: %d chunks, %d chunk tokens by the server's tokenizer; index stages %v", len(samples), chunks, chunkTok, project.IndexStages())
	proj := projectedSeconds(float64(sc.PromptTokens), float64(u.CompletionTokens))
	figs = append(figs,
		Figure{ID: "llm.index.calls_per_500tok_chunk", Group: group, Name: "indexing: LLM calls per 500-token chunk (" + what + ")", Unit: "calls",
			Stat: Stat{Runs: []float64{per500(sc.Calls)}}, Target: "≤ 1 call per 500-token chunk",
			Reference: &Reference{Name: "KAG (published)", Command: "(published figure)", Stat: Stat{Runs: []float64{kagCallsPerChunk}}}},
		Figure{ID: "llm.index.tokens_per_500tok_chunk", Group: group, Name: "indexing: prompt + completion tokens per 500-token chunk", Unit: "tokens",
			Stat: Stat{Runs: []float64{per500(sc.PromptTokens + u.CompletionTokens)}}, Target: "≤ 2.5k tokens per 500-token chunk",
			Reference: &Reference{Name: "KAG (published)", Command: "(published figure)", Stat: Stat{Runs: []float64{kagTokensPerChunk}}}},
		Figure{ID: "llm.index.calls_per_1k", Group: group, Name: "indexing: calls per 1k chunk tokens", Unit: "calls", Stat: Stat{Runs: []float64{per1k(sc.Calls)}}},
		Figure{ID: "llm.index.prompt_per_1k", Group: group, Name: "indexing: prompt tokens per 1k chunk tokens (server count)", Unit: "tokens", Stat: Stat{Runs: []float64{per1k(sc.PromptTokens)}}},
		Figure{ID: "llm.index.completion_per_1k", Group: group, Name: "indexing: completion tokens per 1k chunk tokens (fake's minimal replies: a lower bound)", Unit: "tokens", Stat: Stat{Runs: []float64{per1k(u.CompletionTokens)}}},
		Figure{ID: "llm.index.embed_calls_per_1k", Group: group, Name: "indexing: embedding requests per 1k chunk tokens", Unit: "requests", Stat: Stat{Runs: []float64{per1k(sc.Embeds)}}},
		Figure{ID: "llm.index.projected_s_per_1k", Group: group,
			Name: fmt.Sprintf("indexing: projected model time per 1k chunk tokens on a laptop 7B model (assumed prompt %.0f tok/s, generation %.0f tok/s; generation from the fake's replies, a lower bound)", assumedPromptTokS, assumedGenTokS),
			Unit: "s", Stat: Stat{Runs: []float64{proj / (float64(chunkTok) / 1000)}}},
		Figure{ID: "llm.index.cairn_overhead_s_per_1k", Group: group, Name: "indexing with the instant fake server: Cairn's own time per 1k chunk tokens (HTTP, prompts, validation, graph writes)", Unit: "s",
			Stat: Stat{Runs: []float64{idxWall.Seconds() / (float64(chunkTok) / 1000)}}},
	)

	// Questions: quick and deep answers on a copy of the smallest scale corpus.
	more, err := measureAnswers(ctx, env, srv, prov, group)
	return append(figs, more...), err
}

// modelTokens counts the chunks' tokens with the fake server's tokenizer.
func modelTokens(ctx context.Context, p *project.Project) (tokens, chunks int, err error) {
	err = p.Store().ChunkTexts(ctx, func(t string) error {
		tokens += fakeollama.CountTokens(t)
		chunks++
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	if chunks == 0 {
		return 0, 0, fmt.Errorf("no chunks imported")
	}
	return tokens, chunks, nil
}

func measureAnswers(ctx context.Context, env *Env, srv *fakeollama.Server, prov *meteredProvider, group string) ([]Figure, error) {
	scales, err := env.scaleCorpora(ctx)
	if err != nil {
		return nil, err
	}
	s := scales[0]
	dir := filepath.Join(env.Tmp, "llm-ask")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := copyFile(s.DB(), filepath.Join(dir, project.DBName)); err != nil {
		return nil, err
	}
	p, err := project.Open(dir)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	p.SetProvider(prov)
	n := 20
	if env.Quick {
		n = 10
	}
	qs := pickQuestions(s.Queries, min(n, max(env.Queries, 1)))
	var figs []Figure
	for _, deep := range []bool{false, true} {
		mode := "quick"
		if deep {
			mode = "deep"
		}
		var calls, prompt, completion, ttft, total, projected []float64
		declined := 0
		for _, q := range qs {
			_, n0 := countRequests(srv, 0)
			prov.take()
			t0 := time.Now()
			var first time.Duration
			a, err := p.Ask(ctx, q, project.AskOptions{Deep: deep}, func(string) {
				if first == 0 {
					first = time.Since(t0)
				}
			})
			if err != nil {
				return figs, fmt.Errorf("%s answer to %q: %w", mode, q, err)
			}
			el := time.Since(t0)
			if a.Declined {
				declined++ // too little support: no model call, not counted below
				continue
			}
			total = append(total, float64(el)/float64(time.Millisecond))
			if first > 0 {
				ttft = append(ttft, float64(first)/float64(time.Millisecond))
			}
			sc, _ := countRequests(srv, n0)
			u := prov.take()
			calls, prompt, completion = append(calls, float64(sc.Calls)), append(prompt, float64(sc.PromptTokens)), append(completion, float64(u.CompletionTokens))
			projected = append(projected, projectedSeconds(float64(sc.PromptTokens), float64(u.CompletionTokens)))
		}
		over := fmt.Sprintf("%s answers, %d of %d eval questions answered (%d declined for lack of support) on the %d-chunk corpus, min–max over questions", mode, len(qs)-declined, len(qs), declined, s.Chunks)
		if len(calls) == 0 {
			env.Notef("LLM budget per %s question not measured: all %d questions were declined", mode, len(qs))
			continue
		}
		figs = append(figs,
			Figure{ID: "llm.ask." + mode + ".calls", Group: group, Name: "LLM calls per question, " + over, Unit: "calls", Stat: Stat{Runs: calls}},
			Figure{ID: "llm.ask." + mode + ".prompt_tokens", Group: group, Name: "  prompt tokens per question", Unit: "tokens", Stat: Stat{Runs: prompt}},
			Figure{ID: "llm.ask." + mode + ".completion_tokens", Group: group, Name: "  completion tokens per question (fake replies: a lower bound)", Unit: "tokens", Stat: Stat{Runs: completion}},
			Figure{ID: "llm.ask." + mode + ".projected_s", Group: group, Name: fmt.Sprintf("  projected model time per question (prompt %.0f tok/s, generation %.0f tok/s)", assumedPromptTokS, assumedGenTokS), Unit: "s", Stat: Stat{Runs: projected}},
		)
		if len(ttft) > 0 {
			figs = append(figs, Figure{ID: "app.ttft." + mode + "_ms", Group: "6. App", Name: "time to first answer token, fake server answering instantly, " + over, Unit: "ms", Stat: Stat{Runs: ttft}})
		}
		figs = append(figs, Figure{ID: "app.answer." + mode + "_ms", Group: "6. App", Name: "time to the whole answer (stored), same questions", Unit: "ms", Stat: Stat{Runs: total}})
	}
	return figs, nil
}
