package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"cairn/backend/project"
)

// Settings that matter to the backend, kept in a small JSON file in the
// app's data folder (<HomeDir>/settings.json) so the next start uses them.
// The UI-only ones (theme) live in the browser's storage.
//
// The desktop applies the saved Ollama host and offline switch at start;
// `cairn serve` takes them from its flags (--ollama, --offline) instead, so
// a test or a script gets the mode it asked for, and saves what the user
// changes in Settings like the desktop does.

// SettingsFile is the settings file's name inside HomeDir.
const SettingsFile = "settings.json"

// Settings is what the Settings view edits.
type Settings struct {
	// OllamaHost is the Ollama server ("" = OLLAMA_HOST or the default).
	OllamaHost string `json:"ollama_host"`
	// Offline keeps Cairn off Ollama even when it runs.
	Offline bool `json:"offline"`
	// ChatModel and EmbedModel are the Ollama models asked for ("" = the
	// recommended ones; a missing one is substituted, LLMStatus says so).
	ChatModel  string `json:"chat_model"`
	EmbedModel string `json:"embed_model"`
	// ContextSize is the smallest context window (num_ctx, tokens) sent to
	// the chat model; 0 means the default (8192). Windows grow from it when
	// a prompt needs more.
	ContextSize int `json:"context_size"`
	// AnswerMode is the Ask view's default: "quick" or "deep".
	AnswerMode string `json:"answer_mode"`
	// LastProject is the name of the project opened last (desktop).
	LastProject string `json:"last_project,omitempty"`
}

// Context size bounds (tokens).
const (
	minContextSize = 2048
	maxContextSize = 131072
)

// settingsState is the app's copy of the settings and where they are saved.
type settingsState struct {
	mu   sync.Mutex
	path string // "" = not persisted (tests)
	s    Settings
}

// normalise fills defaults and checks ranges.
func (s Settings) normalise() (Settings, error) {
	s.OllamaHost = strings.TrimSpace(s.OllamaHost)
	s.ChatModel = strings.TrimSpace(s.ChatModel)
	s.EmbedModel = strings.TrimSpace(s.EmbedModel)
	switch s.AnswerMode {
	case "":
		s.AnswerMode = "quick"
	case "quick", "deep":
	default:
		return s, fmt.Errorf("answer mode %q: use quick or deep", s.AnswerMode)
	}
	if s.ContextSize != 0 && (s.ContextSize < minContextSize || s.ContextSize > maxContextSize) {
		return s, fmt.Errorf("context size %d: use %d to %d tokens (0 for the default)", s.ContextSize, minContextSize, maxContextSize)
	}
	if strings.ContainsAny(s.OllamaHost, " \t\n") {
		return s, fmt.Errorf("Ollama host %q contains spaces", s.OllamaHost)
	}
	if s.LastProject != "" && project.ValidateName(s.LastProject) != nil {
		s.LastProject = ""
	}
	return s, nil
}

// loadSettings reads path; a missing file gives the defaults, a damaged one
// an error (and the defaults).
func loadSettings(path string) (Settings, error) {
	def, _ := Settings{}.normalise()
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return def, nil
	}
	if err != nil {
		return def, err
	}
	var s Settings
	if err := json.Unmarshal(b, &s); err != nil {
		return def, fmt.Errorf("settings file %s is damaged (%v); using the defaults", path, err)
	}
	s, err = s.normalise()
	if err != nil {
		return def, fmt.Errorf("settings file %s: %v; using the defaults", path, err)
	}
	return s, nil
}

// saveSettings writes path atomically (temp file, rename).
func saveSettings(path string, s Settings) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".settings-*.json")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(append(b, '\n'))
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// useSettingsFile loads the settings from path (saving changes there from
// now on) and applies the language-model ones; applyConnection false leaves
// host and offline to the caller (serve's flags).
func (a *App) useSettingsFile(path string, applyConnection bool) error {
	s, err := loadSettings(path)
	a.settings.mu.Lock()
	a.settings.path, a.settings.s = path, s
	a.settings.mu.Unlock()
	a.llm.mu.Lock()
	a.llm.chatModel, a.llm.embedModel, a.llm.minContext = s.ChatModel, s.EmbedModel, s.ContextSize
	if applyConnection {
		a.llm.host, a.llm.offline = s.OllamaHost, s.Offline
	}
	a.llm.mu.Unlock()
	return err
}

// GetSettings returns the settings in effect: the saved ones, with the
// Ollama host and offline switch the app is using now.
func (a *App) GetSettings() Settings {
	a.settings.mu.Lock()
	s := a.settings.s
	a.settings.mu.Unlock()
	a.llm.mu.Lock()
	s.OllamaHost, s.Offline = a.llm.host, a.llm.offline
	s.ChatModel, s.EmbedModel, s.ContextSize = a.llm.chatModel, a.llm.embedModel, a.llm.minContext
	a.llm.mu.Unlock()
	if s.AnswerMode == "" {
		s.AnswerMode = "quick"
	}
	return s
}

// SaveSettings checks, applies and saves the settings; it returns them as
// applied. A change of host, offline switch, models or context size
// reconnects to Ollama (EventModeChanged follows).
func (a *App) SaveSettings(s Settings) (Settings, error) {
	s, err := s.normalise()
	if err != nil {
		return a.GetSettings(), err
	}
	a.settings.mu.Lock()
	s.LastProject = a.settings.s.LastProject
	a.settings.s = s
	path := a.settings.path
	a.settings.mu.Unlock()

	a.llm.mu.Lock()
	reconnect := a.llm.host != s.OllamaHost || a.llm.offline != s.Offline ||
		a.llm.chatModel != s.ChatModel || a.llm.embedModel != s.EmbedModel || a.llm.minContext != s.ContextSize
	a.llm.chatModel, a.llm.embedModel, a.llm.minContext = s.ChatModel, s.EmbedModel, s.ContextSize
	a.llm.mu.Unlock()
	if reconnect {
		a.SetOllamaHost(s.OllamaHost, s.Offline)
	}
	if path != "" {
		if err := saveSettings(path, s); err != nil {
			return a.GetSettings(), fmt.Errorf("the settings apply now but could not be saved: %w", err)
		}
	}
	return a.GetSettings(), nil
}

// rememberProject records the open project's name as the one to open next
// time (desktop), when it lives in the projects folder.
func (a *App) rememberProject() {
	if _, err := a.projectsRootDir(); err != nil {
		return
	}
	name := filepath.Base(a.cur().Dir())
	a.settings.mu.Lock()
	a.settings.s.LastProject = name
	s, path := a.settings.s, a.settings.path
	a.settings.mu.Unlock()
	if path != "" {
		_ = saveSettings(path, s) // best effort: only the next start's choice
	}
}

// settingsPath is <HomeDir>/settings.json.
func settingsPath() (string, error) {
	h, err := HomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(h, SettingsFile), nil
}

// lastProjectDir is the project the desktop opened last (in the projects
// folder next to def, the Sample project), or "" for the Sample project.
func lastProjectDir(def string) string {
	path, err := settingsPath()
	if err != nil {
		return ""
	}
	s, _ := loadSettings(path)
	if s.LastProject == "" || s.LastProject == filepath.Base(def) {
		return ""
	}
	dir := filepath.Join(filepath.Dir(def), s.LastProject)
	if !project.IsProject(dir) {
		return ""
	}
	return dir
}
