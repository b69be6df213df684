package llm_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/llm"
	"cairn/backend/llm/fakeollama"
)

// What a real Ollama server does that the fake once did not (issue 19):
// each behaviour is now in the fake, and each has a test here.

const longAnswer = "Form 1040-NR is filed by nonresident aliens who had income from sources in the country [1]. " +
	"It is due on the fifteenth day of the sixth month after the end of the tax year for those without wages subject to withholding [2]. " +
	"Those with wages file by the fifteenth day of the fourth month [2]."

func TestStreamCutAtLengthIsMarkedCut(t *testing.T) {
	srv := fakeollama.Start(t)
	srv.On(fakeollama.Rule{JSON: new(bool), Reply: longAnswer})
	o := newOllama(t, srv.URL(), nil)
	var streamed strings.Builder
	rep, err := o.ChatStream(context.Background(), llm.ChatRequest{Task: "answer", Messages: msgs("Who files 1040-NR?"), MaxTokens: 16},
		func(s string) { streamed.WriteString(s) })
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Cut || rep.DoneReason != "length" || rep.MaxTokens != 16 {
		t.Fatalf("a reply stopped at num_predict must be cut: cut=%v reason=%q max=%d", rep.Cut, rep.DoneReason, rep.MaxTokens)
	}
	if fakeollama.CountTokens(rep.Text) > 16 || rep.Text != streamed.String() || len(rep.Text) >= len(longAnswer) {
		t.Fatalf("text %q (streamed %q)", rep.Text, streamed.String())
	}
	// The same answer with room is not cut.
	rep, err = o.ChatStream(context.Background(), llm.ChatRequest{Task: "answer", Messages: msgs("Who files 1040-NR?")}, nil)
	if err != nil || rep.Cut || rep.DoneReason != "stop" || rep.Text != longAnswer {
		t.Fatalf("full answer: cut=%v reason=%q err=%v", rep.Cut, rep.DoneReason, err)
	}
}

