package pdf

import (
	"testing"

	"golang.org/x/text/unicode/norm"
)

// rtlWord builds a line of one run from glyphs given in logical order,
// each letter with the marks drawn on it, laid out right to left as a
// page shows them: letters one after another leftwards, each mark over
// the middle of its letter.
func rtlWord(letters [][2]string) *pline {
	var gl []placed
	x := 100.0
	for _, lm := range letters {
		x -= 6
		gl = append(gl, placed{u0: x, u1: x + 6, text: lm[0]})
		for _, m := range []rune(lm[1]) {
			gl = append(gl, placed{u0: x + 2, u1: x + 4, text: string(m)})
		}
	}
	r := &run{u0: x, u1: 100, gl: gl, glyphs: len(gl), sizeSum: 10 * float64(len(gl))}
	first := []rune(letters[0][0])[0]
	r.firstRune, r.lastRune = first, first
	return &pline{runs: []*run{r}, u0: x, u1: 100, size: 10}
}

// A combining mark (a vowel sign, shadda, tanwin) follows the letter it is
// drawn on in logical order, not the letter after it.
func TestRTLMarksFollowTheirLetters(t *testing.T) {
	for _, c := range []struct {
		letters [][2]string
		want    string
	}{
		{[][2]string{{"ش", ""}, {"ك", ""}, {"ر", "\u064b"}, {"ا", ""}}, "شكرًا"},
		{[][2]string{{"م", ""}, {"س", ""}, {"ا", ""}, {"ء", "\u064b"}}, "مساءً"},
		{[][2]string{{"م", "\u064f"}, {"د", "\u0651\u064e"}, {"ة", ""}}, norm.NFC.String("مُدَّة")},
		{[][2]string{{"ש", "\u05c1\u05b8"}, {"ל", ""}, {"ו", "\u05b9"}, {"ם", ""}}, norm.NFC.String("שָׁלוֹם")},
		{[][2]string{{"ك", ""}, {"ت", ""}, {"ا", ""}, {"ب", ""}}, "كتاب"},
	} {
		if got := rtlLineText(rtlWord(c.letters)); got != c.want {
			t.Errorf("got %q (%+q), want %q (%+q)", got, got, c.want, c.want)
		}
	}
}

// A word drawn in two pieces that touch (two text objects) is one word;
// a gap between runs is still a space.
func TestRTLWordInTwoRuns(t *testing.T) {
	// "من ذلك" right to left: "ن" drawn first as its own run, then "م",
	// then a word gap, then "ذلك".
	mk := func(u0 float64, letters ...string) *run {
		r := &run{u0: u0}
		x := u0
		for _, l := range letters {
			r.gl = append(r.gl, placed{u0: x, u1: x + 6, text: l})
			x += 6
		}
		r.u1 = x
		r.glyphs, r.sizeSum = len(letters), 10*float64(len(letters))
		first := []rune(letters[0])[0]
		r.firstRune, r.lastRune = first, first
		return r
	}
	// visual order, left to right: ك ل ذ | gap | ن | م
	runs := []*run{mk(0, "ك", "ل", "ذ"), mk(22, "ن"), mk(28, "م")}
	l := &pline{runs: runs, u0: 0, u1: 34, size: 10}
	if got, want := rtlLineText(l), "من ذلك"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
