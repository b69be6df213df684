package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"cairn/backend/embed"
	"cairn/backend/ingest/docx"
	"cairn/backend/ingest/parsed"
	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/llm/fakeollama"
	"cairn/backend/testshared"
)

// extractSchema is shaped like the extraction task's schema.
var extractSchema = llm.Schema{Name: "extract", Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "entities": {"type": "array", "items": {"type": "object",
      "properties": {"name": {"type": "string", "minLength": 1}, "type": {"type": "string", "enum": ["person", "org", "place", "concept"]}},
      "required": ["name", "type"], "additionalProperties": false}},
    "facts": {"type": "array", "items": {"type": "string"}, "maxItems": 3}
  },
  "required": ["entities", "facts"],
  "additionalProperties": false
}`)}

const goodReply = `{"entities":[{"name":"Internal Revenue Service","type":"org"}],"facts":["Form 1040-NR is for nonresident aliens."]}`

func newOllama(t *testing.T, url string, mod func(*llm.OllamaConfig)) *llm.Ollama {
	t.Helper()
	cfg := llm.OllamaConfig{Host: url, Backoff: time.Millisecond, CallTimeout: 5 * time.Second, ProbeTimeout: 2 * time.Second}
	if mod != nil {
		mod(&cfg)
	}
	o, err := llm.NewOllama(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func msgs(text string) []llm.Message {
	return []llm.Message{
		{Role: "system", Content: "Extract entities and facts from the passage as JSON."},
		{Role: "user", Content: "<passage>\n" + text + "\n</passage>"},
	}
}

func chats(srv *fakeollama.Server) []fakeollama.Request { return srv.RequestsTo("/api/chat") }

func wantKind(t *testing.T, err error, kind llm.FailureKind) *llm.CallError {
	t.Helper()
	var ce *llm.CallError
	if !errors.As(err, &ce) {
		t.Fatalf("want *CallError %s, got %v", kind, err)
	}
	if ce.Kind != kind {
		t.Fatalf("want kind %s, got %s (%v)", kind, ce.Kind, err)
	}
	return ce
}

func TestChatJSONSendsSchemaContextAndTemperature(t *testing.T) {
	srv := fakeollama.Start(t)
	srv.On(fakeollama.Rule{Schema: "extract", Reply: goodReply})
	o := newOllama(t, srv.URL(), nil)
	rep, err := o.ChatJSON(context.Background(), llm.JSONRequest{Task: "extract", Schema: extractSchema, Messages: msgs("Form 1040-NR is filed with the Internal Revenue Service.")})
	if err != nil {
		t.Fatal(err)
	}
	if string(rep.Raw) != goodReply {
		t.Fatalf("raw = %s", rep.Raw)
	}
	cs := chats(srv)
	if len(cs) != 1 {
		t.Fatalf("%d chat requests, want 1", len(cs))
	}
	r := cs[0]
	if !r.HasFormat || r.SchemaTitle != "extract" {
		t.Errorf("format not sent as the titled schema: %s", r.Format)
	}
	var sent map[string]any
	json.Unmarshal(r.Format, &sent)
	if _, ok := sent["properties"].(map[string]any)["entities"]; !ok {
		t.Errorf("schema body not sent: %s", r.Format)
	}
	if r.NumCtx < 8192 || r.NumCtx < r.PromptTokens+r.NumPredict || r.Truncated {
		t.Errorf("num_ctx %d for prompt %d + reply %d (truncated %v)", r.NumCtx, r.PromptTokens, r.NumPredict, r.Truncated)
	}
	if r.Temperature == nil || *r.Temperature != 0 {
		t.Errorf("temperature = %v, want 0", r.Temperature)
	}
	if r.KeepAlive != "30m0s" {
		t.Errorf("keep_alive = %q", r.KeepAlive)
	}
	if r.Truncate == nil || *r.Truncate {
		t.Errorf("truncate should be sent as false")
	}
	if r.Think != nil {
		t.Errorf("think sent to a model without thinking")
	}
	if r.Stream {
		t.Errorf("JSON calls should not stream")
	}
	u := rep.Usage
	if u.Calls != 1 || u.PromptTokens != r.PromptTokens || u.CompletionTokens != fakeollama.CountTokens(goodReply) || u.Wall <= 0 || u.Retries != 0 || u.Repairs != 0 {
		t.Errorf("usage %+v (server counted prompt %d)", u, r.PromptTokens)
	}
}

func TestChatJSONDefaultReplyIsValidInstance(t *testing.T) {
	srv := fakeollama.Start(t)
	o := newOllama(t, srv.URL(), nil)
	rep, err := o.ChatJSON(context.Background(), llm.JSONRequest{Schema: extractSchema, Messages: msgs("x")})
	if err != nil {
		t.Fatal(err)
	}
	if string(rep.Raw) != `{"entities":[],"facts":[]}` {
		t.Fatalf("raw = %s", rep.Raw)
	}
}

// realText reads a real document's text (a long Chinese code of law).
func realText(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("/work/shared/docs/real/" + name)
	if err != nil {
		b, err = os.ReadFile("../../../shared/docs/real/" + name)
	}
	if err != nil {
		testshared.Missing(t, fmt.Sprintf("real document not available: %v", err))
	}
	doc, err := docx.Read(b, parsed.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for _, bl := range doc.Blocks {
		sb.WriteString(bl.Text + "\n")
	}
	return sb.String()
}

func TestLongPromptGrowsWindowWithoutTruncation(t *testing.T) {
	text := realText(t, "zh-civil-code.docx")
	runes := []rune(text)
	srv := fakeollama.Start(t)
	o := newOllama(t, srv.URL(), nil)
	for _, n := range []int{500, 12000, 25000} {
		part := string(runes[:min(n, len(runes))])
		if _, err := o.ChatJSON(context.Background(), llm.JSONRequest{Schema: extractSchema, Messages: msgs(part)}); err != nil {
			t.Fatalf("%d runes: %v", n, err)
		}
		r := chats(srv)[len(chats(srv))-1]
		if r.Truncated || r.NumCtx < r.PromptTokens+r.NumPredict {
			t.Errorf("%d runes: num_ctx %d, prompt %d tokens, truncated %v", n, r.NumCtx, r.PromptTokens, r.Truncated)
		}
		if r.NumCtx&(r.NumCtx-1) != 0 {
			t.Errorf("num_ctx %d is not a power of two (the model would reload for every size)", r.NumCtx)
		}
		// the whole passage arrived
		if !strings.Contains(r.Messages[1].Content, part) {
			t.Errorf("%d runes: prompt altered", n)
		}
	}
	// beyond the model's window: a typed failure, nothing sent
	before := len(chats(srv))
	_, err := o.ChatJSON(context.Background(), llm.JSONRequest{Schema: extractSchema, Messages: msgs(strings.Repeat(text, 1+40000/len(runes)))})
	wantKind(t, err, llm.FailContext)
	if len(chats(srv)) != before {
		t.Errorf("an over-long prompt was sent")
	}
}

func TestContextWindowTooSmall(t *testing.T) {
	srv := fakeollama.Start(t)
	srv.AddModel(fakeollama.Model{Name: "tiny:1b", ContextLength: 512})
	o := newOllama(t, srv.URL(), func(c *llm.OllamaConfig) { c.ChatModel = "tiny:1b"; c.MaxReplyTokens = 128 })
	if _, err := o.ChatJSON(context.Background(), llm.JSONRequest{Schema: extractSchema, Messages: msgs("short")}); err != nil {
		t.Fatalf("a short prompt fits: %v", err)
	}
	r := chats(srv)[0]
	if r.NumCtx != 512 {
		t.Errorf("num_ctx %d, want the model's 512", r.NumCtx)
	}
	ce := wantKind(t, func() error {
		_, err := o.ChatJSON(context.Background(), llm.JSONRequest{Schema: extractSchema, Messages: msgs(strings.Repeat("The tax treaty applies to students. ", 80))})
		return err
	}(), llm.FailContext)
	if !strings.Contains(ce.Detail, "512") {
		t.Errorf("detail should name the window: %s", ce.Detail)
	}
	if n := len(chats(srv)); n != 1 {
		t.Errorf("%d chat requests, want 1 (nothing sent for the over-long prompt)", n)
	}
}

func TestRetryOn500ThenSuccess(t *testing.T) {
	srv := fakeollama.Start(t)
	srv.On(fakeollama.Rule{Reply: goodReply})
	srv.Fail("/api/chat", fakeollama.FaultHTTP500)
	o := newOllama(t, srv.URL(), nil)
	rep, err := o.ChatJSON(context.Background(), llm.JSONRequest{Schema: extractSchema, Messages: msgs("x")})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Usage.Retries != 1 || len(chats(srv)) != 2 {
		t.Errorf("retries %d, requests %d", rep.Usage.Retries, len(chats(srv)))
	}
}

func TestPersistent500IsHTTPFailure(t *testing.T) {
	srv := fakeollama.Start(t)
	srv.Fail("/api/chat", fakeollama.FaultHTTP500, fakeollama.FaultHTTP500, fakeollama.FaultHTTP500, fakeollama.FaultHTTP500)
	o := newOllama(t, srv.URL(), nil)
	_, err := o.ChatJSON(context.Background(), llm.JSONRequest{Task: "extract", Schema: extractSchema, Messages: msgs("x")})
	ce := wantKind(t, err, llm.FailHTTP)
	if ce.Usage.Retries != 2 || len(chats(srv)) != 3 || ce.Task != "extract" {
		t.Errorf("retries %d, requests %d, task %q", ce.Usage.Retries, len(chats(srv)), ce.Task)
	}
}

func TestRepairOnceThenSuccess(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rule  fakeollama.Rule
		check string // expected in the repair prompt
	}{
		{"malformed", fakeollama.Rule{Fault: fakeollama.FaultMalformed, Times: 1}, "not valid JSON"},
		{"truncated", fakeollama.Rule{Reply: goodReply, Fault: fakeollama.FaultTruncated, Times: 1}, "not valid JSON"},
		{"schema", fakeollama.Rule{Reply: `{"entities":[{"name":"IRS","type":"agency"}],"facts":[]}`, Times: 1}, `$.entities[0].type: "agency" is not one of`},
		{"missing", fakeollama.Rule{Reply: `{"entities":[]}`, Times: 1}, `missing required property "facts"`},
		{"empty", fakeollama.Rule{Fault: fakeollama.FaultEmpty, Times: 1}, "empty"},
		{"fenced prose is fine", fakeollama.Rule{Reply: "Here you go:\n```json\n" + goodReply + "\n```", Times: 1}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fakeollama.Start(t)
			srv.On(tc.rule)
			srv.On(fakeollama.Rule{Reply: goodReply})
			o := newOllama(t, srv.URL(), nil)
			rep, err := o.ChatJSON(context.Background(), llm.JSONRequest{Schema: extractSchema, Messages: msgs("x")})
			if err != nil {
				t.Fatal(err)
			}
			if string(rep.Raw) != goodReply {
				t.Errorf("raw %s", rep.Raw)
			}
			cs := chats(srv)
			if tc.check == "" {
				if len(cs) != 1 || rep.Usage.Repairs != 0 {
					t.Errorf("a fenced reply needs no repair: %d requests", len(cs))
				}
				return
			}
			if len(cs) != 2 || rep.Usage.Repairs != 1 || rep.Usage.Calls != 2 {
				t.Fatalf("requests %d, usage %+v", len(cs), rep.Usage)
			}
			second := cs[1].Messages
			if len(second) != 4 || second[2].Role != "assistant" || second[3].Role != "user" {
				t.Fatalf("repair conversation: %+v", second)
			}
			if !strings.Contains(second[3].Content, tc.check) {
				t.Errorf("repair prompt lacks %q:\n%s", tc.check, second[3].Content)
			}
			if !cs[1].HasFormat || cs[1].Temperature == nil || *cs[1].Temperature != 0 {
				t.Errorf("repair call must keep the schema and temperature 0")
			}
		})
	}
}

func TestRepairThenTypedFailure(t *testing.T) {
	for _, tc := range []struct {
		fault fakeollama.Fault
		reply string
		kind  llm.FailureKind
	}{
		{fakeollama.FaultMalformed, "", llm.FailMalformed},
		{fakeollama.FaultTruncated, goodReply, llm.FailMalformed},
		{fakeollama.FaultEmpty, "", llm.FailEmpty},
		{fakeollama.FaultNone, `{"entities":"none","facts":[]}`, llm.FailSchema},
		{fakeollama.FaultNone, `   `, llm.FailEmpty},
		{fakeollama.FaultNone, `<think>I should answer {"entities": []}</think>`, llm.FailEmpty},
	} {
		srv := fakeollama.Start(t)
		srv.On(fakeollama.Rule{Reply: tc.reply, Fault: tc.fault})
		o := newOllama(t, srv.URL(), nil)
		rep, err := o.ChatJSON(context.Background(), llm.JSONRequest{Schema: extractSchema, Messages: msgs("x")})
		ce := wantKind(t, err, tc.kind)
		if rep.Raw != nil {
			t.Errorf("%s: a failure returned a reply", tc.kind)
		}
		if n := len(chats(srv)); n != 2 || ce.Usage.Repairs != 1 || ce.Usage.Calls != 2 {
			t.Errorf("%s: %d requests, usage %+v; want exactly one repair", tc.kind, n, ce.Usage)
		}
	}
}

func TestValidatorTriggersRepair(t *testing.T) {
	srv := fakeollama.Start(t)
	srv.On(fakeollama.Rule{Reply: `{"entities":[{"name":"Atlantis","type":"place"}],"facts":[]}`})
	o := newOllama(t, srv.URL(), nil)
	source := "Form 1040-NR is filed with the Internal Revenue Service."
	validate := func(raw json.RawMessage) error {
		var v struct{ Entities []struct{ Name string } }
		json.Unmarshal(raw, &v)
		for _, e := range v.Entities {
			if !strings.Contains(source, e.Name) {
				return errors.New("entity " + e.Name + " does not occur in the passage")
			}
		}
		return nil
	}
	_, err := o.ChatJSON(context.Background(), llm.JSONRequest{Schema: extractSchema, Messages: msgs(source), Validate: validate})
	wantKind(t, err, llm.FailSchema)
	cs := chats(srv)
	if len(cs) != 2 || !strings.Contains(cs[1].Messages[3].Content, "Atlantis does not occur") {
		t.Fatalf("repair should carry the validator's error: %+v", cs)
	}
}

func TestCutReply(t *testing.T) {
	srv := fakeollama.Start(t)
	srv.On(fakeollama.Rule{Reply: goodReply})
	srv.Fail("/api/chat", fakeollama.FaultCut)
	o := newOllama(t, srv.URL(), nil)
	rep, err := o.ChatJSON(context.Background(), llm.JSONRequest{Schema: extractSchema, Messages: msgs("x")})
	if err != nil || rep.Usage.Retries != 1 {
		t.Fatalf("a cut JSON reply is retried: %v %+v", err, rep.Usage)
	}
	srv.Fail("/api/chat", fakeollama.FaultCut, fakeollama.FaultCut, fakeollama.FaultCut)
	_, err = o.ChatJSON(context.Background(), llm.JSONRequest{Schema: extractSchema, Messages: msgs("x")})
	wantKind(t, err, llm.FailCut)
}

func TestStreamCutMidway(t *testing.T) {
	srv := fakeollama.Start(t)
	answer := "The treaty exempts students from tax on scholarship income for five years."
	srv.On(fakeollama.Rule{Reply: answer, Fault: fakeollama.FaultCut})
	o := newOllama(t, srv.URL(), nil)
	var got strings.Builder
	rep, err := o.ChatStream(context.Background(), llm.ChatRequest{Task: "answer", Messages: msgs("q")}, func(s string) { got.WriteString(s) })
	wantKind(t, err, llm.FailCut)
	if rep.Text != "" {
		t.Errorf("a cut stream returned text as success")
	}
	if got.Len() == 0 || got.Len() >= len(answer) {
		t.Errorf("streamed %q before the cut", got.String())
	}
	if n := len(chats(srv)); n != 1 {
		t.Errorf("%d requests: a stream that already emitted tokens must not be retried", n)
	}
}

func TestChatStream(t *testing.T) {
	srv := fakeollama.Start(t)
	answer := "Students from treaty countries may exclude scholarship income [1]."
	srv.On(fakeollama.Rule{JSON: new(false), Reply: answer})
	o := newOllama(t, srv.URL(), nil)
	var pieces []string
	rep, err := o.ChatStream(context.Background(), llm.ChatRequest{Messages: msgs("q")}, func(s string) { pieces = append(pieces, s) })
	if err != nil {
		t.Fatal(err)
	}
	if rep.Text != answer || strings.Join(pieces, "") != answer || len(pieces) < 5 {
		t.Errorf("text %q from %d pieces", rep.Text, len(pieces))
	}
	r := chats(srv)[0]
	if !r.Stream || r.HasFormat || r.NumCtx < r.PromptTokens || r.Truncated {
		t.Errorf("stream request %+v", r)
	}
	if rep.Usage.CompletionTokens != fakeollama.CountTokens(answer) || rep.Usage.PromptTokens == 0 {
		t.Errorf("usage %+v", rep.Usage)
	}
	// empty answer
	srv.Reset()
	srv.On(fakeollama.Rule{Fault: fakeollama.FaultEmpty})
	_, err = o.ChatStream(context.Background(), llm.ChatRequest{Messages: msgs("q")}, nil)
	wantKind(t, err, llm.FailEmpty)
}

func TestThinkingModel(t *testing.T) {
	srv := fakeollama.Start(t)
	srv.AddModel(fakeollama.Model{Name: "qwen3:8b", Family: "qwen3", ContextLength: 40960, Thinking: true})
	srv.On(fakeollama.Rule{Reply: goodReply, Times: 1})
	// a server that ignores think=false and still inlines the reasoning
	srv.On(fakeollama.Rule{JSON: new(false), Reply: "<think>The user wants the treaty article.</think>Article 21 covers students."})
	o := newOllama(t, srv.URL(), func(c *llm.OllamaConfig) { c.ChatModel = "qwen3:8b" })
	rep, err := o.ChatJSON(context.Background(), llm.JSONRequest{Schema: extractSchema, Messages: msgs("x")})
	if err != nil || string(rep.Raw) != goodReply {
		t.Fatalf("%v %s", err, rep.Raw)
	}
	if r := chats(srv)[0]; r.Think == nil || *r.Think {
		t.Errorf("think=false not sent to a thinking model")
	}
	var streamed strings.Builder
	ans, err := o.ChatStream(context.Background(), llm.ChatRequest{Messages: msgs("q")}, func(s string) { streamed.WriteString(s) })
	if err != nil {
		t.Fatal(err)
	}
	if ans.Text != "Article 21 covers students." || streamed.String() != ans.Text {
		t.Errorf("reasoning leaked: %q / %q", ans.Text, streamed.String())
	}
}

func TestUnknownModel(t *testing.T) {
	srv := fakeollama.Start(t)
	o := newOllama(t, srv.URL(), func(c *llm.OllamaConfig) { c.ChatModel = "llama9:70b" })
	_, err := o.ChatJSON(context.Background(), llm.JSONRequest{Schema: extractSchema, Messages: msgs("x")})
	ce := wantKind(t, err, llm.FailUnknownModel)
	if !strings.Contains(ce.Detail, "cairn pull llama9:70b") {
		t.Errorf("detail should say how to install: %s", ce.Detail)
	}
	if len(chats(srv)) != 0 {
		t.Errorf("chat sent for an unknown model")
	}
	_, _, err = o.EmbedWith(context.Background(), "nope", []string{"a"})
	wantKind(t, err, llm.FailUnknownModel)
}

func TestNotRunning(t *testing.T) {
	o := newOllama(t, fakeollama.ClosedURL(), nil)
	_, err := o.ChatJSON(context.Background(), llm.JSONRequest{Schema: extractSchema, Messages: msgs("x")})
	ce := wantKind(t, err, llm.FailUnreachable)
	if ce.Usage.Retries != 2 || !strings.Contains(ce.Detail, "ollama serve") {
		t.Errorf("retries %d, detail %q", ce.Usage.Retries, ce.Detail)
	}
	if err := o.Health(context.Background()); llm.KindOf(err) != llm.FailUnreachable {
		t.Errorf("health: %v", err)
	}
}

func TestDownThenUp(t *testing.T) {
	srv := fakeollama.Start(t)
	srv.On(fakeollama.Rule{Reply: goodReply})
	o := newOllama(t, srv.URL(), nil)
	if _, err := o.Show(context.Background(), llm.DefaultChatModel); err != nil {
		t.Fatal(err)
	}
	srv.Down(2)
	rep, err := o.ChatJSON(context.Background(), llm.JSONRequest{Schema: extractSchema, Messages: msgs("x")})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Usage.Retries != 2 {
		t.Errorf("retries %d, want 2", rep.Usage.Retries)
	}
	srv.Down(3)
	_, err = o.ChatJSON(context.Background(), llm.JSONRequest{Schema: extractSchema, Messages: msgs("x")})
	wantKind(t, err, llm.FailUnreachable)
}

func TestSlowServerTimesOut(t *testing.T) {
	srv := fakeollama.Start(t)
	srv.On(fakeollama.Rule{Reply: goodReply, Delay: 2 * time.Second})
	o := newOllama(t, srv.URL(), func(c *llm.OllamaConfig) { c.CallTimeout = 150 * time.Millisecond })
	start := time.Now()
	_, err := o.ChatJSON(context.Background(), llm.JSONRequest{Schema: extractSchema, Messages: msgs("x")})
	wantKind(t, err, llm.FailTimeout)
	if el := time.Since(start); el > time.Second {
		t.Errorf("took %s: a timeout must not be retried", el)
	}
	if n := len(chats(srv)); n != 1 {
		t.Errorf("%d requests after a timeout, want 1", n)
	}
	// the caller's own cancellation is returned as is
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	o2 := newOllama(t, srv.URL(), nil)
	_, err = o2.ChatJSON(ctx, llm.JSONRequest{Schema: extractSchema, Messages: msgs("x")})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("caller deadline: %v", err)
	}
}

func TestEmbedBatchesAndAdapter(t *testing.T) {
	srv := fakeollama.Start(t)
	o := newOllama(t, srv.URL(), func(c *llm.OllamaConfig) { c.EmbedBatch = 4 })
	texts := []string{"tax treaty", "scholarship income", "nonresident alien", "Form 1040-NR", "民法典", "合同", "tax treaty", "students", "residency", "withholding"}
	var e embed.Embedder = o.Embedder("")
	if e.Info().Dim != 0 {
		t.Errorf("dimension known before any reply")
	}
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != len(texts) || e.Info() != (kb.EmbedderInfo{Model: "ollama:bge-m3", Dim: 1024}) {
		t.Fatalf("%d vectors, info %+v", len(vecs), e.Info())
	}
	reqs := srv.RequestsTo("/api/embed")
	if len(reqs) != 3 || len(reqs[0].Input) != 4 || len(reqs[2].Input) != 2 {
		t.Errorf("batches: %d requests", len(reqs))
	}
	for _, r := range reqs {
		if r.Truncated || r.NumCtx != 8192 || r.Truncate == nil || *r.Truncate {
			t.Errorf("embed request %+v", r)
		}
	}
	if !equal(vecs[0], vecs[6]) || equal(vecs[0], vecs[1]) {
		t.Errorf("embeddings not deterministic per text")
	}
	if !equal(vecs[0], fakeollama.Vector("tax treaty", 1024)) {
		t.Errorf("vector differs from the server's")
	}
	// a text longer than the model's window: typed failure, nothing sent
	srv.AddModel(fakeollama.Model{Name: "nomic-embed-text", Family: "nomic-bert", ContextLength: 2048, EmbeddingLength: 768, Embedding: true})
	_, _, err = o.EmbedWith(context.Background(), "nomic-embed-text", []string{strings.Repeat("long text ", 2000)})
	wantKind(t, err, llm.FailContext)
	if n := len(srv.RequestsTo("/api/embed")); n != 3 {
		t.Errorf("over-long text sent")
	}
}

func TestPullProgressAndCancel(t *testing.T) {
	srv := fakeollama.Start(t)
	o := newOllama(t, srv.URL(), nil)
	var ps []llm.PullProgress
	if err := o.Pull(context.Background(), "nomic-embed-text", func(p llm.PullProgress) { ps = append(ps, p) }); err != nil {
		t.Fatal(err)
	}
	last := ps[len(ps)-1]
	if !last.Done || last.Percent != 100 || last.Total != 274_302_450 {
		t.Errorf("last progress %+v", last)
	}
	for i := 1; i < len(ps); i++ {
		if ps[i].Completed < ps[i-1].Completed {
			t.Errorf("progress went backwards at %d", i)
		}
	}
	midETA := false
	for _, p := range ps {
		if p.Percent > 0 && p.Percent < 100 && p.ETA > 0 && p.BytesPerS > 0 {
			midETA = true
		}
	}
	if !midETA {
		t.Errorf("no ETA reported during the pull")
	}
	ms, err := o.ModelsDetailed(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, m := range ms {
		if m.Name == "nomic-embed-text:latest" {
			found = m.ContextLength == 2048 && m.Embedding && m.Family == "nomic-bert"
		}
	}
	if !found {
		t.Errorf("pulled model not listed with its details: %+v", ms)
	}
	// unknown model
	err = o.Pull(context.Background(), "no-such-model", nil)
	wantKind(t, err, llm.FailUnknownModel)
	// cancel
	srv.PullStep(20 * time.Millisecond)
	ctx, cancel := context.WithCancel(context.Background())
	var once sync.Once
	err = o.Pull(ctx, "qwen3:8b", func(p llm.PullProgress) {
		if p.Completed > 0 {
			once.Do(cancel)
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled pull: %v", err)
	}
	time.Sleep(50 * time.Millisecond)
	if _, err := o.Show(context.Background(), "qwen3:8b"); llm.KindOf(err) != llm.FailUnknownModel {
		t.Errorf("a cancelled pull installed the model: %v", err)
	}
}

func TestShowContextLength(t *testing.T) {
	srv := fakeollama.Start(t)
	o := newOllama(t, srv.URL(), nil)
	for name, want := range map[string]int{"qwen2.5:7b-instruct": 32768, "bge-m3": 8192} {
		info, err := o.Show(context.Background(), name)
		if err != nil || info.ContextLength != want {
			t.Errorf("%s: %+v %v", name, info, err)
		}
	}
	v, err := o.Version(context.Background())
	if err != nil || v == "" {
		t.Errorf("version %q %v", v, err)
	}
}

func TestAutoFollowsOllama(t *testing.T) {
	srv := fakeollama.Start(t)
	srv.On(fakeollama.Rule{Reply: goodReply})
	var mu sync.Mutex
	var changes []llm.Mode
	a, err := llm.NewAuto(llm.AutoConfig{
		Ollama:     llm.OllamaConfig{Host: srv.URL(), Backoff: time.Millisecond, Retries: -1, ProbeTimeout: time.Second},
		Offline:    llm.Offline{Embedder: embed.NewHashed(64)},
		ProbeEvery: 30 * time.Millisecond,
		OnModeChange: func(s llm.Status) {
			mu.Lock()
			changes = append(changes, s.Mode)
			mu.Unlock()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.Mode() != llm.ModeOffline {
		t.Fatal("starts offline")
	}
	st := a.Probe(context.Background())
	if st.Mode != llm.ModeOllama || st.ChatModel != "qwen2.5:7b-instruct" || st.EmbedModel != "bge-m3:latest" {
		t.Fatalf("status %+v", st)
	}
	if _, err := a.ChatJSON(context.Background(), llm.JSONRequest{Schema: extractSchema, Messages: msgs("x")}); err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	_, err = a.ChatJSON(context.Background(), llm.JSONRequest{Schema: extractSchema, Messages: msgs("x")})
	wantKind(t, err, llm.FailUnreachable)
	if a.Mode() != llm.ModeOffline {
		t.Fatalf("an unreachable server must flip the mode at once")
	}
	if _, err := a.ChatJSON(context.Background(), llm.JSONRequest{Schema: extractSchema, Messages: msgs("x")}); !errors.Is(err, llm.ErrOffline) {
		t.Fatalf("offline ChatJSON: %v", err)
	}
	if v, _, err := a.Embed(context.Background(), []string{"x"}); err != nil || len(v[0]) != 64 {
		t.Fatalf("offline embed: %v", err)
	}
	a.Start(context.Background())
	if err := srv.Restart(); err != nil {
		t.Skipf("cannot re-listen on the same port: %v", err)
	}
	deadline := time.Now().Add(3 * time.Second)
	for a.Mode() != llm.ModeOllama && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if a.Mode() != llm.ModeOllama {
		t.Fatal("mode did not follow Ollama coming back")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(changes) != 3 || changes[0] != llm.ModeOllama || changes[1] != llm.ModeOffline || changes[2] != llm.ModeOllama {
		t.Errorf("mode changes %v", changes)
	}
}

func TestAutoPicksInstalledModels(t *testing.T) {
	srv := fakeollama.Start(t)
	srv.RemoveModel("qwen2.5:7b-instruct")
	srv.RemoveModel("bge-m3")
	srv.AddModel(fakeollama.Model{Name: "llama3.1:8b", Family: "llama"})
	a, _ := llm.NewAuto(llm.AutoConfig{Ollama: llm.OllamaConfig{Host: srv.URL()}})
	st := a.Probe(context.Background())
	if st.Mode != llm.ModeOllama || st.ChatModel != "llama3.1:8b" || st.EmbedModel != "" || len(st.Notes) != 2 {
		t.Fatalf("status %+v", st)
	}
	if !strings.Contains(st.Line(), "using llama3.1:8b") {
		t.Errorf("line %q", st.Line())
	}
	_, _, err := a.Embed(context.Background(), []string{"x"})
	wantKind(t, err, llm.FailUnknownModel)
	srv.RemoveModel("llama3.1:8b")
	st = a.Probe(context.Background())
	if st.Mode != llm.ModeOffline || !strings.Contains(st.Reason, "cairn pull qwen2.5:7b-instruct") {
		t.Errorf("no chat model: %+v", st)
	}
	// forced offline never probes
	f, _ := llm.NewAuto(llm.AutoConfig{Ollama: llm.OllamaConfig{Host: srv.URL()}, ForceOffline: true})
	n := len(srv.Requests())
	if f.Probe(context.Background()).Mode != llm.ModeOffline || len(srv.Requests()) != n {
		t.Errorf("--offline probed")
	}
}

func equal(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
