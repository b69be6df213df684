package llm

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// Ratios learns, per model, how the server's real prompt token count
// (prompt_eval_count) compares with Cairn's estimate (EstimateMessages):
// when the server counted more than estimated, the worst ratio seen, with
// a 5% margin, becomes that model's factor:
// every later prompt is sized at estimate × factor. The estimate is
// conservative for the Qwen tokenizer (see tokens.go), so the factor starts
// at 1 and only ever rises: a model whose tokenizer splits text finer than
// the estimate assumes (an older Llama on CJK, say) raises it after its
// first calls; a model that tokenizes more coarsely never lowers it below 1,
// because one prompt of prose says nothing about the next table.
//
// With a path, factors are persisted as a small JSON file ({"model": factor})
// and read back when the Ratios is made, so what was learnt survives a
// restart. Safe for concurrent use.
type Ratios struct {
	mu      sync.Mutex
	path    string
	factors map[string]float64
}

// ratioMargin is added to an observed ratio before it becomes a factor.
const ratioMargin = 1.05

// maxRatio bounds a factor (a server that counts something else entirely
// must not make every prompt "too long").
const maxRatio = 4.0

// NewRatios returns learnt factors persisted at path ("" keeps them in
// memory only). A missing or unreadable file starts empty.
func NewRatios(path string) *Ratios {
	r := &Ratios{path: path, factors: map[string]float64{}}
	if path != "" {
		if b, err := os.ReadFile(path); err == nil {
			var m map[string]float64
			if json.Unmarshal(b, &m) == nil {
				for k, v := range m {
					if v >= 1 && v <= maxRatio && !math.IsNaN(v) {
						r.factors[k] = v
					}
				}
			}
		}
	}
	return r
}

// Factor is model's learnt factor (1 when nothing was learnt).
func (r *Ratios) Factor(model string) float64 {
	if r == nil {
		return 1
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if f, ok := r.factors[canonModel(model)]; ok {
		return f
	}
	return 1
}

// Observe records one call: the estimate Cairn made and the server's count.
// It returns true when the factor changed.
func (r *Ratios) Observe(model string, estimate, real int) bool {
	if r == nil || estimate <= 0 || real <= estimate {
		return false // the estimate held: nothing to learn
	}
	return r.raise(model, float64(real)/float64(estimate)*ratioMargin)
}

// Bump raises model's factor by f (a server refused a prompt as too long
// although the estimate said it fits).
func (r *Ratios) Bump(model string, f float64) bool {
	return r.raise(model, r.Factor(model)*f)
}

func (r *Ratios) raise(model string, f float64) bool {
	if r == nil {
		return false
	}
	f = min(f, maxRatio)
	key := canonModel(model)
	r.mu.Lock()
	old, ok := r.factors[key]
	if !ok {
		old = 1
	}
	if f <= old {
		r.mu.Unlock()
		return false
	}
	r.factors[key] = math.Round(f*1000) / 1000
	snapshot := make(map[string]float64, len(r.factors))
	for k, v := range r.factors {
		snapshot[k] = v
	}
	path := r.path
	r.mu.Unlock()
	if path != "" {
		saveRatios(path, snapshot)
	}
	return true
}

// Factors returns a copy of every learnt factor.
func (r *Ratios) Factors() map[string]float64 {
	out := map[string]float64{}
	if r == nil {
		return out
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, v := range r.factors {
		out[k] = v
	}
	return out
}

// saveRatios writes the file under a temporary name and renames it.
func saveRatios(path string, m map[string]float64) {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".token-ratios-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(append(b, '\n'))
	cerr := tmp.Close()
	if werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
	}
}

// canonModel names a model the way Ollama does ("x" is "x:latest").
func canonModel(name string) string {
	if name == "" {
		return name
	}
	n := []rune(name)
	for _, c := range n {
		if c == ':' {
			return name
		}
	}
	return name + ":latest"
}

// DefaultRatiosPath is where the app and the CLI keep learnt factors:
// $CAIRN_CACHE_DIR/token-ratios.json, else <user cache dir>/cairn/
// token-ratios.json ("" when there is no cache dir: memory only).
func DefaultRatiosPath() string {
	if d := os.Getenv("CAIRN_CACHE_DIR"); d != "" {
		return filepath.Join(d, "token-ratios.json")
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "cairn", "token-ratios.json")
	}
	return ""
}

var (
	sharedOnce   sync.Once
	sharedRatios *Ratios
)

// SharedRatios is the process's Ratios at DefaultRatiosPath, shared by
// every provider the process makes. In a test binary each call returns a
// fresh in-memory Ratios instead: a test's fake server must neither read
// nor teach the user's learnt factors, nor another test's.
func SharedRatios() *Ratios {
	if testing.Testing() {
		return NewRatios("")
	}
	sharedOnce.Do(func() { sharedRatios = NewRatios(DefaultRatiosPath()) })
	return sharedRatios
}

// TokenFactor is model's learnt token factor (see Ratios); callers that
// budget text before a call (extraction packs) divide by it.
func (o *Ollama) TokenFactor(model string) float64 {
	if model == "" {
		model = o.cfg.ChatModel
	}
	return o.cfg.Ratios.Factor(model)
}

// TokenFactor is the current chat model's learnt token factor (1 offline).
func (a *Auto) TokenFactor(model string) float64 {
	if a.Mode() != ModeOllama {
		return 1
	}
	return a.ollama.TokenFactor(a.chatModel(model))
}
