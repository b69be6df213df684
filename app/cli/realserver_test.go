package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/extract"
	"cairn/backend/kb"
	"cairn/backend/llm/fakeollama"
)

// Behaviours of a real Ollama server the CLI must show honestly (issue 19).

func TestGlobalFlagsBeforeTheCommand(t *testing.T) {
	t.Setenv("OLLAMA_HOST", "")
	code, out, errOut := run(t, "", "--offline", "models", "--json")
	if code != 0 || jsonLines(t, out)[0]["mode"] != "offline" {
		t.Fatalf("cairn --offline models: %d %s %s", code, out, errOut)
	}
	srv := fakeollama.Start(t)
	code, out, errOut = run(t, "", "--ollama", srv.URL(), "models", "--json")
	if code != 0 || jsonLines(t, out)[0]["mode"] != "ollama" {
		t.Fatalf("cairn --ollama URL models: %d %s %s", code, out, errOut)
	}
	if code, out, _ = run(t, "", "--ollama="+srv.URL(), "models"); code != 0 || !strings.Contains(out, "qwen2.5:7b-instruct") {
		t.Fatalf("--ollama=URL: %d %s", code, out)
	}
	if code, _, errOut = run(t, "", "--nonsense", "models"); code != 2 || !strings.Contains(errOut, "unknown global flag") {
		t.Fatalf("unknown global flag: %d %s", code, errOut)
	}
}

func TestModelsLabelsEmbeddingModelsWithoutCapabilities(t *testing.T) {
	t.Setenv("OLLAMA_HOST", "")
	srv := fakeollama.Start(t)
	srv.AddModel(fakeollama.Model{Name: "vectors:latest", Family: "newarch", Embedding: true, NoCapabilities: true})
	_, out, _ := run(t, "", "models", "--ollama", srv.URL())
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "vectors:latest") && !strings.Contains(line, " embed ") {
			t.Fatalf("an embedding model without capabilities is labelled: %q", line)
		}
	}
}

func TestPullServerNetworkFailureIsNotCut(t *testing.T) {
	t.Setenv("OLLAMA_HOST", "")
	srv := fakeollama.Start(t)
	srv.PullError(`pull model manifest: Get "https://registry.ollama.ai/v2/library/qwen3/manifests/8b": dial tcp: i/o timeout`)
	code, _, errOut := run(t, "", "pull", "--ollama", srv.URL(), "qwen3:8b")
	if code == 0 || strings.Contains(errOut, "(cut)") || !strings.Contains(errOut, "(server)") || !strings.Contains(errOut, "network problem on the server's side") {
		t.Fatalf("pull: %d %s", code, errOut)
	}
}

func TestSearchEmbedsWithTheProjectsModel(t *testing.T) {
	t.Setenv("OLLAMA_HOST", "")
	srv := fakeollama.Start(t)
	proj := filepath.Join(t.TempDir(), "p")
	sample, _ := filepath.Abs("../../assets/sample/en-report-dmca-summary.pdf")
	if code, _, e := run(t, "", "import", "--project", proj, "--offline", "--no-index", sample); code != 0 {
		t.Fatalf("import: %s", e)
	}
	if code, out, e := run(t, "", "embed-model", "--project", proj, "--ollama", srv.URL(), "bge-m3"); code != 0 {
		t.Fatalf("embed-model: %s %s", out, e)
	}
	srv.Reset()
	code, out, errOut := run(t, "", "search", "--project", proj, "--ollama", srv.URL(), "safe harbor")
	if code != 0 || out == "" || !strings.Contains(errOut, "query embedded with bge-m3") {
		t.Fatalf("search: %d %q %q", code, out, errOut)
	}
	embedded := false
	for _, r := range srv.RequestsTo("/api/embed") {
		if len(r.Input) == 1 && r.Input[0] == "safe harbor" && strings.HasPrefix(r.Model, "bge-m3") {
			embedded = true
		}
	}
	if !embedded {
		t.Fatalf("the query was not embedded by the project's model: %+v", srv.RequestsTo("/api/embed"))
	}
	// Without Ollama it still searches, and says it ranked by keywords only.
	code, out, errOut = run(t, "", "--offline", "search", "--project", proj, "safe harbor")
	if code != 0 || out == "" || !strings.Contains(errOut, "keywords only") {
		t.Fatalf("search offline: %d %q %q", code, out, errOut)
	}
}

