package reason_test

import (
	"context"
	"strings"
	"testing"

	"cairn/backend/llm"
	"cairn/backend/llm/fakeollama"
	"cairn/backend/reason"
)

// TestCutAnswer: an answer the model stops at its length limit (Ollama's
// done_reason "length") is never shown as complete. It is continued once
// (the partial answer sent back, the model asked to go on); when that
// finishes it, the answer is whole; when the continuation is cut too, the
// answer is marked cut in the answer, the trace and the stream.
func TestCutAnswer(t *testing.T) {
	p, qs := indexed(t)
	q := supported(t, p, qs)
	no := false
	long := "The answer is " + q.Answers[0] + " [1]. " + strings.Repeat("The passages say more about it and about what followed [2]. ", 20)
	for _, c := range []struct {
		name         string
		continuation string
		cut          bool
	}{
		{"continued to the end", "It ends here [1].", false},
		{"still cut after the continuation", strings.Repeat("More and more words follow here ", 40), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := fakeollama.Start(t)
			srv.On(fakeollama.Rule{Schema: "rerank", Func: pickRelations})
			srv.On(fakeollama.Rule{JSON: &no, Contains: "Continue it exactly where it stopped", Reply: c.continuation})
			srv.On(fakeollama.Rule{JSON: &no, Reply: long})
			r := reason.New(p.Retriever(), ollama(t, srv, func(cfg *llm.OllamaConfig) { cfg.MaxAnswerTokens = 40 }))
			var streamed strings.Builder
			a, err := r.Quick(context.Background(), q.Question, func(s string) { streamed.WriteString(s) })
			if err != nil {
				t.Fatal(err)
			}
			tr := trace(t, a)
			chats := srv.RequestsTo("/api/chat")
			if len(chats) != 3 || tr.AnswerContinued != 1 || tr.AnswerBy != "model" {
				t.Fatalf("%d calls, %d continuations, by %s", len(chats), tr.AnswerContinued, tr.AnswerBy)
			}
			cont := chats[2].Messages
			if cont[len(cont)-2].Role != "assistant" || !strings.HasPrefix(long, cont[len(cont)-2].Content) {
				t.Fatalf("the continuation does not carry the partial answer: %+v", cont[len(cont)-2])
			}
			if c.cut {
				if a.Cut == "" || tr.AnswerCut != a.Cut || !strings.HasSuffix(streamed.String(), reason.CutNote) || !strings.Contains(a.Cut, "length limit") {
					t.Fatalf("cut answer not marked: cut %q, trace %q, stream ends %q", a.Cut, tr.AnswerCut, streamed.String()[max(0, streamed.Len()-80):])
				}
				return
			}
			if a.Cut != "" || tr.AnswerCut != "" || strings.Contains(streamed.String(), reason.CutNote) || !strings.HasSuffix(a.Answer, "It ends here [1].") {
				t.Fatalf("a finished answer marked cut or incomplete: %q (%q)", a.Answer, a.Cut)
			}
		})
	}
}

// TestUnmarkedAnswerCitations: an answer that cites no [n] is not credited
// with every passage.
func TestUnmarkedAnswerCitations(t *testing.T) {
	p, qs := indexed(t)
	q := supported(t, p, qs)
	srv := fakeollama.Start(t)
	srv.On(fakeollama.Rule{Schema: "rerank", Func: pickRelations})
	no := false
	srv.On(fakeollama.Rule{JSON: &no, Reply: "I think it is " + q.Answers[0] + "."})
	r := reason.New(p.Retriever(), ollama(t, srv, nil))
	a, err := r.Quick(context.Background(), q.Question, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := trace(t, a)
	if len(a.Citations) >= len(tr.Retrieval.Evidence) || (tr.CitationsBy != "overlap" && tr.CitationsBy != "none") {
		t.Fatalf("%d citations of %d passages (by %q)", len(a.Citations), len(tr.Retrieval.Evidence), tr.CitationsBy)
	}
}
