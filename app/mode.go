package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"cairn/backend/embed"
	"cairn/backend/llm"
	"cairn/backend/project"
)

// Language-model mode: the app follows Ollama appearing and disappearing
// (llm.Auto re-probes in the background), tells the UI (EventModeChanged)
// and hands the current provider to the project. Model management (list,
// pull with progress, cancel) is here too.

const (
	// EventModeChanged carries llm.Status whenever the mode or the models
	// in use change.
	EventModeChanged = "mode:changed"
	// EventModelsPull carries PullEvent for every step of a model download.
	EventModelsPull = "models:pull"
)

// llmState is the app's language-model state.
type llmState struct {
	mu      sync.Mutex
	host    string
	offline bool
	auto    *llm.Auto
	pulling string
	cancel  context.CancelFunc
	// Settings (settings.go): the models asked for ("" = the defaults) and
	// the smallest context window sent (0 = the default).
	chatModel, embedModel string
	minContext            int
	// resume: the last index run left chunks for the model (it went away
	// or kept failing mid-run, or was not there at all); indexing resumes
	// by itself when the mode next turns to ollama. back: that happened
	// while an index run was still going.
	resume, back bool
}

// SetOllamaHost chooses the Ollama server (a URL, host:port, …; "" means
// OLLAMA_HOST or the default) and whether to stay offline. Called before the
// UI is up it only configures; called later (a Settings change) it
// reconnects at once.
func (a *App) SetOllamaHost(host string, offline bool) {
	a.llm.mu.Lock()
	a.llm.host, a.llm.offline = host, offline
	old := a.llm.auto
	a.llm.auto = nil
	a.llm.mu.Unlock()
	if old != nil {
		old.Close()
		a.startLLM()
	}
}

// startLLM probes Ollama once and keeps following it until the app's
// context ends.
func (a *App) startLLM() {
	a.llm.mu.Lock()
	if a.llm.auto != nil {
		a.llm.mu.Unlock()
		return
	}
	auto, err := llm.NewAuto(llm.AutoConfig{
		Ollama: llm.OllamaConfig{Host: llm.ResolveHost(a.llm.host),
			ChatModel: a.llm.chatModel, EmbedModel: a.llm.embedModel, MinContext: a.llm.minContext,
			Ratios: llm.SharedRatios()},
		Offline:      llm.Offline{Embedder: embed.NewHashed(embed.DefaultDim)},
		ForceOffline: a.llm.offline,
		OnModeChange: a.modeChanged,
	})
	if err != nil {
		a.llm.mu.Unlock()
		a.emit(EventModeChanged, llm.Status{Mode: llm.ModeOffline, Reason: err.Error()})
		return
	}
	a.llm.auto = auto
	a.llm.mu.Unlock()
	ctx := a.baseContext() // Ollama is followed across project switches
	a.modeChanged(auto.Probe(ctx))
	auto.Start(ctx)
}

// modeChanged hands the provider to the project and tells the UI.
func (a *App) modeChanged(s llm.Status) {
	a.llm.mu.Lock()
	auto := a.llm.auto
	a.llm.mu.Unlock()
	if pb, ok := a.cur().(projectBackend); ok && auto != nil {
		pb.p.SetProvider(auto)
		if s.Mode == llm.ModeOllama {
			pb.p.SetOllama(auto.Ollama())
		} else {
			pb.p.SetOllama(nil)
		}
	}
	a.emit(EventModeChanged, s)
	if s.Mode == llm.ModeOllama {
		a.resumeIndex(s)
	}
}

// indexEnded records whether the index run that just ended left work for
// the model, and resumes at once if the model came back meanwhile.
func (a *App) indexEnded(warning string) {
	a.llm.mu.Lock()
	auto := a.llm.auto
	left := warning != "" || (auto != nil && !a.llm.offline && auto.Mode() == llm.ModeOffline)
	a.llm.resume = left
	back := a.llm.back
	a.llm.back = false
	a.llm.mu.Unlock()
	if left && back && auto != nil && auto.Mode() == llm.ModeOllama {
		go a.resumeIndex(auto.Status())
	}
}

