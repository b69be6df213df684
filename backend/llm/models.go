package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ollama/ollama/api"

	"cairn/backend/kb"
)

// ModelInfo describes one installed model.
type ModelInfo struct {
	Name            string    `json:"name"`
	Family          string    `json:"family,omitempty"`
	ParameterSize   string    `json:"parameter_size,omitempty"`
	Quantization    string    `json:"quantization,omitempty"`
	Size            int64     `json:"size_bytes,omitempty"`
	ContextLength   int       `json:"context_length,omitempty"` // 0: unknown
	EmbeddingLength int       `json:"embedding_length,omitempty"`
	Capabilities    []string  `json:"capabilities,omitempty"`
	Thinking        bool      `json:"thinking,omitempty"`  // a reasoning model (think can be switched off)
	Embedding       bool      `json:"embedding,omitempty"` // an embedding model
	ModifiedAt      time.Time `json:"modified_at,omitzero"`
}

// Recommended models, best first. Chat: 7B–8B instruct models that follow
// JSON schemas well and run on a laptop; embed: multilingual first (Cairn
// projects mix English and CJK documents).
var (
	RecommendedChat  = []string{DefaultChatModel, "qwen3:8b", "llama3.1:8b", "gemma2:9b", "mistral:7b-instruct"}
	RecommendedEmbed = []string{DefaultEmbedModel, "nomic-embed-text", "mxbai-embed-large", "all-minilm"}
)

// Version returns the server's version. It is the health probe: an error
// means Ollama is not reachable at Host.
func (o *Ollama) Version(ctx context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, o.cfg.ProbeTimeout)
	defer cancel()
	v, err := o.client.Version(ctx)
	if err != nil {
		return "", o.probeError(err)
	}
	return v, nil
}

// Health is nil when the server answers.
func (o *Ollama) Health(ctx context.Context) error {
	_, err := o.Version(ctx)
	return err
}

func (o *Ollama) probeError(err error) error {
	kind, detail := classify(err)
	if kind == FailUnreachable {
		detail = fmt.Sprintf("Ollama is not reachable at %s (is `ollama serve` running?)", o.cfg.Host)
	}
	return &CallError{Kind: kind, Task: "probe", Detail: detail, Err: err}
}

