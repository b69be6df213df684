package answerspan

import "testing"

// A name the graph types as a place is demoted as the answer to a "who"
// question when no passage about it says what it is; without the graph's
// types the same passage gives it.
func TestGraphKindsDemote(t *testing.T) {
	q := Classify("Who founded the Varn Guild?")
	ps := []Passage{passage("Varn Guild", "The Varn Guild was founded by Orsk Haldane. Its first hall was built by Morrow Vale.")}
	first := func(q Question) string {
		cs := Find(q, ps, idf)
		if len(cs) == 0 {
			return ""
		}
		return cs[0].Text
	}
	if got := first(q); got != "Orsk Haldane" {
		t.Fatalf("without graph kinds: %q, want Orsk Haldane", got)
	}
	q.Kinds = GraphKinds(map[string]string{"Orsk Haldane": "location", "Morrow Vale": "person"})
	if got := first(q); got != "Morrow Vale" {
		t.Errorf("Orsk Haldane typed as a place by the graph: %q, want Morrow Vale", got)
	}
	if k := GraphKinds(map[string]string{"Kestria Bank": "organization", "Tomas Rell": "person", "Night Harbor": "work"}); len(k) != 2 || k["tomas rell"] != "person" || k["night harbor"] != "work" {
		t.Errorf("GraphKinds = %v", k)
	}
}
