package reason_test

import (
	"context"
	"strings"
	"testing"

	"cairn/backend/evalset"
	"cairn/backend/llm"
)

// TestOfflineAnswerCombinesNamedItems: a question asking the figures of
// items it names added up, or one less the other, is answered from the
// table holding them, the sum or the difference worked out and each cell
// cited; a question naming an item no table holds is not answered from
// the others, and one asking a single item's figure is no combination.
func TestOfflineAnswerCombinesNamedItems(t *testing.T) {
	corpus := []evalset.Passage{
		{ID: "plants", Title: "Widgetco plant output", Text: "Output of widgets by plant\n" +
			"(Thousands of widgets) | 2025 | 2024\n" +
			"Northfield plant | 4,120 | 3,980\n" +
			"Eastbrook plant | 6,310 | 5,020\n" +
			"Lakeside plant | 2,275 | 2,990\n" +
			"Total | 12,705 | 11,990"},
		{ID: "mdna", Title: "Widgetco discussion", Text: "Widgetco makes widgets in three plants. Demand for widgets grew in every region."},
	}
	st := corpusStore(t, corpus)
	r := newReasoner(st, llm.Offline{})
	for _, c := range []struct {
		q, lead string
		cells   int
	}{
		{"How many widgets did the Northfield and Lakeside plants make in 2025 in total?",
			"Total of 2025 = Northfield plant 4,120 + Lakeside plant 2,275 = 6,395. From the tables: Northfield plant, 2025: 4,120 (Thousands of widgets) [1]; Lakeside plant, 2025: 2,275 (Thousands of widgets) [2].", 2},
		{"How many more widgets did the Lakeside plant make than the Eastbrook plant in 2024?",
			"Difference in 2024 = Lakeside plant 2,990 − Eastbrook plant 5,020 = -2,030.", 2},
	} {
		a, err := r.Quick(context.Background(), c.q, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(a.Answer, c.lead) || len(a.Cells) != c.cells {
			t.Errorf("%q:\nanswer %q\nwant   %q\ncells %+v", c.q, a.Answer, c.lead, a.Cells)
		}
		checkProvenance(t, st, a)
	}
	for _, q := range []string{
		"How many more widgets did the Eastbrook plant make than the Westmoor plant in 2024?",
		"How many widgets did the Eastbrook plant make in 2024?",
	} {
		a, err := r.Quick(context.Background(), q, nil)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(a.Answer, "Difference in") || strings.Contains(a.Answer, "Total of") {
			t.Errorf("%q: combined %q", q, a.Answer)
		}
	}
}
