package question

import (
	"slices"
	"testing"
)

// A question asking the title or topic of labelled parts names them; one
// that only names a part asks none.
func TestSectionLabels(t *testing.T) {
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"What is the topic of UNIT 7?", []string{"UNIT 7"}},
		{"what are the names of Unit 1 and Unit 2 in the first term?", []string{"Unit 1", "Unit 2"}},
		{"What is Chapter 3 about?", []string{"Chapter 3"}},
		{"What is the title of Appendix B?", []string{"Appendix B"}},
		{"How many quizzes are there in Unit 8?", nil},
		{"What is the capital of France?", nil},
	} {
		if got := SectionLabels(c.q); !slices.Equal(got, c.want) {
			t.Errorf("SectionLabels(%q) = %q, want %q", c.q, got, c.want)
		}
	}
}
