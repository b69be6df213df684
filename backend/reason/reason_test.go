package reason_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"cairn/backend/embed"
	"cairn/backend/evalset"
	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/reason"
	"cairn/backend/retrieve"
	"cairn/backend/store"
	"cairn/backend/testshared"
)

// fakeProvider scripts model replies per task (an in-package stand-in until
// the fake Ollama server is wired in); it records the calls.
type fakeProvider struct {
	mu     sync.Mutex
	json   map[string][]string // task → replies, consumed in order (last repeats)
	fail   map[string]error
	stream string
	calls  []string
	seen   []llm.JSONRequest
}

func (f *fakeProvider) Mode() llm.Mode { return llm.ModeOllama }

func (f *fakeProvider) ChatJSON(ctx context.Context, req llm.JSONRequest) (llm.JSONReply, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, req.Task)
	f.seen = append(f.seen, req)
	if err := f.fail[req.Task]; err != nil {
		return llm.JSONReply{}, err
	}
	rs := f.json[req.Task]
	if len(rs) == 0 {
		return llm.JSONReply{}, &llm.CallError{Kind: llm.FailEmpty, Task: req.Task}
	}
	raw := rs[0]
	if len(rs) > 1 {
		f.json[req.Task] = rs[1:]
	}
	if req.Validate != nil {
		if err := req.Validate(json.RawMessage(raw)); err != nil {
			return llm.JSONReply{}, &llm.CallError{Kind: llm.FailSchema, Task: req.Task, Err: err, Usage: llm.Usage{Calls: 2}}
		}
	}
	return llm.JSONReply{Raw: json.RawMessage(raw), Usage: llm.Usage{Calls: 1, PromptTokens: 100, CompletionTokens: 20}}, nil
}

func (f *fakeProvider) ChatStream(ctx context.Context, req llm.ChatRequest, onToken func(string)) (llm.ChatReply, error) {
	f.mu.Lock()
	f.calls = append(f.calls, req.Task)
	f.mu.Unlock()
	for _, w := range strings.SplitAfter(f.stream, " ") {
		if onToken != nil {
			onToken(w)
		}
	}
	return llm.ChatReply{Text: f.stream, Usage: llm.Usage{Calls: 1, PromptTokens: 300, CompletionTokens: 30}}, nil
}

func (f *fakeProvider) Embed(ctx context.Context, texts []string) ([][]float32, llm.Usage, error) {
	return nil, llm.Usage{}, llm.ErrOffline
}

// hotpot builds a store from a slice of the HotpotQA DEV corpus: the gold
// passages of the first questions plus 300 others (real Wikipedia text).
func hotpot(t *testing.T) (*store.Store, []evalset.Question) {
	t.Helper()
	root, _ := filepath.Abs("../../../shared/eval/hotpotqa")
	if _, err := os.Stat(root); err != nil {
		testshared.Missing(t, "../shared/eval not present")
	}
	corpus, qs, err := evalset.LoadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	qs = qs[:5]
	return corpusStore(t, evalset.Subset(corpus, qs, 300)), qs
}

// corpusStore is a store built from passages as the eval corpora are
// (titled documents, built-in embedding), closed when the test ends.
func corpusStore(t *testing.T, corpus []evalset.Passage) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := evalset.Build(context.Background(), st, embed.NewHashed(embed.DefaultDim), corpus); err != nil {
		t.Fatal(err)
	}
	return st
}

func newReasoner(st *store.Store, p llm.Provider) *reason.Reasoner {
	return reason.New(retrieve.New(st, embed.NewHashed(embed.DefaultDim)), p)
}

