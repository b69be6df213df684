package llm

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Status says who answers now and why.
type Status struct {
	Mode       Mode     `json:"mode"`
	Host       string   `json:"host"`
	Version    string   `json:"version,omitempty"`     // Ollama's version when reachable
	ChatModel  string   `json:"chat_model,omitempty"`  // the model chat calls use
	EmbedModel string   `json:"embed_model,omitempty"` // the model Embed uses ("" when none is installed)
	Reason     string   `json:"reason,omitempty"`      // why offline
	Notes      []string `json:"notes,omitempty"`       // substitutions made ("… is not installed; using …")
}

// Line is the one-line form the CLI prints on stderr.
func (s Status) Line() string {
	if s.Mode == ModeOllama {
		line := fmt.Sprintf("mode: ollama %s at %s, chat %s", s.Version, s.Host, s.ChatModel)
		if s.EmbedModel != "" {
			line += ", embed " + s.EmbedModel
		}
		for _, n := range s.Notes {
			line += " (" + n + ")"
		}
		return line
	}
	if s.Reason != "" {
		return "mode: offline (" + s.Reason + ")"
	}
	return "mode: offline"
}

// AutoConfig configures Auto.
type AutoConfig struct {
	Ollama     OllamaConfig
	Offline    Offline
	ProbeEvery time.Duration // background re-probe period; default 5s
	// ForceOffline keeps Auto offline (--offline) without probing.
	ForceOffline bool
	// OnModeChange is called (from the probing goroutine) whenever the
	// mode or the chosen models change.
	OnModeChange func(Status)
}

// Auto is the Provider the app and CLI use: it delegates to Ollama while
// Ollama is reachable and has a chat model, and to the offline provider
// otherwise. A background loop re-probes every ProbeEvery, and at once
// after a call fails with FailUnreachable, so the mode follows Ollama
// starting or stopping without a restart.
type Auto struct {
	cfg     AutoConfig
	ollama  *Ollama
	offline Offline

	mu     sync.RWMutex
	status Status

	kick     chan struct{}
	stopOnce sync.Once
	stop     chan struct{}
	loopDone chan struct{}
}

// NewAuto builds the provider. It starts offline; call Probe (once, now)
// and/or Start (background loop).
func NewAuto(cfg AutoConfig) (*Auto, error) {
	o, err := NewOllama(cfg.Ollama)
	if err != nil {
		return nil, err
	}
	if cfg.ProbeEvery <= 0 {
		cfg.ProbeEvery = 5 * time.Second
	}
	a := &Auto{cfg: cfg, ollama: o, offline: cfg.Offline,
		kick: make(chan struct{}, 1), stop: make(chan struct{})}
	a.status = Status{Mode: ModeOffline, Host: o.Host(), Reason: "not probed yet"}
	if cfg.ForceOffline {
		a.status.Reason = "--offline"
	}
	return a, nil
}

// Ollama is the underlying Ollama provider (model management: Models, Pull).
func (a *Auto) Ollama() *Ollama { return a.ollama }

// Status is the current mode and models.
func (a *Auto) Status() Status {
	a.mu.RLock()
	defer a.mu.RUnlock()
	s := a.status
	s.Notes = append([]string(nil), s.Notes...)
	return s
}

// Mode is the current mode.
func (a *Auto) Mode() Mode {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.status.Mode
}

// Probe checks Ollama now, updates the mode and returns it.
func (a *Auto) Probe(ctx context.Context) Status {
	if a.cfg.ForceOffline {
		return a.Status()
	}
	s := Status{Mode: ModeOffline, Host: a.ollama.Host()}
	v, err := a.ollama.Version(ctx)
	if err != nil {
		s.Reason = errDetail(err)
		return a.set(s)
	}
	s.Version = v
	// Show fills what /api/tags leaves out on older servers (capabilities,
	// context length), so the choice can weigh them; it is cached per model.
	models, err := a.ollama.ModelsDetailed(ctx)
	if err != nil {
		s.Reason = errDetail(err)
		return a.set(s)
	}
	chat, note := Pick(models, a.ollama.cfg.ChatModel, false)
	if chat == "" {
		s.Reason = "Ollama " + v + " is running but " + note
		return a.set(s)
	}
	if note != "" {
		s.Notes = append(s.Notes, note)
	}
	emb, note := Pick(models, a.ollama.cfg.EmbedModel, true)
	if note != "" {
		s.Notes = append(s.Notes, note)
	}
	s.Mode, s.ChatModel, s.EmbedModel = ModeOllama, chat, emb
	return a.set(s)
}

