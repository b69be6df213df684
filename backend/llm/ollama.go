package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/ollama/ollama/api"
)

// OllamaConfig configures the Ollama provider. Zero fields take the defaults
// of DefaultOllamaConfig.
type OllamaConfig struct {
	Host       string // base URL (ResolveHost); default DefaultHost
	ChatModel  string // default DefaultChatModel
	EmbedModel string // default DefaultEmbedModel

	KeepAlive    time.Duration // how long Ollama keeps the model loaded after a call
	CallTimeout  time.Duration // one chat attempt (a 7B model on a laptop CPU is slow)
	EmbedTimeout time.Duration // one embedding batch
	ProbeTimeout time.Duration // version/health/show/list
	Retries      int           // extra attempts on transport errors and 5xx
	Backoff      time.Duration // first retry delay, doubled each time

	MaxReplyTokens  int // num_predict for JSON replies
	MaxAnswerTokens int // num_predict for streamed answers
	MinContext      int // smallest num_ctx sent (windows grow in powers of two from here)
	MinReplyTokens  int // smallest num_predict worth sending: a prompt that leaves less room fails (FailContext)
	EmbedBatch      int // texts per /api/embed request
	EmbedContext    int // num_ctx for embedding requests (capped by the model)

	HTTPClient *http.Client // default: a client without overall timeout (per-call contexts bound it)

	// Ratios holds each model's learnt token factor (real prompt tokens
	// over Cairn's estimate); nil: learnt in memory for this provider only.
	Ratios *Ratios
}

// Defaults: the recommended models and the call budgets.
const (
	DefaultChatModel  = "qwen2.5:7b-instruct"
	DefaultEmbedModel = "bge-m3"
)

// DefaultOllamaConfig returns the defaults.
func DefaultOllamaConfig() OllamaConfig {
	return OllamaConfig{
		Host: DefaultHost, ChatModel: DefaultChatModel, EmbedModel: DefaultEmbedModel,
		KeepAlive: 30 * time.Minute, CallTimeout: 10 * time.Minute, EmbedTimeout: 2 * time.Minute,
		ProbeTimeout: 3 * time.Second, Retries: 2, Backoff: 500 * time.Millisecond,
		MaxReplyTokens: 2048, MaxAnswerTokens: 1024, MinContext: 8192, MinReplyTokens: 256,
		EmbedBatch: 32, EmbedContext: 8192,
	}
}

func (c OllamaConfig) withDefaults() OllamaConfig {
	d := DefaultOllamaConfig()
	if c.Host == "" {
		c.Host = d.Host
	}
	if c.ChatModel == "" {
		c.ChatModel = d.ChatModel
	}
	if c.EmbedModel == "" {
		c.EmbedModel = d.EmbedModel
	}
	if c.KeepAlive == 0 {
		c.KeepAlive = d.KeepAlive
	}
	if c.CallTimeout == 0 {
		c.CallTimeout = d.CallTimeout
	}
	if c.EmbedTimeout == 0 {
		c.EmbedTimeout = d.EmbedTimeout
	}
	if c.ProbeTimeout == 0 {
		c.ProbeTimeout = d.ProbeTimeout
	}
	if c.Retries == 0 {
		c.Retries = d.Retries
	}
	if c.Retries < 0 {
		c.Retries = 0
	}
	if c.Backoff == 0 {
		c.Backoff = d.Backoff
	}
	if c.MaxReplyTokens == 0 {
		c.MaxReplyTokens = d.MaxReplyTokens
	}
	if c.MaxAnswerTokens == 0 {
		c.MaxAnswerTokens = d.MaxAnswerTokens
	}
	if c.MinContext == 0 {
		c.MinContext = d.MinContext
	}
	if c.MinReplyTokens == 0 {
		c.MinReplyTokens = d.MinReplyTokens
	}
	if c.Ratios == nil {
		c.Ratios = NewRatios("")
	}
	if c.EmbedBatch == 0 {
		c.EmbedBatch = d.EmbedBatch
	}
	if c.EmbedContext == 0 {
		c.EmbedContext = d.EmbedContext
	}
	if c.HTTPClient == nil {
		c.HTTPClient = &http.Client{Transport: http.DefaultTransport}
	}
	return c
}

