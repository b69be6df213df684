package store

import (
	"context"
	"encoding/json"
	"testing"

	"cairn/backend/kb"
)

// An answer's outcome is read back from its trace; answers stored before
// answers had one (no outcome in the trace, or no trace) get it from
// declined. A declined row is declined whatever its trace says.
func TestAnswerOutcomeReadBack(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	cases := []struct {
		name     string
		declined bool
		trace    string
		want     string
	}{
		{"evidence", false, `{"mode":"quick","outcome":"evidence"}`, kb.OutcomeEvidence},
		{"answer", false, `{"mode":"quick","outcome":"answer"}`, kb.OutcomeAnswer},
		{"declined", true, `{"mode":"quick","outcome":"declined"}`, kb.OutcomeDeclined},
		{"old answer", false, `{"mode":"quick","answer_by":"extractive"}`, kb.OutcomeAnswer},
		{"old decline", true, `{"mode":"quick","answer_by":"declined"}`, kb.OutcomeDeclined},
		{"no trace", false, ``, kb.OutcomeAnswer},
		{"declined, odd trace", true, `{"outcome":"answer"}`, kb.OutcomeDeclined},
		{"unknown outcome", false, `{"outcome":"maybe"}`, kb.OutcomeAnswer},
	}
	ids := map[int64]string{}
	for _, c := range cases {
		id, err := s.SaveAnswer(ctx, kb.Answer{Question: "Which colour is the door of " + c.name + "?", Answer: "Blue.", Declined: c.declined, Mode: "quick", Trace: json.RawMessage(c.trace)})
		if err != nil {
			t.Fatal(err)
		}
		ids[id] = c.want
		a, err := s.Answer(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if a.Outcome != c.want {
			t.Errorf("%s: outcome %q, want %q", c.name, a.Outcome, c.want)
		}
	}
	all, err := s.Answers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range all {
		if a.Outcome != ids[a.ID] {
			t.Errorf("list: answer %d outcome %q, want %q", a.ID, a.Outcome, ids[a.ID])
		}
	}
}