func errDetail(err error) string {
	var ce *CallError
	if errors.As(err, &ce) && ce.Detail != "" {
		return ce.Detail
	}
	return err.Error()
}

func (a *Auto) set(s Status) Status {
	a.mu.Lock()
	old := a.status
	a.status = s
	a.mu.Unlock()
	if changed(old, s) && a.cfg.OnModeChange != nil {
		a.cfg.OnModeChange(s)
	}
	return s
}

func changed(a, b Status) bool {
	return a.Mode != b.Mode || a.ChatModel != b.ChatModel || a.EmbedModel != b.EmbedModel || a.Host != b.Host
}

// Start runs the background probe loop until ctx ends or Close.
func (a *Auto) Start(ctx context.Context) {
	if a.cfg.ForceOffline {
		return
	}
	a.mu.Lock()
	if a.loopDone != nil {
		a.mu.Unlock()
		return
	}
	a.loopDone = make(chan struct{})
	a.mu.Unlock()
	go func() {
		defer close(a.loopDone)
		t := time.NewTicker(a.cfg.ProbeEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-a.stop:
				return
			case <-t.C:
			case <-a.kick:
			}
			a.Probe(ctx)
		}
	}()
}

// Close stops the probe loop.
func (a *Auto) Close() {
	a.stopOnce.Do(func() { close(a.stop) })
	a.mu.RLock()
	done := a.loopDone
	a.mu.RUnlock()
	if done != nil {
		<-done
	}
}

// Reprobe asks the loop to probe now (non-blocking).
func (a *Auto) Reprobe() {
	select {
	case a.kick <- struct{}{}:
	default:
	}
}

// after inspects a delegated call's error: an unreachable server flips the
// mode to offline at once and wakes the probe loop.
func (a *Auto) after(err error) {
	if KindOf(err) != FailUnreachable {
		return
	}
	a.mu.RLock()
	s := a.status
	a.mu.RUnlock()
	if s.Mode == ModeOllama {
		a.set(Status{Mode: ModeOffline, Host: s.Host, Reason: errDetail(err)})
	}
	a.Reprobe()
}

func (a *Auto) chatModel(m string) string {
	if m != "" {
		return m
	}
	return a.Status().ChatModel
}

// ChatJSON delegates to Ollama in ollama mode, else returns ErrOffline.
func (a *Auto) ChatJSON(ctx context.Context, req JSONRequest) (JSONReply, error) {
	if a.Mode() != ModeOllama {
		return a.offline.ChatJSON(ctx, req)
	}
	req.Model = a.chatModel(req.Model)
	r, err := a.ollama.ChatJSON(ctx, req)
	a.after(err)
	return r, err
}

// ChatStream delegates to Ollama in ollama mode, else returns ErrOffline.
func (a *Auto) ChatStream(ctx context.Context, req ChatRequest, onToken func(string)) (ChatReply, error) {
	if a.Mode() != ModeOllama {
		return a.offline.ChatStream(ctx, req, onToken)
	}
	req.Model = a.chatModel(req.Model)
	r, err := a.ollama.ChatStream(ctx, req, onToken)
	a.after(err)
	return r, err
}

// Embed uses Ollama's embedding model in ollama mode (FailUnknownModel when
// none is installed) and the offline embedder otherwise. Vectors that are
// stored must come from one fixed embedder, not from a provider whose mode
// can change: see Embedder and package project's re-embed job.
func (a *Auto) Embed(ctx context.Context, texts []string) ([][]float32, Usage, error) {
	s := a.Status()
	if s.Mode != ModeOllama {
		return a.offline.Embed(ctx, texts)
	}
	if s.EmbedModel == "" {
		return nil, Usage{}, &CallError{Kind: FailUnknownModel, Task: "embed", Detail: "no embedding model is installed in Ollama; run `cairn pull " + DefaultEmbedModel + "`"}
	}
	v, u, err := a.ollama.EmbedWith(ctx, s.EmbedModel, texts)
	a.after(err)
	return v, u, err
}
