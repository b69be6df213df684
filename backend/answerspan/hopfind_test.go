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
		{"varnajog", "varnadjog", 1},
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
		{Title: "Carrow Mounds", Text: "Carrow Mounds is an archaeological site in Tallow County, Tessex."},
		{Title: "WKRV", Text: "WKRV is a radio station broadcasting in Brackton, Tessex, Norland."},
		{Title: "Norland", Text: "Norland is a sovereign state on the northern mainland of Orvania."},
		{Title: "Port Ardis", Text: "Port Ardis is the capital city of Norland."},
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
		{"Which state is Carrow Mounds located in?", span(0, "Tessex"), 1.6},
		{"Which state is Carrow Mounds located in?", span(0, "Tallow County"), 0.6}, // held by the name after it
		{"Which city is WKRV licensed to broadcast in?", span(1, "Brackton"), 1.3},
		{"Which country is Port Ardis in?", span(3, "Norland"), 1},
		{"Which country is Ashbrook in?", span(3, "Port Ardis"), 0.5},
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
		{" and /Velkaro/Tessmouth.", true},
		{", Tessmouth and Barrowgama.", true},
		{" and is situated where the road crosses.", false},
		{". It is a suburb.", false},
		{" or Dhelwara.", true},
	}
	for _, c := range cases {
		if got := listed(c.after); got != c.want {
			t.Errorf("listed(%q) = %v, want %v", c.after, got, c.want)
		}
	}
}
