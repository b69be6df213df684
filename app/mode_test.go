package app

import (
	"errors"
	"strings"
	"testing"
	"time"

	"cairn/backend/llm"
	"cairn/backend/llm/fakeollama"
	"cairn/backend/project"
)

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestModeFollowsOllamaAndPulls(t *testing.T) {
	srv := fakeollama.Start(t)
	srv.PullStep(5 * time.Millisecond)
	p, err := project.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	a := New(p)
	defer a.stop()
	events := record(a)
	a.SetOllamaHost(srv.URL(), false)
	if a.Mode() != "offline" {
		t.Fatalf("mode before the UI is up: %s", a.Mode())
	}
	a.runReady()
	waitFor(t, "ollama mode", func() bool { return a.Mode() == "ollama" })
	if p.Provider().Mode() != llm.ModeOllama {
		t.Errorf("project provider not set")
	}
	var sawMode bool
	for _, e := range events() {
		if e.name == EventModeChanged && e.data.(llm.Status).Mode == llm.ModeOllama {
			sawMode = true
		}
	}
	if !sawMode {
		t.Errorf("no %s event", EventModeChanged)
	}

	mi, err := a.Models()
	if err != nil || len(mi.Models) != 2 || mi.Status.ChatModel != "qwen2.5:7b-instruct" || mi.Models[1].ContextLength != 32768 {
		t.Fatalf("models %+v %v", mi, err)
	}

	// pull with progress events; the new model is then listed
	if err := a.PullModel("nomic-embed-text"); err != nil {
		t.Fatal(err)
	}
	var n int
	var last PullEvent
	for _, e := range events() {
		if e.name == EventModelsPull {
			n++
			last = e.data.(PullEvent)
		}
	}
	if n < 10 || !last.Finished || !last.Done || last.Error != "" {
		t.Errorf("%d pull events, last %+v", n, last)
	}
	mi, _ = a.Models()
	if len(mi.Models) != 3 {
		t.Errorf("pulled model not listed: %+v", mi.Models)
	}

	// cancel a pull
	srv.PullStep(50 * time.Millisecond)
	done := make(chan error, 1)
	go func() { done <- a.PullModel("qwen3:8b") }()
	waitFor(t, "pull to start", func() bool { m, _ := a.Models(); return m.Pulling == "qwen3:8b" })
	if err := a.PullModel("tiny:1b"); err == nil || !strings.Contains(err.Error(), "already downloading") {
		t.Errorf("second pull: %v", err)
	}
	a.CancelPull()
	select {
	case err := <-done:
		if err == nil {
			t.Errorf("cancelled pull succeeded")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("cancel did not stop the pull")
	}

	// Ollama goes away: the next failing call flips the mode, the UI hears it
	srv.Stop()
	_, err = p.Provider().ChatJSON(a.context(), llm.JSONRequest{Schema: llm.Schema{Name: "x", Schema: []byte(`{"type":"object"}`)},
		Messages: []llm.Message{{Role: "user", Content: "hi"}}})
	if llm.KindOf(err) != llm.FailUnreachable && !errors.Is(err, llm.ErrOffline) {
		t.Fatalf("call with Ollama gone: %v", err)
	}
	waitFor(t, "offline mode", func() bool { return a.Mode() == "offline" })
	if s := a.LLMStatus(); !strings.Contains(s.Reason, "not reachable") {
		t.Errorf("reason %q", s.Reason)
	}

	// switching to --offline from Settings
	a.SetOllamaHost(srv.URL(), true)
	if a.Mode() != "offline" || a.PullModel("x") == nil {
		t.Errorf("offline: mode %s", a.Mode())
	}
}
