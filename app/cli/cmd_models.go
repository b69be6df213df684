package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"cairn/backend/llm"
	"cairn/backend/project"
)

// modelsReport is what `models --json` prints.
type modelsReport struct {
	llm.Status
	Models      []llm.ModelInfo     `json:"models"`
	Recommended map[string][]string `json:"recommended"`
}

func cmdModels(ctx context.Context, env *Env, args []string) int {
	fs := env.flags("models")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if _, ok := env.parse(fs, args); !ok {
		return 2
	}
	a, _ := env.provider(ctx).(*llm.Auto)
	rep := modelsReport{Models: []llm.ModelInfo{}, Recommended: map[string][]string{"chat": llm.RecommendedChat, "embed": llm.RecommendedEmbed}}
	code := 0
	if a == nil {
		rep.Status = llm.Status{Mode: llm.ModeOffline}
	} else {
		rep.Status = a.Status()
		if !env.Offline {
			ms, err := a.Ollama().ModelsDetailed(ctx)
			if err != nil {
				fmt.Fprintln(env.Stderr, "cairn:", err)
				code = 1
			} else {
				rep.Models = ms
			}
		}
	}
	if *asJSON {
		if err := json.NewEncoder(env.Stdout).Encode(rep); err != nil {
			return env.fail(err)
		}
		return code
	}
	if len(rep.Models) == 0 && code == 0 && !env.Offline {
		fmt.Fprintln(env.Stdout, "no models installed")
	}
	if len(rep.Models) > 0 {
		tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "MODEL\tKIND\tFAMILY\tPARAMS\tQUANT\tCONTEXT\tSIZE\tUSED")
		for _, m := range rep.Models {
			kind := "chat"
			if m.Embedding {
				kind = "embed"
			} else if m.Thinking {
				kind = "chat (thinking)"
			}
			used := ""
			switch m.Name {
			case rep.ChatModel:
				used = "chat"
			case rep.EmbedModel:
				used = "embed"
			}
			ctxLen := "?"
			if m.ContextLength > 0 {
				ctxLen = fmt.Sprint(m.ContextLength)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", m.Name, kind, m.Family, m.ParameterSize, m.Quantization, ctxLen, humanBytes(m.Size), used)
		}
		tw.Flush()
	}
	fmt.Fprintf(env.Stdout, "recommended: chat %s, embed %s", llm.RecommendedChat[0], llm.RecommendedEmbed[0])
	var missing []string
	for _, want := range []string{llm.RecommendedChat[0], llm.RecommendedEmbed[0]} {
		if !installed(rep.Models, want) {
			missing = append(missing, "cairn pull "+want)
		}
	}
	if len(missing) > 0 && code == 0 && !env.Offline {
		fmt.Fprintf(env.Stdout, " (install: %s)", strings.Join(missing, "; "))
	}
	fmt.Fprintln(env.Stdout)
	return code
}

func installed(ms []llm.ModelInfo, name string) bool {
	for _, m := range ms {
		if m.Name == name || m.Name == name+":latest" {
			return true
		}
	}
	return false
}

