package reason

import (
	"testing"

	"cairn/backend/answerspan"
	"cairn/backend/question"
)

func TestAddRefs(t *testing.T) {
	a := answerspan.Ref{Passage: 0, Start: 0, End: 10}
	b := answerspan.Ref{Passage: 1, Start: 5, End: 20}
	empty := answerspan.Ref{Passage: 2}
	cases := []struct {
		name       string
		refs, more []answerspan.Ref
		want       int
	}{
		{"appends new", []answerspan.Ref{a}, []answerspan.Ref{b}, 2},
		{"skips a duplicate", []answerspan.Ref{a, b}, []answerspan.Ref{a}, 2},
		{"skips an empty span", nil, []answerspan.Ref{empty, a}, 1},
	}
	for _, c := range cases {
		if got := addRefs(c.refs, c.more); len(got) != c.want {
			t.Errorf("%s: %d refs, want %d (%v)", c.name, len(got), c.want, got)
		}
	}
}

func TestRelatedWords(t *testing.T) {
	cases := []struct{ q, want string }{
		{"Who is the spouse of Tomas Rell?", "married wife husband"},
		{"Where was the director of Dance for Rain born?", "directed birth"},
		{"What year did Norland join the league?", ""},
	}
	for _, c := range cases {
		if got := relatedWords(question.New(c.q).Fields); got != c.want {
			t.Errorf("relatedWords(%q) = %q, want %q", c.q, got, c.want)
		}
	}
}