// Ollama is the Provider served by an Ollama server (local or on the LAN)
// through github.com/ollama/ollama/api. Safe for concurrent use.
type Ollama struct {
	cfg    OllamaConfig
	client *api.Client
	base   *url.URL

	mu      sync.Mutex
	infos   map[string]ModelInfo      // Show results per model
	schemas map[string]compiledSchema // per schema name and text
}

// NewOllama returns a provider for the server at cfg.Host. It does not
// contact the server; Health or Version does.
func NewOllama(cfg OllamaConfig) (*Ollama, error) {
	cfg = cfg.withDefaults()
	base, err := url.Parse(NormalizeHost(cfg.Host))
	if err != nil {
		return nil, fmt.Errorf("ollama host %q: %w", cfg.Host, err)
	}
	cfg.Host = base.String()
	return &Ollama{cfg: cfg, client: api.NewClient(base, cfg.HTTPClient), base: base,
		infos: map[string]ModelInfo{}, schemas: map[string]compiledSchema{}}, nil
}

// Config returns the effective configuration.
func (o *Ollama) Config() OllamaConfig { return o.cfg }

// Host is the server's base URL.
func (o *Ollama) Host() string { return o.cfg.Host }

// Mode is ModeOllama.
func (o *Ollama) Mode() Mode { return ModeOllama }

// ChatJSON asks for one JSON value matching req.Schema (sent as Ollama's
// `format`), at temperature 0, and validates the reply in Go. A malformed,
// empty, cut or invalid reply gets one repair call (the bad reply and the
// problems sent back); if that fails too the result is a *CallError.
func (o *Ollama) ChatJSON(ctx context.Context, req JSONRequest) (JSONReply, error) {
	start := time.Now()
	task := req.Task
	if task == "" {
		task = req.Schema.Name
	}
	var u Usage
	fail := func(kind FailureKind, detail string, err error) (JSONReply, error) {
		u.Wall = time.Since(start)
		return JSONReply{}, &CallError{Kind: kind, Task: task, Detail: detail, Usage: u, Err: err}
	}
	if len(req.Schema.Schema) == 0 {
		return fail(FailSchema, "request has no schema", nil)
	}
	schema, send, err := o.compile(req.Schema)
	if err != nil {
		return fail(FailSchema, "invalid schema: "+err.Error(), err)
	}
	model := req.Model
	if model == "" {
		model = o.cfg.ChatModel
	}
	info, err := o.modelInfo(ctx, model, &u)
	if err != nil {
		return o.failFrom(ctx, task, &u, start, err)
	}
	maxTok := o.cfg.MaxReplyTokens
	if req.MaxTokens > 0 {
		maxTok = req.MaxTokens
	}
	msgs := req.Messages
	for attempt := 0; ; attempt++ {
		b, err := o.budget(info, msgs, maxTok)
		if err != nil {
			return fail(FailContext, err.Error(), err)
		}
		creq := o.chatRequest(model, info, msgs, b.numCtx, b.numPredict, 0)
		creq.Format = send
		stream := false
		creq.Stream = &stream
		resp, err := o.chatWithRetry(ctx, creq, &u, nil)
		o.learn(model, b, resp, err)
		if err != nil {
			return o.failFrom(ctx, task, &u, start, err)
		}
		content := StripSpecialTokens(resp.Message.Content)
		raw, problem, kind := checkReply(content, resp.DoneReason, schema, req.Validate)
		if problem == nil {
			u.Wall = time.Since(start)
			return JSONReply{Raw: raw, Usage: u}, nil
		}
		if resp.DoneReason == "length" {
			kind = FailCut
		}
		if attempt >= 1 {
			return fail(kind, problem.Error(), problem)
		}
		u.Repairs++
		if resp.DoneReason == "length" {
			// The reply filled its budget: the repair gets twice the room
			// (if the window allows) and is asked to be brief; the cut
			// reply itself is not sent back (it would only eat the window).
			maxTok *= 2
			msgs = append(append([]Message{}, msgs...),
				Message{Role: "user", Content: RepairPrompt(problem) + "\n" + cutNote})
			continue
		}
		msgs = append(append([]Message{}, msgs...),
			Message{Role: "assistant", Content: content},
			Message{Role: "user", Content: RepairPrompt(problem)})
	}
}

// cutNote is added to the repair prompt of a JSON reply cut at its token
// limit.
const cutNote = "Your previous reply was cut off at the length limit. Reply again, complete and shorter: fewer items, shorter strings."

