// Package extract turns chunks into entities, relations and atomic facts,
// each pointing back at the exact span of the chunk it came from.
//
// Two extractors share one output type. The offline extractor is
// deterministic, needs no model and works chunk by chunk: sentences,
// capitalised spans, the document title, headings and file name as entity
// candidates (frequent n-grams for CJK), typed from the evidence around
// their mentions (types.go); dates, amounts, percentages and quantities as
// values of the entity they qualify, never entities; relations a sentence
// states (stated.go), neighbours it states nothing between as
// co-occurrence; and salient sentences as facts. The model extractor reads a pack of consecutive chunks of one
// document (Pack, DefaultPack) in one schema-constrained call (prompt and
// schema in prompts/, embedded): each chunk is a fenced passage with an id
// (P1, P2, ...) and the reply answers per passage id. Each passage's answer
// is validated against its own chunk only: names that do not occur in the
// chunk are dropped and reported, relations must connect kept entities,
// facts are mapped to the sentence they paraphrase.
//
// Outcome per chunk (Result.Status): ok, empty (the extractor ran and found
// nothing; Reason says so) or failed. When a model call fails, or the model
// returns nothing for a chunk where the offline extractor finds something,
// the chunk is recorded failed with extractor "offline-fallback" and carries
// the offline result, so the graph is never silently empty; the next index
// run retries it with the model. A failed call fails every chunk of its
// pack; a passage the reply left out fails only its chunk, and such a chunk
// (like every chunk of a pack too big for the model's context window) is
// marked Retry: extracted again alone, it may succeed.
package extract

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"cairn/backend/kb"
	"cairn/backend/llm"
)

// Extractor names recorded per chunk (besides a model's name).
const (
	Offline  = "offline"
	Fallback = "offline-fallback"
)

// OfflineVersion names the offline extractor's rules; caches of indexes
// built with older rules (evaluation projects) are keyed by it.
// 2: typed entities (dates, money, sections, forms ...) and predicates only
// where the sentence states one (backend/relphrase); 3: a predicate starts
// with its verb; 4: one-word names only where they occur inside a line,
// places and authors typed by context; 5: abbreviations typed, CJK
// predicates only a relation verb; 6: no predicate from a question, a
// possessor, or a plural noun read as a verb; 7: CJK objects end their
// clause and subjects follow no preposition; 8: no relative clauses, no
// subject after a preposition, appositions end in "of"; 9: types voted
// from evidence (types.go), values (dates, amounts) no entities,
// possessives and contexts no part of a name; 10: a document's title
// gives no type (a title typed "work" split the entity it names from its
// mentions typed by the text); 11: a chunk's type vote carries its weight
// (one name, one type across chunks), more type frames, defined
// abbreviations as short forms, relations carried to each conjunct; 12:
// a list's class noun ("masters such as X"), club frames, a class noun
// used as a name ("the Navy"); 13: the lead sentence states its subject
// of every name it holds, and "It"/"The film" sentences are about the
// lead's subject; 14: "New" opening a name inside a sentence is part of
// it; 15: so is "First", "Second", "Third" ("the Second Varn War"); 16: a
// one-word name the document writes elsewhere in lower case is a common
// word (Input.DocLower), not only one the chunk does; 17: a company's
// legal form after a name ("Acme, Inc.") types it an organisation; 18:
// variants of one name ("Henrik Angell", "Henrik August Angell") and names
// that go on from another do not make a surname ambiguous, a family's name
// is a person's, lists after irregular plurals ("children: …"), names
// with particles ("da Silva") or four words may be people's, more place
// frames ("bordered on the south by X", "located on X", "travels through
// X", "the X and Y rivers", "Old X" after X), and a bracket is an alias
// only when it abbreviates the name or writes it in another script; 19:
// a list's later names take the frame before its first ("played for the
// A, B and C") and its last two names are two ("Alby, Cove and Hesk"),
// more organisation frames ("joining", "served with", "merged with"), a
// body's class noun before a name ("Loyola University Chicago"), states
// and realms as places, a person's title before "of" ("X, king of"); 20:
// an initial's period goes on to the name ("E. D. Marrow"), what a list
// is said to include takes the kind of the sentence's subject ("Towns in
// the zone include X, Y and Z"), other languages' place class nouns
// opening a name ("Piazza …", "Rue …"), a body's name cut to its first
// words is a short form of it, and a body's first word alone is no
// person's first name; 21: a post ("Vice President", "Chief Executive
// Officer") is a concept, not a person, and types the name set beside it
// a person; 22: a post alone is no entity (a post of something is); 23: a
// surname alone is a person's when another passage of the document writes
// the one full name ending with it (Input.DocSurnames); 24: a name whose
// last word the document writes in lower case ("Consolidated Balance
// Sheets") is not a person's by its shape; 25: a legal form ("… SE", "…
// AB") or a trade's plural ("… Communications") ends a company's name;
// 26: a surname two people of the passage share is still a person's, a
// list's names may carry particles ("Brugg an der Vell") or a name in
// brackets, "Mt." before a name makes it a place (and ends no sentence),
// and ranges, drives, trails, ponds, mansions and the like are places;
// 27: a quoted one-word defined term the document writes in lower case
// elsewhere ("(the “Company”)") is no title of a work and no entity, a
// term defined in brackets ("(“AOCI”)") is typed like any name, initials
// after a bare "in" are no place, initials made plural ("RSUs") are a
// concept, and "the seller of …" (an agent noun read from its ending
// after "the") weighs a third for a person; 28: a preposition before a
// possessive ("outside X's coverage area") says nothing of the name's
// kind, a quoted term after "known as", "referred to as" is a
// definition, not a title, and initials after "of" are no place; 29:
// initials joined by periods keep their last one ("U.S.", not "U.S"); 30:
// a quoted term a definition follows ("“Business Day” means …") is no
// title of a work; 31: a document-part noun alone ("Exhibit", "Article",
// "Item" before their numbers) is no entity; 32: three names or more
// joined by commas and ended by a word that names none ("A, B, C, and
// other companies", "…, other companies", "…, etc.": lexicon
// graph_list_tails) are a list, so no neighbours in it are a place in
// another.
// Projects read by older rules are read again (project.refreshOfflineGraph).
const OfflineVersion = "32"

