package project

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// respellDoc is a made-up inspection report whose words "inspection" and
// "bearings" are each in several of its passages.
const respellDoc = `# Riverside footbridge

## Spring inspection

The spring inspection found surface corrosion on the north pier bearings.

## Autumn inspection

The autumn inspection found the bearings repainted and the handrail bolts tightened.
`

// TestRespelledQuestion: a question with a misspelled word ("inspetcion")
// is searched and answered as the project spells it; the answer keeps the
// question as typed and ends saying how it was read, the stored trace
// records it, and search says so too. A question spelled right is left
// alone.
func TestRespelledQuestion(t *testing.T) {
	ctx := context.Background()
	doc := filepath.Join(t.TempDir(), "footbridge.md")
	if err := os.WriteFile(doc, []byte(respellDoc), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if res, err := p.Import(ctx, []string{doc}, nil); err != nil || len(res) != 1 || res[0].Error != "" {
		t.Fatalf("import: %+v %v", res, err)
	}
	if err := p.Index(ctx, nil); err != nil {
		t.Fatal(err)
	}
	const typed = "What did the spring inspetcion find on the north pier?"
	var streamed strings.Builder
	a, err := p.Ask(ctx, typed, AskOptions{}, func(s string) { streamed.WriteString(s) })
	if err != nil {
		t.Fatal(err)
	}
	if a.Question != typed || !strings.HasSuffix(a.Answer, "(Read “inspetcion” as “inspection”.)") || streamed.String() != a.Answer {
		t.Fatalf("question %q, answer %q (streamed %q)", a.Question, a.Answer, streamed.String())
	}
	if !strings.Contains(string(a.Trace), `"respelled":[{"word":"inspetcion","as":"inspection"}]`) {
		t.Errorf("trace does not record the respelling: %s", a.Trace)
	}
	if len(a.Citations) == 0 || !strings.Contains(a.Citations[0].Text, "spring inspection") {
		t.Errorf("citations %+v", a.Citations)
	}
	_, info, err := p.SearchIn(ctx, "bearngs corrosion", 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Respelled) != 1 || info.Respelled[0].As != "bearings" {
		t.Errorf("search read %+v", info.Respelled)
	}
	a, err = p.Ask(ctx, "What did the spring inspection find on the north pier?", AskOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(a.Answer, "(Read ") || strings.Contains(string(a.Trace), `"respelled"`) {
		t.Errorf("a question spelled right was respelled: %q", a.Answer)
	}
}