// checkReply extracts and validates a JSON reply; on failure it returns the
// problem and its failure kind.
func checkReply(content, doneReason string, schema *SchemaNode, validate func(json.RawMessage) error) (json.RawMessage, error, FailureKind) {
	if strings.TrimSpace(StripThink(content)) == "" {
		return nil, errors.New("the reply was empty"), FailEmpty
	}
	raw, err := ExtractJSON(content)
	if err != nil {
		switch doneReason {
		case "length":
			err = fmt.Errorf("the reply was cut off at the token limit: %w", err)
		case "stop":
			// A stop sequence can end a reply inside a JSON string: the
			// server says "stop", the JSON says otherwise.
			err = fmt.Errorf("the reply stopped before its JSON was complete: %w", err)
		}
		return nil, err, FailMalformed
	}
	if err := schema.ValidateJSON(raw); err != nil {
		return nil, err, FailSchema
	}
	if validate != nil {
		if err := validate(raw); err != nil {
			return nil, err, FailSchema
		}
	}
	return raw, nil, ""
}

// ChatStream streams a free-text answer. Reasoning blocks are removed from
// the stream; a stream that ends before Ollama's final "done" message is a
// FailCut error (what was streamed is in the error's Detail only as a
// length); an empty answer is FailEmpty. Retries happen only before the
// first token has been passed to onToken.
func (o *Ollama) ChatStream(ctx context.Context, req ChatRequest, onToken func(string)) (ChatReply, error) {
	start := time.Now()
	task := req.Task
	if task == "" {
		task = "chat"
	}
	var u Usage
	model := req.Model
	if model == "" {
		model = o.cfg.ChatModel
	}
	info, err := o.modelInfo(ctx, model, &u)
	if err != nil {
		_, err = o.failFrom(ctx, task, &u, start, err)
		return ChatReply{}, err
	}
	maxTok := o.cfg.MaxAnswerTokens
	if req.MaxTokens > 0 {
		maxTok = req.MaxTokens
	}
	b, err := o.budget(info, req.Messages, maxTok)
	if err != nil {
		u.Wall = time.Since(start)
		return ChatReply{}, &CallError{Kind: FailContext, Task: task, Detail: err.Error(), Usage: u, Err: err}
	}
	creq := o.chatRequest(model, info, req.Messages, b.numCtx, b.numPredict, req.Temperature)
	stream := true
	creq.Stream = &stream
	var text strings.Builder
	var think thinkFilter
	var special specialFilter
	emit := func(s string) {
		if s == "" {
			return
		}
		text.WriteString(s)
		if onToken != nil {
			onToken(s)
		}
	}
	final, err := o.chatWithRetry(ctx, creq, &u, func(piece string) { emit(special.push(think.push(piece))) })
	o.learn(model, b, final, err)
	if err != nil {
		_, err = o.failFrom(ctx, task, &u, start, err)
		return ChatReply{}, err
	}
	emit(special.push(think.flush()))
	emit(special.flush())
	u.Wall = time.Since(start)
	out := strings.TrimSpace(text.String())
	if out == "" {
		return ChatReply{}, &CallError{Kind: FailEmpty, Task: task, Detail: "the model returned an empty answer", Usage: u}
	}
	rep := ChatReply{Text: text.String(), Usage: u, DoneReason: final.DoneReason, MaxTokens: b.numPredict}
	if final.DoneReason == "length" {
		rep.Cut = true
	}
	return rep, nil
}

// chatRequest builds the request every chat call sends.
func (o *Ollama) chatRequest(model string, info ModelInfo, msgs []Message, numCtx, maxTok int, temperature float64) *api.ChatRequest {
	am := make([]api.Message, len(msgs))
	for i, m := range msgs {
		am[i] = api.Message{Role: m.Role, Content: m.Content}
	}
	no := false
	req := &api.ChatRequest{
		Model:     model,
		Messages:  am,
		KeepAlive: &api.Duration{Duration: o.cfg.KeepAlive},
		Options: map[string]any{
			"num_ctx":     numCtx,
			"num_predict": maxTok,
			"temperature": temperature,
		},
		// Ask the server to fail rather than cut the prompt or shift the
		// window (servers that predate these fields ignore them; num_ctx
		// sized from the prompt is what prevents truncation there).
		Truncate: &no,
		Shift:    &no,
	}
	if info.Thinking {
		req.Think = &api.ThinkValue{Value: false}
	}
	return req
}

