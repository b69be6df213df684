package app

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"cairn/backend/llm"
	"cairn/backend/project"
)

// Switching the project's passage embedder (Settings): the vectors are
// re-made with another model in the background while search keeps using the
// old ones; the switch commits at the end (backend/project/embedder.go).

// Embedder events.
const (
	// EventEmbedProgress carries project.ReembedProgress.
	EventEmbedProgress = "embed:progress"
	// EventEmbedDone carries EmbedDone.
	EventEmbedDone = "embed:done"
)

// EmbedDone is the payload of EventEmbedDone.
type EmbedDone struct {
	Model     string `json:"model"`
	Error     string `json:"error,omitempty"`
	Cancelled bool   `json:"cancelled,omitempty"`
}

// embedMu lets one switch run at a time (per app).
var embedMu sync.Mutex

// EmbedderStatus says which embedder made the project's passage vectors and
// how far an unfinished switch has got.
func (a *App) EmbedderStatus() (project.EmbedderStatus, error) {
	defer a.enter()()
	p, err := a.openProject()
	if err != nil {
		return project.EmbedderStatus{}, err
	}
	return p.EmbedderStatus(a.context())
}

// SwitchEmbedder re-embeds the project's passages with model ("builtin" for
// Cairn's own embedder, else an Ollama embedding model) and switches to it,
// emitting EventEmbedProgress meanwhile and EventEmbedDone at the end. It
// returns when the switch is done. Search keeps working on the old vectors
// until then; an interrupted switch (project switched, app closed) resumes
// where it stopped when asked again.
func (a *App) SwitchEmbedder(model string) error {
	defer a.enter()()
	p, err := a.openProject()
	if err != nil {
		return err
	}
	model = strings.TrimSpace(model)
	if model == "" {
		return errors.New("choose an embedding model")
	}
	if !embedMu.TryLock() {
		return errors.New("the passages are already being re-embedded")
	}
	defer embedMu.Unlock()

	var o *llm.Ollama
	a.llm.mu.Lock()
	if auto := a.llm.auto; auto != nil && auto.Mode() == llm.ModeOllama {
		o = auto.Ollama()
	}
	a.llm.mu.Unlock()
	target, err := p.EmbedderFor(model, o)
	if err != nil {
		return err
	}
	ctx := a.context()
	err = p.SwitchEmbedder(ctx, target, func(pr project.ReembedProgress) {
		a.emit(EventEmbedProgress, pr)
	})
	done := EmbedDone{Model: model}
	if err != nil {
		done.Error = err.Error()
		done.Cancelled = ctx.Err() != nil
		err = fmt.Errorf("switch the passages to %s: %w", model, err)
	}
	a.emit(EventEmbedDone, done)
	return err
}