// Types is the fixed set of coarse entity types.
var Types = []string{"person", "organization", "location", "date", "event", "work", "law", "product", "concept", "other"}

// SchemaType is t as the model schema knows it: the offline extractor's
// own types (money, percent, quantity, abbreviation) are "other" there.
func SchemaType(t string) string {
	for _, x := range Types {
		if x == t {
			return t
		}
	}
	return "other"
}

// Input is one chunk with the context extraction may use.
type Input struct {
	Chunk    kb.Chunk // Text is the document text [CharStart, CharEnd)
	DocTitle string
	FileName string
	// Prior is what earlier runs learnt about this chunk with the model
	// (its failed attempts); the zero value for a first attempt.
	Prior Prior
	// DocLower are the words the chunk's document writes in lower case
	// (LowerWords of its chunks), nil when not known: a one-word name the
	// document also writes as a common word ("the Plan" beside "a plan")
	// is a defined term, not a name. The chunk's own words count always.
	DocLower map[string]bool
	// DocSurnames are the words the chunk's document ends names written
	// like people's with, and how many such names end with each
	// (DocSurnames): a one-word name the chunk says nothing of is a
	// person's surname when one of the document's names ends with it.
	DocSurnames map[string]int
}

// LowerWords are the words texts write in lower case (as the offline
// extractor cuts words), for Input.DocLower.
func LowerWords(texts ...string) map[string]bool {
	out := map[string]bool{}
	for _, t := range texts {
		for _, w := range tokens(t) {
			if r, _ := utf8.DecodeRuneInString(w.text); unicode.IsLower(r) {
				out[w.text] = true
			}
		}
	}
	return out
}

// DocSurnames counts, for each word, the distinct names written like a
// person's (two or three plain capitalised words; "Peter Ham" and "Peter
// William Ham" once) that end with it in texts, a document's passages:
// for Input.DocSurnames.
func DocSurnames(texts ...string) map[string]int {
	seen := map[[2]string]bool{}
	out := map[string]int{}
	for _, t := range texts {
		toks := tokens(t)
		for i := 0; i < len(toks); {
			j := i
			for j < len(toks) && capitalised(toks[j].text) && (j == i || onlySpace(t[toks[j-1].b:toks[j].a])) {
				j++
			}
			if j == i {
				i++
				continue
			}
			if n := j - i; n >= 2 && n <= 3 {
				name := t[toks[i].a:toks[j-1].b]
				if personShape(name) {
					key := [2]string{toks[i].text, toks[j-1].text}
					if !seen[key] {
						seen[key] = true
						out[toks[j-1].text]++
					}
				}
			}
			i = j
		}
	}
	return out
}