// errCut says a reply ended before Ollama's final message.
var errCut = errors.New("the reply ended before the server said it was done")

// chatWithRetry runs one chat call with retries on transport errors and
// 5xx. With onPiece set it streams; a retry is only made while nothing has
// been streamed yet.
func (o *Ollama) chatWithRetry(ctx context.Context, req *api.ChatRequest, u *Usage, onPiece func(string)) (api.ChatResponse, error) {
	var final api.ChatResponse
	var content strings.Builder
	streamed := false
	err := o.retry(ctx, u, o.cfg.CallTimeout, func(actx context.Context) error {
		content.Reset()
		done := false
		final = api.ChatResponse{}
		err := o.client.Chat(actx, req, func(r api.ChatResponse) error {
			if onPiece != nil && r.Message.Content != "" {
				streamed = true
				onPiece(r.Message.Content)
			}
			content.WriteString(r.Message.Content)
			if r.Done {
				done = true
				final = r
			}
			return nil
		})
		if err == nil && !done {
			err = errCut
		}
		if err != nil && streamed {
			return noRetry{err}
		}
		return err
	})
	if err != nil {
		return final, err
	}
	u.Calls++
	u.PromptTokens += final.PromptEvalCount
	u.CompletionTokens += final.EvalCount
	final.Message.Content = content.String()
	return final, nil
}

// noRetry marks an error that must not be retried.
type noRetry struct{ err error }

func (n noRetry) Error() string { return n.err.Error() }
func (n noRetry) Unwrap() error { return n.err }

// retry runs fn with a per-attempt timeout, retrying transport errors, cut
// replies and 5xx with exponential backoff.
func (o *Ollama) retry(ctx context.Context, u *Usage, timeout time.Duration, fn func(context.Context) error) error {
	delay := o.cfg.Backoff
	for attempt := 0; ; attempt++ {
		actx, cancel := context.WithTimeout(ctx, timeout)
		err := fn(actx)
		timedOut := actx.Err() == context.DeadlineExceeded && ctx.Err() == nil
		cancel()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if timedOut {
			return &timeoutError{after: timeout, err: err}
		}
		var nr noRetry
		if errors.As(err, &nr) || !retryable(err) || attempt >= o.cfg.Retries {
			return err
		}
		u.Retries++
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return ctx.Err()
		}
		delay *= 2
	}
}

type timeoutError struct {
	after time.Duration
	err   error
}

func (e *timeoutError) Error() string {
	return fmt.Sprintf("no reply within %s", e.after)
}
func (e *timeoutError) Unwrap() error { return e.err }

// retryable: transport errors, cut replies and server errors.
func retryable(err error) bool {
	var se api.StatusError
	if errors.As(err, &se) {
		return se.StatusCode >= 500
	}
	k, _ := classify(err)
	return k == FailUnreachable || k == FailCut
}

// classify maps an error from the api client to a failure kind and a
// plain-language detail.
func classify(err error) (FailureKind, string) {
	var te *timeoutError
	if errors.As(err, &te) {
		return FailTimeout, te.Error()
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return FailTimeout, "the call timed out"
	}
	var se api.StatusError
	if errors.As(err, &se) {
		msg := strings.ToLower(se.ErrorMessage)
		switch {
		case se.StatusCode == http.StatusNotFound && (strings.Contains(msg, "not found") || strings.Contains(msg, "model")):
			return FailUnknownModel, se.ErrorMessage
		case strings.Contains(msg, "context") && (strings.Contains(msg, "exceed") || strings.Contains(msg, "too long") || strings.Contains(msg, "length")):
			return FailContext, se.ErrorMessage
		}
		return FailHTTP, fmt.Sprintf("HTTP %d: %s", se.StatusCode, se.ErrorMessage)
	}
	if errors.Is(err, errCut) || errors.Is(err, io.ErrUnexpectedEOF) {
		return FailCut, err.Error()
	}
	var ne net.Error
	var oe *net.OpError
	if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.As(err, &oe) || errors.As(err, &ne) || errors.Is(err, io.EOF) {
		return FailUnreachable, err.Error()
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return FailUnreachable, err.Error()
	}
	// The api client turns a line it cannot decode into a plain error
	// holding that line: the server's reply was broken or cut mid-object.
	return FailCut, "the server's reply was cut or garbled"
}

