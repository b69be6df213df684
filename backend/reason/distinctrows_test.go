package reason_test

import (
	"context"
	"strings"
	"testing"

	"cairn/backend/evalset"
	"cairn/backend/llm"
)

func TestOfflineAnswerCountsDistinctValues(t *testing.T) {
	corpus := []evalset.Passage{
		// A made-up kettle manual's controls table, going on over a page
		// break with its header row printed again.
		{ID: "controls", Title: "Kettle manual", Text: "Controls while boiling\n" +
			"Action | Effect\n" +
			"Press the lid button | Open the lid.\n" +
			"Turn the dial left | Lower the temperature.\n" +
			"Turn the dial right | Raise the temperature.\f" +
			"Action | Effect\n" +
			"Press and hold the dial | Lower the temperature.\n" +
			"Lift the kettle off its base | Stop boiling. The lid opens by itself."},
		{ID: "care", Title: "Kettle care", Text: "Descale the kettle once a month with a mild acid. Never immerse the base in water."},
		{ID: "safety", Title: "Kettle safety", Text: "Keep the kettle away from the edge of the counter. The base gets warm while boiling."},
	}
	st := corpusStore(t, corpus)
	r := newReasoner(st, llm.Offline{})
	a, err := r.Quick(context.Background(), "How many distinct effects do the kettle's controls have while boiling?", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"4 (", "Lower the temperature (2 rows)", "Stop boiling —", `"Effect" in 5 rows`} {
		if !strings.Contains(a.Answer, w) {
			t.Errorf("answer %q lacks %q", a.Answer, w)
		}
	}
	if strings.Contains(a.Answer, "Action |") && strings.Count(a.Answer, "Lower the temperature") > 3 {
		t.Errorf("answer %q counts the header row again", a.Answer)
	}
	if len(a.Citations) < 4 {
		t.Errorf("citations %+v: want one per value", a.Citations)
	}
	// The values as the answer's small table: each value's first row.
	if len(a.Cells) != 4 || a.Cells[1].Row != "Turn the dial left" || a.Cells[1].Column != "Effect" || a.Cells[1].Rank != "value 2 of 4, 2 rows" {
		t.Errorf("cells %+v", a.Cells)
	}
}
