// Package fakeollama is a fake Ollama server for tests: a real net/http
// server on a loopback port speaking the parts of Ollama's API that Cairn
// uses — /api/version, /api/tags, /api/show, /api/pull (streamed progress),
// /api/chat (streamed and not), /api/embed, and HEAD / — so tests run the
// real client (github.com/ollama/ollama/api through backend/llm) against it.
//
// Replies are scripted with rules (match on the JSON schema's title, on
// whether a format was sent, on a prompt substring or the model) that give
// a fixed text or compute one. Without a matching rule, a request with a
// JSON schema gets the smallest instance valid under that schema (with its
// optional top-level object members filled, so an extraction request gets
// an empty answer for every passage id), a plain "json" format gets {},
// and a free-text chat gets a short fixed sentence.
// Embeddings are deterministic (hashed words, L2-normalised), so the same
// text always gets the same vector and texts sharing words are close.
// Token counts and durations are reported like Ollama reports them.
//
// Every fault Cairn must survive can be injected: not running (ClosedURL, or
// Stop/Restart on the same port), slow (Delay), HTTP 500, malformed or
// truncated JSON in the reply, a stream cut midway, an unknown model (404
// like Ollama), a context window too small (a model with a small
// ContextLength, or a prompt over num_ctx: recorded as Truncated, the way
// Ollama silently truncates, or refused with 400 when the client sent
// "truncate": false), and "down for N requests, then up" (Down).
//
// It also does what a real server does that an early fake did not: a reply
// longer than num_predict, or than the window left after the prompt, is
// cut there with done_reason "length" (streamed or not); tokens are counted
// like Qwen where it matters (every digit a token; Model.TokenScale for a
// finer tokenizer); a JSON reply can stop inside a string with
// done_reason "stop" (FaultStopInString); control-token text turns up in
// replies (FaultSpecialTokens); /api/tags lists no capabilities or context
// length unless TagsDetail, and /api/show none for a NoCapabilities model
// (older servers); a pull can fail on the server's own network (PullError).
//
// Every request is recorded (Requests) with what tests assert on: path,
// model, messages, format and schema title, options.num_ctx, temperature,
// keep_alive, think, the estimated prompt size and whether it was truncated.
//
// Example:
//
//	func TestExtract(t *testing.T) {
//		srv := fakeollama.Start(t) // default models: qwen2.5:7b-instruct, bge-m3
//		srv.On(fakeollama.Rule{Schema: "extract", Reply: `{"entities":[]}`})
//		p, _ := llm.NewOllama(llm.OllamaConfig{Host: srv.URL()})
//		reply, err := p.ChatJSON(ctx, llm.JSONRequest{Schema: extractSchema, Messages: msgs})
//		...
//		req := srv.Requests()[len(srv.Requests())-1]
//		if req.NumCtx < req.PromptTokens { t.Fatal("prompt would be truncated") }
//	}
//
// The same server runs as a process for the UI end-to-end tests:
// `go run ./tools/fakeollama` prints its URL.
package fakeollama

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/types/model"

	"cairn/backend/llm"
)

// Model is one installed (or pullable) model.
type Model struct {
	Name            string
	Family          string // architecture, e.g. "qwen2", "bert"
	ContextLength   int    // model_info "<family>.context_length"; 0 means 32768
	EmbeddingLength int    // vector dimension for embedding models; 0 means 1024
	Embedding       bool   // an embedding model (no chat)
	Thinking        bool   // a reasoning model: emits <think> unless think=false
	// NoCapabilities: /api/show reports no capabilities (older servers).
	NoCapabilities bool
	// TokenScale multiplies the fake's token counts for this model (0: 1),
	// a tokenizer that splits text finer than Cairn's estimate assumes.
	TokenScale    float64
	Size          int64
	ParameterSize string
	Quantization  string
}

// DefaultModels are installed unless Options say otherwise.
func DefaultModels() []Model {
	return []Model{
		{Name: "qwen2.5:7b-instruct", Family: "qwen2", ContextLength: 32768, Size: 4_683_087_332, ParameterSize: "7.6B", Quantization: "Q4_K_M"},
		{Name: "bge-m3:latest", Family: "bert", ContextLength: 8192, EmbeddingLength: 1024, Embedding: true, Size: 1_157_672_605, ParameterSize: "566.70M", Quantization: "F16"},
	}
}

