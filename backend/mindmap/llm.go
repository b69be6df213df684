package mindmap

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"strings"
	"text/template"

	"cairn/backend/kb"
	"cairn/backend/llm"
)

// The model's task: organise numbered, already-grounded facts under a topic
// and routes. It never writes facts itself, so everything it returns is
// either a given fact id (kept, with its provenance) or dropped.

//go:embed prompts/mindmap.system.txt
var systemPrompt string

//go:embed prompts/mindmap.user.txt
var userPromptText string

//go:embed prompts/mindmap.schema.json
var schemaJSON []byte

var userPrompt = template.Must(template.New("mindmap.user").Parse(userPromptText))

// Schema is the structured reply the model must give.
var Schema = llm.Schema{Name: "mindmap", Schema: json.RawMessage(schemaJSON)}

// LLMOptions tune the model-organised builder.
type LLMOptions struct {
	Model      string // empty: the provider's chat model
	BatchFacts int    // facts per call; longer documents are organised per part, then merged
	LabelBytes int
	// Fallback names the route a fact the model left out goes under (by
	// chunk); facts of chunks not in it go under "Other".
	Fallback map[int64]string
}

// DefaultLLMOptions are the defaults.
func DefaultLLMOptions() LLMOptions { return LLMOptions{BatchFacts: 60, LabelBytes: 280} }

// LLMReply is the decoded model reply.
type LLMReply struct {
	Topic  string `json:"topic"`
	Routes []struct {
		Path  []string `json:"path"`
		Facts []int    `json:"facts"`
	} `json:"routes"`
}

// LLMResult is a model-organised tree and what it cost.
type LLMResult struct {
	Tree     Tree
	Usage    llm.Usage
	Calls    int
	Dropped  int // ids the model returned that were not given (invented) or repeated
	Unplaced int // given facts the model left out (placed under their fallback route)
}

type promptFact struct {
	ID   int
	Text string
}

type promptData struct {
	Title       string
	Headings    []string
	Part, Parts int
	Facts       []promptFact
}

// factFence keeps document text from closing the fence it is quoted in.
var factFence = strings.NewReplacer("FACTS>>>", "FACTS> >>", "<<<FACTS", "< <<FACTS")

// quote makes one line of document text safe in the prompt: it cannot close
// the facts fence or pose as chat-template markup.
func quote(s string) string { return llm.DefuseChatMarkup(factFence.Replace(kb.OneLine(s))) }

// Messages renders the chat messages of one call: the instructions in the
// system role, the document (title, headings, facts) fenced in the user role.
func Messages(title string, headings []string, part, parts int, facts []FactSpan, firstID int) ([]llm.Message, error) {
	data := promptData{Title: quote(title), Part: part, Parts: parts}
	if parts <= 1 {
		data.Part = 0
	}
	for _, h := range headings {
		data.Headings = append(data.Headings, quote(h))
	}
	for i, f := range facts {
		data.Facts = append(data.Facts, promptFact{ID: firstID + i, Text: quote(f.Text)})
	}
	var b bytes.Buffer
	if err := userPrompt.Execute(&b, data); err != nil {
		return nil, err
	}
	return []llm.Message{{Role: "system", Content: systemPrompt}, {Role: "user", Content: b.String()}}, nil
}

// ErrNoUsableRoute is the validation failure of a reply that places none of
// the given facts.
var ErrNoUsableRoute = errors.New("no route lists any of the given fact ids")

