package extract

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/llm/fakeollama"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run with -update to create)", err)
	}
	if string(want) != string(got) {
		t.Fatalf("%s differs from the golden file (run with -update if intended):\n%s", name, got)
	}
}

// chunkOf builds a chunk of one document: text at offset off on page 3.
func chunkOf(text string, off int) kb.Chunk {
	return kb.Chunk{ID: 7, DocID: 2, Ordinal: 4, PageStart: 3, PageEnd: 3 + strings.Count(text, kb.PageSeparator), CharStart: off, CharEnd: off + len(text), Text: text,
		HeadingPath: []string{"Part I", "Eligibility"}}
}

const sampleText = "The Internal Revenue Service (IRS) administers Form 1040-NR. Nonresident aliens file Form 1040-NR with the IRS by April 15.\nAlû Ramírez works at the Internal Revenue Service in Washington."

func TestPromptGolden(t *testing.T) {
	in := Input{Chunk: chunkOf(sampleText+"\n```code```", 100), DocTitle: "Instructions for Form 1040-NR", FileName: "i1040nr.pdf"}
	req := Request(in)
	b, _ := json.MarshalIndent(map[string]any{"task": req.Task, "messages": req.Messages, "schema_name": req.Schema.Name, "schema": req.Schema.Schema}, "", "  ")
	golden(t, "request.golden.json", append(b, '\n'))
	if req.Messages[0].Role != "system" || strings.Contains(req.Messages[0].Content, "Nonresident") {
		t.Fatal("document text must not be in the system message")
	}
	if !strings.Contains(req.Messages[1].Content, "````\n") {
		t.Fatal("the fence must be longer than the backtick runs of the text")
	}
	if _, err := llm.CompileSchema(req.Schema.Schema); err != nil {
		t.Fatalf("schema outside the provider's subset: %v", err)
	}
}

func TestOffline(t *testing.T) {
	in := Input{Chunk: chunkOf(sampleText, 1000), DocTitle: "Instructions for Form 1040-NR", FileName: "i1040nr.pdf"}
	r := ExtractOffline(in)
	if r.Status != kb.ExtractOK || r.Extractor != Offline {
		t.Fatalf("status %s %s", r.Status, r.Reason)
	}
	byName := map[string]Entity{}
	for _, e := range r.Entities {
		byName[e.Name] = e
		for _, m := range e.Mentions {
			if got := sampleText[m.CharStart-1000 : m.CharEnd-1000]; kb.NormKey(got) != kb.NormKey(e.Name) {
				t.Fatalf("mention span of %q holds %q", e.Name, got)
			}
			if m.ChunkID != 7 || m.DocID != 2 || m.PageStart != 3 {
				t.Fatalf("provenance %+v", m)
			}
		}
	}
	irs, ok := byName["Internal Revenue Service"]
	if !ok || irs.Type != "organization" || len(irs.Aliases) != 1 || irs.Aliases[0] != "IRS" {
		t.Fatalf("IRS: %+v (all: %v)", irs, names(r.Entities))
	}
	if _, ok := byName["Alû Ramírez"]; !ok {
		t.Fatalf("accented name lost: %v", names(r.Entities))
	}
	if _, ok := byName["The"]; ok {
		t.Fatal("sentence-initial article taken as a name")
	}
	if len(r.Relations) == 0 || len(r.Facts) == 0 {
		t.Fatalf("relations %d facts %d", len(r.Relations), len(r.Facts))
	}
	for _, rel := range r.Relations {
		s := sampleText[rel.Source.CharStart-1000 : rel.Source.CharEnd-1000]
		if !strings.Contains(s, sampleText[r.Entities[rel.Subject].Mentions[0].CharStart-1000:r.Entities[rel.Subject].Mentions[0].CharEnd-1000]) && rel.Statement != oneLine(s) {
			t.Fatalf("relation source %q does not hold its statement %q", s, rel.Statement)
		}
	}
	// deterministic
	again := ExtractOffline(in)
	a, _ := json.Marshal(r)
	b, _ := json.Marshal(again)
	if string(a) != string(b) {
		t.Fatal("offline extraction is not deterministic")
	}
	// nothing to find: empty with a reason, never ok
	e := ExtractOffline(Input{Chunk: chunkOf("12 34 56", 0)})
	if e.Status != kb.ExtractEmpty || e.Reason == "" {
		t.Fatalf("empty chunk: %+v", e)
	}
}

