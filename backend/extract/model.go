package extract

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"text/template"

	"cairn/backend/chunk"
	"cairn/backend/kb"
	"cairn/backend/llm"
)

//go:embed prompts/system.txt prompts/user.txt prompts/passage.schema.json prompts/retry.txt
var promptFS embed.FS

var (
	systemPrompt = promptText("prompts/system.txt")
	userTemplate = promptTemplate("user", "prompts/user.txt")
	// passageSchema is the schema of one passage's answer
	// (prompts/passage.schema.json), compact.
	passageSchema = compactJSON(promptText("prompts/passage.schema.json"))
	// retryTemplate is the note added to the second retry of a chunk.
	retryTemplate = promptTemplate("retry", "prompts/retry.txt")
)

// promptText is an embedded prompt file, trimmed; a missing one is a
// build mistake, so it panics.
func promptText(name string) string {
	b, err := promptFS.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return strings.TrimSpace(string(b))
}

// promptTemplate parses an embedded prompt file as a text template.
func promptTemplate(tmpl, name string) *template.Template {
	return template.Must(template.New(tmpl).Parse(promptText(name)))
}

// compactJSON is s without the spaces JSON allows; s must be valid JSON.
func compactJSON(s string) []byte {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// RetryReplyTokens is the reply budget of a chunk's second retry: a reply
// that failed by running long (cut, or too big to be valid) gets less room
// and is asked to be small.
const RetryReplyTokens = 1024

// PassageID is the label of the i-th passage (from 0) of a pack: P1, P2, ...
func PassageID(i int) string { return "P" + strconv.Itoa(i+1) }

// PackSchema is the JSON schema of the reply to a pack of n passages
// (named "extract"): one object with a member per passage id, P1 to Pn in
// that order, each holding that passage's entities, relations and facts
// (prompts/passage.schema.json). No member is required: a reply that
// leaves a passage out still brings the others home, and the chunk left
// out is extracted again on its own.
func PackSchema(n int) llm.Schema {
	var b bytes.Buffer
	b.WriteString(`{"title":"extract","type":"object","additionalProperties":false,"properties":{`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:", PassageID(i))
		b.Write(passageSchema)
	}
	b.WriteString(`}}`)
	return llm.Schema{Name: "extract", Schema: json.RawMessage(b.Bytes())}
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

type passageData struct {
	ID, Section, Columns, Fence, Text string
}

// Messages is the chat the model receives for a pack of chunks of one
// document: the instructions in the system role; the document title and
// each chunk's text, labelled with its passage id and fenced by a line of
// backticks longer than any in that text, in the user message. Document
// text cannot pose as chat-template markup (llm.DefuseChatMarkup).
func Messages(ins []Input) []llm.Message {
	var b strings.Builder
	title := ""
	if len(ins) > 0 {
		title = llm.DefuseChatMarkup(kb.OneLine(ins[0].DocTitle))
		if title == "" {
			title = llm.DefuseChatMarkup(kb.OneLine(ins[0].FileName))
		}
	}
	ps := make([]passageData, len(ins))
	ids := make([]string, len(ins))
	for i, in := range ins {
		text := llm.DefuseChatMarkup(strings.TrimSpace(strings.ReplaceAll(in.Chunk.Text, kb.PageSeparator, "\n")))
		ids[i] = PassageID(i)
		section := llm.DefuseChatMarkup(kb.OneLine(strings.Join(in.Chunk.HeadingPath, " > ")))
		columns := llm.DefuseChatMarkup(kb.OneLine(in.Chunk.TableHeader))
		ps[i] = passageData{ID: ids[i], Section: section, Columns: columns, Fence: fence(text), Text: text}
	}
	_ = userTemplate.Execute(&b, map[string]any{"Title": title, "Passages": ps, "IDs": strings.Join(ids, ", ")})
	return []llm.Message{{Role: "system", Content: systemPrompt}, {Role: "user", Content: b.String()}}
}

// Passages reads the passages back out of a user message built by
// Messages: their ids in order and each one's text (the chunk text with
// page breaks as newlines, trimmed). Fake models in tests use it to answer
// per passage id.
func Passages(user string) (ids []string, texts map[string]string) {
	texts = map[string]string{}
	lines := strings.Split(user, "\n")
	for i := 0; i+1 < len(lines); i++ {
		rest, ok := strings.CutPrefix(lines[i], "Passage P")
		f := lines[i+1]
		if !ok || !strings.HasPrefix(f, "```") || strings.Trim(f, "`") != "" {
			continue
		}
		id, _, _ := strings.Cut("P"+rest, " ")
		j := i + 2
		for j < len(lines) && lines[j] != f {
			j++
		}
		ids = append(ids, id)
		texts[id] = strings.Join(lines[i+2:min(j, len(lines))], "\n")
		i = j
	}
	return ids, texts
}

// Request is the one model call made for a pack of chunks of one document.
// A pack of more than one chunk gets ReplyTokensPerPassage of reply per
// chunk, MaxPackReplyTokens at most; one chunk, the provider's default.
func Request(ins []Input) llm.JSONRequest {
	n := len(ins)
	req := llm.JSONRequest{
		Task:     "extract",
		Messages: Messages(ins),
		Schema:   PackSchema(n),
		Validate: func(raw json.RawMessage) error { _, err := ParsePack(raw, n); return err },
	}
	if n > 1 {
		req.MaxTokens = min(ReplyTokensPerPassage*n, MaxPackReplyTokens)
	}
	if n == 1 && ins[0].Prior.Attempts >= 2 {
		var note strings.Builder
		reason := llm.DefuseChatMarkup(kb.OneLine(ins[0].Prior.Reason))
		if r := []rune(reason); len(r) > 200 {
			reason = string(r[:200]) + "…"
		}
		_ = retryTemplate.Execute(&note, map[string]string{"Reason": reason})
		req.Messages[1].Content += "\n\n" + note.String()
		req.MaxTokens = RetryReplyTokens
	}
	return req
}

// Reply is the model's answer for one passage, decoded.
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

// ParseReply decodes one passage's answer; it fails when the JSON is not
// one object with the three lists.
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

// ParsePack decodes the reply to a pack of n passages: one answer per
// passage id present. It fails (and the provider's repair round sends the
// error back) when the reply is not one object, has a member that is not a
// passage id of the pack, or a member that is not a passage answer. A
// passage id left out is not an error here: the caller retries that chunk.
func ParsePack(raw []byte, n int) (map[string]Reply, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(raw, &probe); err != nil {
		return nil, fmt.Errorf("reply is not a JSON object: %w", err)
	}
	if probe == nil {
		return nil, errors.New("reply is not a JSON object")
	}
	ids := make([]string, 0, len(probe))
	for id := range probe {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := make(map[string]Reply, len(probe))
	for _, id := range ids {
		k, err := strconv.Atoi(strings.TrimPrefix(id, "P"))
		if !strings.HasPrefix(id, "P") || err != nil || k < 1 || k > n || PassageID(k-1) != id {
			return nil, fmt.Errorf("reply has a member %q, which is not a passage id (P1 to P%d)", id, n)
		}
		r, err := ParseReply(probe[id])
		if err != nil {
			return nil, fmt.Errorf("passage %s: %w", id, err)
		}
		out[id] = r
	}
	return out, nil
}

// ExtractLLM makes the one model call for a pack of chunks of one
// document and validates each passage's answer against its own chunk
// (Validate). It returns one result per input, in order; the result of a
// passage the reply left out is failed with Missing set. The usage is the
// call's, for the whole pack. A failed call returns the error (with the
// usage spent, if any).
func ExtractLLM(ctx context.Context, p llm.Provider, ins []Input) ([]Result, llm.Usage, error) {
	rep, err := p.ChatJSON(ctx, Request(ins))
	if err != nil {
		var ce *llm.CallError
		u := rep.Usage
		if errors.As(err, &ce) {
			u = u.Add(ce.Usage)
		}
		return nil, u, err
	}
	parsed, err := ParsePack(rep.Raw, len(ins))
	if err != nil {
		return nil, rep.Usage, &llm.CallError{Kind: llm.FailSchema, Task: "extract", Detail: err.Error(), Usage: rep.Usage, Err: err}
	}
	out := make([]Result, len(ins))
	for i, in := range ins {
		id := PassageID(i)
		pr, ok := parsed[id]
		if !ok {
			out[i] = Result{Status: kb.ExtractFailed, Kind: llm.FailSchema, Missing: true,
				Reason: fmt.Sprintf("schema: the reply has no answer for passage %s of %d", id, len(ins))}
			continue
		}
		out[i] = Validate(in, pr)
	}
	return out, rep.Usage, nil
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
		name := kb.OneLine(e.Name)
		names := append([]string{name}, e.Aliases...)
		var spans [][2]int
		surface := ""
		for _, n := range names {
			n = kb.OneLine(n)
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
				aliases = append(aliases, kb.OneLine(n))
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
		ent := Entity{Name: surface, Type: typ, SemanticType: kb.OneLine(e.SemanticType), Description: kb.OneLine(e.Description), Aliases: dedupe(aliases, surface)}
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
		pred := kb.OneLine(rel.Predicate)
		if !ok1 || !ok2 || si == oi || pred == "" || len(sents) == 0 {
			dropRel++
			continue
		}
		stmt := kb.OneLine(rel.Statement)
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
			stmt = kb.OneLine(text[sents[best][0]:sents[best][1]])
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
		ft = kb.OneLine(ft)
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

// EchoReply is a reply a scripted fake model can give to an extraction
// request (the user message of Messages): under each passage's id, the
// passage's first capitalised word as an entity and its first line as a
// fact, valid under the schema and found in the text. Tests use it.
func EchoReply(user string) string {
	ids, texts := Passages(user)
	reply := map[string]any{}
	for _, id := range ids {
		body := strings.Split(texts[id], "\n")
		out := map[string]any{"entities": []any{}, "relations": []any{}, "facts": []string{}}
		for _, w := range strings.Fields(strings.Join(body, " ")) {
			w = strings.Trim(w, ".,;:()[]\"'")
			if len(w) >= 4 && w[0] >= 'A' && w[0] <= 'Z' {
				out["entities"] = []any{map[string]string{"name": w, "type": "concept", "description": w + " as named in the passage."}}
				break
			}
		}
		for _, l := range body {
			if l = strings.TrimSpace(l); len(l) > 20 {
				out["facts"] = []string{l}
				break
			}
		}
		reply[id] = out
	}
	b, _ := json.Marshal(reply)
	return string(b)
}
