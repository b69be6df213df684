package reason

import (
	"reflect"
	"strings"
	"testing"

	"cairn/backend/answerspan"
	"cairn/backend/kb"
)

// An answer the question describes without naming it (its own passage is
// the first hop) gets a path from the question entity its sentence names;
// a compared item the question names gets none of its own; a bridge chain
// runs through the bridge.
func TestAnswerPathsStart(t *testing.T) {
	band := "Mercyful Fate is a Danish heavy metal band from Copenhagen."
	film := "The Hitler Gang is a 1944 film."
	bridge := "Maximum Overdrive was directed by Stephen King."
	pool := []Evidence{
		{N: 1, Hit: kb.Hit{DocTitle: "Mercyful Fate", Chunk: kb.Chunk{Text: band}}},
		{N: 2, Hit: kb.Hit{DocTitle: "The Hitler Gang", Chunk: kb.Chunk{Text: film}}},
		{N: 3, Hit: kb.Hit{DocTitle: "Maximum Overdrive", Chunk: kb.Chunk{Text: bridge}}},
	}
	whole := func(p int, s string) answerspan.Ref { return answerspan.Ref{Passage: p, Start: 0, End: len(s)} }
	at := func(p int, s, sub string) answerspan.Ref {
		i := strings.Index(s, sub)
		return answerspan.Ref{Passage: p, Start: i, End: i + len(sub)}
	}
	cases := []struct {
		name     string
		question string
		c        answerspan.Candidate
		linked   []string
		want     []string
	}{
		{"described answer starts at the named place", "Which Danish heavy metal band from Copenhagen released a compilation?",
			answerspan.Candidate{Text: "Mercyful Fate", Type: answerspan.TName, Span: at(0, band, "Mercyful Fate"), Chain: []answerspan.Ref{whole(0, band)}, Subject: "Mercyful Fate"},
			[]string{"Copenhagen"}, []string{"Copenhagen", "Mercyful Fate"}},
		{"no question entity in the sentence: no path", "Which Danish heavy metal band released a compilation?",
			answerspan.Candidate{Text: "Mercyful Fate", Type: answerspan.TName, Span: at(0, band, "Mercyful Fate"), Chain: []answerspan.Ref{whole(0, band)}, Subject: "Mercyful Fate"},
			[]string{"Oslo"}, nil},
		{"a compared item the question names: no path", "Which film came first, The Hitler Gang or Flannelfoot?",
			answerspan.Candidate{Text: "The Hitler Gang", Type: answerspan.TName, Span: at(1, film, "The Hitler Gang"), Chain: []answerspan.Ref{whole(1, film)}, Subject: "The Hitler Gang"},
			[]string{"film"}, nil},
		{"answer in another passage starts at its title", "Who directed the film shot in Leland?",
			answerspan.Candidate{Text: "Stephen King", Type: answerspan.TName, Span: at(2, bridge, "Stephen King"), Chain: []answerspan.Ref{whole(2, bridge)}},
			nil, []string{"Maximum Overdrive", "Stephen King"}},
	}
	for _, tc := range cases {
		ps := answerPaths(tc.question, []answerspan.Candidate{tc.c}, pool, tc.linked, 3)
		var got []string
		if len(ps) > 0 {
			got = ps[0].Nodes
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: nodes %q, want %q", tc.name, got, tc.want)
		}
	}
}

// A yes/no comparison draws each item to the value it was compared by.
func TestAnswerPathsCompared(t *testing.T) {
	a := "Watertown International Airport is a county-owned airport in New York."
	b := "Alexandria International Airport is a public airport in Louisiana."
	pool := []Evidence{
		{N: 1, Hit: kb.Hit{DocTitle: "Watertown International Airport", Chunk: kb.Chunk{Text: a}}},
		{N: 2, Hit: kb.Hit{DocTitle: "Alexandria International Airport", Chunk: kb.Chunk{Text: b}}},
	}
	items := []answerspan.Compared{
		{Item: "Watertown International Airport", Value: "New York", Ref: answerspan.Ref{Passage: 0, Start: 0, End: len(a)}},
		{Item: "Alexandria International Airport", Value: "Louisiana", Ref: answerspan.Ref{Passage: 1, Start: 0, End: len(b)}},
	}
	cs := []answerspan.Candidate{{Text: "no", Score: 0.8, Items: items}, {Text: "yes", Score: 0.5, Items: items}}
	ps := answerPaths("Are Watertown International Airport and Alexandria International Airport in the same state?", cs, pool, nil, 3)
	if len(ps) != 2 || !reflect.DeepEqual(ps[0].Nodes, []string{"Watertown International Airport", "New York"}) || !reflect.DeepEqual(ps[1].Nodes, []string{"Alexandria International Airport", "Louisiana"}) {
		t.Fatalf("paths %+v", ps)
	}
	if !ps[0].Chosen || ps[1].Chosen || len(ps[1].Edges) != 1 {
		t.Errorf("chosen / edges %+v", ps)
	}
}
