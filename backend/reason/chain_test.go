package reason_test

import (
	"context"
	"fmt"
	"testing"

	"cairn/backend/evalset"
	"cairn/backend/llm"
)

// TestQuickComparisonOfRelated: "which film has the director born first"
// follows each film to its director's passage — titled with a bracketed
// disambiguation for one of them — and compares the directors' birth
// dates, not a film's year with a director's; the chosen film's path runs
// to its director and the short answer is the film.
func TestQuickComparisonOfRelated(t *testing.T) {
	corpus := []evalset.Passage{
		{ID: "a", Title: "Mord Em'ly", Text: "Mord Em'ly is a 1922 British silent drama film directed by George Pearson and starring Betty Balfour."},
		{ID: "b", Title: "Ek Hi Bhool (1940 film)", Text: "Ek Hi Bhool is a 1940 Hindi social drama directed by Vijay Bhatt. The music was by Shankar Rao Vyas."},
		{ID: "c", Title: "George Pearson (filmmaker)", Text: "George Pearson (19 March 1875 – 6 February 1973) was a pioneering English film director and screenwriter."},
		{ID: "d", Title: "Vijay Bhatt", Text: "Vijay Bhatt (12 May 1907 – 17 October 1993) was a noted producer-director of Hindi cinema."},
	}
	for i := 0; i < 30; i++ {
		corpus = append(corpus, evalset.Passage{ID: fmt.Sprint("f", i), Title: fmt.Sprintf("Drama film %d", i), Text: fmt.Sprintf("Drama film %d is a %d drama film directed by Someone Else %d.", i, 1930+i, i)})
	}
	st := corpusStore(t, corpus)
	ctx := context.Background()
	r := newReasoner(st, llm.Offline{})
	a, err := r.Quick(ctx, "Which film has the director born first, Mord Em'ly or Ek Hi Bhool (1940 film)?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Short == nil || a.Short.Text != "Mord Em'ly" {
		t.Fatalf("short answer %+v, answer %q", a.Short, a.Answer)
	}
	if len(a.Paths) == 0 || len(a.Paths[0].Nodes) < 2 || a.Paths[0].Nodes[0] != "Mord Em'ly" || a.Paths[0].Nodes[1] != "George Pearson (filmmaker)" {
		t.Errorf("top path %+v", a.Paths)
	}
	checkProvenance(t, st, a)
}

// TestQuickDecidedComparison: a comparison whose words the passages cover
// thinly (under the abstention threshold) is still answered when the
// evidence dates both items; another question under the threshold is
// declined.
func TestQuickDecidedComparison(t *testing.T) {
	corpus := []evalset.Passage{
		{ID: "a", Title: "Theodore McMillian", Text: "Theodore McMillian (January 28, 1919 – January 18, 2006) was a United States federal judge."},
		{ID: "b", Title: "Hillel Slovak", Text: "Hillel Slovak (April 13, 1962 – June 25, 1988) was an Israeli-born American musician."},
	}
	for i := 0; i < 30; i++ {
		corpus = append(corpus, evalset.Passage{ID: fmt.Sprint("f", i), Title: fmt.Sprintf("Judge %d", i), Text: fmt.Sprintf("Judge %d served on the bench from %d.", i, 1930+i)})
	}
	st := corpusStore(t, corpus)
	ctx := context.Background()
	r := newReasoner(st, llm.Offline{})
	r.Settings.Abstain = 1.01 // every question is under it
	a, err := r.Quick(ctx, "Who lived longer, Theodore McMillian or Hillel Slovak?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Declined || a.Short == nil || a.Short.Text != "Theodore McMillian" {
		t.Fatalf("declined %v, short answer %+v, answer %q", a.Declined, a.Short, a.Answer)
	}
	b, err := r.Quick(ctx, "Which court did Theodore McMillian serve on?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !b.Declined {
		t.Errorf("not a comparison, under the threshold: answered %q", b.Answer)
	}
}
