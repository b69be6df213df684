package reason_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"cairn/backend/evalset"
	"cairn/backend/llm"
)

// TestQuickResolvesHops: "where was the wife of the director of X born"
// is answered hop by hop: the director found in X's passage, his wife in
// his own passage, then her birthplace in hers; the answer leads with the
// place, then the hops' sentences in order.
func TestQuickResolvesHops(t *testing.T) {
	corpus := []evalset.Passage{
		{ID: "a", Title: "Harbour Lights (film)", Text: "Harbour Lights is a 1931 drama film directed by Edwin Marlow and starring Clara Venn. It was shot in Lisbon."},
		{ID: "b", Title: "Edwin Marlow", Text: "Edwin Marlow (1890 – 1961) was an English film director. His wife was the actress Ida Renfrew, whom he married in 1924."},
		{ID: "c", Title: "Clara Venn", Text: "Clara Venn (1901 – 1980) was an English actress who starred in many dramas."},
		{ID: "d", Title: "Ida Renfrew", Text: "Ida Renfrew (1898 – 1975) was an English stage actress. She was born in Bristol and trained in London."},
	}
	for i := 0; i < 30; i++ {
		corpus = append(corpus, evalset.Passage{ID: fmt.Sprint("f", i), Title: fmt.Sprintf("Drama film %d", i), Text: fmt.Sprintf("Drama film %d is a %d drama film directed by Someone Else %d.", i, 1930+i, i)})
	}
	st := corpusStore(t, corpus)
	ctx := context.Background()
	r := newReasoner(st, llm.Offline{})
	a, err := r.Quick(ctx, "Where was the wife of the director of Harbour Lights born?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Short == nil || a.Short.Text != "Bristol" {
		t.Fatalf("short answer %+v, answer %q", a.Short, a.Answer)
	}
	hop := strings.Index(a.Answer, "directed by Edwin Marlow")
	spouse := strings.Index(a.Answer, "His wife was the actress Ida Renfrew")
	born := strings.Index(a.Answer, "She was born in Bristol")
	if hop < 0 || spouse < hop || born < spouse {
		t.Errorf("the hops' sentences should come in order: %q", a.Answer)
	}
	// The top path runs through the last hop's entity to the answer, each
	// edge on the sentence that joins its two ends.
	if len(a.Paths) == 0 {
		t.Fatal("no path drawn")
	}
	top := a.Paths[0]
	if n := len(top.Nodes); n < 3 || top.Nodes[n-1] != "Bristol" || top.Nodes[n-2] != "Ida Renfrew" || top.Nodes[n-3] != "Edwin Marlow" {
		t.Errorf("top path %q, want … Edwin Marlow → Ida Renfrew → Bristol", top.Nodes)
	}
	checkProvenance(t, st, a)
}
