package answerspan

import (
	"strings"
	"testing"
)

func TestEditDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"damerjog", "damerdjog", 1},
		{"kitten", "sitting", 3},
		{"", "abc", 3},
		{"same", "same", 0},
	}
	for _, c := range cases {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestPlaceFit(t *testing.T) {
	ps := []Passage{
		{Title: "Pocahontas Mounds", Text: "Pocahontas Mounds is an archaeological site in Hinds County, Mississippi."},
		{Title: "WILM", Text: "WILM is a radio station broadcasting in Wilmington, Delaware, United States."},
		{Title: "Guyana", Text: "Guyana is a sovereign state on the northern mainland of South America."},
		{Title: "Georgetown", Text: "Georgetown is the capital city of Guyana."},
	}
	for i := range ps {
		ps[i].Sentences = [][2]int{{0, len(ps[i].Text)}}
	}
	span := func(p int, name string) Candidate {
		i := strings.Index(ps[p].Text, name)
		return Candidate{Text: name, Span: Ref{Passage: p, Start: i, End: i + len(name)}}
	}
	cases := []struct {
		q    string
		c    Candidate
		want float64
	}{
		{"Which state is Pocahontas Mounds located in?", span(0, "Mississippi"), 1.6},
		{"Which state is Pocahontas Mounds located in?", span(0, "Hinds County"), 0.6}, // held by the name after it
		{"Which city is WILM licensed to broadcast in?", span(1, "Wilmington"), 1.3},
		{"Which country is Georgetown in?", span(3, "Guyana"), 1},
		{"Which country is Clonbrook in?", span(3, "Georgetown"), 0.5},
	}
	for _, c := range cases {
		f := newFinder(Classify(c.q), ps, func(string) float64 { return 1 })
		if got := f.placeFit(c.c); got != c.want {
			t.Errorf("%q / %q: placeFit %v, want %v", c.q, c.c.Text, got, c.want)
		}
	}
}

func TestListed(t *testing.T) {
	cases := []struct {
		after string
		want  bool
	}{
		{" and /Pamankada/Colombo.", true},
		{", Colombo and Boralesgamuwa.", true},
		{" and is situated where the road crosses.", false},
		{". It is a suburb.", false},
		{" or Dehiwala.", true},
	}
	for _, c := range cases {
		if got := listed(c.after); got != c.want {
			t.Errorf("listed(%q) = %v, want %v", c.after, got, c.want)
		}
	}
}
