package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/llm/fakeollama"
)

func TestModelsPullEmbedModel(t *testing.T) {
	srv := fakeollama.Start(t)
	t.Setenv("OLLAMA_HOST", "")

	code, out, errOut := run(t, "", "models", "--json", "--ollama", srv.URL())
	if code != 0 {
		t.Fatalf("models: %d %s", code, errOut)
	}
	rep := jsonLines(t, out)[0]
	if rep["mode"] != "ollama" || rep["chat_model"] != "qwen2.5:7b-instruct" || rep["embed_model"] != "bge-m3:latest" {
		t.Errorf("models report %v", rep)
	}
	ms := rep["models"].([]any)
	if len(ms) != 2 || ms[1].(map[string]any)["context_length"].(float64) != 32768 {
		t.Errorf("models %v", ms)
	}
	if !strings.HasPrefix(errOut, "mode: ollama") {
		t.Errorf("mode line %q", errOut)
	}
	// text form marks what is used and what to install
	_, out, _ = run(t, "", "models", "--ollama", srv.URL())
	if !strings.Contains(out, "qwen2.5:7b-instruct") || !strings.Contains(out, "32768") || !strings.Contains(out, "recommended: chat qwen2.5:7b-instruct") {
		t.Errorf("models text:\n%s", out)
	}

	// not running: says so, exits non-zero, still reports the mode
	code, out, errOut = run(t, "", "models", "--json", "--ollama", fakeollama.ClosedURL())
	if code == 0 || jsonLines(t, out)[0]["mode"] != "offline" || !strings.Contains(errOut, "not reachable") {
		t.Errorf("models without Ollama: %d %s %s", code, out, errOut)
	}

	// pull with progress, then listed
	code, out, errOut = run(t, "", "pull", "--ollama", srv.URL(), "nomic-embed-text")
	if code != 0 || !strings.Contains(out, "pulled nomic-embed-text") || !strings.Contains(errOut, "100.0%") && !strings.Contains(errOut, "success") {
		t.Fatalf("pull: %d %s %s", code, out, errOut)
	}
	code, _, errOut = run(t, "", "pull", "--ollama", srv.URL(), "no-such-model")
	if code == 0 || !strings.Contains(errOut, "does not exist") {
		t.Errorf("pull of an unknown model: %d %s", code, errOut)
	}

	// embed-model on a real project: switch to bge-m3, status, back to builtin
	proj := filepath.Join(t.TempDir(), "p")
	sample, _ := filepath.Abs("../../assets/sample/en-report-dmca-summary.pdf")
	if code, _, e := run(t, "", "import", "--project", proj, "--no-index", sample); code != 0 {
		if code, _, e = run(t, "", "import", "--project", proj, sample); code != 0 {
			t.Fatalf("import: %s", e)
		}
	}
	code, out, errOut = run(t, "", "embed-model", "--project", proj, "--json", "--ollama", srv.URL(), "bge-m3")
	lines := jsonLines(t, out)
	last := lines[len(lines)-1]
	if code != 0 || last["event"] != "done" || last["current"].(map[string]any)["model"] != "ollama:bge-m3" || last["mode"].(map[string]any)["mode"] != "ollama" {
		t.Fatalf("embed-model: %d %s %s", code, out, errOut)
	}
	if code, out, _ = run(t, "", "search", "--project", proj, "--ollama", srv.URL(), "safe harbor"); code != 0 || out == "" {
		t.Errorf("search after the switch: %d %q", code, out)
	}
	code, out, _ = run(t, "", "embed-model", "--project", proj, "--offline", "builtin")
	if code != 0 || !strings.Contains(out, "passages embedded with cairn-hash-v1-1024") {
		t.Errorf("back to builtin offline: %d %s", code, out)
	}
	code, _, errOut = run(t, "", "embed-model", "--project", proj, "--offline", "bge-m3")
	if code == 0 || !strings.Contains(errOut, "needs Ollama") {
		t.Errorf("an Ollama model offline: %d %s", code, errOut)
	}
	if code, _, e := run(t, "", "check", "--project", proj); code != 0 {
		t.Errorf("check: %s", e)
	}
}