// Fault is an injected failure.
type Fault int

const (
	FaultNone      Fault = iota
	FaultHTTP500         // 500 {"error": "..."}
	FaultMalformed       // the reply text is not JSON ("Sure! Here is ...")
	FaultTruncated       // the reply text is JSON cut in the middle
	FaultCut             // the HTTP response is cut midway (stream or body), connection dropped
	FaultDrop            // the connection is closed before any response (transport error)
	FaultEmpty           // the reply text is empty
	// FaultStopInString ends a JSON reply inside its first string value
	// with done_reason "stop", as a real server does when a stop sequence
	// turns up inside the grammar's output.
	FaultStopInString
	// FaultSpecialTokens puts control-token text ("<|extra_4068|>") into
	// the reply, split across stream pieces, as small models sometimes do.
	FaultSpecialTokens
)

// SpecialTokenText is what FaultSpecialTokens inserts.
const SpecialTokenText = "<|extra_4068|>"

// Rule scripts replies. All set matchers must match; the first matching
// rule (in the order added) answers. Times > 0 limits how often it fires.
type Rule struct {
	Schema   string // the format schema's "title" equals this
	JSON     *bool  // true: a format was sent; false: none was
	Contains string // some message contains this
	Model    string
	Path     string // "" = /api/chat

	Reply string                 // reply text
	Func  func(r Request) string // computes the reply (wins over Reply)
	Fault Fault                  // fail instead of (or, for FaultCut, partway through) replying
	Delay time.Duration          // wait before answering
	Times int

	used int
}

// Request is one recorded request.
type Request struct {
	Path         string
	Model        string
	Messages     []api.Message
	Format       json.RawMessage
	HasFormat    bool
	SchemaTitle  string
	Stream       bool
	Options      map[string]any
	NumCtx       int      // options.num_ctx (0: not sent — Ollama would use its small default)
	NumPredict   int      // options.num_predict
	Temperature  *float64 // options.temperature
	KeepAlive    string   // raw keep_alive ("" when absent)
	Think        *bool    // think, when sent as a boolean
	Truncate     *bool    // truncate, when sent
	Input        []string // /api/embed inputs
	PromptTokens int      // the server's own count of the rendered prompt
	Truncated    bool     // the prompt exceeded the window and was cut (as Ollama does silently)
	Status       int      // HTTP status answered (0 if the connection was dropped)
}

// Server is a running fake.
type Server struct {
	mu        sync.Mutex
	ln        net.Listener
	srv       *http.Server
	addr      string
	models    map[string]Model
	catalog   map[string]Model // pullable
	rules     []*Rule
	requests  []Request
	down      int
	faults    map[string][]Fault // path → queued faults
	delay     time.Duration
	pullStep  time.Duration
	version   string
	chunkSize int
	// tagsDetail: /api/tags lists capabilities and context_length (newer
	// servers); off by default, like older servers.
	tagsDetail bool
	pullError  string
}

// TagsDetail makes /api/tags list each model's capabilities and context
// length, as newer Ollama servers do (by default it lists neither, as
// older ones).
func (s *Server) TagsDetail(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tagsDetail = on
}

// PullError makes the next pulls fail with msg as the server's error line
// after the manifest step (a server-side network failure: "pull model
// manifest: Get \"https://registry.ollama.ai/...\": dial tcp: i/o timeout").
// "" clears it.
func (s *Server) PullError(msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pullError = msg
}

// New starts a server on a free loopback port with the default models.
func New() *Server {
	s, err := Listen("127.0.0.1:0")
	if err != nil {
		panic(fmt.Sprintf("fakeollama: %v", err))
	}
	return s
}