// Models lists the installed models (from /api/tags; context lengths need
// Show, see ModelsDetailed).
func (o *Ollama) Models(ctx context.Context) ([]ModelInfo, error) {
	ctx, cancel := context.WithTimeout(ctx, o.cfg.ProbeTimeout)
	defer cancel()
	lr, err := o.client.List(ctx)
	if err != nil {
		return nil, o.probeError(err)
	}
	out := make([]ModelInfo, 0, len(lr.Models))
	for _, m := range lr.Models {
		mi := ModelInfo{Name: m.Name, Family: m.Details.Family, ParameterSize: m.Details.ParameterSize,
			Quantization: m.Details.QuantizationLevel, Size: m.Size, ModifiedAt: m.ModifiedAt,
			ContextLength: m.Details.ContextLength, EmbeddingLength: m.Details.EmbeddingLength}
		for _, c := range m.Capabilities {
			mi.Capabilities = append(mi.Capabilities, string(c))
		}
		mi.fillKinds()
		out = append(out, mi)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// ModelsDetailed lists the installed models with Show's details (context
// length, capabilities) filled in.
func (o *Ollama) ModelsDetailed(ctx context.Context) ([]ModelInfo, error) {
	ms, err := o.Models(ctx)
	if err != nil {
		return nil, err
	}
	for i, m := range ms {
		info, err := o.Show(ctx, m.Name)
		if err != nil {
			continue // listed but not showable: keep what the list said
		}
		info.Size, info.ModifiedAt = m.Size, m.ModifiedAt
		ms[i] = info
	}
	return ms, nil
}

// Show returns a model's details: family, context length (model_info
// "<architecture>.context_length"), embedding length and capabilities. An
// unknown model is a *CallError of kind FailUnknownModel.
func (o *Ollama) Show(ctx context.Context, model string) (ModelInfo, error) {
	var u Usage
	return o.modelInfo(ctx, model, &u)
}

// modelInfo is Show with a per-model cache and retries.
func (o *Ollama) modelInfo(ctx context.Context, model string, u *Usage) (ModelInfo, error) {
	o.mu.Lock()
	info, ok := o.infos[model]
	o.mu.Unlock()
	if ok {
		return info, nil
	}
	var resp *api.ShowResponse
	err := o.retry(ctx, u, o.cfg.ProbeTimeout, func(actx context.Context) error {
		var err error
		resp, err = o.client.Show(actx, &api.ShowRequest{Model: model})
		return err
	})
	if err != nil {
		if ctx.Err() != nil {
			return ModelInfo{}, ctx.Err()
		}
		kind, detail := classify(err)
		if kind == FailUnknownModel {
			detail = fmt.Sprintf("model %q is not installed in Ollama at %s; install it with `cairn pull %s` (or `ollama pull %s`)", model, o.cfg.Host, model, model)
		} else if kind == FailUnreachable {
			detail = fmt.Sprintf("Ollama is not reachable at %s (is `ollama serve` running?)", o.cfg.Host)
		}
		return ModelInfo{}, &CallError{Kind: kind, Task: "show", Detail: detail, Err: err}
	}
	info = showInfo(model, resp)
	o.mu.Lock()
	o.infos[model] = info
	o.mu.Unlock()
	return info, nil
}

// showInfo reads a /api/show reply.
func showInfo(model string, r *api.ShowResponse) ModelInfo {
	info := ModelInfo{Name: model, Family: r.Details.Family, ParameterSize: r.Details.ParameterSize,
		Quantization: r.Details.QuantizationLevel, ModifiedAt: r.ModifiedAt}
	arch, _ := r.ModelInfo["general.architecture"].(string)
	for _, prefix := range []string{arch, r.Details.Family} {
		if prefix == "" {
			continue
		}
		if n := anyInt(r.ModelInfo[prefix+".context_length"]); n > 0 && info.ContextLength == 0 {
			info.ContextLength = n
		}
		if n := anyInt(r.ModelInfo[prefix+".embedding_length"]); n > 0 && info.EmbeddingLength == 0 {
			info.EmbeddingLength = n
		}
	}
	if info.ContextLength == 0 {
		// unknown architecture prefix: any *.context_length key
		keys := make([]string, 0, len(r.ModelInfo))
		for k := range r.ModelInfo {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if strings.HasSuffix(k, ".context_length") {
				info.ContextLength = anyInt(r.ModelInfo[k])
				break
			}
		}
	}
	if info.ContextLength == 0 {
		info.ContextLength = r.Details.ContextLength
	}
	for _, c := range r.Capabilities {
		info.Capabilities = append(info.Capabilities, string(c))
	}
	info.fillKinds()
	if len(info.Capabilities) == 0 {
		// Older servers list no capabilities: an embedding model's
		// model_info still has a pooling type (and no chat template).
		for k := range r.ModelInfo {
			if strings.HasSuffix(k, ".pooling_type") {
				info.Embedding = true
			}
		}
	}
	return info
}

func anyInt(v any) int {
	switch x := v.(type) {
	case float64:
		return int(x)
	case int:
		return x
	case int64:
		return int(x)
	}
	return 0
}

// fillKinds derives Thinking/Embedding from capabilities, or from the
// family and name when the server does not report capabilities.
func (m *ModelInfo) fillKinds() {
	for _, c := range m.Capabilities {
		switch c {
		case "thinking":
			m.Thinking = true
		case "embedding":
			m.Embedding = true
		}
	}
	if len(m.Capabilities) == 0 {
		n := strings.ToLower(m.Name)
		f := strings.ToLower(m.Family)
		m.Embedding = strings.Contains(n, "embed") || strings.HasPrefix(n, "bge") || strings.Contains(n, "minilm") ||
			strings.HasPrefix(n, "e5") || strings.Contains(n, "/e5") || strings.Contains(n, "gte-") ||
			f == "bert" || f == "nomic-bert" || f == "xlm-roberta" || f == "jina-bert" || f == "jina-bert-v2" || f == "new"
	}
}

// PullProgress is one step of a model download.
type PullProgress struct {
	Model     string        `json:"model"`
	Status    string        `json:"status"` // Ollama's status line ("pulling <digest>", "verifying sha256 digest", "success")
	Completed int64         `json:"completed_bytes"`
	Total     int64         `json:"total_bytes"`
	Percent   float64       `json:"percent"`        // 0–100 over all layers seen so far
	BytesPerS float64       `json:"bytes_per_s"`    // average since the pull started
	ETA       time.Duration `json:"eta_ns"`         // 0 when unknown
	Done      bool          `json:"done,omitempty"` // the pull succeeded
	Elapsed   time.Duration `json:"elapsed_ns"`
}

// Pull downloads a model, reporting progress (bytes, percent, ETA) after
// every message from the server. Cancelling ctx cancels the download.
func (o *Ollama) Pull(ctx context.Context, model string, progress func(PullProgress)) error {
	if strings.TrimSpace(model) == "" {
		return errors.New("pull: no model name")
	}
	start := time.Now()
	totals := map[string]int64{}
	done := map[string]int64{}
	var last PullProgress
	err := o.client.Pull(ctx, &api.PullRequest{Model: model}, func(r api.ProgressResponse) error {
		if r.Digest != "" {
			if r.Total > 0 {
				totals[r.Digest] = r.Total
			}
			done[r.Digest] = r.Completed
		}
		var tot, com int64
		for d, t := range totals {
			tot += t
			com += min(done[d], t)
		}
		p := PullProgress{Model: model, Status: r.Status, Completed: com, Total: tot, Elapsed: time.Since(start)}
		if tot > 0 {
			p.Percent = 100 * float64(com) / float64(tot)
		}
		if secs := p.Elapsed.Seconds(); secs > 0 && com > 0 {
			p.BytesPerS = float64(com) / secs
			if rem := tot - com; rem > 0 {
				p.ETA = time.Duration(float64(rem) / p.BytesPerS * float64(time.Second))
			}
		}
		p.Done = r.Status == "success"
		last = p
		if progress != nil {
			progress(p)
		}
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("pull %s cancelled: %w", model, ctx.Err())
		}
		kind, detail := classify(err)
		if kind == FailCut && err.Error() != "" && !errors.Is(err, io.ErrUnexpectedEOF) {
			// The server's own error line ("pull model manifest: file does
			// not exist", or its failure to reach the registry): not a cut
			// download.
			detail = err.Error()
			kind = FailServer
			if strings.Contains(detail, "does not exist") || strings.Contains(detail, "not found") {
				kind = FailUnknownModel
			} else if isNetworkText(detail) {
				detail = "the Ollama server could not download the model (a network problem on the server's side): " + detail
			}
		}
		return &CallError{Kind: kind, Task: "pull", Detail: detail, Err: err}
	}
	if !last.Done {
		return &CallError{Kind: FailCut, Task: "pull", Detail: "the download ended before the server reported success"}
	}
	o.mu.Lock()
	delete(o.infos, model)
	o.mu.Unlock()
	return nil
}

// Embed embeds texts with the configured embedding model, in batches.
func (o *Ollama) Embed(ctx context.Context, texts []string) ([][]float32, Usage, error) {
	return o.EmbedWith(ctx, o.cfg.EmbedModel, texts)
}

// EmbedWith embeds texts with the given model through /api/embed, in
// batches of EmbedBatch. Every reply is checked: one vector per text, all
// of one non-zero dimension. Inputs longer than the model's window are a
// FailContext error, not truncated.
func (o *Ollama) EmbedWith(ctx context.Context, model string, texts []string) ([][]float32, Usage, error) {
	start := time.Now()
	var u Usage
	fail := func(err error) ([][]float32, Usage, error) {
		_, err = o.failFrom(ctx, "embed", &u, start, err)
		return nil, u, err
	}
	if len(texts) == 0 {
		return nil, u, nil
	}
	info, err := o.modelInfo(ctx, model, &u)
	if err != nil {
		return fail(err)
	}
	numCtx := o.cfg.EmbedContext
	if info.ContextLength > 0 && info.ContextLength < numCtx {
		numCtx = info.ContextLength
	}
	no := false
	out := make([][]float32, 0, len(texts))
	dim := 0
	for b := 0; b < len(texts); b += o.cfg.EmbedBatch {
		batch := texts[b:min(len(texts), b+o.cfg.EmbedBatch)]
		for i, t := range batch {
			if n := EstimateTokens(t) + 8; n > numCtx {
				return fail(&CallError{Kind: FailContext, Detail: fmt.Sprintf("text %d needs about %d tokens; %s embeds at most %d", b+i, n, model, numCtx)})
			}
		}
		var resp *api.EmbedResponse
		err := o.retry(ctx, &u, o.cfg.EmbedTimeout, func(actx context.Context) error {
			var err error
			resp, err = o.client.Embed(actx, &api.EmbedRequest{Model: model, Input: batch,
				KeepAlive: &api.Duration{Duration: o.cfg.KeepAlive}, Truncate: &no,
				Options: map[string]any{"num_ctx": numCtx}})
			return err
		})
		if err != nil {
			return fail(err)
		}
		u.Calls++
		u.PromptTokens += resp.PromptEvalCount
		if len(resp.Embeddings) != len(batch) {
			kind := FailMalformed
			if len(resp.Embeddings) == 0 {
				kind = FailEmpty
			}
			return fail(&CallError{Kind: kind, Detail: fmt.Sprintf("asked for %d embeddings, got %d", len(batch), len(resp.Embeddings))})
		}
		for _, v := range resp.Embeddings {
			if dim == 0 {
				dim = len(v)
			}
			if len(v) == 0 || len(v) != dim {
				return fail(&CallError{Kind: FailMalformed, Detail: fmt.Sprintf("embedding of %d dimensions among ones of %d", len(v), dim)})
			}
		}
		out = append(out, resp.Embeddings...)
	}
	u.Wall = time.Since(start)
	return out, u, nil
}

// Embedder adapts one Ollama embedding model to embed.Embedder (Info and
// Embed). Its dimension is learnt from the first reply (or Probe).
type Embedder struct {
	o     *Ollama
	model string
	meter *Meter

	mu  sync.Mutex
	dim int
}

// EmbedderPrefix marks Ollama embedders in a project's recorded embedder
// name ("ollama:bge-m3"), so they are told apart from the built-in one.
const EmbedderPrefix = "ollama:"

// Embedder returns the adapter for model ("" = the configured embed model).
func (o *Ollama) Embedder(model string) *Embedder {
	if model == "" {
		model = o.cfg.EmbedModel
	}
	return &Embedder{o: o, model: model}
}

// WithMeter records the usage of every Embed call in m.
func (e *Embedder) WithMeter(m *Meter) *Embedder { e.meter = m; return e }

// Model is the Ollama model name.
func (e *Embedder) Model() string { return e.model }

// Info names the embedder; Dim is 0 until the first reply or Probe.
func (e *Embedder) Info() kb.EmbedderInfo {
	e.mu.Lock()
	defer e.mu.Unlock()
	return kb.EmbedderInfo{Model: EmbedderPrefix + e.model, Dim: e.dim}
}

// Probe embeds a short text once (if the dimension is not known yet) and
// returns the complete Info.
func (e *Embedder) Probe(ctx context.Context) (kb.EmbedderInfo, error) {
	if info := e.Info(); info.Dim > 0 {
		return info, nil
	}
	if _, err := e.Embed(ctx, []string{"Cairn embedding probe"}); err != nil {
		return kb.EmbedderInfo{}, err
	}
	return e.Info(), nil
}

// Embed embeds texts; a reply whose dimension differs from earlier ones is
// an error (a model replaced under the same name).
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	vecs, u, err := e.o.EmbedWith(ctx, e.model, texts)
	e.meter.Add("embed", u)
	if err != nil {
		return nil, err
	}
	if len(vecs) == 0 {
		return vecs, nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.dim == 0 {
		e.dim = len(vecs[0])
	} else if len(vecs[0]) != e.dim {
		return nil, &CallError{Kind: FailMalformed, Task: "embed", Detail: fmt.Sprintf("model %s now returns %d dimensions, earlier %d", e.model, len(vecs[0]), e.dim)}
	}
	return vecs, nil
}

// MinChatContext is the smallest context window a chat model needs for
// Cairn's prompts: an answer prompt of about 3k tokens with its 1k reply,
// or an extraction pack that falls back to single chunks.
const MinChatContext = 4096

// Pick chooses a model among the installed ones: want if installed and fit,
// else the first installed recommended one that fits, else the installed
// model of the right kind with the longest context. A chat model fits when
// it can chat (capability "completion", or no embedding capability when
// the server lists none) and its context length, when known, is at least
// MinChatContext; an embedding model when it can embed. note says what was
// chosen instead of want and why; "" model means none fits (note says why).
func Pick(installed []ModelInfo, want string, embedding bool) (model, note string) {
	kind := "chat"
	recs := RecommendedChat
	if embedding {
		kind, recs = "embedding", RecommendedEmbed
	}
	why := map[string]string{} // model → why it does not fit
	fits := func(m ModelInfo) bool {
		if embedding {
			if !m.Embedding {
				why[m.Name] = "it is not an embedding model"
				return false
			}
			return true
		}
		if m.Embedding || (len(m.Capabilities) > 0 && !slices.Contains(m.Capabilities, "completion")) {
			why[m.Name] = "it cannot chat (capabilities: " + strings.Join(m.Capabilities, ", ") + ")"
			if len(m.Capabilities) == 0 {
				why[m.Name] = "it is an embedding model"
			}
			return false
		}
		if m.ContextLength > 0 && m.ContextLength < MinChatContext {
			why[m.Name] = fmt.Sprintf("its context holds %d tokens and Cairn's prompts need %d", m.ContextLength, MinChatContext)
			return false
		}
		return true
	}
	find := func(name string) (ModelInfo, bool) {
		for _, m := range installed {
			if sameModel(m.Name, name) {
				return m, true
			}
		}
		return ModelInfo{}, false
	}
	instead := func(chosen string) string {
		if want == "" {
			return ""
		}
		if m, ok := find(want); ok {
			fits(m)
			return fmt.Sprintf("%s model %s is not used: %s; using %s", kind, m.Name, why[m.Name], chosen)
		}
		return fmt.Sprintf("%s model %s is not installed; using %s", kind, want, chosen)
	}
	if want != "" {
		if m, ok := find(want); ok && fits(m) {
			return m.Name, ""
		}
	}
	for _, r := range recs {
		if m, ok := find(r); ok && fits(m) {
			return m.Name, instead(m.Name)
		}
	}
	var best *ModelInfo
	for i, m := range installed {
		if !fits(m) {
			continue
		}
		if best == nil || (!embedding && m.ContextLength > best.ContextLength) {
			best = &installed[i]
		}
	}
	if best != nil {
		return best.Name, instead(best.Name)
	}
	var unfit []string
	for _, m := range installed {
		if w, ok := why[m.Name]; ok && (embedding || !m.Embedding) {
			unfit = append(unfit, m.Name+" ("+w+")")
		}
	}
	note = fmt.Sprintf("no %s model is installed; run `cairn pull %s`", kind, recs[0])
	if len(unfit) > 0 {
		note = fmt.Sprintf("no installed %s model fits: %s; run `cairn pull %s`", kind, strings.Join(unfit, ", "), recs[0])
	}
	return "", note
}

// isNetworkText says whether a server's error line reports a network
// failure of the server's own (registry unreachable, DNS, timeouts).
func isNetworkText(s string) bool {
	s = strings.ToLower(s)
	for _, w := range []string{"dial tcp", "i/o timeout", "no such host", "connection refused", "connection reset", "tls handshake", "network is unreachable", "eof", "timeout"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// sameModel compares names, treating "x" and "x:latest" as the same.
func sameModel(a, b string) bool {
	norm := func(s string) string {
		s = strings.ToLower(strings.TrimSpace(s))
		if !strings.Contains(s, ":") {
			s += ":latest"
		}
		return s
	}
	return norm(a) == norm(b)
}
