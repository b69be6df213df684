package extract

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"text/template"

	"cairn/backend/chunk"
	"cairn/backend/kb"
	"cairn/backend/llm"
)

//go:embed prompts/system.txt prompts/user.txt prompts/schema.json
var promptFS embed.FS

var (
	systemPrompt string
	userTemplate *template.Template
	// Schema is the JSON schema of the extraction reply (prompts/schema.json).
	Schema llm.Schema
)

func init() {
	b, err := promptFS.ReadFile("prompts/system.txt")
	if err != nil {
		panic(err)
	}
	systemPrompt = strings.TrimSpace(string(b))
	u, err := promptFS.ReadFile("prompts/user.txt")
	if err != nil {
		panic(err)
	}
	userTemplate = template.Must(template.New("user").Parse(strings.TrimSpace(string(u))))
	s, err := promptFS.ReadFile("prompts/schema.json")
	if err != nil {
		panic(err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, s); err != nil {
		panic(err)
	}
	Schema = llm.Schema{Name: "extract", Schema: json.RawMessage(compact.Bytes())}
}

// fence returns a line of backticks longer than any run of backticks in text.
func fence(text string) string {
	longest, run := 0, 0
	for _, r := range text {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

// Messages is the chat the model receives for one chunk: the instructions
// in the system role, the document text fenced in the user message.
func Messages(in Input) []llm.Message {
	var b strings.Builder
	title := oneLine(in.DocTitle)
	if title == "" {
		title = oneLine(in.FileName)
	}
	text := strings.ReplaceAll(in.Chunk.Text, kb.PageSeparator, "\n")
	_ = userTemplate.Execute(&b, map[string]string{
		"Title":   title,
		"Section": oneLine(strings.Join(in.Chunk.HeadingPath, " > ")),
		"Fence":   fence(text),
		"Text":    strings.TrimSpace(text),
	})
	return []llm.Message{{Role: "system", Content: systemPrompt}, {Role: "user", Content: b.String()}}
}

// Request is the one model call made for a chunk.
func Request(in Input) llm.JSONRequest {
	return llm.JSONRequest{
		Task:     "extract",
		Messages: Messages(in),
		Schema:   Schema,
		Validate: func(raw json.RawMessage) error { _, err := ParseReply(raw); return err },
	}
}

// Reply is the model's answer, decoded.
type Reply struct {
	Entities []struct {
		Name         string   `json:"name"`
		Type         string   `json:"type"`
		SemanticType string   `json:"semantic_type"`
		Description  string   `json:"description"`
		Aliases      []string `json:"aliases"`
		Broader      []string `json:"broader"`
	} `json:"entities"`
	Relations []struct {
		Subject    string  `json:"subject"`
		Predicate  string  `json:"predicate"`
		Object     string  `json:"object"`
		Statement  string  `json:"statement"`
		Confidence float64 `json:"confidence"`
	} `json:"relations"`
	Facts []string `json:"facts"`
}

// ParseReply decodes a reply; it fails when the JSON is not one object with
// the three lists (the provider's repair round sends the error back).
func ParseReply(raw []byte) (Reply, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(raw, &probe); err != nil {
		return Reply{}, fmt.Errorf("reply is not a JSON object: %w", err)
	}
	for _, k := range []string{"entities", "relations", "facts"} {
		v, ok := probe[k]
		if !ok {
			return Reply{}, fmt.Errorf("reply has no %q list", k)
		}
		if t := bytes.TrimSpace(v); len(t) == 0 || (t[0] != '[' && !bytes.Equal(t, []byte("null"))) {
			return Reply{}, fmt.Errorf("%q is not a list", k)
		}
	}
	var r Reply
	if err := json.Unmarshal(raw, &r); err != nil {
		return Reply{}, fmt.Errorf("reply does not match the schema: %w", err)
	}
	return r, nil
}

// ExtractLLM makes the one model call for a chunk and validates the reply
// against the chunk text. A failed call returns the error (with the usage
// spent, if any, in the Result).
func ExtractLLM(ctx context.Context, p llm.Provider, in Input) (Result, error) {
	rep, err := p.ChatJSON(ctx, Request(in))
	if err != nil {
		var ce *llm.CallError
		u := rep.Usage
		if errors.As(err, &ce) {
			u = u.Add(ce.Usage)
		}
		return Result{Usage: u}, err
	}
	parsed, err := ParseReply(rep.Raw)
	if err != nil {
		return Result{Usage: rep.Usage}, &llm.CallError{Kind: llm.FailSchema, Task: "extract", Detail: err.Error(), Usage: rep.Usage, Err: err}
	}
	r := Validate(in, parsed)
	r.Usage = rep.Usage
	return r, nil
}

var typeSet = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range Types {
		m[t] = true
	}
	return m
}()

// Validate keeps what the chunk text supports: entities whose name (or an
// alias) occurs in the chunk, relations between kept entities, facts that
// map to a sentence of the chunk. What was dropped is said in Reason.
func Validate(in Input, rep Reply) Result {
	c := in.Chunk
	text := c.Text
	f := fold(text)
	r := Result{Entities: []Entity{}, Relations: []Relation{}, Facts: []kb.Fact{}}
	var droppedNames []string
	byKey := map[string]int{} // normalised name or alias -> entity index
	for _, e := range rep.Entities {
		name := oneLine(e.Name)
		names := append([]string{name}, e.Aliases...)
		var spans [][2]int
		surface := ""
		for _, n := range names {
			n = oneLine(n)
			if n == "" {
				continue
			}
			if spans = findAll(text, f, n, maxMentionsPerName); len(spans) > 0 {
				surface = text[spans[0][0]:spans[0][1]]
				break
			}
		}
		if surface == "" || kb.NormKey(surface) == "" {
			if name != "" {
				droppedNames = append(droppedNames, name)
			}
			continue
		}
		key := kb.NormKey(surface)
		var aliases []string
		for _, n := range names {
			if k := kb.NormKey(n); k != "" && k != key {
				aliases = append(aliases, oneLine(n))
			}
		}
		if i, ok := byKey[key]; ok { // the same entity listed twice
			r.Entities[i].Aliases = dedupe(append(r.Entities[i].Aliases, aliases...), r.Entities[i].Name)
			continue
		}
		typ := strings.ToLower(strings.TrimSpace(e.Type))
		if !typeSet[typ] {
			typ = "other"
		}
		ent := Entity{Name: surface, Type: typ, SemanticType: oneLine(e.SemanticType), Description: oneLine(e.Description), Aliases: dedupe(aliases, surface)}
		var chain []string
		if ent.SemanticType != "" {
			chain = append(chain, ent.SemanticType)
		}
		chain = append(chain, e.Broader...)
		ent.Concepts = dedupe(chain, "")
		for _, sp := range spans {
			ent.Mentions = append(ent.Mentions, source(c, sp[0], sp[1]))
		}
		i := len(r.Entities)
		r.Entities = append(r.Entities, ent)
		byKey[key] = i
		for _, a := range ent.Aliases {
			if k := kb.NormKey(a); k != "" {
				if _, taken := byKey[k]; !taken {
					byKey[k] = i
				}
			}
		}
	}

	sents := chunk.Sentences(text)
	sentWords := make([][]string, len(sents))
	for i, s := range sents {
		sentWords[i] = words(fold(text[s[0]:s[1]]).s)
	}
	inSentence := func(e int, s [2]int) bool {
		for _, m := range r.Entities[e].Mentions {
			if m.CharStart-c.CharStart >= s[0] && m.CharEnd-c.CharStart <= s[1] {
				return true
			}
		}
		return false
	}
	dropRel := 0
	for _, rel := range rep.Relations {
		si, ok1 := byKey[kb.NormKey(rel.Subject)]
		oi, ok2 := byKey[kb.NormKey(rel.Object)]
		pred := oneLine(rel.Predicate)
		if !ok1 || !ok2 || si == oi || pred == "" || len(sents) == 0 {
			dropRel++
			continue
		}
		stmt := oneLine(rel.Statement)
		sw := words(fold(stmt).s)
		best, bestScore := 0, -1.0
		for i, s := range sents {
			score := overlap(sw, sentWords[i])
			if inSentence(si, s) {
				score += 0.5
			}
			if inSentence(oi, s) {
				score += 0.5
			}
			if score > bestScore {
				best, bestScore = i, score
			}
		}
		if stmt == "" {
			stmt = oneLine(text[sents[best][0]:sents[best][1]])
		}
		conf := rel.Confidence
		if conf < 0 || conf > 1 || conf != conf {
			conf = 0.5
		}
		r.Relations = append(r.Relations, Relation{Subject: si, Object: oi, Predicate: pred, Statement: stmt, Confidence: conf,
			Source: source(c, sents[best][0], sents[best][1])})
	}
	dropFact := 0
	for _, ft := range rep.Facts {
		ft = oneLine(ft)
		fw := words(fold(ft).s)
		best, bestScore := -1, 0.0
		for i := range sents {
			if s := overlap(fw, sentWords[i]); s > bestScore {
				best, bestScore = i, s
			}
		}
		if ft == "" || best < 0 || bestScore < 0.4 {
			dropFact++
			continue
		}
		r.Facts = append(r.Facts, kb.Fact{Text: ft, Source: source(c, sents[best][0], sents[best][1])})
	}
	sort.SliceStable(r.Facts, func(i, j int) bool { return r.Facts[i].Source.CharStart < r.Facts[j].Source.CharStart })
	for i := range r.Facts {
		r.Facts[i].Ordinal = i
	}
	var notes []string
	if len(droppedNames) > 0 {
		shown := droppedNames
		if len(shown) > 5 {
			shown = shown[:5]
		}
		notes = append(notes, fmt.Sprintf("dropped %d of %d entities not found in the text (%s)", len(droppedNames), len(rep.Entities), strings.Join(shown, ", ")))
	}
	if dropRel > 0 {
		notes = append(notes, fmt.Sprintf("dropped %d of %d relations not between kept entities", dropRel, len(rep.Relations)))
	}
	if dropFact > 0 {
		notes = append(notes, fmt.Sprintf("dropped %d of %d facts matching no sentence", dropFact, len(rep.Facts)))
	}
	r.Reason = strings.Join(notes, "; ")
	if len(rep.Entities) == 0 && len(rep.Facts) == 0 {
		r.setStatus("the model returned nothing")
	} else {
		r.setStatus("nothing the model returned was found in the text")
	}
	return r
}
