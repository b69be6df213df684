package analyze

import (
	"reflect"
	"testing"
	"unicode/utf16"
)

func TestMarks(t *testing.T) {
	for _, c := range []struct {
		query, text string
		want        []string
	}{
		// a word matches by its stem, as search finds it
		{"deduction policies", "Deductions under this policy; deduct nothing.", []string{"Deductions", "policy", "deduct"}},
		{"running", "He runs; they were running.", []string{"runs", "running"}},
		// stop words and one-letter words mark nothing
		{"the a of", "The end of a story.", nil},
		// a possessive is its word
		{"copyright", "the copyright's term", []string{"copyright's"}},
		// CJK: the query's bigrams, wherever they occur; overlaps merge
		{"权利义务", "公民的权利和义务", []string{"权利", "义务"}},
		{"权利", "享有权利权利", []string{"权利权利"}},
		// UTF-16 offsets past characters outside the BMP
		{"ferry", "𝔄 ferry", []string{"ferry"}},
	} {
		got := Marks(c.query, c.text)
		u := utf16.Encode([]rune(c.text))
		var words []string
		for _, m := range got {
			words = append(words, string(utf16.Decode(u[m.Start:m.End])))
		}
		if !reflect.DeepEqual(words, c.want) {
			t.Errorf("Marks(%q, %q) = %v %v, want %v", c.query, c.text, got, words, c.want)
		}
	}
}
