// Package extract turns one chunk into entities, relations and atomic facts,
// each pointing back at the exact span of the chunk it came from.
//
// Two extractors share one output type. The offline extractor is
// deterministic and needs no model: sentences, capitalised spans, the
// document title, headings and file name as entity candidates (frequent
// n-grams for CJK), relations from co-occurrence in a sentence with the
// connecting phrase as predicate, and salient sentences as facts. The model
// extractor makes exactly one schema-constrained call per chunk (prompt and
// schema in prompts/, embedded) and validates the reply against the source:
// names that do not occur in the chunk are dropped and reported, relations
// must connect kept entities, facts are mapped to the sentence they
// paraphrase.
//
// Outcome per chunk (Result.Status): ok, empty (the extractor ran and found
// nothing; Reason says so) or failed. When a model call fails, or the model
// returns nothing for a chunk where the offline extractor finds something,
// the chunk is recorded failed with extractor "offline-fallback" and carries
// the offline result, so the graph is never silently empty; the next index
// run retries it with the model.
package extract

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"cairn/backend/kb"
	"cairn/backend/llm"
)

// Extractor names recorded per chunk (besides a model's name).
const (
	Offline  = "offline"
	Fallback = "offline-fallback"
)

// Types is the fixed set of coarse entity types.
var Types = []string{"person", "organization", "location", "date", "event", "work", "law", "product", "concept", "other"}

// Input is one chunk with the context extraction may use.
type Input struct {
	Chunk    kb.Chunk // Text is the document text [CharStart, CharEnd)
	DocTitle string
	FileName string
}

// Entity is one entity found in a chunk.
type Entity struct {
	Name         string      `json:"name"`
	Type         string      `json:"type"`
	SemanticType string      `json:"semantic_type,omitempty"`
	Description  string      `json:"description,omitempty"`
	Aliases      []string    `json:"aliases,omitempty"`
	Concepts     []string    `json:"concepts,omitempty"` // belongTo Concepts[0], Concepts[i] isA Concepts[i+1]
	Mentions     []kb.Source `json:"mentions"`
}

// Relation links two entities of the same chunk (indexes into Entities).
type Relation struct {
	Subject    int       `json:"subject"`
	Object     int       `json:"object"`
	Predicate  string    `json:"predicate"`
	Statement  string    `json:"statement"`
	Confidence float64   `json:"confidence"`
	Source     kb.Source `json:"source"`
}

// Result is the extraction of one chunk.
type Result struct {
	Status kb.ExtractStatus `json:"status"`
	Reason string           `json:"reason,omitempty"`
	// Kind is the model failure behind a failed status (llm.FailTimeout,
	// llm.FailUnreachable, ...; llm.FailEmpty when the model kept nothing).
	Kind      llm.FailureKind `json:"kind,omitempty"`
	Extractor string          `json:"extractor"`
	Usage     llm.Usage       `json:"usage"`
	Entities  []Entity        `json:"entities"`
	Relations []Relation      `json:"relations"`
	Facts     []kb.Fact       `json:"facts"`
}

func (r *Result) setStatus(emptyReason string) {
	if len(r.Entities) > 0 || len(r.Facts) > 0 {
		r.Status = kb.ExtractOK
		return
	}
	r.Status = kb.ExtractEmpty
	if r.Reason == "" {
		r.Reason = emptyReason
	} else {
		r.Reason = emptyReason + "; " + r.Reason
	}
}

// Extractor extracts chunks with a provider: the model when it has one, the
// offline extractor when the provider answers llm.ErrOffline.
type Extractor struct {
	Provider llm.Provider
	Model    string // recorded as the extractor name; "" → ModelName(Provider)
	Timeout  time.Duration
}

// ModelName is the chat model behind a provider ("offline" without one).
func ModelName(p llm.Provider) string {
	if p == nil || p.Mode() == llm.ModeOffline {
		return Offline
	}
	if s, ok := p.(interface{ Status() llm.Status }); ok {
		if m := s.Status().ChatModel; m != "" {
			return m
		}
	}
	if c, ok := p.(interface{ Config() llm.OllamaConfig }); ok && c.Config().ChatModel != "" {
		return c.Config().ChatModel
	}
	return "llm"
}

// Name is the extractor name chunks are recorded under for this provider.
func (x *Extractor) Name() string {
	if x.Provider == nil || x.Provider.Mode() == llm.ModeOffline {
		return Offline
	}
	if x.Model != "" {
		return x.Model
	}
	return ModelName(x.Provider)
}

// Extract extracts one chunk. The error is only for cancellation: every
// other failure is a Result with status failed and a reason.
func (x *Extractor) Extract(ctx context.Context, in Input) (Result, error) {
	if x.Provider == nil || x.Provider.Mode() == llm.ModeOffline {
		return ExtractOffline(in), nil
	}
	cctx := ctx
	if x.Timeout > 0 {
		var cancel context.CancelFunc
		cctx, cancel = context.WithTimeout(ctx, x.Timeout)
		defer cancel()
	}
	r, err := ExtractLLM(cctx, x.Provider, in)
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	name := x.Name()
	if errors.Is(err, llm.ErrOffline) {
		return ExtractOffline(in), nil
	}
	if err != nil {
		fb := fallback(in, r.Usage, failureReason(err))
		fb.Kind = llm.KindOf(err)
		return fb, nil
	}
	r.Extractor = name
	if len(r.Entities) == 0 && len(r.Facts) == 0 {
		off := ExtractOffline(in)
		if substantive(off) {
			fb := fallback(in, r.Usage, "empty: the model kept nothing from a chunk the offline extractor finds "+
				fmt.Sprintf("%d entities in", len(off.Entities))+reasonSuffix(r.Reason))
			fb.Kind = llm.FailEmpty
			return fb, nil
		}
	}
	return r, nil
}

// substantive says whether an offline result holds more than the
// document's own title or file name: only then does a model that returned
// nothing count as failed (else every run would call the model again for a
// chunk that only repeats the title in a running header).
func substantive(r Result) bool {
	if len(r.Facts) > 0 {
		return true
	}
	for _, e := range r.Entities {
		if e.SemanticType != "document" {
			return true
		}
	}
	return false
}

func reasonSuffix(r string) string {
	if r == "" {
		return ""
	}
	return " (" + r + ")"
}

func failureReason(err error) string {
	if k := llm.KindOf(err); k != "" {
		return string(k) + ": " + oneLine(err.Error())
	}
	return oneLine(err.Error())
}

// fallback is the offline result recorded as a failed model extraction.
func fallback(in Input, u llm.Usage, reason string) Result {
	r := ExtractOffline(in)
	r.Status = kb.ExtractFailed
	r.Extractor = Fallback
	r.Usage = u
	r.Reason = reason
	return r
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// source is the provenance of [a, b) (byte offsets inside the chunk text),
// with the exact pages: the chunk text holds a page separator at every page
// break.
func source(c kb.Chunk, a, b int) kb.Source {
	ps := c.PageStart + strings.Count(c.Text[:a], kb.PageSeparator)
	pe := ps + strings.Count(c.Text[a:b], kb.PageSeparator)
	if pe > c.PageEnd || ps > c.PageEnd {
		ps, pe = min(ps, c.PageEnd), c.PageEnd
	}
	return kb.Source{DocID: c.DocID, ChunkID: c.ID, PageStart: ps, PageEnd: pe, CharStart: c.CharStart + a, CharEnd: c.CharStart + b}
}