// checkProvenance: every citation and path edge points at a stored chunk,
// inside its page and char span, and citation text is the text of its span.
func checkProvenance(t *testing.T, st *store.Store, a kb.Answer) {
	t.Helper()
	check := func(what string, s kb.Source, text string) {
		hits, err := st.ChunkHits(context.Background(), []int64{s.ChunkID})
		if err != nil || len(hits) != 1 {
			t.Fatalf("%s: chunk %d not found (%v)", what, s.ChunkID, err)
		}
		c := hits[0]
		if s.DocID != c.DocID || s.PageStart < c.PageStart || s.PageEnd > c.PageEnd || s.PageStart < 1 ||
			s.CharStart < c.CharStart || s.CharEnd > c.CharEnd || s.CharEnd <= s.CharStart {
			t.Fatalf("%s: source %+v outside chunk %d (doc %d, pages %d-%d, chars %d-%d)", what, s, c.ID, c.DocID, c.PageStart, c.PageEnd, c.CharStart, c.CharEnd)
		}
		if text != "" && c.Text[s.CharStart-c.CharStart:s.CharEnd-c.CharStart] != text {
			t.Fatalf("%s: text %q is not the chunk's span", what, text)
		}
	}
	for _, c := range a.Citations {
		check("citation", c.Source, c.Text)
	}
	for _, p := range a.Paths {
		for _, e := range p.Edges {
			check("path edge", e.Source, "")
		}
	}
}

func TestQuickOffline(t *testing.T) {
	st, qs := hotpot(t)
	r := newReasoner(st, llm.Offline{})
	var streamed strings.Builder
	a, err := r.Quick(context.Background(), qs[0].Question, func(s string) { streamed.WriteString(s) })
	if err != nil {
		t.Fatal(err)
	}
	if a.Declined || a.Answer == "" || len(a.Citations) == 0 || streamed.String() != a.Answer {
		t.Fatalf("answer %+v (streamed %q)", a, streamed.String())
	}
	if !strings.Contains(a.Answer, "[1]") {
		t.Fatalf("no citation marker: %q", a.Answer)
	}
	checkProvenance(t, st, a)
	var tr reason.Trace
	if err := json.Unmarshal(a.Trace, &tr); err != nil {
		t.Fatal(err)
	}
	if !tr.Offline || tr.Usage.Calls != 0 || len(tr.Retrieval.Evidence) == 0 || tr.Support.Coverage < tr.Support.Threshold {
		t.Fatalf("trace %+v", tr)
	}
}

func TestAbstains(t *testing.T) {
	st, _ := hotpot(t)
	r := newReasoner(st, llm.Offline{})
	a, err := r.Quick(context.Background(), "What is the thermal conductivity of zirconium diboride ceramics at 900 kelvin?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !a.Declined || !strings.HasPrefix(a.Answer, reason.DeclineText) || !strings.Contains(a.Answer, "Searched: the whole project.") || len(a.Paths) != 0 {
		t.Fatalf("want a decline, got %+v", a)
	}
	checkProvenance(t, st, a)
}

func TestQuickWithModel(t *testing.T) {
	st, qs := hotpot(t)
	f := &fakeProvider{stream: "The answer is in the first passage [1]."}
	r := newReasoner(st, f)
	var tokens int
	a, err := r.Quick(context.Background(), qs[0].Question, func(string) { tokens++ })
	if err != nil {
		t.Fatal(err)
	}
	if a.Answer != f.stream || tokens < 2 || len(a.Citations) != 1 || a.Citations[0].N != 1 {
		t.Fatalf("answer %+v", a)
	}
	if len(f.calls) > 2 {
		t.Fatalf("quick mode made %d calls: %v", len(f.calls), f.calls)
	}
	checkProvenance(t, st, a)
}

