package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/kb"
	"cairn/backend/llm/fakeollama"
	"cairn/backend/project"
)

// TestAskJSONSample: `cairn ask --json` on the Sample project (imported and
// indexed offline) returns an answer whose every citation and path edge
// resolves to a stored chunk and a page inside it; the answer is stored.
func TestAskJSONSample(t *testing.T) {
	sample, _ := filepath.Abs("../../assets/sample")
	proj := t.TempDir()
	if code, _, errOut := run(t, "", "import", "--project", proj, sample); code != 0 {
		t.Fatalf("import: %d %s", code, errOut)
	}
	p, err := project.Open(proj)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	p.Close()
	code, out, errOut := run(t, "", "ask", "--project", proj, "--json", "--offline", "What must a service provider do to qualify for the DMCA safe harbor?")
	if code != 0 {
		t.Fatalf("ask: %d %s", code, errOut)
	}
	var a kb.Answer
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if a.ID == 0 || a.Answer == "" || len(a.Citations) == 0 || len(a.Trace) == 0 {
		t.Fatalf("answer %s", out)
	}
	var raw map[string]json.RawMessage
	json.Unmarshal([]byte(out), &raw)
	for _, k := range []string{"answer", "declined", "citations", "paths", "trace", "provider"} {
		if _, ok := raw[k]; !ok {
			t.Fatalf("field %q missing: %s", k, out)
		}
	}
	var prov struct {
		Mode, Reason string
	}
	if err := json.Unmarshal(raw["provider"], &prov); err != nil || prov.Mode != "offline" || !strings.Contains(errOut, "mode: offline") {
		t.Fatalf("provider %s (%v), stderr %q", raw["provider"], err, errOut)
	}
	p, err = project.Open(proj)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	resolve := func(what string, s kb.Source) kb.Hit {
		hits, err := p.Store().ChunkHits(context.Background(), []int64{s.ChunkID})
		if err != nil || len(hits) != 1 {
			t.Fatalf("%s: chunk %d does not resolve (%v)", what, s.ChunkID, err)
		}
		c := hits[0]
		if s.DocID != c.DocID || s.PageStart < c.PageStart || s.PageEnd > c.PageEnd || s.PageStart < 1 || s.CharStart < c.CharStart || s.CharEnd > c.CharEnd {
			t.Fatalf("%s: %+v outside chunk %d pages %d-%d chars %d-%d", what, s, c.ID, c.PageStart, c.PageEnd, c.CharStart, c.CharEnd)
		}
		pages, err := p.Pages(context.Background(), s.DocID, s.PageStart)
		if err != nil || len(pages) != 1 {
			t.Fatalf("%s: page %d of doc %d does not resolve", what, s.PageStart, s.DocID)
		}
		return c
	}
	for _, c := range a.Citations {
		h := resolve("citation", c.Source)
		if got := h.Text[c.CharStart-h.CharStart : c.CharEnd-h.CharStart]; got != c.Text {
			t.Fatalf("citation %d text is not its span: %q vs %q", c.N, c.Text, got)
		}
		if !a.Declined && !strings.Contains(a.Answer, "["+itoa(c.N)+"]") {
			t.Fatalf("citation %d not marked in %q", c.N, a.Answer)
		}
	}
	for _, path := range a.Paths {
		for _, e := range path.Edges {
			resolve("path edge", e.Source)
		}
	}
	stored, err := p.Answer(context.Background(), a.ID)
	if err != nil || stored.Answer != a.Answer || len(stored.Citations) != len(a.Citations) {
		t.Fatalf("stored answer %+v (%v)", stored, err)
	}
	list, err := p.Answers(context.Background())
	if err != nil || len(list) != 1 || list[0].ID != a.ID {
		t.Fatalf("history %+v (%v)", list, err)
	}
	t.Logf("answer: %s (%d citations, %d paths)", a.Answer, len(a.Citations), len(a.Paths))
}

// TestAskWithOllama: `cairn ask --ollama URL` uses the model (fake Ollama
// server): the mode line on stderr, the provider in --json, one rerank
// call at most and one streamed answer whose [n] are the citations.
func TestAskWithOllama(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "p")
	if code, _, errOut := run(t, "", "import", "--offline", "--project", proj, filepath.Join(sampleDir(t), "en-report-dmca-summary.pdf")); code != 0 {
		t.Fatal(errOut)
	}
	srv := fakeollama.Start(t)
	no := false
	const reply = "A service provider must designate an agent to receive notices [1]."
	srv.On(fakeollama.Rule{JSON: &no, Reply: reply})
	code, out, errOut := run(t, "", "ask", "--ollama", srv.URL(), "--json", "--project", proj, "What must a service provider do to qualify for the DMCA safe harbor?")
	if code != 0 {
		t.Fatalf("ask: %d %s", code, errOut)
	}
	var got struct {
		kb.Answer
		Provider struct {
			Mode string `json:"mode"`
			Host string `json:"host"`
		} `json:"provider"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if !strings.Contains(errOut, "mode: ollama") || got.Provider.Mode != "ollama" || got.Provider.Host == "" {
		t.Fatalf("provider %+v, stderr %q", got.Provider, errOut)
	}
	if got.Answer.Answer != reply || len(got.Citations) != 1 || got.Citations[0].N != 1 {
		t.Fatalf("answer %q citations %+v", got.Answer.Answer, got.Citations)
	}
	chats := srv.RequestsTo("/api/chat")
	if len(chats) < 1 || len(chats) > 2 || chats[len(chats)-1].HasFormat {
		t.Fatalf("%d chat calls", len(chats))
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestAskWhoMustFile: on the Sample project (the IRS instructions among
// its documents), "Who must file Form 1040NR?" is answered by the "Who Must File" section (its heading names
// what the question asks): the answer leads with that section's first
// sentence, and no short answer from another section (such as "Northern
// Mariana Islanders", the earlier answer) is given.
func TestAskWhoMustFile(t *testing.T) {
	proj := t.TempDir()
	if code, _, errOut := run(t, "", "import", "--offline", "--project", proj, sampleDir(t)); code != 0 {
		t.Fatalf("import: %d %s", code, errOut)
	}
	code, out, errOut := run(t, "", "ask", "--project", proj, "--json", "--offline", "Who must file Form 1040NR?")
	if code != 0 {
		t.Fatalf("ask: %d %s", code, errOut)
	}
	var a kb.Answer
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if a.Declined || len(a.Citations) == 0 {
		t.Fatalf("answer %s", a.Answer)
	}
	if a.Short != nil {
		t.Errorf("short answer %q for a who-must question", a.Short.Text)
	}
	first := a.Citations[0]
	if !strings.Contains(strings.Join(strings.Fields(first.Text), " "), "File Form 1040NR if any of the following four conditions applies to you") {
		t.Errorf("answer leads with %q, not the Who Must File section's first sentence:\n%s", first.Text, a.Answer)
	}
	p, err := project.Open(proj)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	hits, err := p.Store().ChunkHits(context.Background(), []int64{first.ChunkID})
	if err != nil || len(hits) != 1 {
		t.Fatal(err)
	}
	if hp := hits[0].HeadingPath; len(hp) == 0 || hp[len(hp)-1] != "Who Must File" {
		t.Errorf("first citation's section %q", hp)
	}
}
