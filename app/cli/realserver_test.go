package cli

import (
	"path/filepath"
	"strings"
	"testing"

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