// TestAskCutAnswer: an answer the model leaves at its length limit (after
// one continuation) is marked cut in `ask --json` and in the text output.
func TestAskCutAnswer(t *testing.T) {
	t.Setenv("OLLAMA_HOST", "")
	proj := filepath.Join(t.TempDir(), "p")
	if code, _, errOut := run(t, "", "import", "--offline", "--project", proj, filepath.Join(sampleDir(t), "en-report-dmca-summary.pdf")); code != 0 {
		t.Fatal(errOut)
	}
	srv := fakeollama.Start(t)
	no := false
	// longer than the answer budget (1,024 tokens), continuation included
	srv.On(fakeollama.Rule{JSON: &no, Reply: strings.Repeat("A service provider must designate an agent to receive notices [1]. ", 120)})
	q := "What must a service provider do to qualify for the DMCA safe harbor?"
	code, out, errOut := run(t, "", "ask", "--ollama", srv.URL(), "--json", "--project", proj, q)
	if code != 0 {
		t.Fatalf("ask: %d %s", code, errOut)
	}
	got := jsonLines(t, out)[0]
	if cut, _ := got["cut"].(string); !strings.Contains(cut, "length limit") {
		t.Fatalf("ask --json: no cut mark: %v", got["cut"])
	}
	if tr, _ := got["trace"].(map[string]any); tr["answer_cut"] == nil || tr["answer_continued"] != float64(1) {
		t.Fatalf("trace: %v %v", tr["answer_cut"], tr["answer_continued"])
	}
	_, out, _ = run(t, "", "ask", "--ollama", srv.URL(), "--project", proj, q)
	if !strings.Contains(out, "cut off at its length limit") || !strings.Contains(out, "CUT OFF") {
		t.Fatalf("ask text output does not say the answer is cut:\n%s", out[max(0, len(out)-400):])
	}
}

// TestIndexSummaryCountsThisRun: `index` reports what this run did and
// spent, apart from the project's stored totals.
func TestIndexSummaryCountsThisRun(t *testing.T) {
	t.Setenv("OLLAMA_HOST", "")
	srv := fakeollama.Start(t)
	// a model that names what the offline extractor finds in each passage
	srv.On(fakeollama.Rule{Schema: "extract", Func: func(r fakeollama.Request) string {
		ids, texts := extract.Passages(r.Messages[1].Content)
		reply := map[string]any{}
		for _, id := range ids {
			text := texts[id]
			off := extract.ExtractOffline(extract.Input{Chunk: kb.Chunk{ID: 1, DocID: 1, PageStart: 1, PageEnd: 1, CharEnd: len(text), Text: text}})
			ents := []map[string]string{}
			for _, e := range off.Entities {
				ents = append(ents, map[string]string{"name": e.Name, "type": e.Type, "description": e.Name + " as named here."})
			}
			reply[id] = map[string]any{"entities": ents, "relations": []any{}, "facts": []any{}}
		}
		b, _ := json.Marshal(reply)
		return string(b)
	}})
	proj := filepath.Join(t.TempDir(), "p")
	if code, _, errOut := run(t, "", "import", "--offline", "--no-index", "--project", proj, filepath.Join(sampleDir(t), "en-report-dmca-summary.pdf")); code != 0 {
		t.Fatal(errOut)
	}
	code, out, errOut := run(t, "", "index", "--ollama", srv.URL(), "--json", "--project", proj)
	lines := jsonLines(t, out)
	first := lines[len(lines)-1]
	calls := float64(len(srv.RequestsTo("/api/chat")))
	this := first["this_run"].(map[string]any)
	if code != 0 || this["calls"].(float64) == 0 || this["chunks"].(float64) == 0 || this["prompt_tokens"].(float64) == 0 || first["calls"].(float64) > calls {
		t.Fatalf("first run: %d %v %s", code, first, errOut)
	}
	// A second run redoes only the chunks that failed: it reports those,
	// while the stored totals also hold the first run's successes.
	failed := first["counts"].(map[string]any)["failed"].(float64)
	_, out, _ = run(t, "", "index", "--ollama", srv.URL(), "--json", "--project", proj)
	lines = jsonLines(t, out)
	second := lines[len(lines)-1]
	this = second["this_run"].(map[string]any)
	if this["chunks"].(float64) != failed || this["calls"].(float64) >= second["calls"].(float64) {
		t.Fatalf("second run (%v failed before): %v", failed, second)
	}
	_, out, _ = run(t, "", "index", "--ollama", srv.URL(), "--project", proj)
	if !strings.Contains(out, "this run: ") || !strings.Contains(out, "stored model usage (all runs)") {
		t.Fatalf("text summary:\n%s", out)
	}
}
