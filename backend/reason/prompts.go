package reason

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"strings"
	"text/template"

	"cairn/backend/llm"
)

//go:embed prompts/*
var promptFS embed.FS

var tmplFuncs = template.FuncMap{"inc": func(i int) int { return i + 1 }}

func promptText(name string) string {
	b, err := promptFS.ReadFile("prompts/" + name)
	if err != nil {
		panic(err) // embedded at build time: a missing file is a build bug
	}
	return string(b)
}

// schema returns the named embedded JSON schema.
func schema(name string) llm.Schema {
	return llm.Schema{Name: name, Schema: json.RawMessage(promptText(name + ".schema.json"))}
}

// fenceBreakers are the sequences document text could use to leave its
// <<< >>> fence; each is replaced by a look-alike that tokenizes as plain
// text.
var fenceBreakers = strings.NewReplacer("<<<", "‹‹‹", ">>>", "›››")

// fence makes text safe to place inside a <<< >>> fence: document text is
// data and must not close the fence or open a system turn
// (llm.DefuseChatMarkup).
func fence(s string) string {
	// Repeat until stable: removing one sequence can join two halves of
	// another ("<<<<||>>>").
	for i := 0; i < 4; i++ {
		t := llm.DefuseChatMarkup(fenceBreakers.Replace(s))
		if t == s {
			break
		}
		s = t
	}
	return s
}

// Fence is fence for tests and other packages that build prompts with
// document text.
func Fence(s string) string { return fence(s) }

// messages renders task's system prompt and its user template with data;
// all document text goes in the user message, fenced.
func messages(task string, data any) ([]llm.Message, error) {
	t, err := template.New(task).Funcs(tmplFuncs).Parse(promptText(task + ".user.tmpl"))
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return nil, fmt.Errorf("render %s prompt: %w", task, err)
	}
	return []llm.Message{{Role: "system", Content: promptText(task + ".system.txt")}, {Role: "user", Content: b.String()}}, nil
}

// promptPassage is a passage as the prompts show it.
type promptPassage struct {
	N     int
	Title string
	// Columns is the header row of the table the passage continues.
	Columns string
	Text    string
}

func passagesOf(ev []Evidence) []promptPassage {
	out := make([]promptPassage, len(ev))
	for i, e := range ev {
		out[i] = promptPassage{N: e.N, Title: fence(e.Hit.DocTitle), Columns: fence(e.Hit.TableHeader), Text: fence(e.Hit.Text)}
	}
	return out
}

type promptRelation struct {
	ID   int64
	Text string
}

type rerankData struct {
	Question  string
	Relations []promptRelation
}

type answerData struct {
	Question string
	Memory   []string
	Paths    []string
	Passages []promptPassage
}

type planData struct {
	Question string
	Memory   []string
}

type stepData struct {
	Question string
	Passages []promptPassage
}

type deduceData struct {
	Question string
	Values   []string
}