func TestOfflineCJK(t *testing.T) {
	text := "民事主体在民事活动中的法律地位一律平等。民事主体从事民事活动，应当遵循自愿原则。《中华人民共和国民法典》规定民事主体的权利。"
	r := ExtractOffline(Input{Chunk: chunkOf(text, 0)})
	got := strings.Join(names(r.Entities), "|")
	for _, want := range []string{"民事主体", "民事活动", "中华人民共和国民法典"} {
		if !strings.Contains("|"+got+"|", "|"+want+"|") {
			t.Fatalf("missing %s in %s", want, got)
		}
	}
}

func names(es []Entity) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Name)
	}
	return out
}

func TestValidate(t *testing.T) {
	in := Input{Chunk: chunkOf(sampleText, 50)}
	var rep Reply
	if err := json.Unmarshal([]byte(`{"entities":[
		{"name":"internal revenue service","type":"organization","description":"US tax agency","aliases":["IRS","国税局"]},
		{"name":"Form 1040-NR","type":"work","semantic_type":"tax form","description":"","broader":["form","document"]},
		{"name":"Gandalf","type":"person","description":"not in the text"},
		{"name":"Alu Ramirez","type":"person","description":"accents stripped by the model"},
		{"name":"Alû Ramírez","type":"weird","description":"an employee"}],
		"relations":[{"subject":"IRS","predicate":"administers","object":"Form 1040-NR","statement":"The IRS administers Form 1040-NR.","confidence":0.9},
		{"subject":"Gandalf","predicate":"visits","object":"IRS","statement":"x","confidence":0.5}],
		"facts":["Nonresident aliens file Form 1040-NR with the IRS by April 15.","Bilbo likes cake."]}`), &rep); err != nil {
		t.Fatal(err)
	}
	r := Validate(in, rep)
	if got := strings.Join(names(r.Entities), "|"); got != "Internal Revenue Service|Form 1040-NR|Alû Ramírez" {
		t.Fatalf("kept %s", got)
	}
	if r.Entities[2].Type != "other" || r.Entities[1].Concepts[0] != "tax form" {
		t.Fatalf("types/concepts: %+v", r.Entities)
	}
	if !strings.Contains(r.Reason, "dropped 2 of 5 entities") || !strings.Contains(r.Reason, "Gandalf") || !strings.Contains(r.Reason, "1 of 2 relations") || !strings.Contains(r.Reason, "1 of 2 facts") {
		t.Fatalf("reason: %s", r.Reason)
	}
	if len(r.Relations) != 1 || len(r.Facts) != 1 {
		t.Fatalf("relations %d facts %d", len(r.Relations), len(r.Facts))
	}
	fs := r.Facts[0].Source
	if got := sampleText[fs.CharStart-50 : fs.CharEnd-50]; got != "Nonresident aliens file Form 1040-NR with the IRS by April 15." {
		t.Fatalf("fact mapped to %q", got)
	}
	rs := r.Relations[0].Source
	if got := sampleText[rs.CharStart-50 : rs.CharEnd-50]; !strings.HasPrefix(got, "The Internal Revenue Service (IRS) administers") {
		t.Fatalf("relation mapped to %q", got)
	}
}