// Listen starts a server on addr with the default models.
func Listen(addr string) (*Server, error) {
	s := &Server{models: map[string]Model{}, catalog: map[string]Model{}, faults: map[string][]Fault{},
		version: "0.34.4", chunkSize: 6, pullStep: time.Millisecond}
	for _, m := range DefaultModels() {
		s.AddModel(m)
	}
	for _, m := range append(DefaultModels(),
		Model{Name: "nomic-embed-text:latest", Family: "nomic-bert", ContextLength: 2048, EmbeddingLength: 768, Embedding: true, Size: 274_302_450, ParameterSize: "137M", Quantization: "F16"},
		Model{Name: "qwen3:8b", Family: "qwen3", ContextLength: 40960, Thinking: true, Size: 5_225_376_047, ParameterSize: "8.2B", Quantization: "Q4_K_M"},
		Model{Name: "tiny:1b", Family: "llama", ContextLength: 512, Size: 700_000_000, ParameterSize: "1B", Quantization: "Q4_0"},
	) {
		s.catalog[canon(m.Name)] = m
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	s.addr = ln.Addr().String()
	s.serve(ln)
	return s, nil
}

// Start is New for a test: the server is closed when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := New()
	t.Cleanup(s.Close)
	return s
}

func (s *Server) serve(ln net.Listener) {
	srv := &http.Server{Handler: http.HandlerFunc(s.handle), ReadHeaderTimeout: 10 * time.Second}
	s.mu.Lock()
	s.ln, s.srv = ln, srv
	s.mu.Unlock()
	go srv.Serve(ln)
}

// URL is the server's base URL (http://127.0.0.1:PORT).
func (s *Server) URL() string { return "http://" + s.addr }

// Close shuts the server down.
func (s *Server) Close() {
	s.mu.Lock()
	srv := s.srv
	s.srv, s.ln = nil, nil
	s.mu.Unlock()
	if srv != nil {
		srv.Close()
	}
}

// Stop closes the listener (the port refuses connections: "not running")
// until Restart.
func (s *Server) Stop() { s.Close() }

// Restart listens again on the same port.
func (s *Server) Restart() error {
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		return err
	}
	s.serve(ln)
	return nil
}

// ClosedURL returns the URL of a loopback port nobody listens on.
func ClosedURL() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "http://127.0.0.1:1"
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr
}

// AddModel installs a model (replacing one of the same name).
func (s *Server) AddModel(m Model) {
	if m.ContextLength == 0 {
		m.ContextLength = 32768
	}
	if m.Embedding && m.EmbeddingLength == 0 {
		m.EmbeddingLength = 1024
	}
	if m.Family == "" {
		m.Family = "llama"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models[canon(m.Name)] = m
}

// RemoveModel uninstalls a model.
func (s *Server) RemoveModel(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.models, canon(name))
}

// AddPullable makes a model available to /api/pull.
func (s *Server) AddPullable(m Model) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.catalog[canon(m.Name)] = m
}

// On adds a reply rule.
func (s *Server) On(r Rule) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rr := r
	s.rules = append(s.rules, &rr)
}

// Fail queues faults for the next requests to path ("/api/chat", ...):
// each request takes one.
func (s *Server) Fail(path string, faults ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[path] = append(s.faults[path], faults...)
}

// Down drops the connection of the next n requests (any path), then
// serves normally: "down for N requests, then up".
func (s *Server) Down(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.down = n
}

// Delay makes every reply wait d first ("slow").
func (s *Server) Delay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delay = d
}

// PullStep sets the pause between pull progress messages.
func (s *Server) PullStep(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pullStep = d
}

// Requests returns the recorded requests, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// RequestsTo returns the recorded requests to one path.
func (s *Server) RequestsTo(path string) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Path == path {
			out = append(out, r)
		}
	}
	return out
}

// Reset forgets recorded requests, rules and queued faults.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests, s.rules, s.faults, s.down, s.delay = nil, nil, map[string][]Fault{}, 0, 0
}

func canon(name string) string {
	name = strings.ToLower(strings.TrimSpace(name))
	if !strings.Contains(name, ":") {
		name += ":latest"
	}
	return name
}

func (s *Server) record(r Request) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r)
	return len(s.requests) - 1
}

func (s *Server) setStatus(i, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i >= 0 && i < len(s.requests) {
		s.requests[i].Status = status
	}
}

// takeFault returns the queued fault for path, or FaultDrop while down.
func (s *Server) takeFault(path string) Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down > 0 {
		s.down--
		return FaultDrop
	}
	if q := s.faults[path]; len(q) > 0 {
		s.faults[path] = q[1:]
		return q[0]
	}
	return FaultNone
}

