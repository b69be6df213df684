package mindmap

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"strings"
	"text/template"

	"cairn/backend/kb"
	"cairn/backend/llm"
)

// Key points of a question (PG-RAG's query deconstruction): what a passage
// must contain to answer it. Offline they are the question's key phrases;
// with a model, one small schema-constrained call.

//go:embed prompts/keypoints.system.txt
var kpSystem string

//go:embed prompts/keypoints.user.txt
var kpUserText string

//go:embed prompts/keypoints.schema.json
var kpSchemaJSON []byte

var kpUser = template.Must(template.New("keypoints.user").Parse(kpUserText))

// KeyPointSchema is the structured reply of the key-point call.
var KeyPointSchema = llm.Schema{Name: "keypoints", Schema: json.RawMessage(kpSchemaJSON)}

// KeyPointMessages renders the key-point call: instructions in the system
// role, the question fenced in the user role.
func KeyPointMessages(question string) ([]llm.Message, error) {
	var b bytes.Buffer
	q := strings.NewReplacer("QUESTION>>>", "QUESTION> >>", "<<<QUESTION", "< <<QUESTION").Replace(kb.OneLine(question))
	if err := kpUser.Execute(&b, q); err != nil {
		return nil, err
	}
	return []llm.Message{{Role: "system", Content: kpSystem}, {Role: "user", Content: b.String()}}, nil
}

// ModelKeyPoints asks the model for a question's key points.
func ModelKeyPoints(ctx context.Context, p llm.Provider, model, question string) ([]string, llm.Usage, error) {
	msgs, err := KeyPointMessages(question)
	if err != nil {
		return nil, llm.Usage{}, err
	}
	reply, err := p.ChatJSON(ctx, llm.JSONRequest{Task: "keypoints", Model: model, Messages: msgs, Schema: KeyPointSchema})
	if err != nil {
		return nil, reply.Usage, err
	}
	var r struct {
		KeyPoints []string `json:"key_points"`
	}
	if err := json.Unmarshal(reply.Raw, &r); err != nil {
		return nil, reply.Usage, err
	}
	var out []string
	for _, k := range r.KeyPoints {
		if k = shorten(k, 120); k != "" {
			out = append(out, k)
		}
	}
	return out, reply.Usage, nil
}

// KeyPhrases returns the n best key phrases of a text (a question, a
// passage) as they are written in it.
func KeyPhrases(text string, idf IDF, n int) []string {
	var out []string
	for _, p := range keyPhrases(text, idf, n, nil) {
		out = append(out, p.surface)
	}
	return out
}
