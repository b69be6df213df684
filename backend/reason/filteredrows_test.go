package reason_test

import (
	"context"
	"strings"
	"testing"

	"cairn/backend/evalset"
	"cairn/backend/llm"
)

// A made-up club's members table: a question that picks rows by a bound
// on a column it names, by a phrase a column holds, or both, is answered
// offline with the rows' keys, each row cited; "how many" with their
// count.
func TestOfflineAnswerFiltersRows(t *testing.T) {
	corpus := []evalset.Passage{
		{ID: "members", Title: "Rowing club yearbook", Text: "Members of the Ferndale rowing club in 2025\n" +
			"Member | Membership | Races rowed | Boat\n" +
			"Ada Lind | Honorary | 9 | Eight\n" +
			"Bo Sten | Ordinary | 12 | Four\n" +
			"Cy Marr | Honorary | 4 | Pair\n" +
			"Di Holm | Ordinary | 15 | Eight\n" +
			"Ed Voss | Ordinary | 2 | Single"},
		{ID: "history", Title: "Rowing club history", Text: "The Ferndale rowing club was founded on the river in 1921. Its boathouse was rebuilt after the flood of 1967."},
		{ID: "races", Title: "Rowing club races", Text: "The club rows races on the river from April to October. A race over the long course takes about twenty minutes."},
	}
	st := corpusStore(t, corpus)
	r := newReasoner(st, llm.Offline{})
	cases := []struct {
		q         string
		want, not []string
	}{
		{"Which members of the Ferndale rowing club rowed more than 8 races?", []string{"Ada Lind (9)", "Bo Sten (12)", "Di Holm (15)", "3 of 5 rows"}, []string{"Cy Marr", "Ed Voss"}},
		{"Which ordinary members of the Ferndale rowing club rowed at least twelve races?", []string{"Bo Sten (12)", "Di Holm (15)"}, []string{"Ada Lind", "Ed Voss"}},
		{"Who are the honorary members of the Ferndale rowing club?", []string{"Ada Lind", "Cy Marr", "Membership: Honorary"}, []string{"Bo Sten", "Di Holm", "Ed Voss"}},
		{"How many members of the Ferndale rowing club rowed fewer than 5 races?", []string{"2 (Cy Marr (4); Ed Voss (2)"}, []string{"Ada Lind"}},
	}
	for _, c := range cases {
		a, err := r.Quick(context.Background(), c.q, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !strings.Contains(a.Answer, w) {
				t.Errorf("%s: answer %q lacks %q", c.q, a.Answer, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(a.Answer, w) {
				t.Errorf("%s: answer %q has %q", c.q, a.Answer, w)
			}
		}
		if len(a.Citations) == 0 {
			t.Errorf("%s: no citation", c.q)
		}
		// The rows' cells the condition was read in, as the answer's
		// small table.
		if len(a.Cells) == 0 || !strings.Contains(a.Answer, a.Cells[0].Row) || a.Cells[0].Rank == "" {
			t.Errorf("%s: cells %+v", c.q, a.Cells)
		}
	}
}