func (s *Server) model(name string) (Model, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.models[canon(name)]
	return m, ok
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	path := r.URL.Path
	idx := s.record(Request{Path: path})
	fault := s.takeFault(path)
	if fault == FaultDrop {
		drop(w)
		return
	}
	s.mu.Lock()
	delay := s.delay
	s.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
	}
	if fault == FaultHTTP500 {
		s.setStatus(idx, 500)
		writeJSON(w, 500, map[string]string{"error": "fake: internal server error"})
		return
	}
	var status int
	switch {
	case path == "/" && (r.Method == http.MethodHead || r.Method == http.MethodGet):
		w.WriteHeader(200)
		io.WriteString(w, "Ollama is running")
		status = 200
	case path == "/api/version":
		status = writeJSON(w, 200, map[string]string{"version": s.version})
	case path == "/api/tags":
		status = s.tags(w)
	case path == "/api/show":
		status = s.show(w, body, idx)
	case path == "/api/chat":
		status = s.chat(w, r, body, idx, fault)
	case path == "/api/embed":
		status = s.embed(w, body, idx)
	case path == "/api/pull":
		status = s.pull(w, r, body, idx, fault)
	default:
		status = writeJSON(w, 404, map[string]string{"error": "404 page not found"})
	}
	s.setStatus(idx, status)
}

// drop closes the connection without a response.
func drop(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if c, _, err := hj.Hijack(); err == nil {
			c.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

func writeJSON(w http.ResponseWriter, status int, v any) int {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
	return status
}

func (s *Server) tags(w http.ResponseWriter) int {
	s.mu.Lock()
	var list []api.ListModelResponse
	for _, m := range s.models {
		lm := api.ListModelResponse{Name: m.Name, Model: m.Name, Size: m.Size,
			Digest:     fmt.Sprintf("%064x", fnvHash(m.Name)),
			ModifiedAt: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC),
			Details:    details(m)}
		if s.tagsDetail {
			for _, c := range capabilities(m) {
				lm.Capabilities = append(lm.Capabilities, model.Capability(c))
			}
			lm.Details.ContextLength = m.ContextLength
		}
		list = append(list, lm)
	}
	s.mu.Unlock()
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	return writeJSON(w, 200, api.ListResponse{Models: list})
}

func details(m Model) api.ModelDetails {
	return api.ModelDetails{Format: "gguf", Family: m.Family, Families: []string{m.Family},
		ParameterSize: m.ParameterSize, QuantizationLevel: m.Quantization}
}

func (s *Server) show(w http.ResponseWriter, body []byte, idx int) int {
	var req api.ShowRequest
	json.Unmarshal(body, &req)
	name := req.Model
	if name == "" {
		name = req.Name
	}
	s.annotate(idx, func(r *Request) { r.Model = name })
	m, ok := s.model(name)
	if !ok {
		return writeJSON(w, 404, map[string]string{"error": fmt.Sprintf("model '%s' not found", name)})
	}
	info := map[string]any{
		"general.architecture":             m.Family,
		m.Family + ".context_length":       m.ContextLength,
		"general.parameter_count":          7_615_616_512,
		m.Family + ".attention.head_count": 28,
	}
	if m.Embedding {
		info[m.Family+".embedding_length"] = m.EmbeddingLength
		info[m.Family+".pooling_type"] = 2
	}
	reply := map[string]any{
		"modelfile": "# fake", "parameters": "", "template": "{{ .Prompt }}",
		"details": details(m), "model_info": info,
		"modified_at": time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC),
	}
	if !m.NoCapabilities {
		reply["capabilities"] = capabilities(m)
	}
	return writeJSON(w, 200, reply)
}

func capabilities(m Model) []string {
	if m.Embedding {
		return []string{"embedding"}
	}
	caps := []string{"completion"}
	if m.Thinking {
		caps = append(caps, "thinking")
	}
	return caps
}

func (s *Server) annotate(idx int, f func(*Request)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if idx >= 0 && idx < len(s.requests) {
		f(&s.requests[idx])
	}
}