func humanBytes(n int64) string {
	switch {
	case n <= 0:
		return "-"
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KB", n>>10)
}

func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func cmdPull(ctx context.Context, env *Env, args []string) int {
	fs := env.flags("pull")
	asJSON := fs.Bool("json", false, "print progress as JSON lines on stdout")
	rest, ok := env.parse(fs, args)
	if !ok {
		return 2
	}
	if len(rest) != 1 {
		fmt.Fprintln(env.Stderr, "usage: cairn pull MODEL   (for example: cairn pull "+llm.DefaultChatModel+")")
		return 2
	}
	if env.Offline {
		return env.fail(errors.New("pull needs Ollama; drop --offline"))
	}
	o, err := llm.NewOllama(llm.OllamaConfig{Host: llm.ResolveHost(env.Ollama)})
	if err != nil {
		return env.fail(err)
	}
	if _, err := o.Version(ctx); err != nil {
		return env.fail(err)
	}
	tty := isTerminal(env.rawStderr)
	var last time.Time
	err = o.Pull(ctx, rest[0], func(p llm.PullProgress) {
		if *asJSON {
			json.NewEncoder(env.Stdout).Encode(p)
			return
		}
		if !tty && !p.Done && time.Since(last) < time.Second {
			return
		}
		last = time.Now()
		line := fmt.Sprintf("%s: %s", rest[0], p.Status)
		if p.Total > 0 && !p.Done {
			line = fmt.Sprintf("%s: %5.1f%%  %s / %s", rest[0], p.Percent, humanBytes(p.Completed), humanBytes(p.Total))
			if p.BytesPerS > 0 {
				line += fmt.Sprintf("  %s/s", humanBytes(int64(p.BytesPerS)))
			}
			if p.ETA > 0 {
				line += "  ETA " + p.ETA.Round(time.Second).String()
			}
		}
		if tty {
			fmt.Fprintf(env.rawStderr, "\r\033[K%s", printable(line))
		} else {
			fmt.Fprintln(env.Stderr, line)
		}
	})
	if tty {
		fmt.Fprintln(env.Stderr)
	}
	if err != nil {
		return env.fail(err)
	}
	if !*asJSON {
		fmt.Fprintf(env.Stdout, "pulled %s\n", rest[0])
	}
	return 0
}

func cmdEmbedModel(ctx context.Context, env *Env, args []string) int {
	fs := env.flags("embed-model")
	dir := fs.String("project", "", "project folder")
	asJSON := fs.Bool("json", false, "print progress and the result as JSON lines")
	rest, ok := env.parse(fs, args)
	if !ok {
		return 2
	}
	if len(rest) > 1 {
		fmt.Fprintln(env.Stderr, "usage: cairn embed-model --project DIR [MODEL|builtin]")
		return 2
	}
	p, code := openProject(env, *dir)
	if p == nil {
		return code
	}
	defer p.Close()
	lp, mode := env.connect(ctx, p)
	emit := func(v any) {
		if *asJSON {
			json.NewEncoder(env.Stdout).Encode(v)
		}
	}
	type result struct {
		Event string `json:"event"`
		project.EmbedderStatus
		Mode  llm.Status `json:"mode"`
		Error string     `json:"error,omitempty"`
	}
	report := func(event string, err error) int {
		st, serr := p.EmbedderStatus(ctx)
		if serr != nil && err == nil {
			err = serr
		}
		r := result{Event: event, EmbedderStatus: st, Mode: mode}
		if err != nil {
			r.Error = err.Error()
		}
		emit(r)
		if !*asJSON {
			fmt.Fprintf(env.Stdout, "passages embedded with %s (%d dimensions)\n", st.Current.Model, st.Current.Dim)
			if st.Pending.Dim > 0 {
				fmt.Fprintf(env.Stdout, "switch to %s unfinished: %d of %d passages; run `cairn embed-model --project %s %s` to resume\n",
					st.Pending.Model, st.Done, st.Total, *dir, strings.TrimPrefix(st.Pending.Model, llm.EmbedderPrefix))
			}
		}
		if err != nil {
			return env.fail(err)
		}
		return 0
	}
	if len(rest) == 0 {
		return report("status", nil)
	}
	var o *llm.Ollama
	if a, ok := lp.(*llm.Auto); ok && a.Mode() == llm.ModeOllama {
		o = a.Ollama()
	}
	target, err := p.EmbedderFor(rest[0], o)
	if err != nil {
		return report("error", err)
	}
	tty := isTerminal(env.rawStderr)
	var last time.Time
	err = p.SwitchEmbedder(ctx, target, func(pr project.ReembedProgress) {
		if *asJSON {
			emit(struct {
				Event string `json:"event"`
				project.ReembedProgress
			}{"progress", pr})
			return
		}
		if !tty && !pr.Finished && time.Since(last) < time.Second {
			return
		}
		last = time.Now()
		line := fmt.Sprintf("re-embedding with %s: %d / %d passages", pr.Target.Model, pr.Done, pr.Total)
		if pr.ETA > 0 {
			line += "  ETA " + pr.ETA.Round(time.Second).String()
		}
		if tty {
			fmt.Fprintf(env.rawStderr, "\r\033[K%s", printable(line))
		} else {
			fmt.Fprintln(env.Stderr, line)
		}
	})
	if tty {
		fmt.Fprintln(env.Stderr)
	}
	if err != nil {
		if ctx.Err() != nil {
			return report("interrupted", errors.New("interrupted; the work done is kept, run the command again to resume"))
		}
		return report("error", err)
	}
	return report("done", nil)
}
