package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"cairn/backend/extract"
	"cairn/backend/llm/fakeollama"
)

// passageModel answers an extraction request with extract.EchoReply.
func passageModel(r fakeollama.Request) string { return extract.EchoReply(r.Messages[1].Content) }

// TestIndexSaysWhatTheModelFaultsDid: `cairn import` with Ollama down
// indexes offline and says the chunks wait for the model; `cairn index`
// with Ollama going away after its third extraction call (one call per
// pack of chunks) says where it stopped and what was kept; `cairn docs` shows each document's extraction and the failure;
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
	// the fourth call's chunks failed; the three before were the model's
	m := regexp.MustCompile(`\((\d+) by qwen2\.5:7b-instruct, (\d+) offline, (\d+) failed with the model \(offline extraction kept\)`).FindStringSubmatch(out + errOut)
	if m == nil {
		t.Fatalf("index output lacks the extraction counts:\n%s\n%s", out, errOut)
	}
	byModel, _ := strconv.Atoi(m[1])
	offline, _ := strconv.Atoi(m[2])
	failed, _ := strconv.Atoi(m[3])
	_, docsOut, _ := run(t, "", "docs", "--json", "--project", proj)
	var doc struct{ Chunks int }
	if err := json.Unmarshal([]byte(strings.SplitN(docsOut, "\n", 2)[0]), &doc); err != nil || doc.Chunks == 0 {
		t.Fatalf("docs --json: %v\n%s", err, docsOut)
	}
	if byModel < 3 || failed < 1 || byModel+offline+failed != doc.Chunks {
		t.Fatalf("counts %s of %d chunks", m[0], doc.Chunks)
	}
	stopped := fmt.Sprintf("warning: Ollama stopped responding for chunks %d–%d of", byModel+1, byModel+failed)
	if failed == 1 {
		stopped = fmt.Sprintf("warning: Ollama stopped responding at chunk %d of", byModel+1)
	}
	for _, want := range []string{stopped, "chunks kept their offline extraction", "will be redone with qwen2.5:7b-instruct when it is back"} {
		if !strings.Contains(out, want) && !strings.Contains(errOut, want) {
			t.Errorf("index output lacks %q:\n%s\n%s", want, out, errOut)
		}
	}

	t.Logf("cairn index with Ollama going away:\n%s%s", errOut, out)
	code, out, _ = run(t, "", "docs", "--project", proj)
	t.Logf("cairn docs:\n%s", out)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("graph: %d by qwen2.5:7b-instruct", byModel)) || !strings.Contains(out, fmt.Sprintf("%d failed with the model (offline extraction kept)", failed)) ||
		!strings.Contains(out, "last failure: unreachable: ") {
		t.Fatalf("docs: %d\n%s", code, out)
	}
	code, out, _ = run(t, "", "docs", "--project", proj, "--json")
	lines := jsonLines(t, out)
	g, _ := lines[0]["graph"].(map[string]any)
	if code != 0 || g == nil || g["failed"].(float64) != float64(failed) {
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