// failFrom turns an error into the *CallError callers record (context
// cancellation by the caller is returned as is).
func (o *Ollama) failFrom(ctx context.Context, task string, u *Usage, start time.Time, err error) (JSONReply, error) {
	if ctx.Err() != nil {
		return JSONReply{}, ctx.Err()
	}
	var ce *CallError
	if errors.As(err, &ce) {
		ce.Task = task
		u.Wall = time.Since(start)
		ce.Usage = *u
		return JSONReply{}, ce
	}
	kind, detail := classify(err)
	if kind == FailUnreachable {
		detail = fmt.Sprintf("Ollama is not reachable at %s (is `ollama serve` running?): %s", o.cfg.Host, detail)
	}
	u.Wall = time.Since(start)
	return JSONReply{}, &CallError{Kind: kind, Task: task, Detail: detail, Usage: *u, Err: err}
}

// callBudget is how one chat call is sized.
type callBudget struct {
	estimate   int // EstimateMessages of the prompt
	prompt     int // estimate × the model's learnt factor
	numPredict int // the reply budget sent
	numCtx     int // the window sent
}

// budget sizes a call: the prompt counted conservatively (EstimateMessages)
// times the model's learnt factor, the reply budget cut down to what the
// model's window leaves (never under half of what was asked, nor under
// MinReplyTokens), and num_ctx the two
// together rounded up to a power-of-two multiple of MinContext (so Ollama
// does not reload the model for every prompt size), capped at the model's
// context length. A prompt that leaves no room for a reply is an error,
// never truncated.
func (o *Ollama) budget(info ModelInfo, msgs []Message, replyTokens int) (callBudget, error) {
	b := callBudget{estimate: EstimateMessages(msgs)}
	b.prompt = int(math.Ceil(float64(b.estimate) * o.cfg.Ratios.Factor(info.Name)))
	b.numPredict = replyTokens
	limit := info.ContextLength
	if limit > 0 && b.prompt+b.numPredict > limit {
		room := limit - b.prompt
		floor := min(max(o.cfg.MinReplyTokens, replyTokens/2), replyTokens)
		if room < floor {
			err := fmt.Errorf("the prompt needs about %d tokens and its reply at least %d, but %s holds %d; use a model with a longer context or a smaller input",
				b.prompt, floor, info.Name, limit)
			return b, err
		}
		b.numPredict = room
	}
	need := b.prompt + b.numPredict
	n := o.cfg.MinContext
	if n <= 0 {
		n = 2048
	}
	for n < need {
		n *= 2
	}
	if limit > 0 && n > limit {
		n = limit
	}
	b.numCtx = n
	return b, nil
}

// learn feeds one call's outcome to the model's token factor: the server's
// prompt_eval_count against the estimate, or a refusal as too long.
func (o *Ollama) learn(model string, b callBudget, resp api.ChatResponse, err error) {
	if err != nil {
		if k, _ := classify(err); k == FailContext {
			o.cfg.Ratios.Bump(model, 1.25)
		}
		return
	}
	o.cfg.Ratios.Observe(model, b.estimate, resp.PromptEvalCount)
}

type compiledSchema struct {
	node *SchemaNode
	send json.RawMessage // the schema as sent in `format`, titled with its name
}

// compile compiles a schema once and prepares the `format` sent: the same
// schema with "title" set to the schema's name when it has none (logs and
// the fake server's rules can then tell tasks apart; Ollama ignores it).
func (o *Ollama) compile(s Schema) (*SchemaNode, json.RawMessage, error) {
	key := s.Name + "\x00" + string(s.Schema)
	o.mu.Lock()
	c, ok := o.schemas[key]
	o.mu.Unlock()
	if ok {
		return c.node, c.send, nil
	}
	n, err := CompileSchema(s.Schema)
	if err != nil {
		return nil, nil, err
	}
	send := s.Schema
	var m map[string]json.RawMessage
	if s.Name != "" && json.Unmarshal(s.Schema, &m) == nil {
		if _, has := m["title"]; !has {
			t, _ := json.Marshal(s.Name)
			m["title"] = t
			if b, err := json.Marshal(m); err == nil {
				send = b
			}
		}
	}
	o.mu.Lock()
	o.schemas[key] = compiledSchema{node: n, send: send}
	o.mu.Unlock()
	return n, send, nil
}
