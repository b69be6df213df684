package llm

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestSchemaValidate(t *testing.T) {
	schema := `{"type":"object","properties":{
		"name":{"type":"string","minLength":1,"maxLength":5},
		"kind":{"enum":["a","b"]},
		"n":{"type":"integer","minimum":0,"maximum":10},
		"x":{"type":"number"},
		"ok":{"type":"boolean"},
		"tags":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":2},
		"opt":{"type":["string","null"]}
	},"required":["name","kind"],"additionalProperties":false}`
	n, err := CompileSchema(json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		in, want string // want: "" valid, else a substring of the error
	}{
		{`{"name":"ab","kind":"a"}`, ""},
		{`{"name":"ab","kind":"a","n":3,"x":1.5,"ok":true,"tags":["t"],"opt":null}`, ""},
		{`{"name":"ab","kind":"a","n":3.0}`, ""},
		{`{"name":"ab","kind":"a","x":2}`, ""},
		{`{"kind":"a"}`, `$: missing required property "name"`},
		{`{"name":"","kind":"a"}`, "$.name: want at least 1 characters"},
		{`{"name":"abcdef","kind":"a"}`, "at most 5 characters"},
		{`{"name":"ab","kind":"c"}`, `$.kind: "c" is not one of ["a", "b"]`},
		{`{"name":"ab","kind":"a","n":1.5}`, "$.n: want integer, got number"},
		{`{"name":"ab","kind":"a","n":11}`, "above the maximum"},
		{`{"name":"ab","kind":"a","n":-1}`, "below the minimum"},
		{`{"name":"ab","kind":"a","tags":[]}`, "at least 1 items"},
		{`{"name":"ab","kind":"a","tags":["a","b","c"]}`, "at most 2 items"},
		{`{"name":"ab","kind":"a","tags":[1]}`, "$.tags[0]: want string, got integer"},
		{`{"name":"ab","kind":"a","extra":1}`, `unexpected property "extra"`},
		{`{"name":"ab","kind":"a","ok":"yes"}`, "want boolean, got string"},
		{`[]`, "$: want object, got array"},
		{`{"name":"ab","kind":"a"} {}`, "extra data"},
	} {
		err := n.ValidateJSON([]byte(tc.in))
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.in, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.in, err, tc.want)
		}
	}
	// the minimal instance is valid
	b, _ := json.Marshal(n.Instance())
	if err := n.ValidateJSON(b); err != nil {
		t.Errorf("instance %s: %v", b, err)
	}
}

func TestCompileSchemaRefusesUnsupported(t *testing.T) {
	for _, s := range []string{`{"oneOf":[]}`, `{"type":"tuple"}`, `{"$ref":"#/x"}`, `{"pattern":"a+"}`, `[]`, `{"additionalProperties":{"type":"string"}}`} {
		if _, err := CompileSchema(json.RawMessage(s)); err == nil {
			t.Errorf("%s: accepted", s)
		}
	}
}