// CountTokens is the fake's tokenizer, shaped like Qwen's where it matters
// for sizing: every digit is a token (Qwen splits numbers digit by digit),
// Chinese and Japanese 0.6 per character (Qwen's vocabulary holds many
// two-character words), Korean one per syllable, a run of punctuation or
// symbols one per 3 marks
// (Qwen merges quote-colon-quote and the like), and runs of letters one per
// 4 bytes (about what Llama/Qwen tokenizers give for English words).
func CountTokens(s string) int {
	n, letters, marks, cjk := 0, 0, 0, 0
	flush := func() {
		n += (letters+3)/4 + (marks+2)/3 + (cjk*3+4)/5
		letters, marks, cjk = 0, 0, 0
	}
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
			if letters > 0 || marks > 0 {
				flush()
			}
			cjk++
		case unicode.Is(unicode.Hangul, r):
			flush()
			n++
		case unicode.IsDigit(r):
			flush()
			n++
		case unicode.IsLetter(r) || unicode.IsMark(r):
			if marks > 0 || cjk > 0 {
				flush()
			}
			letters += len(string(r))
		case unicode.IsSpace(r):
			if letters > 0 {
				letters++ // a space joins the next word
			}
		default:
			if letters > 0 || cjk > 0 {
				flush()
			}
			marks++
		}
	}
	flush()
	return n
}

// promptTokens renders a chat like a template would (role markers around
// each message) and counts it.
func promptTokens(msgs []api.Message) int {
	n := 0
	for _, m := range msgs {
		n += 4 + CountTokens(m.Content)
	}
	return n
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request, body []byte, idx int, fault Fault) int {
	var req api.ChatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return writeJSON(w, 400, map[string]string{"error": "invalid request: " + err.Error()})
	}
	rec := Request{Path: "/api/chat", Model: req.Model, Messages: req.Messages, Format: req.Format,
		HasFormat: len(req.Format) > 0 && string(req.Format) != "null", Stream: req.Stream == nil || *req.Stream,
		Options: req.Options, Truncate: req.Truncate}
	rec.SchemaTitle = schemaTitle(req.Format)
	fillOptions(&rec, req.Options)
	if req.KeepAlive != nil {
		rec.KeepAlive = req.KeepAlive.Duration.String()
	}
	if req.Think != nil && req.Think.IsBool() {
		b := req.Think.Bool()
		rec.Think = &b
	}
	m, ok := s.model(req.Model)
	window := rec.NumCtx
	if window == 0 {
		window = 2048 // Ollama's historical default
	}
	if ok && window > m.ContextLength {
		window = m.ContextLength
	}
	rec.PromptTokens = promptTokens(req.Messages)
	if ok && m.TokenScale > 0 {
		rec.PromptTokens = int(math.Ceil(float64(rec.PromptTokens) * m.TokenScale))
	}
	rec.Truncated = rec.PromptTokens > window
	s.annotate(idx, func(x *Request) { *x = rec })
	if !ok {
		return writeJSON(w, 404, map[string]string{"error": fmt.Sprintf("model \"%s\" not found, try pulling it first", req.Model)})
	}
	if m.Embedding {
		return writeJSON(w, 400, map[string]string{"error": fmt.Sprintf("\"%s\" does not support chat", req.Model)})
	}
	if rec.Think != nil && !m.Thinking {
		return writeJSON(w, 400, map[string]string{"error": fmt.Sprintf("\"%s\" does not support thinking", req.Model)})
	}
	if rec.Truncated && req.Truncate != nil && !*req.Truncate {
		return writeJSON(w, 400, map[string]string{"error": "the input length exceeds the context length"})
	}
	rule := s.match(rec)
	reply := ""
	if rule != nil {
		if rule.Delay > 0 {
			select {
			case <-time.After(rule.Delay):
			case <-r.Context().Done():
				return 0
			}
		}
		if rule.Fault != FaultNone && fault == FaultNone {
			fault = rule.Fault
		}
		if rule.Func != nil {
			reply = rule.Func(rec)
		} else {
			reply = rule.Reply
		}
	} else {
		reply = defaultReply(rec)
	}
	switch fault {
	case FaultHTTP500:
		return writeJSON(w, 500, map[string]string{"error": "fake: internal server error"})
	case FaultDrop:
		drop(w)
		return 0
	case FaultMalformed:
		reply = "Sure! Here is the JSON you asked for: {entities: [alpha, beta], "
	case FaultTruncated:
		full := reply
		if !strings.HasPrefix(strings.TrimSpace(full), "{") {
			full = `{"answer": "` + strings.Repeat("x", 40) + `"}`
		}
		reply = full[:len(full)/2]
	case FaultEmpty:
		reply = ""
	case FaultStopInString:
		if i := strings.Index(reply, `": "`); i >= 0 {
			reply = reply[:i+4] + "Par"
		} else if i := strings.Index(reply, `":"`); i >= 0 {
			reply = reply[:i+3] + "Par"
		} else {
			reply = `{"answer": "Par`
		}
	case FaultSpecialTokens:
		half := len([]rune(reply)) / 2
		r := []rune(reply)
		reply = string(r[:half]) + SpecialTokenText + string(r[half:]) + "<|im_end|>"
	}
	if m.Thinking && (rec.Think == nil || *rec.Think) {
		reply = "<think>Let me think about the passage first.</think>" + reply
	}
	return s.writeChat(w, rec, reply, fault == FaultCut)
}

