package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/llm"
	"cairn/backend/llm/fakeollama"
	"cairn/backend/project"
)

func TestSettingsNormalise(t *testing.T) {
	for _, tc := range []struct {
		in      Settings
		wantErr string
		mode    string
	}{
		{Settings{}, "", "quick"},
		{Settings{AnswerMode: "deep", ContextSize: 16384}, "", "deep"},
		{Settings{AnswerMode: "fast"}, "answer mode", ""},
		{Settings{ContextSize: 100}, "context size", ""},
		{Settings{ContextSize: 1 << 20}, "context size", ""},
		{Settings{OllamaHost: "http://a b"}, "spaces", ""},
		{Settings{OllamaHost: "  http://127.0.0.1:11434 "}, "", "quick"},
	} {
		got, err := tc.in.normalise()
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%+v: err %v, want %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got.AnswerMode != tc.mode || strings.TrimSpace(got.OllamaHost) != got.OllamaHost {
			t.Errorf("%+v: %+v %v", tc.in, got, err)
		}
	}
}

func TestSettingsFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", SettingsFile)
	s, err := loadSettings(path)
	if err != nil || s.AnswerMode != "quick" {
		t.Fatalf("missing file: %+v %v", s, err)
	}
	want := Settings{OllamaHost: "http://127.0.0.1:9", ChatModel: "qwen3:8b", ContextSize: 16384, AnswerMode: "deep", LastProject: "Contracts"}
	if err := saveSettings(path, want); err != nil {
		t.Fatal(err)
	}
	if got, err := loadSettings(path); err != nil || got != want {
		t.Fatalf("round trip: %+v %v", got, err)
	}
	os.WriteFile(path, []byte(`{"answer_mode": 3`), 0o644)
	if s, err := loadSettings(path); err == nil || s.AnswerMode != "quick" {
		t.Fatalf("damaged file: %+v %v", s, err)
	}
	os.WriteFile(path, []byte(`{"answer_mode": "slow"}`), 0o644)
	if _, err := loadSettings(path); err == nil {
		t.Fatal("invalid value accepted")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "sub", ".settings-*")); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

// TestSaveSettingsReconnects: Settings changes reach Ollama at once and are
// saved; a new app started on the same file uses them.
func TestSaveSettingsReconnects(t *testing.T) {
	srv := fakeollama.Start(t)
	p, err := project.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	path := filepath.Join(t.TempDir(), SettingsFile)
	a := newApp(projectBackend{p})
	defer a.stop()
	if err := a.useSettingsFile(path, true); err != nil {
		t.Fatal(err)
	}
	a.onReady(a.startLLM)
	a.SetOllamaHost(srv.URL(), true) // offline first
	a.runReady()
	waitFor(t, "llm started", func() bool { return a.LLMStatus().Reason != "not connected yet" })
	if a.Mode() != "offline" {
		t.Fatalf("mode %s", a.Mode())
	}
	events := record(a)

	s := a.GetSettings()
	s.Offline = false
	s.ContextSize = 16384
	s.AnswerMode = "deep"
	got, err := a.SaveSettings(s)
	if err != nil || got.Offline || got.OllamaHost != srv.URL() || got.ContextSize != 16384 {
		t.Fatalf("saved %+v %v", got, err)
	}
	waitFor(t, "ollama mode", func() bool { return a.Mode() == "ollama" })
	if p.Provider().Mode() != llm.ModeOllama {
		t.Fatal("the project did not get the Ollama provider")
	}
	saw := false
	for _, e := range events() {
		saw = saw || e.name == EventModeChanged
	}
	if !saw {
		t.Fatal("no mode:changed event")
	}
	// The context size reaches the requests Cairn sends.
	if _, err := p.Provider().ChatStream(a.baseContext(), llm.ChatRequest{Messages: []llm.Message{{Role: "user", Content: "hi"}}}, func(string) {}); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if last := reqs[len(reqs)-1]; last.Path != "/api/chat" || last.NumCtx < 16384 {
		t.Fatalf("last request %s num_ctx %d, want a chat with >= 16384", last.Path, last.NumCtx)
	}

	if _, err := a.SaveSettings(Settings{AnswerMode: "never"}); err == nil {
		t.Fatal("invalid settings saved")
	}
	b := newApp(projectBackend{p})
	if err := b.useSettingsFile(path, true); err != nil {
		t.Fatal(err)
	}
	if s := b.GetSettings(); s.OllamaHost != srv.URL() || s.Offline || s.AnswerMode != "deep" || s.ContextSize != 16384 {
		t.Fatalf("reloaded %+v", s)
	}
}
