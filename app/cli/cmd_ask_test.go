package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/kb"
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
	for _, k := range []string{"answer", "declined", "citations", "paths", "trace"} {
		if _, ok := raw[k]; !ok {
			t.Fatalf("field %q missing: %s", k, out)
		}
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

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
