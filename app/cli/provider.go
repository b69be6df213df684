package cli

import (
	"context"
	"fmt"

	"cairn/backend/embed"
	"cairn/backend/llm"
	"cairn/backend/project"
)

// provider returns the language model a command uses: Ollama (at --ollama,
// else OLLAMA_HOST, else 127.0.0.1:11434) when it is reachable and has a
// chat model, the offline provider when it is not or with --offline. It
// prints the mode on stderr (one line) and keeps following Ollama until ctx
// ends. Commands that print --json put providerStatus(lp) in their output.
func (env *Env) provider(ctx context.Context) llm.Provider {
	a, err := llm.NewAuto(llm.AutoConfig{
		Ollama:       llm.OllamaConfig{Host: llm.ResolveHost(env.Ollama), Ratios: llm.SharedRatios()},
		Offline:      llm.Offline{Embedder: embed.NewHashed(embed.DefaultDim)},
		ForceOffline: env.Offline,
	})
	if err != nil {
		fmt.Fprintln(env.Stderr, "mode: offline ("+err.Error()+")")
		return llm.Offline{Embedder: embed.NewHashed(embed.DefaultDim)}
	}
	st := a.Probe(ctx)
	fmt.Fprintln(env.Stderr, st.Line())
	a.Start(ctx)
	return a
}

// connect gives project p the command's provider (and, in Ollama mode, the
// Ollama server for projects whose passages are embedded by an Ollama model)
// and returns the provider's status for --json output.
func (env *Env) connect(ctx context.Context, p *project.Project) (llm.Provider, llm.Status) {
	lp := env.provider(ctx)
	p.SetProvider(lp)
	if a, ok := lp.(*llm.Auto); ok && a.Mode() == llm.ModeOllama {
		p.SetOllama(a.Ollama())
	}
	return lp, providerStatus(lp)
}

// providerStatus describes any provider (mode, host, models) for --json.
func providerStatus(lp llm.Provider) llm.Status {
	if a, ok := lp.(*llm.Auto); ok {
		return a.Status()
	}
	if o, ok := lp.(*llm.Ollama); ok {
		c := o.Config()
		return llm.Status{Mode: llm.ModeOllama, Host: c.Host, ChatModel: c.ChatModel, EmbedModel: c.EmbedModel}
	}
	return llm.Status{Mode: lp.Mode()}
}