// Prior is a chunk's earlier failed extractions with the current model.
// A retried chunk is sent differently each time (see Request and package
// jobs): alone from the first retry, and from the second with a smaller
// reply budget and a note on what went wrong.
type Prior struct {
	Attempts int    // failed attempts so far
	Reason   string // the last failure, as recorded
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
	// Values: dates, amounts, percentages, quantities its sentences state
	// of it (offline extractor; see attachValues).
	Values []kb.Value `json:"values,omitempty"`
	// TypeWeight is the strength of the evidence for Type in this chunk
	// (the offline extractor's vote; 0: unknown). The store sums it over
	// all the mentions of a name to decide the name's one type.
	TypeWeight float64 `json:"-"`
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
	// llm.FailUnreachable, ...; llm.FailEmpty when the model kept nothing;
	// llm.FailSchema with Missing when the reply left the passage out).
	Kind      llm.FailureKind `json:"kind,omitempty"`
	Extractor string          `json:"extractor"`
	// Usage is this chunk's share of its pack's call: tokens and wall time
	// split in proportion to the chunks' tokens, the call itself (and its
	// retries and repairs) counted on the pack's first chunk, so the sums
	// over a pack are the call's.
	Usage     llm.Usage  `json:"usage"`
	Entities  []Entity   `json:"entities"`
	Relations []Relation `json:"relations"`
	Facts     []kb.Fact  `json:"facts"`
	// Missing: the model's reply had no answer for this chunk's passage.
	Missing bool `json:"-"`
	// Retry: the pack's call gave this chunk nothing a call of its own may
	// give (its passage was missing from the reply, or the pack did not fit
	// the model's context window); extract it again alone (ExtractPack with
	// this one input) before recording it. Only set in packs of two chunks
	// or more.
	Retry bool `json:"-"`
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

// Extract extracts one chunk: ExtractPack with one input. The error is
// only for cancellation.
func (x *Extractor) Extract(ctx context.Context, in Input) (Result, error) {
	rs, err := x.ExtractPack(ctx, []Input{in})
	if err != nil {
		return Result{}, err
	}
	return rs[0], nil
}

// ExtractPack extracts a pack of chunks of one document (see Pack) with
// one model call, or offline chunk by chunk; it returns one result per
// input, in order. The error is for cancellation and for inputs of more
// than one document: every other failure is a result with status failed
// and a reason. A failed call fails every chunk of the pack the same way
// (with the offline result standing in); a chunk whose passage the reply
// left out fails alone. Results marked Retry should be extracted again
// alone (their usage share carried over: see Result.Usage).
func (x *Extractor) ExtractPack(ctx context.Context, ins []Input) ([]Result, error) {
	if len(ins) == 0 {
		return nil, nil
	}
	for _, in := range ins[1:] {
		if in.Chunk.DocID != ins[0].Chunk.DocID {
			return nil, fmt.Errorf("extract: a pack holds chunks of documents %d and %d", ins[0].Chunk.DocID, in.Chunk.DocID)
		}
	}
	offline := func() []Result {
		out := make([]Result, len(ins))
		for i, in := range ins {
			out[i] = ExtractOffline(in)
		}
		return out
	}
	if x.Provider == nil || x.Provider.Mode() == llm.ModeOffline {
		return offline(), nil
	}
	cctx := ctx
	if x.Timeout > 0 {
		var cancel context.CancelFunc
		cctx, cancel = context.WithTimeout(ctx, x.Timeout)
		defer cancel()
	}
	rs, u, err := ExtractLLM(cctx, x.Provider, ins)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if errors.Is(err, llm.ErrOffline) {
		return offline(), nil
	}
	weights := make([]int, len(ins))
	for i, in := range ins {
		weights[i] = Tokens(in.Chunk)
	}
	shares := SplitUsage(u, weights)
	out := make([]Result, len(ins))
	if err != nil {
		kind := llm.KindOf(err)
		for i, in := range ins {
			out[i] = fallback(in, shares[i], failureReason(err))
			out[i].Kind = kind
			out[i].Retry = len(ins) > 1 && kind == llm.FailContext
		}
		return out, nil
	}
	name := x.Name()
	for i, in := range ins {
		r := rs[i]
		if r.Missing {
			fb := fallback(in, shares[i], r.Reason)
			fb.Kind, fb.Missing, fb.Retry = r.Kind, true, len(ins) > 1
			out[i] = fb
			continue
		}
		r.Extractor = name
		r.Usage = shares[i]
		if len(r.Entities) == 0 && len(r.Facts) == 0 {
			off := ExtractOffline(in)
			if substantive(off) {
				fb := fallback(in, r.Usage, "empty: the model kept nothing from a chunk the offline extractor finds "+
					fmt.Sprintf("%d entities in", len(off.Entities))+reasonSuffix(r.Reason))
				fb.Kind = llm.FailEmpty
				r = fb
			}
		}
		out[i] = r
	}
	return out, nil
}

// SplitUsage shares one call's usage among the chunks of its pack: prompt
// and completion tokens and wall time in proportion to weights (the
// chunks' tokens; equal shares when they are all zero), the call, retries
// and repairs on the first chunk. The shares add up to u exactly.
func SplitUsage(u llm.Usage, weights []int) []llm.Usage {
	out := make([]llm.Usage, len(weights))
	if len(out) == 0 {
		return out
	}
	total := 0
	for _, w := range weights {
		total += max(w, 0)
	}
	// part i of n is x*cum(i+1)/W - x*cum(i)/W, so the parts sum to x
	cum := func(i int) int64 {
		s := 0
		for _, w := range weights[:i] {
			if total == 0 {
				s++
			} else {
				s += max(w, 0)
			}
		}
		return int64(s)
	}
	w := int64(total)
	if w == 0 {
		w = int64(len(weights))
	}
	part := func(x int64, i int) int64 { return x*cum(i+1)/w - x*cum(i)/w }
	for i := range out {
		out[i].PromptTokens = int(part(int64(u.PromptTokens), i))
		out[i].CompletionTokens = int(part(int64(u.CompletionTokens), i))
		out[i].Wall = time.Duration(part(int64(u.Wall), i))
	}
	out[0].Calls, out[0].Retries, out[0].Repairs = u.Calls, u.Retries, u.Repairs
	return out
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
		return string(k) + ": " + kb.OneLine(err.Error())
	}
	return kb.OneLine(err.Error())
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
