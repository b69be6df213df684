package jobs

import (
	"context"
	"strings"
	"testing"

	"cairn/backend/extract"
	"cairn/backend/llm"
	"cairn/backend/llm/fakeollama"
)

// TestRetriesLearn: a chunk whose extraction keeps failing is not re-sent
// identically on every run. Run 1 sends it in a pack (the pack fails);
// run 2 alone; run 3 alone with a smaller reply budget and a note on what
// went wrong; run 4 leaves it failed and says why, without a call; the
// user asking again (ResetAttempts) or another model sends it again. The
// pack's other chunks succeed alone on run 2.
func TestRetriesLearn(t *testing.T) {
	ctx := context.Background()
	s, n := newStore(t)
	pending, err := s.PendingExtraction(ctx, llm.DefaultChatModel, 0)
	if err != nil {
		t.Fatal(err)
	}
	poison := strings.TrimSpace(pending[2].Text)
	srv := fakeollama.Start(t)
	srv.On(fakeollama.Rule{Schema: "extract", Contains: poison, Reply: "Sure! Here is what I found: nothing in JSON."})
	srv.On(fakeollama.Rule{Schema: "extract", Func: func(r fakeollama.Request) string { return answerPassages(r, nil) }})
	poisoned := func() []fakeollama.Request {
		var out []fakeollama.Request
		for _, r := range srv.RequestsTo("/api/chat") {
			if strings.Contains(r.Messages[1].Content, poison) {
				out = append(out, r)
			}
		}
		srv.Reset()
		srv.On(fakeollama.Rule{Schema: "extract", Contains: poison, Reply: "Sure! Here is what I found: nothing in JSON."})
		srv.On(fakeollama.Rule{Schema: "extract", Func: func(r fakeollama.Request) string { return answerPassages(r, nil) }})
		return out
	}
	run := func() Summary {
		t.Helper()
		sum, err := modelJob(t, s, srv, nil).Run(ctx)
		if err != nil || sum.Stopped != nil {
			t.Fatalf("%+v %v", sum, err)
		}
		return sum
	}

	sum := run()
	rs := poisoned()
	if len(rs) != 2 || len(passages(rs[0])) < 2 {
		t.Fatalf("run 1: the poisoned chunk goes in a pack (call and repair): %d calls, %d passages", len(rs), len(passages(rs[0])))
	}
	failed1 := sum.Failed
	if failed1 < 2 || sum.OK+sum.Empty+sum.Failed != n {
		t.Fatalf("run 1: %+v", sum.Event)
	}

	sum = run()
	rs = poisoned()
	if len(rs) != 2 || len(passages(rs[0])) != 1 || rs[0].NumPredict == extract.RetryReplyTokens || strings.Contains(rs[0].Messages[1].Content, "could not be used") {
		t.Fatalf("run 2: the chunk goes alone, as first sent otherwise: %d calls, %d passages, num_predict %d", len(rs), len(passages(rs[0])), rs[0].NumPredict)
	}
	if sum.Total != failed1 || sum.Failed != 1 {
		t.Fatalf("run 2: the pack's other chunks succeed alone: %+v", sum.Event)
	}

	sum = run()
	rs = poisoned()
	if len(rs) != 2 || rs[0].NumPredict != extract.RetryReplyTokens || !strings.Contains(rs[0].Messages[1].Content, "could not be used") {
		t.Fatalf("run 3: smaller budget and a note: %d calls, num_predict %d", len(rs), rs[0].NumPredict)
	}

	sum = run()
	if rs = poisoned(); len(rs) != 0 || sum.Exhausted != 1 || !strings.Contains(sum.ExhaustedNote, "failed 3 times") || sum.Counts.Failed != 1 {
		t.Fatalf("run 4: left failed without a call, reason given: %d calls, %+v", len(rs), sum)
	}

	// The user asks again: one more round.
	if k, err := s.ResetAttempts(ctx, ""); err != nil || k != 1 {
		t.Fatalf("reset: %d %v", k, err)
	}
	run()
	if rs = poisoned(); len(rs) != 2 {
		t.Fatalf("after reset: %d calls", len(rs))
	}
	// Attempts are per model: another model starts afresh.
	srv.AddModel(fakeollama.Model{Name: "other:7b", Family: "qwen2", ContextLength: 32768})
	o, _ := llm.NewOllama(llm.OllamaConfig{Host: srv.URL(), Retries: 0, ChatModel: "other:7b"})
	j := modelJob(t, s, srv, nil)
	j.Extractor = &extract.Extractor{Provider: o}
	if _, err := j.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if rs = poisoned(); len(rs) == 0 {
		t.Fatal("another model: the chunk is sent again")
	}
}

func passages(r fakeollama.Request) []string {
	ids, _ := extract.Passages(r.Messages[1].Content)
	return ids
}