func TestStreamCutWhenWindowFills(t *testing.T) {
	// With shift off a server stops when prompt + reply fill num_ctx; the
	// fake does too, and the client says so.
	srv := fakeollama.Start(t)
	srv.AddModel(fakeollama.Model{Name: "small:ctx", Family: "qwen2", ContextLength: 4096})
	srv.On(fakeollama.Rule{JSON: new(bool), Reply: strings.Repeat("word ", 5000)})
	o := newOllama(t, srv.URL(), func(c *llm.OllamaConfig) { c.ChatModel = "small:ctx" })
	rep, err := o.ChatStream(context.Background(), llm.ChatRequest{Messages: msgs("hello"), MaxTokens: 6000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	req := chats(srv)[0]
	if !rep.Cut || req.NumCtx != 4096 || req.NumPredict+req.PromptTokens > req.NumCtx {
		t.Fatalf("cut=%v num_ctx=%d num_predict=%d prompt=%d", rep.Cut, req.NumCtx, req.NumPredict, req.PromptTokens)
	}
}

func TestJSONCutAtLengthRepairsWithMoreRoom(t *testing.T) {
	srv := fakeollama.Start(t)
	long := `{"entities":[{"name":"Internal Revenue Service","type":"org"}],"facts":["` + strings.Repeat("a long fact ", 60) + `"]}`
	srv.On(fakeollama.Rule{Schema: "extract", Reply: long, Times: 1})
	srv.On(fakeollama.Rule{Schema: "extract", Reply: goodReply})
	o := newOllama(t, srv.URL(), nil)
	rep, err := o.ChatJSON(context.Background(), llm.JSONRequest{Task: "extract", Schema: extractSchema, Messages: msgs("x"), MaxTokens: 64})
	if err != nil {
		t.Fatal(err)
	}
	cs := chats(srv)
	if len(cs) != 2 || rep.Usage.Repairs != 1 || cs[1].NumPredict != 128 {
		t.Fatalf("calls %d repairs %d second num_predict %d", len(cs), rep.Usage.Repairs, cs[len(cs)-1].NumPredict)
	}
	if last := cs[1].Messages[len(cs[1].Messages)-1].Content; !strings.Contains(last, "cut off at the length limit") {
		t.Fatalf("repair prompt does not say the reply was cut: %q", last)
	}
	// Cut twice: a typed "cut" failure, never a success.
	srv.Reset()
	srv.On(fakeollama.Rule{Schema: "extract", Reply: long})
	_, err = o.ChatJSON(context.Background(), llm.JSONRequest{Task: "extract", Schema: extractSchema, Messages: msgs("x"), MaxTokens: 64})
	wantKind(t, err, llm.FailCut)
}

func TestStopInsideJSONStringIsRepaired(t *testing.T) {
	srv := fakeollama.Start(t)
	srv.On(fakeollama.Rule{Schema: "extract", Reply: goodReply, Fault: fakeollama.FaultStopInString, Times: 1})
	srv.On(fakeollama.Rule{Schema: "extract", Reply: goodReply})
	o := newOllama(t, srv.URL(), nil)
	rep, err := o.ChatJSON(context.Background(), llm.JSONRequest{Task: "extract", Schema: extractSchema, Messages: msgs("x")})
	if err != nil || string(rep.Raw) != goodReply || rep.Usage.Repairs != 1 {
		t.Fatalf("raw %s repairs %d err %v", rep.Raw, rep.Usage.Repairs, err)
	}
	if first := chats(srv)[0]; first.Status != 200 {
		t.Fatalf("status %d", first.Status)
	}
	// Twice: a typed failure naming the problem, never a success.
	srv.Reset()
	srv.On(fakeollama.Rule{Schema: "extract", Reply: goodReply, Fault: fakeollama.FaultStopInString})
	_, err = o.ChatJSON(context.Background(), llm.JSONRequest{Task: "extract", Schema: extractSchema, Messages: msgs("x")})
	if ce := wantKind(t, err, llm.FailMalformed); !strings.Contains(ce.Detail, "stopped before its JSON was complete") {
		t.Fatalf("detail %q", ce.Detail)
	}
}

func TestNumberOverMaximumIsRejected(t *testing.T) {
	// A grammar is not a validator: a server's constrained reply can
	// still break "maximum". Cairn's own validation catches it.
	sc := llm.Schema{Name: "conf", Schema: json.RawMessage(`{"type":"object","properties":{"confidence":{"type":"number","minimum":0,"maximum":1}},"required":["confidence"],"additionalProperties":false}`)}
	srv := fakeollama.Start(t)
	srv.On(fakeollama.Rule{Schema: "conf", Reply: `{"confidence": 7}`})
	o := newOllama(t, srv.URL(), nil)
	_, err := o.ChatJSON(context.Background(), llm.JSONRequest{Schema: sc, Messages: msgs("x")})
	wantKind(t, err, llm.FailSchema)
	srv.Reset()
	srv.On(fakeollama.Rule{Schema: "conf", Reply: `{"confidence": 7}`, Times: 1})
	srv.On(fakeollama.Rule{Schema: "conf", Reply: `{"confidence": 0.7}`})
	if rep, err := o.ChatJSON(context.Background(), llm.JSONRequest{Schema: sc, Messages: msgs("x")}); err != nil || rep.Usage.Repairs != 1 {
		t.Fatalf("repair: %v %+v", err, rep.Usage)
	}
}

func TestControlTokenTextIsRemoved(t *testing.T) {
	srv := fakeollama.Start(t)
	srv.On(fakeollama.Rule{JSON: new(bool), Reply: longAnswer, Fault: fakeollama.FaultSpecialTokens})
	srv.On(fakeollama.Rule{Schema: "extract", Reply: goodReply, Fault: fakeollama.FaultSpecialTokens})
	o := newOllama(t, srv.URL(), nil)
	var streamed strings.Builder
	rep, err := o.ChatStream(context.Background(), llm.ChatRequest{Messages: msgs("q")}, func(s string) { streamed.WriteString(s) })
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(rep.Text, "<|") || strings.Contains(streamed.String(), "<|") || rep.Text != longAnswer {
		t.Fatalf("control tokens leaked: %q / %q", rep.Text, streamed.String())
	}
	if _, err := o.ChatJSON(context.Background(), llm.JSONRequest{Schema: extractSchema, Messages: msgs("x")}); err != nil {
		t.Fatalf("JSON with control-token text: %v", err)
	}
	// Text that only looks like the start of one is kept.
	for _, in := range []string{"a <| b", "x <|not a token because of spaces|> y", "1 < 2 and 3 > 2", "<|"} {
		if got := llm.StripSpecialTokens(in); got != in {
			t.Errorf("%q became %q", in, got)
		}
	}
}

func TestDigitHeavyPromptFitsAndRatioIsLearnt(t *testing.T) {
	srv := fakeollama.Start(t)
	// A table: the fake, like Qwen, spends a token per digit.
	table := strings.Repeat("2023 1,234,567.89 98.6% 0.0042 | ", 300)
	o := newOllama(t, srv.URL(), nil)
	if _, err := o.ChatStream(context.Background(), llm.ChatRequest{Messages: msgs(table)}, nil); err != nil {
		t.Fatal(err)
	}
	req := chats(srv)[0]
	if est := llm.EstimateMessages(msgs(table)); est < req.PromptTokens || req.Truncated || req.NumCtx < req.PromptTokens+req.NumPredict {
		t.Fatalf("estimate %d, server counted %d; num_ctx %d num_predict %d", est, req.PromptTokens, req.NumCtx, req.NumPredict)
	}
	// A model whose tokenizer splits 3× finer: its ratio is learnt from
	// prompt_eval_count, persisted, and sizes the next prompts.
	path := filepath.Join(t.TempDir(), "token-ratios.json")
	srv.AddModel(fakeollama.Model{Name: "fine:1b", Family: "llama", ContextLength: 32768, TokenScale: 3})
	o = newOllama(t, srv.URL(), func(c *llm.OllamaConfig) { c.ChatModel = "fine:1b"; c.Ratios = llm.NewRatios(path) })
	if _, err := o.ChatStream(context.Background(), llm.ChatRequest{Messages: msgs("A short question about prose.")}, nil); err != nil {
		t.Fatal(err)
	}
	if f := o.Config().Ratios.Factor("fine:1b"); f < 1.5 {
		t.Fatalf("factor %.2f not learnt", f)
	}
	reread := llm.NewRatios(path)
	if f := reread.Factor("fine:1b"); f < 1.5 {
		t.Fatalf("factor not persisted: %.2f (%v)", f, reread.Factors())
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), "fine:1b") {
		t.Fatalf("file: %s", b)
	}
	srv.Reset()
	o2 := newOllama(t, srv.URL(), func(c *llm.OllamaConfig) { c.ChatModel = "fine:1b"; c.Ratios = reread })
	if _, err := o2.ChatStream(context.Background(), llm.ChatRequest{Messages: msgs(strings.Repeat("prose words here ", 900))}, nil); err != nil {
		t.Fatal(err)
	}
	req = chats(srv)[0]
	if req.Truncated || req.NumCtx < req.PromptTokens+req.NumPredict {
		t.Fatalf("with the learnt factor the prompt must fit: num_ctx %d prompt %d reply %d", req.NumCtx, req.PromptTokens, req.NumPredict)
	}
}

func TestOverWindowIs400AndRaisesTheFactor(t *testing.T) {
	srv := fakeollama.Start(t)
	srv.AddModel(fakeollama.Model{Name: "fine:1b", Family: "llama", ContextLength: 8192, TokenScale: 3})
	o := newOllama(t, srv.URL(), func(c *llm.OllamaConfig) { c.ChatModel = "fine:1b" })
	text := strings.Repeat("prose words here ", 800) // ~3.3k estimated, ~3.4k × 3 counted
	_, err := o.ChatStream(context.Background(), llm.ChatRequest{Messages: msgs(text)}, nil)
	wantKind(t, err, llm.FailContext)
	if r := chats(srv)[0]; r.Status != 400 {
		t.Fatalf("status %d", r.Status)
	}
	if f := o.Config().Ratios.Factor("fine:1b"); f <= 1 {
		t.Fatalf("a refusal over the window must raise the factor: %.2f", f)
	}
}

func TestPullServerNetworkFailureIsNotCut(t *testing.T) {
	srv := fakeollama.Start(t)
	srv.PullError(`pull model manifest: Get "https://registry.ollama.ai/v2/library/qwen3/manifests/8b": dial tcp: lookup registry.ollama.ai: i/o timeout`)
	o := newOllama(t, srv.URL(), nil)
	err := o.Pull(context.Background(), "qwen3:8b", nil)
	ce := wantKind(t, err, llm.FailServer)
	if !strings.Contains(ce.Detail, "network problem on the server's side") {
		t.Fatalf("detail %q", ce.Detail)
	}
	// A download the server cut midway is still "cut".
	srv.PullError("")
	srv.Fail("/api/pull", fakeollama.FaultCut)
	wantKind(t, o.Pull(context.Background(), "qwen3:8b", nil), llm.FailCut)
}

func TestKindsWithoutCapabilities(t *testing.T) {
	srv := fakeollama.Start(t)
	srv.AddModel(fakeollama.Model{Name: "vectors:latest", Family: "nomic-bert", Embedding: true, NoCapabilities: true})
	srv.AddModel(fakeollama.Model{Name: "odd-encoder:v1", Family: "newarch", Embedding: true, NoCapabilities: true})
	srv.AddModel(fakeollama.Model{Name: "talker:7b", Family: "qwen2", NoCapabilities: true})
	o := newOllama(t, srv.URL(), nil)
	ms, err := o.ModelsDetailed(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, m := range ms {
		kinds[m.Name] = m.Embedding
	}
	if !kinds["vectors:latest"] || !kinds["odd-encoder:v1"] || kinds["talker:7b"] {
		t.Fatalf("embedding flags %v", kinds)
	}
}

func TestPickByCapabilityAndContext(t *testing.T) {
	tiny := llm.ModelInfo{Name: "aaa-tiny:1b", ContextLength: 2048, Capabilities: []string{"completion"}}
	big := llm.ModelInfo{Name: "zzz-big:8b", ContextLength: 32768, Capabilities: []string{"completion"}}
	mid := llm.ModelInfo{Name: "mid:3b", ContextLength: 8192}
	emb := llm.ModelInfo{Name: "aaa-embed:latest", Embedding: true, Capabilities: []string{"embedding"}}
	for _, tc := range []struct {
		name      string
		installed []llm.ModelInfo
		want      string
		emb       bool
		pick      string
		note      string
	}{
		{"wanted and fit", []llm.ModelInfo{tiny, big}, "zzz-big:8b", false, "zzz-big:8b", ""},
		{"missing: the longest context, not the first name", []llm.ModelInfo{tiny, mid, big}, "qwen2.5:7b-instruct", false, "zzz-big:8b", "is not installed; using zzz-big:8b"},
		{"wanted but too small: says why", []llm.ModelInfo{tiny, mid}, "aaa-tiny:1b", false, "mid:3b", "holds 2048 tokens"},
		{"only too small: none, says why", []llm.ModelInfo{tiny, emb}, "", false, "", "aaa-tiny:1b (its context holds 2048"},
		{"never an embedding model for chat", []llm.ModelInfo{emb}, "aaa-embed:latest", false, "", "no chat model is installed"},
		{"embedding by capability", []llm.ModelInfo{big, emb}, "bge-m3", true, "aaa-embed:latest", "not installed"},
	} {
		got, note := llm.Pick(tc.installed, tc.want, tc.emb)
		if got != tc.pick || (tc.note == "" && note != "") || !strings.Contains(note, tc.note) {
			t.Errorf("%s: picked %q (%q), want %q (%q)", tc.name, got, note, tc.pick, tc.note)
		}
	}
}

func TestAutoNeverPicksATooSmallModelSilently(t *testing.T) {
	srv := fakeollama.Start(t)
	srv.RemoveModel("qwen2.5:7b-instruct")
	srv.AddModel(fakeollama.Model{Name: "aaa-tiny:1b", Family: "llama", ContextLength: 2048})
	srv.AddModel(fakeollama.Model{Name: "zzz-long:8b", Family: "qwen2", ContextLength: 32768})
	a, err := llm.NewAuto(llm.AutoConfig{Ollama: llm.OllamaConfig{Host: srv.URL()}})
	if err != nil {
		t.Fatal(err)
	}
	st := a.Probe(context.Background())
	if st.ChatModel != "zzz-long:8b" || len(st.Notes) == 0 {
		t.Fatalf("status %+v", st)
	}
	srv.RemoveModel("zzz-long:8b")
	a2, _ := llm.NewAuto(llm.AutoConfig{Ollama: llm.OllamaConfig{Host: srv.URL()}})
	st = a2.Probe(context.Background())
	if st.Mode != llm.ModeOffline || !strings.Contains(st.Reason, "2048") {
		t.Fatalf("only a 2k model: %+v", st)
	}
}

func TestTagsWithAndWithoutCapabilities(t *testing.T) {
	srv := fakeollama.Start(t)
	srv.AddModel(fakeollama.Model{Name: "aaa-tiny:1b", Family: "llama", ContextLength: 2048})
	o := newOllama(t, srv.URL(), nil)
	// Older servers: /api/tags lists neither capabilities nor context length.
	ms, err := o.Models(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if len(m.Capabilities) != 0 || m.ContextLength != 0 {
			t.Fatalf("older tags: %+v", m)
		}
	}
	// Newer servers list both, and the choice uses them without /api/show.
	srv.TagsDetail(true)
	ms, err = o.Models(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]llm.ModelInfo{}
	for _, m := range ms {
		byName[m.Name] = m
	}
	if m := byName["bge-m3:latest"]; !m.Embedding || m.ContextLength != 8192 {
		t.Fatalf("bge-m3 from tags: %+v", m)
	}
	if m := byName["aaa-tiny:1b"]; m.ContextLength != 2048 || len(m.Capabilities) == 0 {
		t.Fatalf("tiny from tags: %+v", m)
	}
	if got, note := llm.Pick(ms, "no-such:7b", false); got != "qwen2.5:7b-instruct" || !strings.Contains(note, "not installed") {
		t.Fatalf("pick from detailed tags: %q %q", got, note)
	}
}
