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
// dates, not a film's year with a director's (the films' own years run the
// other way, so comparing those picks the other film); the chosen film's
// path runs to its director and the short answer is the film.
func TestQuickComparisonOfRelated(t *testing.T) {
	corpus := []evalset.Passage{
		{ID: "a", Title: "Bess Ar'ly", Text: "Bess Ar'ly is a 1942 British drama film directed by Gerald Ashcombe and starring Betty Marwood."},
		{ID: "b", Title: "Ek Sapna Dhoop (1940 film)", Text: "Ek Sapna Dhoop is a 1940 Hindi social drama directed by Vikram Sethna. The music was by Shankar Rao Devle."},
		{ID: "c", Title: "Gerald Ashcombe (filmmaker)", Text: "Gerald Ashcombe (3 April 1876 – 9 November 1951) was a pioneering English film director and screenwriter."},
		{ID: "d", Title: "Vikram Sethna", Text: "Vikram Sethna (22 August 1908 – 4 June 1990) was a noted producer-director of Hindi cinema."},
	}
	for i := 0; i < 30; i++ {
		corpus = append(corpus, evalset.Passage{ID: fmt.Sprint("f", i), Title: fmt.Sprintf("Drama film %d", i), Text: fmt.Sprintf("Drama film %d is a %d drama film directed by Someone Else %d.", i, 1930+i, i)})
	}
	st := corpusStore(t, corpus)
	ctx := context.Background()
	r := newReasoner(st, llm.Offline{})
	a, err := r.Quick(ctx, "Which film has the director born first, Bess Ar'ly or Ek Sapna Dhoop (1940 film)?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Short == nil || a.Short.Text != "Bess Ar'ly" {
		t.Fatalf("short answer %+v, answer %q", a.Short, a.Answer)
	}
	if len(a.Paths) == 0 || len(a.Paths[0].Nodes) < 2 || a.Paths[0].Nodes[0] != "Bess Ar'ly" || a.Paths[0].Nodes[1] != "Gerald Ashcombe (filmmaker)" {
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
		{ID: "a", Title: "Theodore Ravensby", Text: "Theodore Ravensby (February 9, 1917 – March 30, 2004) was a Kestrian federal judge."},
		{ID: "b", Title: "Ezra Malachov", Text: "Ezra Malachov (May 2, 1961 – July 14, 1989) was an Israeli-born American musician."},
	}
	for i := 0; i < 30; i++ {
		corpus = append(corpus, evalset.Passage{ID: fmt.Sprint("f", i), Title: fmt.Sprintf("Judge %d", i), Text: fmt.Sprintf("Judge %d served on the bench from %d.", i, 1930+i)})
	}
	st := corpusStore(t, corpus)
	ctx := context.Background()
	r := newReasoner(st, llm.Offline{})
	r.Settings.Abstain = 1.01 // every question is under it
	a, err := r.Quick(ctx, "Who lived longer, Theodore Ravensby or Ezra Malachov?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Declined || a.Short == nil || a.Short.Text != "Theodore Ravensby" {
		t.Fatalf("declined %v, short answer %+v, answer %q", a.Declined, a.Short, a.Answer)
	}
	b, err := r.Quick(ctx, "Which court did Theodore Ravensby serve on?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !b.Declined {
		t.Errorf("not a comparison, under the threshold: answered %q", b.Answer)
	}
}