// TestModelEndToEnd runs the one-call extraction against the fake Ollama
// server: a good reply, a malformed one, an empty one, a model that returns
// nothing at all, and a server error.
func TestModelEndToEnd(t *testing.T) {
	srv := fakeollama.Start(t)
	p, err := llm.NewOllama(llm.OllamaConfig{Host: srv.URL(), Retries: 0})
	if err != nil {
		t.Fatal(err)
	}
	x := &Extractor{Provider: p}
	in := Input{Chunk: chunkOf(sampleText, 0), DocTitle: "Instructions"}
	ctx := context.Background()

	srv.On(fakeollama.Rule{Schema: "extract", Times: 1, Reply: `{"entities":[{"name":"IRS","type":"organization","description":"tax agency"},{"name":"Form 1040-NR","type":"work","description":"a form"}],
		"relations":[{"subject":"IRS","predicate":"administers","object":"Form 1040-NR","statement":"The IRS administers Form 1040-NR.","confidence":0.8}],"facts":["The IRS administers Form 1040-NR."]}`})
	r, err := x.Extract(ctx, in)
	if err != nil || r.Status != kb.ExtractOK || r.Extractor != llm.DefaultChatModel || len(r.Relations) != 1 || r.Usage.Calls < 1 || r.Usage.PromptTokens == 0 {
		t.Fatalf("good reply: %+v %v", r, err)
	}

	cases := []struct {
		name string
		rule fakeollama.Rule
		kind string
	}{
		{"malformed", fakeollama.Rule{Schema: "extract", Fault: fakeollama.FaultMalformed}, "malformed"},
		{"empty text", fakeollama.Rule{Schema: "extract", Fault: fakeollama.FaultEmpty}, ""},
		{"returns nothing", fakeollama.Rule{Schema: "extract", Reply: `{"entities":[],"relations":[],"facts":[]}`}, "empty"},
		{"http 500", fakeollama.Rule{Schema: "extract", Fault: fakeollama.FaultHTTP500}, "http"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv.Reset()
			srv.On(c.rule)
			r, err := x.Extract(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != kb.ExtractFailed || r.Extractor != Fallback || r.Reason == "" {
				t.Fatalf("status %s extractor %s reason %q", r.Status, r.Extractor, r.Reason)
			}
			if c.kind != "" && !strings.HasPrefix(r.Reason, c.kind) {
				t.Fatalf("reason %q, want kind %s", r.Reason, c.kind)
			}
			if len(r.Entities) == 0 {
				t.Fatal("the offline result must stand in")
			}
			if n := len(srv.RequestsTo("/api/chat")); n > 2 && c.kind != "http" { // 5xx: the client's transport retries
				t.Fatalf("%d chat calls for one chunk (one call plus at most one repair)", n)
			}
		})
	}
	// a chunk where neither finds anything is empty, not failed
	srv.Reset()
	srv.On(fakeollama.Rule{Schema: "extract", Reply: `{"entities":[],"relations":[],"facts":[]}`})
	r, _ = x.Extract(ctx, Input{Chunk: chunkOf("12 34 56", 0)})
	if r.Status != kb.ExtractEmpty || r.Extractor != llm.DefaultChatModel {
		t.Fatalf("nothing to find: %+v", r)
	}
}

// FuzzReply: whatever a model sends, parsing and validation never panic
// and every span they keep lies inside the chunk.
func FuzzReply(f *testing.F) {
	f.Add([]byte(`{"entities":[{"name":"IRS","type":"organization","description":"x","aliases":["Internal Revenue Service"]}],"relations":[{"subject":"IRS","predicate":"p","object":"IRS","statement":"s","confidence":2}],"facts":["Form 1040-NR"]}`))
	f.Add([]byte(`{"entities":null,"relations":[],"facts":[""]}`))
	f.Add([]byte(`{"entities":[{"name":"ǅ\u0301","type":""}],"relations":[],"facts":[]}`))
	f.Add([]byte(`[]`))
	in := Input{Chunk: chunkOf(sampleText+"\f第二页 民事主体", 10)}
	f.Fuzz(func(t *testing.T, b []byte) {
		rep, err := ParseReply(b)
		if err != nil {
			return
		}
		r := Validate(in, rep)
		c := in.Chunk
		check := func(s kb.Source) {
			if s.CharStart < c.CharStart || s.CharEnd > c.CharEnd || s.CharStart > s.CharEnd || s.PageStart < c.PageStart || s.PageEnd > c.PageEnd {
				t.Fatalf("span %+v outside chunk", s)
			}
		}
		for _, e := range r.Entities {
			if len(e.Mentions) == 0 {
				t.Fatal("entity without mention")
			}
			for _, m := range e.Mentions {
				check(m)
			}
		}
		for _, rel := range r.Relations {
			check(rel.Source)
			if rel.Subject == rel.Object || rel.Subject >= len(r.Entities) || rel.Object >= len(r.Entities) {
				t.Fatalf("bad relation %+v", rel)
			}
		}
		for _, fct := range r.Facts {
			check(fct.Source)
		}
	})
}
