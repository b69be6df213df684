package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"cairn/backend/llm/fakeollama"
)

// passageModel answers an extraction request with its passage's first
// capitalised word as an entity and first line as a fact (valid under the
// schema and found in the text).
func passageModel(r fakeollama.Request) string {
	var fence string
	var body []string
	for _, l := range strings.Split(r.Messages[1].Content, "\n") {
		if fence == "" && strings.HasPrefix(l, "```") {
			fence = l
			continue
		}
		if fence != "" {
			if l == fence {
				break
			}
			body = append(body, l)
		}
	}
	out := map[string]any{"entities": []any{}, "relations": []any{}, "facts": []string{}}
	for _, w := range strings.Fields(strings.Join(body, " ")) {
		w = strings.Trim(w, ".,;:()[]\"'")
		if len(w) >= 4 && w[0] >= 'A' && w[0] <= 'Z' {
			out["entities"] = []any{map[string]string{"name": w, "type": "concept", "description": w + " as named in the passage."}}
			break
		}
	}
	for _, l := range body {
		if l = strings.TrimSpace(l); len(l) > 20 {
			out["facts"] = []string{l}
			break
		}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// TestIndexSaysWhatTheModelFaultsDid: `cairn import` with Ollama down
// indexes offline and says the chunks wait for the model; `cairn index`
// with Ollama going away at the fourth chunk says where it stopped and what
// was kept; `cairn docs` shows each document's extraction and the failure;
// the next `cairn index` with Ollama back redoes the rest.
func TestIndexSaysWhatTheModelFaultsDid(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "p")
	file := filepath.Join(sampleDir(t), "en-report-dmca-summary.pdf")

	code, _, errOut := run(t, "", "import", "--ollama", fakeollama.ClosedURL(), "--project", proj, file)
	if code != 0 || !strings.Contains(errOut, "mode: offline") ||
		!strings.Contains(errOut, "chunks have the offline extraction and will be redone with qwen2.5:7b-instruct when it is back") {
		t.Fatalf("import with Ollama down: %d\n%s", code, errOut)
	}

	srv := fakeollama.Start(t)
	var mu sync.Mutex
	calls := 0
	srv.On(fakeollama.Rule{Schema: "extract", Func: func(r fakeollama.Request) string {
		mu.Lock()
		defer mu.Unlock()
		if calls++; calls == 3 {
			srv.Down(1 << 20) // every request after this reply is dropped: Ollama is gone
		}
		return passageModel(r)
	}})
	code, out, errOut := run(t, "", "index", "--ollama", srv.URL(), "--project", proj)
	if code != 0 || !strings.Contains(errOut, "mode: ollama") {
		t.Fatalf("index: %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"warning: Ollama stopped responding at chunk 4 of", "chunks kept their offline extraction",
		"will be redone with qwen2.5:7b-instruct when it is back",
		"(3 by qwen2.5:7b-instruct, 26 offline, 1 failed with the model (offline extraction kept)"} {
		if !strings.Contains(out, want) && !strings.Contains(errOut, want) {
			t.Errorf("index output lacks %q:\n%s\n%s", want, out, errOut)
		}
	}

	t.Logf("cairn index with Ollama going away:\n%s%s", errOut, out)
	code, out, _ = run(t, "", "docs", "--project", proj)
	t.Logf("cairn docs:\n%s", out)
	if code != 0 || !strings.Contains(out, "graph: 3 by qwen2.5:7b-instruct") || !strings.Contains(out, "1 failed with the model (offline extraction kept)") ||
		!strings.Contains(out, "last failure: unreachable: ") {
		t.Fatalf("docs: %d\n%s", code, out)
	}
	code, out, _ = run(t, "", "docs", "--project", proj, "--json")
	lines := jsonLines(t, out)
	g, _ := lines[0]["graph"].(map[string]any)
	if code != 0 || g == nil || g["failed"].(float64) != 1 {
		t.Fatalf("docs --json graph: %v", lines[0])
	}

	srv.Reset()
	srv.On(fakeollama.Rule{Schema: "extract", Func: passageModel})
	code, out, errOut = run(t, "", "index", "--ollama", srv.URL(), "--project", proj, "--json")
	lines = jsonLines(t, out)
	last := lines[len(lines)-1]
	if code != 0 || last["event"] != "done" || last["warnings"] != nil || last["model_pending"] != nil ||
		last["counts"].(map[string]any)["failed"].(float64) != 0 || last["counts"].(map[string]any)["pending"].(float64) != 0 {
		t.Fatalf("index with Ollama back: %d %v\n%s", code, last, errOut)
	}
}
