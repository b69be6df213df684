package pdf

import (
	"strings"
	"testing"
)

// Spacing accents set over or under a letter, after it or before it, are
// composed with it; an accent beside a letter stays a character of its own.
func TestAccentsDrawnApart(t *testing.T) {
	type g struct {
		text string
		x    float64
	}
	cases := []struct {
		name   string
		glyphs []g
		want   string
	}{
		{"accent after its letter", []g{{"A", 0}, {"g", 6}, {"e", 12}, {"ˆ", 12.5}, {"n", 18}}, "Agên"},
		{"cedilla and tilde after", []g{{"c", 0}, {"¸", 0.8}, {"a", 6}, {"˜", 6.5}, {"o", 12}}, "ção"},
		{"accent before its letter", []g{{"O", 0}, {"˘", 6.4}, {"g", 6}, {"u", 12}}, "Oğu"},
		{"tilde beside a word", []g{{"~", 0}, {"u", 8}, {"s", 14}}, "~us"},
		{"accent alone at the end", []g{{"a", 0}, {"ˆ", 9}}, "aˆ"},
	}
	for _, c := range cases {
		var lo layout
		for _, x := range c.glyphs {
			lo.add(glyph{text: x.text, x: x.x, y: 700, dx: 5, ix: 5, ux: 1, size: 10})
		}
		var got []string
		for _, p := range lo.paragraphs() {
			got = append(got, p.text)
		}
		if s := strings.ReplaceAll(strings.Join(got, ""), " ", ""); s != c.want {
			t.Errorf("%s: %q, want %q", c.name, s, c.want)
		}
	}
}