func TestExtractJSON(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a":1}`, `{"a":1}`},
		{"  {\"a\":1}\n", `{"a":1}`},
		{"<think>hmm {not json}</think>{\"a\":1}", `{"a":1}`},
		{"<THINK>x</THINK>\n```json\n{\"a\":1}\n```", `{"a":1}`},
		{"Here it is:\n```\n{\"a\":[1,2]}\n```\nDone.", `{"a":[1,2]}`},
		{`Sure! {"a":"}"} hope that helps`, `{"a":"}"}`},
		{`{"a":"say \"hi\" {"}`, `{"a":"say \"hi\" {"}`},
		{"reasoning first</think>{\"a\":1}", `{"a":1}`},
		{`[{"a":1}]`, `[{"a":1}]`},
	} {
		got, err := ExtractJSON(tc.in)
		if err != nil || string(got) != tc.want {
			t.Errorf("%q: got %s, %v; want %s", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"", "   ", "<think>only thinking", "no json here", `{"a":`, `{"a":1`, `{"a" 1}`} {
		if got, err := ExtractJSON(in); err == nil {
			t.Errorf("%q: got %s, want an error", in, got)
		}
	}
	var me *MalformedError
	if _, err := ExtractJSON(`{"a":[1,2`); !errors.As(err, &me) {
		t.Errorf("cut JSON should be a MalformedError: %v", err)
	}
	if _, err := ExtractJSON("nothing"); !errors.Is(err, ErrNoJSON) {
		t.Errorf("prose should be ErrNoJSON: %v", err)
	}
}

func FuzzExtractJSON(f *testing.F) {
	for _, s := range []string{`{"a":1}`, "<think>x</think>{\"b\":[1]}", "```json\n{}\n```", `x {"a":"}"} y`, "<think>", "</think>{", `{"a":"\"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		raw, err := ExtractJSON(s)
		if err == nil && !json.Valid(raw) {
			t.Fatalf("returned invalid JSON %q for %q", raw, s)
		}
		if err == nil && !strings.Contains(s, string(raw)) {
			t.Fatalf("returned %q, which is not a span of the reply", raw)
		}
		// streaming filter agrees with StripThink on any split
		for _, cut := range []int{1, 3, 7} {
			var f thinkFilter
			var out strings.Builder
			for i := 0; i < len(s); i += cut {
				out.WriteString(f.push(s[i:min(len(s), i+cut)]))
			}
			out.WriteString(f.flush())
			if strings.Contains(strings.ToLower(out.String()), "<think>") && !strings.Contains(strings.ToLower(StripThink(s)), "<think>") {
				t.Fatalf("stream filter leaked a think block for %q (cut %d): %q", s, cut, out.String())
			}
		}
	})
}

func TestThinkFilterStreams(t *testing.T) {
	in := "Hello <think>secret <b> reasoning</think>world<thi" + "nking>more</thinking>!"
	for cut := 1; cut <= len(in); cut++ {
		var f thinkFilter
		var out strings.Builder
		for i := 0; i < len(in); i += cut {
			out.WriteString(f.push(in[i:min(len(in), i+cut)]))
		}
		out.WriteString(f.flush())
		if out.String() != "Hello world!" {
			t.Fatalf("cut %d: %q", cut, out.String())
		}
	}
	var f thinkFilter
	if got := f.push("a <thin") + f.flush(); got != "a <thin" {
		t.Errorf("a partial tag at the end is text: %q", got)
	}
}

func TestBudget(t *testing.T) {
	o, _ := NewOllama(OllamaConfig{})
	info := ModelInfo{Name: "m", ContextLength: 32768}
	short := []Message{{Role: "user", Content: "hi"}}
	long := []Message{{Role: "user", Content: strings.Repeat("word ", 12000)}} // ~16k tokens estimated
	small := ModelInfo{Name: "m", ContextLength: 4096}
	for _, tc := range []struct {
		name              string
		info              ModelInfo
		msgs              []Message
		reply             int
		wantCtx, wantPred int
		wantErr           bool
	}{
		{"short prompt: the smallest window", info, short, 1024, 8192, 1024, false},
		{"long prompt: a bigger window", info, long, 1024, 32768, 1024, false},
		{"over-long prompt refused", small, long, 1024, 0, 0, true},
		{"window capped at the model's", small, short, 1024, 4096, 1024, false},
		{"reply budget cut to what the window leaves", ModelInfo{Name: "m", ContextLength: 19000}, long, 4096, 19000, 19000 - EstimateMessages(long), false},
		{"but not under half of it", ModelInfo{Name: "m", ContextLength: 18000}, long, 4096, 0, 0, true},
	} {
		b, err := o.budget(tc.info, tc.msgs, tc.reply)
		if (err != nil) != tc.wantErr {
			t.Errorf("%s: err %v", tc.name, err)
			continue
		}
		if err == nil && (b.numCtx != tc.wantCtx || b.numPredict != tc.wantPred) {
			t.Errorf("%s: num_ctx %d num_predict %d, want %d %d", tc.name, b.numCtx, b.numPredict, tc.wantCtx, tc.wantPred)
		}
		if err == nil && b.prompt+b.numPredict > b.numCtx {
			t.Errorf("%s: prompt %d + reply %d over the window %d", tc.name, b.prompt, b.numPredict, b.numCtx)
		}
	}
	// A learnt factor scales the prompt.
	o.cfg.Ratios.Observe("m", 1000, 2000)
	b, _ := o.budget(info, short, 1024)
	if b.prompt < 2*b.estimate {
		t.Errorf("factor not applied: %+v", b)
	}
}

func TestResolveHost(t *testing.T) {
	t.Setenv("OLLAMA_HOST", "")
	for _, tc := range []struct{ flag, env, want string }{
		{"", "", "http://127.0.0.1:11434"},
		{"http://gpu-box:11434", "ignored:1", "http://gpu-box:11434"},
		{"", "0.0.0.0", "http://127.0.0.1:11434"},
		{"", "0.0.0.0:8080", "http://127.0.0.1:8080"},
		{"", "gpu-box", "http://gpu-box:11434"},
		{"", "192.168.1.20:11434", "http://192.168.1.20:11434"},
		{"https://ollama.example.org/", "", "https://ollama.example.org:443"},
		{"http://host:1234/proxy/ollama/", "", "http://host:1234/proxy/ollama"},
		{"[::1]:11434", "", "http://[::1]:11434"},
		{"localhost", "", "http://localhost:11434"},
	} {
		t.Setenv("OLLAMA_HOST", tc.env)
		if got := ResolveHost(tc.flag); got != tc.want {
			t.Errorf("flag %q env %q: %s, want %s", tc.flag, tc.env, got, tc.want)
		}
	}
}

func TestRepairPromptGolden(t *testing.T) {
	_, malformed := ExtractJSON(`{"entities": [`)
	for name, problem := range map[string]error{
		"schema":    &SchemaError{Problems: []string{`$.entities[0].type: "agency" is not one of ["person", "org"]`, `$: missing required property "facts"`}},
		"malformed": malformed,
		"validator": errors.New("entity Atlantis does not occur in the passage"),
	} {
		got := RepairPrompt(problem)
		path := filepath.Join("testdata", "repair_"+name+".golden")
		if *update {
			os.MkdirAll("testdata", 0o755)
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update)", err)
		}
		if got != string(want) {
			t.Errorf("%s changed:\n%s\n--- want ---\n%s", name, got, want)
		}
	}
}
