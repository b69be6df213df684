package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Mode says who answers: a local (or LAN) Ollama, or the built-in components.
type Mode string

const (
	ModeOllama  Mode = "ollama"
	ModeOffline Mode = "offline"
)

// Message is one chat turn. Role is "system", "user" or "assistant".
// Document text is always placed in a user message, fenced, never in the
// system role.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Schema is a named JSON schema for a structured reply. Name identifies the
// task ("extract", "mindmap", "plan", "rerank", ...) in logs, usage and the
// fake server's scripts.
type Schema struct {
	Name   string
	Schema json.RawMessage
}

// JSONRequest asks for one JSON object conforming to Schema.
type JSONRequest struct {
	Task     string // usage bucket, usually Schema.Name
	Model    string // empty: the provider's chat model
	Messages []Message
	Schema   Schema
	// Validate, when set, checks the decoded reply beyond the schema (for
	// example that names occur in the source text); an error triggers the
	// one repair attempt.
	Validate func(raw json.RawMessage) error
	// MaxTokens caps the reply (num_predict); 0: the provider's default.
	MaxTokens int
}

// JSONReply is a validated structured reply.
type JSONReply struct {
	Raw   json.RawMessage
	Usage Usage
}

// ChatRequest asks for free text (answers), streamed token by token.
type ChatRequest struct {
	Task     string
	Model    string
	Messages []Message
	// Temperature of sampling; 0 (the default) is deterministic.
	Temperature float64
	// MaxTokens caps the reply (num_predict); 0: the provider's default.
	MaxTokens int
}

// ChatReply is the full streamed reply.
type ChatReply struct {
	Text  string
	Usage Usage
	// Cut is true when the model stopped at its token limit (Ollama's
	// done_reason "length": num_predict reached, or the window full): the
	// text is an unfinished answer.
	Cut bool
	// DoneReason is the server's done_reason ("stop", "length", ...).
	DoneReason string
	// MaxTokens is the reply budget (num_predict) the call was sent with.
	MaxTokens int
}

// Usage is what calls cost: counted like Ollama reports them.
type Usage struct {
	Calls            int           `json:"calls"`
	PromptTokens     int           `json:"prompt_tokens"`
	CompletionTokens int           `json:"completion_tokens"`
	Wall             time.Duration `json:"wall_ns"`
	Retries          int           `json:"retries,omitempty"`
	Repairs          int           `json:"repairs,omitempty"`
}

// Add returns u + v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		Calls:            u.Calls + v.Calls,
		PromptTokens:     u.PromptTokens + v.PromptTokens,
		CompletionTokens: u.CompletionTokens + v.CompletionTokens,
		Wall:             u.Wall + v.Wall,
		Retries:          u.Retries + v.Retries,
		Repairs:          u.Repairs + v.Repairs,
	}
}

// Provider is what pipelines call. Implementations are safe for concurrent use.
type Provider interface {
	// Mode says whether a model is behind this provider.
	Mode() Mode
	// ChatJSON returns a reply that decodes as JSON, matches req.Schema and
	// passes req.Validate, or an error (ErrOffline, *CallError).
	ChatJSON(ctx context.Context, req JSONRequest) (JSONReply, error)
	// ChatStream streams a free-text reply to onToken and returns it whole.
	ChatStream(ctx context.Context, req ChatRequest, onToken func(string)) (ChatReply, error)
	// Embed returns one vector per text (the provider's embedding model).
	Embed(ctx context.Context, texts []string) ([][]float32, Usage, error)
}

// ErrOffline is returned by the offline provider for every model call: the
// caller takes its deterministic path.
var ErrOffline = errors.New("no language model: offline mode")

// Failure kinds of a model call, recorded by callers (per chunk, per answer).
type FailureKind string

const (
	FailUnreachable  FailureKind = "unreachable"   // transport error after retries
	FailTimeout      FailureKind = "timeout"       // call exceeded its deadline
	FailHTTP         FailureKind = "http"          // non-2xx from the server
	FailMalformed    FailureKind = "malformed"     // reply was not valid JSON (after repair)
	FailSchema       FailureKind = "schema"        // valid JSON that violated the schema or validator (after repair)
	FailEmpty        FailureKind = "empty"         // empty reply
	FailUnknownModel FailureKind = "unknown_model" // model not installed
	FailContext      FailureKind = "context"       // prompt larger than the model's context window
	FailCut          FailureKind = "cut"           // stream ended before done, or the reply stopped at its token limit
	FailServer       FailureKind = "server"        // the server reported an error of its own (e.g. it could not reach the model registry)
	FailExhausted    FailureKind = "exhausted"     // not asked again: the attempts allowed for this input and model are used up
)

// CallError is a typed failure of one model call, after retries and repair.
type CallError struct {
	Kind   FailureKind
	Task   string
	Detail string
	Usage  Usage // what was spent before failing
	Err    error
}

func (e *CallError) Error() string {
	msg := fmt.Sprintf("model call %s failed (%s)", e.Task, e.Kind)
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

func (e *CallError) Unwrap() error { return e.Err }

// KindOf returns the failure kind of err ("" if it is not a CallError).
func KindOf(err error) FailureKind {
	var ce *CallError
	if errors.As(err, &ce) {
		return ce.Kind
	}
	return ""
}

// Meter sums usage per task; one Meter per job or per question.
type Meter struct {
	mu     sync.Mutex
	total  Usage
	byTask map[string]Usage
}

// Add records one call's usage under task.
func (m *Meter) Add(task string, u Usage) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.byTask == nil {
		m.byTask = map[string]Usage{}
	}
	m.total = m.total.Add(u)
	m.byTask[task] = m.byTask[task].Add(u)
}

// Total returns the sum of all recorded usage.
func (m *Meter) Total() Usage {
	if m == nil {
		return Usage{}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.total
}

// ByTask returns a copy of the per-task sums.
func (m *Meter) ByTask() map[string]Usage {
	out := map[string]Usage{}
	if m == nil {
		return out
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for k, v := range m.byTask {
		out[k] = v
	}
	return out
}

// Offline is the built-in provider: embeddings from the built-in embedder,
// ErrOffline for every chat call.
type Offline struct {
	Embedder interface {
		Embed(ctx context.Context, texts []string) ([][]float32, error)
	}
}

// Mode is ModeOffline.
func (Offline) Mode() Mode { return ModeOffline }

// ChatJSON always returns ErrOffline.
func (Offline) ChatJSON(context.Context, JSONRequest) (JSONReply, error) {
	return JSONReply{}, ErrOffline
}

// ChatStream always returns ErrOffline.
func (Offline) ChatStream(context.Context, ChatRequest, func(string)) (ChatReply, error) {
	return ChatReply{}, ErrOffline
}

// Embed uses the built-in embedder.
func (o Offline) Embed(ctx context.Context, texts []string) ([][]float32, Usage, error) {
	if o.Embedder == nil {
		return nil, Usage{}, ErrOffline
	}
	v, err := o.Embedder.Embed(ctx, texts)
	return v, Usage{}, err
}