// resumeIndex starts indexing in the background when the last run left
// chunks for the model, which is now back (s).
func (a *App) resumeIndex(s llm.Status) {
	a.llm.mu.Lock()
	if !a.llm.resume {
		a.llm.mu.Unlock()
		return
	}
	a.mu.Lock()
	running := a.index.Running
	a.mu.Unlock()
	if running {
		a.llm.back = true
		a.llm.mu.Unlock()
		return
	}
	a.llm.resume = false
	a.llm.mu.Unlock()
	if _, err := a.openProject(); err != nil {
		return
	}
	go func() {
		defer a.enter()()
		a.emit(EventIndexProgress, project.IndexProgress{Stage: "graph",
			Note: "Ollama is back: resuming indexing with " + s.ChatModel})
		_ = a.runIndex(a.context())
	}()
}

// LLMStatus says whether answers come from Ollama (which host, which
// models) or from the built-in offline components, and why.
func (a *App) LLMStatus() llm.Status {
	a.llm.mu.Lock()
	auto := a.llm.auto
	a.llm.mu.Unlock()
	if auto == nil {
		return llm.Status{Mode: llm.ModeOffline, Reason: "not connected yet"}
	}
	return auto.Status()
}

// ModelsInfo is what Models returns.
type ModelsInfo struct {
	Status      llm.Status          `json:"status"`
	Models      []llm.ModelInfo     `json:"models"`
	Recommended map[string][]string `json:"recommended"`
	Pulling     string              `json:"pulling,omitempty"`
	Error       string              `json:"error,omitempty"` // why the list is empty
}

// Models lists the installed Ollama models with their context length,
// family and size, the ones in use, and the recommended ones.
func (a *App) Models() (ModelsInfo, error) {
	a.llm.mu.Lock()
	auto, pulling := a.llm.auto, a.llm.pulling
	a.llm.mu.Unlock()
	out := ModelsInfo{Models: []llm.ModelInfo{}, Pulling: pulling,
		Recommended: map[string][]string{"chat": llm.RecommendedChat, "embed": llm.RecommendedEmbed}}
	if auto == nil {
		out.Status = a.LLMStatus()
		return out, nil
	}
	ctx := a.context()
	out.Status = auto.Probe(ctx)
	if out.Status.Reason == "--offline" {
		return out, nil
	}
	ms, err := auto.Ollama().ModelsDetailed(ctx)
	if err != nil {
		out.Error = err.Error()
		return out, nil
	}
	out.Models = ms
	return out, nil
}

// PullEvent is the payload of EventModelsPull.
type PullEvent struct {
	llm.PullProgress
	Error     string `json:"error,omitempty"`
	Cancelled bool   `json:"cancelled,omitempty"`
	Finished  bool   `json:"finished,omitempty"` // last event of this pull
}

// PullModel downloads a model through Ollama, emitting EventModelsPull
// progress (bytes, percent, ETA). One pull runs at a time; CancelPull stops
// it. It returns when the pull ends; the mode is re-probed afterwards.
func (a *App) PullModel(name string) error {
	name = strings.TrimSpace(name)
	if name == "" {
		return errors.New("no model name")
	}
	a.llm.mu.Lock()
	auto := a.llm.auto
	if auto == nil || a.llm.offline {
		a.llm.mu.Unlock()
		return errors.New("Ollama is not connected (offline mode)")
	}
	if a.llm.pulling != "" {
		p := a.llm.pulling
		a.llm.mu.Unlock()
		return fmt.Errorf("already downloading %s", p)
	}
	ctx, cancel := context.WithCancel(a.baseContext())
	a.llm.pulling, a.llm.cancel = name, cancel
	a.llm.mu.Unlock()
	defer func() {
		cancel()
		a.llm.mu.Lock()
		a.llm.pulling, a.llm.cancel = "", nil
		a.llm.mu.Unlock()
	}()
	var last llm.PullProgress
	err := auto.Ollama().Pull(ctx, name, func(p llm.PullProgress) {
		last = p
		a.emit(EventModelsPull, PullEvent{PullProgress: p})
	})
	end := PullEvent{PullProgress: last, Finished: true}
	end.Model = name
	if err != nil {
		end.Error = err.Error()
		end.Cancelled = ctx.Err() != nil
	}
	a.emit(EventModelsPull, end)
	a.modeChanged(auto.Probe(a.baseContext()))
	return err
}

// CancelPull stops the model download in progress (no-op when none runs).
func (a *App) CancelPull() {
	a.llm.mu.Lock()
	defer a.llm.mu.Unlock()
	if a.llm.cancel != nil {
		a.llm.cancel()
	}
}