func TestDeepTwoStepPlan(t *testing.T) {
	st, qs := hotpot(t)
	q := qs[0]
	plan := `{"steps":[
		{"id":1,"op":"retrieval","subject":"?x","predicate":"is","object":"` + strings.ReplaceAll(q.Question, `"`, ``) + `","question":"` + strings.ReplaceAll(q.Question, `"`, ``) + `"},
		{"id":2,"op":"retrieval","subject":"#1","predicate":"known for","object":"?y","question":"What is #1 known for?"},
		{"id":3,"op":"output","inputs":[1,2]}]}`
	f := &fakeProvider{
		json: map[string][]string{
			"plan": {plan},
			"step": {`{"answer":"` + q.Answers[0] + `","evidence":[1]}`, `{"answer":"something notable","evidence":[2]}`},
		},
		stream: "It is " + q.Answers[0] + " [1].",
	}
	r := newReasoner(st, f)
	a, err := r.Deep(context.Background(), q.Question, nil)
	if err != nil {
		t.Fatal(err)
	}
	var tr reason.Trace
	if err := json.Unmarshal(a.Trace, &tr); err != nil {
		t.Fatal(err)
	}
	if a.Mode != "deep" || tr.Fallback != "" || tr.Plan == nil || len(tr.Plan.Steps) != 3 || len(tr.Rounds) != 1 {
		t.Fatalf("trace %s", a.Trace)
	}
	steps := tr.Rounds[0].Steps
	if steps[0].Values[0] != q.Answers[0] || steps[0].By != "passages" || len(steps[0].Evidence) == 0 {
		t.Fatalf("step 1 %+v", steps[0])
	}
	if !strings.Contains(steps[1].Query, q.Answers[0]) {
		t.Fatalf("step 2 did not use step 1's answer: %+v", steps[1])
	}
	if got := strings.Join(steps[2].Values, "|"); got != q.Answers[0]+"|something notable" {
		t.Fatalf("output %q", got)
	}
	want := []string{"plan", "step", "step", "answer"}
	if strings.Join(f.calls, ",") != strings.Join(want, ",") {
		t.Fatalf("calls %v, want %v", f.calls, want)
	}
	if tr.Usage.Calls != 4 || tr.ByTask["step"].Calls != 2 {
		t.Fatalf("usage %+v", tr.ByTask)
	}
	// The step evidence leads the answer's evidence.
	if tr.Retrieval.Evidence[0] != steps[0].Evidence[0] {
		t.Fatalf("evidence %v, steps %+v", tr.Retrieval.Evidence, steps)
	}
	if a.Answer != f.stream {
		t.Fatalf("answer %q", a.Answer)
	}
	checkProvenance(t, st, a)
}

func TestDeepMalformedPlanFallsBack(t *testing.T) {
	st, qs := hotpot(t)
	for name, reply := range map[string]string{
		"forward reference": `{"steps":[{"id":1,"op":"retrieval","subject":"#3","predicate":"p","object":"?x"},{"id":2,"op":"output"}]}`,
		"not a plan":        `{"thoughts":"I think"}`,
	} {
		t.Run(name, func(t *testing.T) {
			f := &fakeProvider{json: map[string][]string{"plan": {reply}}, stream: "Quick answer [1]."}
			a, err := newReasoner(st, f).Deep(context.Background(), qs[1].Question, nil)
			if err != nil {
				t.Fatal(err)
			}
			var tr reason.Trace
			if err := json.Unmarshal(a.Trace, &tr); err != nil {
				t.Fatal(err)
			}
			if a.Mode != "deep" || !strings.HasPrefix(tr.Fallback, "planner output unusable") || a.Answer != f.stream {
				t.Fatalf("answer %+v fallback %q", a, tr.Fallback)
			}
			if tr.ByTask["plan"].Calls == 0 {
				t.Fatalf("failed plan call not metered: %+v", tr.ByTask)
			}
		})
	}
}

func TestDeepOfflineFallsBack(t *testing.T) {
	st, qs := hotpot(t)
	a, err := newReasoner(st, llm.Offline{}).Deep(context.Background(), qs[2].Question, nil)
	if err != nil {
		t.Fatal(err)
	}
	var tr reason.Trace
	json.Unmarshal(a.Trace, &tr)
	if !strings.HasPrefix(tr.Fallback, "offline") || a.Answer == "" {
		t.Fatalf("%+v %q", a, tr.Fallback)
	}
	checkProvenance(t, st, a)
}