func fillOptions(rec *Request, o map[string]any) {
	if o == nil {
		return
	}
	if v, ok := o["num_ctx"].(float64); ok {
		rec.NumCtx = int(v)
	}
	if v, ok := o["num_predict"].(float64); ok {
		rec.NumPredict = int(v)
	}
	if v, ok := o["temperature"].(float64); ok {
		rec.Temperature = &v
	}
}

func schemaTitle(format json.RawMessage) string {
	var m struct {
		Title string `json:"title"`
	}
	if len(format) > 0 && format[0] == '{' {
		json.Unmarshal(format, &m)
	}
	return m.Title
}

func (s *Server) match(rec Request) *Rule {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.rules {
		p := r.Path
		if p == "" {
			p = "/api/chat"
		}
		if p != rec.Path || (r.Times > 0 && r.used >= r.Times) {
			continue
		}
		if r.Schema != "" && r.Schema != rec.SchemaTitle {
			continue
		}
		if r.JSON != nil && *r.JSON != rec.HasFormat {
			continue
		}
		if r.Model != "" && canon(r.Model) != canon(rec.Model) {
			continue
		}
		if r.Contains != "" {
			found := false
			for _, m := range rec.Messages {
				if strings.Contains(m.Content, r.Contains) {
					found = true
					break
				}
			}
			if !found {
				continue
			}
		}
		r.used++
		return r
	}
	return nil
}

// defaultReply: a minimal valid instance for a schema, {} for "json", a
// fixed sentence for free text.
func defaultReply(rec Request) string {
	if rec.HasFormat {
		if bytes.Equal(bytes.TrimSpace(rec.Format), []byte(`"json"`)) {
			return "{}"
		}
		n, err := llm.CompileSchema(rec.Format)
		if err != nil {
			return "{}"
		}
		b, _ := json.Marshal(defaultInstance(n))
		return string(b)
	}
	return "This is the fake Ollama server's answer from " + rec.Model + "."
}

// defaultInstance is the schema's minimal instance, with the optional
// top-level members that are objects filled in too (minimally): a schema
// keyed by ids, such as extraction's reply with one optional member per
// passage (P1, P2, ...), gets an answer for every id rather than {}.
func defaultInstance(n *llm.SchemaNode) any {
	v := n.Instance()
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	for k, sub := range n.Properties {
		if _, has := m[k]; has || sub == nil {
			continue
		}
		if len(sub.Types) == 1 && sub.Types[0] == "object" || len(sub.Types) == 0 && sub.Properties != nil {
			m[k] = sub.Instance()
		}
	}
	return m
}