// LLM asks the model to organise facts (grounded, in document order) into a
// tree, one call per BatchFacts facts, and merges the parts under the first
// part's topic. Ids the model invents are dropped; given facts it leaves out
// go under their fallback route. Any failed call fails the whole build (the
// caller keeps the offline tree).
func LLM(ctx context.Context, p llm.Provider, d Doc, facts []FactSpan, headings []string, o LLMOptions) (LLMResult, error) {
	if o.BatchFacts <= 0 {
		o.BatchFacts = DefaultLLMOptions().BatchFacts
	}
	if o.LabelBytes <= 0 {
		o.LabelBytes = DefaultLLMOptions().LabelBytes
	}
	var res LLMResult
	if len(facts) == 0 {
		return res, errors.New("no facts to organise")
	}
	parts := (len(facts) + o.BatchFacts - 1) / o.BatchFacts
	var t Tree
	root := t.add(0, kb.MindNode{Kind: kb.MindTopic, Label: cleanTitle(d.Title), DocID: d.ID})
	routes := map[string]int64{}
	placed := make([]bool, len(facts))
	routeFor := func(path []string) int64 {
		parent := root
		key := ""
		for _, l := range path {
			l = shorten(l, 120)
			if l == "" {
				continue
			}
			key += "\x00" + strings.ToLower(l)
			id, ok := routes[key]
			if !ok {
				id = t.add(parent, kb.MindNode{Kind: kb.MindRoute, Label: l, DocID: d.ID})
				routes[key] = id
			}
			parent = id
		}
		return parent
	}
	addFact := func(parent int64, f FactSpan) {
		t.add(parent, kb.MindNode{Kind: kb.MindFact, Label: shorten(f.Text, o.LabelBytes), DocID: d.ID, ChunkID: f.ChunkID,
			PageStart: f.PageStart, PageEnd: f.PageEnd, CharStart: f.CharStart, CharEnd: f.CharEnd})
	}
	for part := 0; part < parts; part++ {
		lo, hi := part*o.BatchFacts, min(len(facts), (part+1)*o.BatchFacts)
		msgs, err := Messages(d.Title, headings, part+1, parts, facts[lo:hi], lo+1)
		if err != nil {
			return res, err
		}
		known := func(id int) bool { return id > lo && id <= hi }
		reply, err := p.ChatJSON(ctx, llm.JSONRequest{Task: "mindmap", Model: o.Model, Messages: msgs, Schema: Schema,
			Validate: func(raw json.RawMessage) error {
				var r LLMReply
				if err := json.Unmarshal(raw, &r); err != nil {
					return err
				}
				for _, rt := range r.Routes {
					for _, id := range rt.Facts {
						if known(id) {
							return nil
						}
					}
				}
				return ErrNoUsableRoute
			}})
		res.Usage = res.Usage.Add(reply.Usage)
		res.Calls++
		if err != nil {
			return res, err
		}
		var r LLMReply
		if err := json.Unmarshal(reply.Raw, &r); err != nil {
			return res, &llm.CallError{Kind: llm.FailMalformed, Task: "mindmap", Detail: err.Error(), Err: err}
		}
		if part == 0 {
			if topic := shorten(r.Topic, 200); topic != "" {
				t.Nodes[0].Label = topic
			}
		}
		for _, rt := range r.Routes {
			var path []string
			for _, l := range rt.Path {
				if l = strings.TrimSpace(l); l != "" {
					path = append(path, l)
				}
			}
			if len(path) == 0 {
				res.Dropped += len(rt.Facts)
				continue
			}
			if len(path) > 3 {
				path = path[:3]
			}
			var parent int64
			for _, id := range rt.Facts {
				if !known(id) || placed[id-1] {
					res.Dropped++
					continue
				}
				if parent == 0 {
					parent = routeFor(path)
				}
				placed[id-1] = true
				addFact(parent, facts[id-1])
			}
		}
	}
	for i, f := range facts {
		if placed[i] {
			continue
		}
		res.Unplaced++
		label := o.Fallback[f.ChunkID]
		if label == "" {
			label = "Other"
		}
		addFact(routeFor([]string{label}), f)
	}
	t.prune()
	res.Tree = t
	return res, nil
}

// FactsOf lists a tree's facts in tree order (as grounded spans).
func FactsOf(t Tree) []FactSpan {
	var out []FactSpan
	for _, n := range t.Nodes {
		if n.Kind == kb.MindFact {
			out = append(out, FactSpan{ChunkID: n.ChunkID, Text: n.Label, CharStart: n.CharStart, CharEnd: n.CharEnd, PageStart: n.PageStart, PageEnd: n.PageEnd})
		}
	}
	return out
}

// RouteOfChunk maps each chunk with a fact in t to the top-level route its
// first fact hangs under (the fallback routes of the model-organised tree).
func RouteOfChunk(t Tree) map[int64]string {
	byID := map[int64]kb.MindNode{}
	for _, n := range t.Nodes {
		byID[n.ID] = n
	}
	out := map[int64]string{}
	for _, n := range t.Nodes {
		if n.Kind != kb.MindFact || out[n.ChunkID] != "" {
			continue
		}
		cur := n
		for cur.Parent != 0 && byID[cur.Parent].Kind != kb.MindTopic {
			cur = byID[cur.Parent]
		}
		if cur.Kind == kb.MindRoute {
			out[n.ChunkID] = cur.Label
		}
	}
	return out
}

// Headings lists a document's distinct headings in order (hints for the model).
func Headings(d Doc, max int) []string {
	seen := map[string]bool{}
	var out []string
	title := cleanTitle(d.Title)
	for _, c := range d.Chunks {
		for _, h := range c.HeadingPath {
			h = strings.Join(strings.Fields(h), " ")
			if junkHeading(h, title) || seen[strings.ToLower(h)] {
				continue
			}
			seen[strings.ToLower(h)] = true
			out = append(out, h)
			if len(out) >= max {
				return out
			}
		}
	}
	return out
}
