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
		w    float64 // advance; 5 when 0
	}
	cases := []struct {
		name   string
		glyphs []g
		want   string
	}{
		{"accent after its letter", []g{{"A", 0, 0}, {"g", 6, 0}, {"e", 12, 0}, {"ˆ", 12.5, 0}, {"n", 18, 0}}, "Agên"},
		{"cedilla and tilde after", []g{{"c", 0, 0}, {"¸", 0.8, 0}, {"a", 6, 0}, {"˜", 6.5, 0}, {"o", 12, 0}}, "ção"},
		{"accent before its letter", []g{{"O", 0, 0}, {"˘", 6.4, 0}, {"g", 6, 0}, {"u", 12, 0}}, "Oğu"},
		{"tilde beside a word", []g{{"~", 0, 0}, {"u", 8, 0}, {"s", 14, 0}}, "~us"},
		{"accent alone at the end", []g{{"a", 0, 0}, {"ˆ", 9, 0}}, "aˆ"},
		// TeX centres the accent over a narrow dotless i that follows:
		// its centre is within the play of the letter before, but closer
		// to the i, which takes it and reads as a plain i with the accent.
		{"accent over a narrow letter after it", []g{{"t", 15, 0}, {"´", 18.89, 0}, {"ı", 20, 2.78}, {"n", 22.78, 0}}, "tín"},
		{"dieresis over a dotless i", []g{{"a", 15, 0}, {"¨", 18.89, 0}, {"ı", 20, 2.78}, {"v", 22.78, 0}}, "aïv"},
		{"accent just past its letter, nothing after", []g{{"e", 0, 0}, {"´", 1.2, 0}}, "é"},
		{"accent just past its letter, a letter far after", []g{{"e", 0, 0}, {"´", 1.2, 0}, {"x", 10, 0}}, "éx"},
	}
	for _, c := range cases {
		var lo layout
		for _, x := range c.glyphs {
			w := x.w
			if w == 0 {
				w = 5
			}
			lo.add(glyph{text: x.text, x: x.x, y: 700, dx: w, ix: w, ux: 1, size: 10})
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
