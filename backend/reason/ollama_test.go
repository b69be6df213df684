package reason_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"cairn/backend/evalset"
	"cairn/backend/ingest"
	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/llm/fakeollama"
	"cairn/backend/project"
	"cairn/backend/reason"
	"cairn/backend/store"
	"cairn/backend/testshared"
)

// The tests below run the real Ollama client (llm.Ollama) against the fake
// Ollama HTTP server over an indexed project (knowledge graph and mind maps
// built offline) from a slice of the HotpotQA DEV corpus.

var (
	graphOnce sync.Once
	graphDir  string
	graphErr  error
)

// indexed opens (building once per test binary) an indexed project of the
// first hotpot questions' gold passages plus 300 others.
func indexed(t *testing.T) (*project.Project, []evalset.Question) {
	t.Helper()
	root, _ := filepath.Abs("../../../shared/eval/hotpotqa")
	if _, err := os.Stat(root); err != nil {
		testshared.Missing(t, "../shared/eval not present")
	}
	qs, err := evalset.LoadQuestions(filepath.Join(root, "questions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	qs = qs[:5]
	graphOnce.Do(func() {
		corpus, err := evalset.LoadCorpus(filepath.Join(root, "corpus.jsonl"))
		if err != nil {
			graphErr = err
			return
		}
		sub := evalset.Subset(corpus, qs, 300)
		graphDir, graphErr = os.MkdirTemp("", "cairn-reason-")
		if graphErr != nil {
			return
		}
		p, err := evalset.BuildProject(context.Background(), graphDir, sub, nil)
		if err != nil {
			graphErr = err
			return
		}
		graphErr = p.Close()
	})
	if graphErr != nil {
		t.Fatal(graphErr)
	}
	p, err := project.Open(graphDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p, qs
}

func TestMain(m *testing.M) {
	ingest.MaybeRunWorker() // the document reader's worker process (TestQuickChineseDocuments imports)
	code := m.Run()
	if graphDir != "" {
		os.RemoveAll(graphDir)
	}
	os.Exit(code)
}

// ollama is the real client for srv with short timeouts and backoff.
func ollama(t *testing.T, srv *fakeollama.Server, mod func(*llm.OllamaConfig)) *llm.Ollama {
	t.Helper()
	cfg := llm.OllamaConfig{Host: srv.URL(), CallTimeout: 5 * time.Second, Backoff: 5 * time.Millisecond, Retries: 1}
	if mod != nil {
		mod(&cfg)
	}
	o, err := llm.NewOllama(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

var relLine = regexp.MustCompile(`(?m)^\[(\d+)\] `)

// pickRelations is a rerank model: the first two relation ids it was shown,
// and one chain.
func pickRelations(r fakeollama.Request) string {
	var ids []string
	for _, m := range r.Messages {
		for _, g := range relLine.FindAllStringSubmatch(m.Content, 2) {
			ids = append(ids, g[1])
		}
	}
	return `{"thought":"the first facts name the question's subject","relations":[` + strings.Join(ids, ",") + `],"chains":[["born in"]]}`
}

func trace(t *testing.T, a kb.Answer) reason.Trace {
	t.Helper()
	var tr reason.Trace
	if err := json.Unmarshal(a.Trace, &tr); err != nil {
		t.Fatal(err)
	}
	return tr
}

// supported returns a question of qs the retrieval supports and whose
// subgraph has relations (so the rerank call is made).
func supported(t *testing.T, p *project.Project, qs []evalset.Question) evalset.Question {
	t.Helper()
	for _, q := range qs {
		a, err := reason.New(p.Retriever(), llm.Offline{}).Quick(context.Background(), q.Question, nil)
		if err != nil {
			t.Fatal(err)
		}
		if tr := trace(t, a); !a.Declined && len(tr.Subgraph.Relations) > 0 {
			return q
		}
	}
	t.Fatal("no supported question with a subgraph")
	return evalset.Question{}
}

func TestQuickOllama(t *testing.T) {
	p, qs := indexed(t)
	q := supported(t, p, qs)
	srv := fakeollama.Start(t)
	srv.On(fakeollama.Rule{Schema: "rerank", Func: pickRelations})
	no := false
	answer := "The answer is " + q.Answers[0] + " [1], as the second passage confirms [2]."
	srv.On(fakeollama.Rule{JSON: &no, Reply: answer})
	r := reason.New(p.Retriever(), ollama(t, srv, nil))
	var streamed strings.Builder
	pieces := 0
	a, err := r.Quick(context.Background(), q.Question, func(s string) { streamed.WriteString(s); pieces++ })
	if err != nil {
		t.Fatal(err)
	}
	tr := trace(t, a)
	chats := srv.RequestsTo("/api/chat")
	if len(chats) != 2 || chats[0].SchemaTitle != "rerank" || chats[1].HasFormat || !chats[1].Stream {
		t.Fatalf("want a rerank call and a streamed answer, got %d calls", len(chats))
	}
	if a.Answer != answer || streamed.String() != answer || pieces < 2 || tr.AnswerBy != "model" {
		t.Fatalf("answer %q streamed %q in %d pieces (by %s)", a.Answer, streamed.String(), pieces, tr.AnswerBy)
	}
	if len(a.Citations) != 2 || a.Citations[0].N != 1 || a.Citations[1].N != 2 {
		t.Fatalf("citations %+v", a.Citations)
	}
	// [n] is the n-th evidence passage: chunk, pages and span of that chunk.
	for _, c := range a.Citations {
		if c.ChunkID != tr.Retrieval.Evidence[c.N-1] {
			t.Fatalf("citation [%d] is chunk %d, evidence %v", c.N, c.ChunkID, tr.Retrieval.Evidence)
		}
		if !strings.Contains(chats[1].Messages[1].Content, fmt.Sprintf("[%d] %s\n<<<\n", c.N, reason.Fence(c.DocTitle))) {
			t.Fatalf("passage [%d] (%s) is not numbered so in the answer prompt", c.N, c.DocTitle)
		}
	}
	checkProvenance(t, p.Store(), a)
	if tr.Rerank == nil || len(tr.Rerank.Relations) == 0 || tr.Rerank.Error != "" {
		t.Fatalf("rerank trace %+v", tr.Rerank)
	}
	// The budget as the server counted it.
	prompt := 0
	for _, c := range chats {
		prompt += c.PromptTokens
	}
	if tr.Usage.Calls != 2 || tr.Usage.PromptTokens != prompt || tr.Usage.PromptTokens == 0 {
		t.Fatalf("usage %+v, server counted %d prompt tokens", tr.Usage, prompt)
	}
	t.Logf("quick: %d calls, %d prompt + %d completion tokens (rerank %+v, answer %+v)", tr.Usage.Calls, tr.Usage.PromptTokens, tr.Usage.CompletionTokens, tr.ByTask["rerank"], tr.ByTask["answer"])
}

func TestDeepOllamaTwoSteps(t *testing.T) {
	p, qs := indexed(t)
	q := supported(t, p, qs)
	srv := fakeollama.Start(t)
	clean := strings.ReplaceAll(q.Question, `"`, ``)
	srv.On(fakeollama.Rule{Schema: "plan", Reply: `{"steps":[
		{"id":1,"op":"retrieval","subject":"?x","predicate":"answers","object":"the question","question":"` + clean + `"},
		{"id":2,"op":"retrieval","subject":"#1","predicate":"known for","object":"?y","question":"What is #1 known for?"},
		{"id":3,"op":"output","inputs":[1,2]}]}`})
	srv.On(fakeollama.Rule{Schema: "step", Contains: "What is " + q.Answers[0], Reply: `{"answer":"something notable","evidence":[2]}`})
	srv.On(fakeollama.Rule{Schema: "step", Reply: `{"answer":"` + q.Answers[0] + `","evidence":[1]}`})
	no := false
	srv.On(fakeollama.Rule{JSON: &no, Reply: "It is " + q.Answers[0] + " [1]."})
	r := reason.New(p.Retriever(), ollama(t, srv, nil))
	a, err := r.Deep(context.Background(), q.Question, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := trace(t, a)
	if tr.Fallback != "" || tr.Plan == nil || len(tr.Plan.Steps) != 3 || len(tr.Rounds) != 1 || !tr.Rounds[0].Answered {
		t.Fatalf("trace %s", a.Trace)
	}
	steps := tr.Rounds[0].Steps
	if len(steps[0].Values) == 0 || !strings.Contains(steps[1].Query, steps[0].Values[0]) {
		t.Fatalf("step 2 did not use step 1's value: %+v", steps)
	}
	var titles []string
	for _, c := range srv.RequestsTo("/api/chat") {
		titles = append(titles, c.SchemaTitle)
	}
	// plan, a sub-question per passage step (a step answered from the graph
	// makes no call), the answer.
	calls := strings.Join(titles, ",")
	if len(titles) < 2 || len(titles) > 4 || titles[0] != "plan" || titles[len(titles)-1] != "" {
		t.Fatalf("calls %q", calls)
	}
	if a.Answer != "It is "+q.Answers[0]+" [1]." || tr.AnswerBy != "model" {
		t.Fatalf("answer %q by %s", a.Answer, tr.AnswerBy)
	}
	if tr.Usage.Calls != len(titles) {
		t.Fatalf("usage %d calls, server saw %d", tr.Usage.Calls, len(titles))
	}
	checkProvenance(t, p.Store(), a)
	t.Logf("deep: calls %s; %d prompt + %d completion tokens", calls, tr.Usage.PromptTokens, tr.Usage.CompletionTokens)
}

func TestDeepOllamaMalformedPlan(t *testing.T) {
	p, qs := indexed(t)
	q := supported(t, p, qs)
	srv := fakeollama.Start(t)
	srv.On(fakeollama.Rule{Schema: "plan", Fault: fakeollama.FaultMalformed})
	srv.On(fakeollama.Rule{Schema: "rerank", Func: pickRelations})
	no := false
	srv.On(fakeollama.Rule{JSON: &no, Reply: "Quick answer [1]."})
	a, err := reason.New(p.Retriever(), ollama(t, srv, nil)).Deep(context.Background(), q.Question, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := trace(t, a)
	if a.Mode != "deep" || !strings.HasPrefix(tr.Fallback, "planner output unusable") || !strings.Contains(tr.Fallback, string(llm.FailMalformed)) {
		t.Fatalf("fallback %q", tr.Fallback)
	}
	if a.Answer != "Quick answer [1]." || tr.Rerank == nil || tr.ByTask["plan"].Calls == 0 {
		t.Fatalf("answer %q, rerank %+v, usage %+v", a.Answer, tr.Rerank, tr.ByTask)
	}
}

// TestAskModelFaults: whatever goes wrong with the model during a quick
// answer, the result is either a clear error or the extractive answer from
// the passages with the reason in the trace; never a partial model answer
// presented as complete.
func TestAskModelFaults(t *testing.T) {
	p, qs := indexed(t)
	q := supported(t, p, qs)
	offline, err := reason.New(p.Retriever(), llm.Offline{}).Quick(context.Background(), q.Question, nil)
	if err != nil {
		t.Fatal(err)
	}
	long := "This answer is long enough to be streamed in several pieces before the connection drops " + strings.Repeat("and it goes on ", 20) + "[1]."
	no := false
	cases := []struct {
		name  string
		setup func(srv *fakeollama.Server, cfg *llm.OllamaConfig)
		kind  llm.FailureKind
	}{
		{"down", func(srv *fakeollama.Server, cfg *llm.OllamaConfig) { cfg.Host = fakeollama.ClosedURL() }, llm.FailUnreachable},
		{"http 500", func(srv *fakeollama.Server, cfg *llm.OllamaConfig) {
			f := fakeollama.FaultHTTP500 // every call and its retry: plan (deep), rerank, answer
			srv.Fail("/api/chat", f, f, f, f, f, f)
		}, llm.FailHTTP},
		{"stream cut midway", func(srv *fakeollama.Server, cfg *llm.OllamaConfig) {
			srv.On(fakeollama.Rule{JSON: &no, Reply: long, Fault: fakeollama.FaultCut})
		}, llm.FailCut},
		{"slow beyond the timeout", func(srv *fakeollama.Server, cfg *llm.OllamaConfig) {
			srv.Delay(2 * time.Second)
			cfg.CallTimeout = 300 * time.Millisecond
		}, llm.FailTimeout},
		{"unknown model", func(srv *fakeollama.Server, cfg *llm.OllamaConfig) { cfg.ChatModel = "no-such-model:1b" }, llm.FailUnknownModel},
		{"context too small", func(srv *fakeollama.Server, cfg *llm.OllamaConfig) {
			srv.AddModel(fakeollama.Model{Name: "tiny:1b", Family: "llama", ContextLength: 512})
			cfg.ChatModel = "tiny:1b"
		}, llm.FailContext},
		{"empty answer", func(srv *fakeollama.Server, cfg *llm.OllamaConfig) {
			srv.On(fakeollama.Rule{JSON: &no, Fault: fakeollama.FaultEmpty})
		}, llm.FailEmpty},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := fakeollama.Start(t)
			srv.On(fakeollama.Rule{Schema: "rerank", Func: pickRelations})
			cfg := llm.OllamaConfig{Host: srv.URL(), CallTimeout: 5 * time.Second, Backoff: 5 * time.Millisecond, Retries: 1}
			c.setup(srv, &cfg)
			o, err := llm.NewOllama(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, mode := range []string{"quick", "deep"} {
				srv.Reset()
				c.setup(srv, &cfg)
				srv.On(fakeollama.Rule{Schema: "rerank", Func: pickRelations})
				faultCase(t, p.Store(), reason.New(p.Retriever(), o), q.Question, mode, c.name, c.kind, offline.Answer, long)
			}
		})
	}
}

func faultCase(t *testing.T, st *store.Store, r *reason.Reasoner, question, mode, name string, kind llm.FailureKind, offline, long string) {
	t.Helper()
	t.Run(mode, func(t *testing.T) {
		{
			var streamed strings.Builder
			start := time.Now()
			ask := r.Quick
			if mode == "deep" {
				ask = r.Deep
			}
			a, err := ask(context.Background(), question, func(s string) { streamed.WriteString(s) })
			if err != nil {
				// A clear failure is acceptable; a silent one is not.
				if err.Error() == "" {
					t.Fatal("empty error")
				}
				t.Logf("failed clearly: %v", err)
				return
			}
			tr := trace(t, a)
			// Quick mode's extractive answer is the offline one; deep mode's may
			// lead with a plan's evidence when the plan call itself worked.
			// When the rerank call worked (the fault hit the answer call
			// only), the relations it picked may bring another supporting
			// sentence: the short answer that leads is the offline one.
			want := a.Answer == offline
			if tr.Rerank != nil && tr.Rerank.Error == "" && len(tr.Rerank.Relations) > 0 {
				want = strings.SplitN(a.Answer, "\n", 2)[0] == strings.SplitN(offline, "\n", 2)[0]
			}
			if tr.AnswerBy != "extractive" || (mode == "quick" && !want) {
				t.Fatalf("answer by %q: %q, want the extractive %q", tr.AnswerBy, a.Answer, offline)
			}
			if !strings.Contains(tr.AnswerFallback, string(kind)) {
				t.Fatalf("fallback reason %q does not name %s (errors %v)", tr.AnswerFallback, kind, tr.Errors)
			}
			if mode == "deep" && name != "stream cut midway" && name != "empty answer" && !strings.HasPrefix(tr.Fallback, "planner call failed") {
				t.Fatalf("deep fallback %q", tr.Fallback)
			}
			if strings.Contains(a.Answer, "connection drops") {
				t.Fatalf("partial model text in the stored answer: %q", a.Answer)
			}
			s := streamed.String()
			if i := strings.Index(s, reason.StreamBroken); i >= 0 {
				// The partial model text was streamed; the notice voids it and
				// the extractive answer follows.
				if i == 0 || !strings.HasSuffix(s, a.Answer) || !strings.HasPrefix(long, s[:i]) {
					t.Fatalf("stream %q", s)
				}
			} else if s != a.Answer {
				t.Fatalf("streamed %q, answer %q", s, a.Answer)
			}
			if name == "stream cut midway" && !strings.Contains(s, reason.StreamBroken) {
				t.Fatalf("cut stream without the notice: %q", s)
			}
			checkProvenance(t, st, a)
			t.Logf("%s, %s: extractive after %s (%s; %s)", name, mode, time.Since(start).Round(time.Millisecond), tr.AnswerFallback, tr.Fallback)
		}
	})
}