// writeChat sends the reply, streamed in small pieces or as one object;
// cut drops the connection halfway.
func (s *Server) writeChat(w http.ResponseWriter, rec Request, reply string, cut bool) int {
	// A real server stops generating at num_predict tokens, or when the
	// window (num_ctx) is full (with shift off): done_reason "length", the
	// reply cut there.
	doneReason := "stop"
	limit := -1
	if rec.NumPredict > 0 {
		limit = rec.NumPredict
	}
	if window := s.window(rec); window > 0 {
		if room := max(0, window-rec.PromptTokens); limit < 0 || room < limit {
			limit = room
		}
	}
	if limit >= 0 && CountTokens(reply) > limit {
		reply = cutTokens(reply, limit)
		doneReason = "length"
	}
	evalCount := CountTokens(reply)
	final := api.ChatResponse{Model: rec.Model, CreatedAt: time.Now().UTC(), Done: true, DoneReason: doneReason,
		Message: api.Message{Role: "assistant"},
		Metrics: api.Metrics{TotalDuration: time.Duration(rec.PromptTokens+evalCount) * time.Millisecond,
			LoadDuration: time.Millisecond, PromptEvalCount: rec.PromptTokens,
			PromptEvalDuration: time.Duration(rec.PromptTokens) * 100 * time.Microsecond,
			EvalCount:          evalCount, EvalDuration: time.Duration(evalCount) * time.Millisecond}}
	if !rec.Stream {
		final.Message.Content = reply
		if cut {
			b, _ := json.Marshal(final)
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.WriteHeader(200)
			w.Write(b[:len(b)/2])
			if f, ok := w.(http.Flusher); ok {
				f.Flush()
			}
			panic(http.ErrAbortHandler)
		}
		return writeJSON(w, 200, final)
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(200)
	flusher, _ := w.(http.Flusher)
	pieces := split(reply, s.chunkSize)
	enc := json.NewEncoder(w)
	for i, p := range pieces {
		if cut && i >= len(pieces)/2 {
			if flusher != nil {
				flusher.Flush()
			}
			panic(http.ErrAbortHandler)
		}
		enc.Encode(api.ChatResponse{Model: rec.Model, CreatedAt: time.Now().UTC(), Message: api.Message{Role: "assistant", Content: p}})
		if flusher != nil {
			flusher.Flush()
		}
	}
	if cut {
		panic(http.ErrAbortHandler)
	}
	enc.Encode(final)
	return 200
}

// window is the context window a chat ran in: num_ctx (2048 when not
// sent), capped by the model's context length.
func (s *Server) window(rec Request) int {
	window := rec.NumCtx
	if window == 0 {
		window = 2048
	}
	if m, ok := s.model(rec.Model); ok && window > m.ContextLength {
		window = m.ContextLength
	}
	return window
}

// cutTokens returns the longest prefix of s (whole runes) that counts at
// most n tokens.
func cutTokens(s string, n int) string {
	r := []rune(s)
	lo, hi := 0, len(r)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if CountTokens(string(r[:mid])) <= n {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return string(r[:lo])
}

func split(s string, n int) []string {
	var out []string
	r := []rune(s)
	for i := 0; i < len(r); i += n {
		out = append(out, string(r[i:min(len(r), i+n)]))
	}
	return out
}

func (s *Server) embed(w http.ResponseWriter, body []byte, idx int) int {
	var req struct {
		Model     string         `json:"model"`
		Input     any            `json:"input"`
		KeepAlive any            `json:"keep_alive"`
		Truncate  *bool          `json:"truncate"`
		Options   map[string]any `json:"options"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return writeJSON(w, 400, map[string]string{"error": "invalid request: " + err.Error()})
	}
	var inputs []string
	switch x := req.Input.(type) {
	case string:
		inputs = []string{x}
	case []any:
		for _, v := range x {
			s, _ := v.(string)
			inputs = append(inputs, s)
		}
	}
	rec := Request{Path: "/api/embed", Model: req.Model, Input: inputs, Options: req.Options, Truncate: req.Truncate}
	fillOptions(&rec, req.Options)
	if req.KeepAlive != nil {
		rec.KeepAlive = fmt.Sprint(req.KeepAlive)
	}
	m, ok := s.model(req.Model)
	window := rec.NumCtx
	if window == 0 || (ok && window > m.ContextLength) {
		window = m.ContextLength
	}
	for _, in := range inputs {
		n := CountTokens(in)
		rec.PromptTokens += n
		if n > window {
			rec.Truncated = true
		}
	}
	s.annotate(idx, func(x *Request) { *x = rec })
	if !ok {
		return writeJSON(w, 404, map[string]string{"error": fmt.Sprintf("model \"%s\" not found, try pulling it first", req.Model)})
	}
	if !m.Embedding {
		return writeJSON(w, 400, map[string]string{"error": fmt.Sprintf("\"%s\" does not support embeddings", req.Model)})
	}
	if rec.Truncated && req.Truncate != nil && !*req.Truncate {
		return writeJSON(w, 400, map[string]string{"error": "the input length exceeds the context length"})
	}
	vecs := make([][]float32, len(inputs))
	for i, in := range inputs {
		vecs[i] = Vector(in, m.EmbeddingLength)
	}
	return writeJSON(w, 200, api.EmbedResponse{Model: req.Model, Embeddings: vecs,
		TotalDuration: time.Duration(rec.PromptTokens) * 50 * time.Microsecond, PromptEvalCount: rec.PromptTokens})
}

// Vector is the fake's deterministic embedding: each lower-cased word (and
// each CJK character) hashed to a few buckets with signs, L2-normalised.
func Vector(text string, dim int) []float32 {
	v := make([]float64, dim)
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	var toks []string
	for _, w := range words {
		cjk := false
		for _, r := range w {
			if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
				toks = append(toks, string(r))
				cjk = true
			}
		}
		if !cjk {
			toks = append(toks, w)
		}
	}
	for _, t := range toks {
		h := fnvHash(t)
		for k := 0; k < 3; k++ {
			b := int((h >> (k * 20)) % uint64(dim))
			sign := 1.0
			if (h>>(60+k))&1 == 1 {
				sign = -1
			}
			v[b] += sign
		}
	}
	var norm float64
	for _, x := range v {
		norm += x * x
	}
	out := make([]float32, dim)
	if norm == 0 {
		out[0] = 1 // empty text: a fixed unit vector
		return out
	}
	norm = math.Sqrt(norm)
	for i, x := range v {
		out[i] = float32(x / norm)
	}
	return out
}

func fnvHash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// pull streams progress like Ollama: manifest, two layers in steps,
// verification, success. An unknown name gets Ollama's error line. The
// model is installed only when the stream completes.
func (s *Server) pull(w http.ResponseWriter, r *http.Request, body []byte, idx int, fault Fault) int {
	var req api.PullRequest
	json.Unmarshal(body, &req)
	name := req.Model
	if name == "" {
		name = req.Name
	}
	s.annotate(idx, func(x *Request) { x.Model = name; x.Stream = true })
	s.mu.Lock()
	m, ok := s.catalog[canon(name)]
	step := s.pullStep
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(200)
	flusher, _ := w.(http.Flusher)
	enc := json.NewEncoder(w)
	send := func(v any) bool {
		enc.Encode(v)
		if flusher != nil {
			flusher.Flush()
		}
		select {
		case <-r.Context().Done():
			return false
		case <-time.After(step):
			return true
		}
	}
	if !send(api.ProgressResponse{Status: "pulling manifest"}) {
		return 200
	}
	if !ok {
		enc.Encode(map[string]string{"error": "pull model manifest: file does not exist"})
		return 200
	}
	s.mu.Lock()
	perr := s.pullError
	s.mu.Unlock()
	if perr != "" {
		enc.Encode(map[string]string{"error": perr})
		return 200
	}
	size := m.Size
	if size <= 0 {
		size = 1 << 20
	}
	layers := []struct {
		digest string
		total  int64
	}{{fmt.Sprintf("sha256:%064x", fnvHash(name+"weights")), size - 4096}, {fmt.Sprintf("sha256:%064x", fnvHash(name+"params")), 4096}}
	const steps = 10
	for li, l := range layers {
		for i := 0; i <= steps; i++ {
			if fault == FaultCut && li == 0 && i == steps/2 {
				panic(http.ErrAbortHandler)
			}
			if !send(api.ProgressResponse{Status: "pulling " + l.digest[7:19], Digest: l.digest, Total: l.total, Completed: l.total * int64(i) / steps}) {
				return 200
			}
		}
	}
	for _, st := range []string{"verifying sha256 digest", "writing manifest"} {
		if !send(api.ProgressResponse{Status: st}) {
			return 200
		}
	}
	s.AddModel(m)
	enc.Encode(api.ProgressResponse{Status: "success"})
	return 200
}
