package pdf

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Accents drawn apart. TeX and other typesetters set many accented
// letters as a base letter plus a separate spacing accent ("ˆ", "¸")
// placed over or under it, so the text reads "Ageˆncia", "aviac¸a˜o".
// A spacing accent that sits on the previous glyph is composed with it;
// one shown before its letter waits for the next glyph and is composed
// with it when it sits on it.

// combiningOf maps spacing accents to their combining marks.
var combiningOf = map[string]string{
	"´": "\u0301", "`": "\u0300", "ˆ": "\u0302", "^": "\u0302", "˜": "\u0303", "~": "\u0303",
	"¨": "\u0308", "˚": "\u030a", "¸": "\u0327", "ˇ": "\u030c", "¯": "\u0304", "˘": "\u0306",
	"˙": "\u0307", "˝": "\u030b", "˛": "\u0328",
}

// pendingAccent is an accent shown before the letter it belongs to.
type pendingAccent struct {
	mark   string
	u0, u1 float64 // extent along the line
	g      glyph   // the accent itself, shown as is if no letter takes it
	// orLast: the accent also sits on the glyph before it, though its
	// centre lies past that glyph's end (TeX centres an accent over a
	// narrow dotless i that follows within the play allowed): the next
	// glyph takes it if its centre is closer, else the one before does.
	orLast bool
	lastC  float64 // centre of the glyph before, along the line
}

// accentFor returns the combining mark of a spacing accent glyph.
func accentFor(text string) (string, bool) {
	m, ok := combiningOf[text]
	return m, ok
}

// onGlyph reports whether an accent spanning a0..a1 along the line sits on
// a glyph spanning g0..g1: its centre within the glyph, with a little play.
func onGlyph(a0, a1, g0, g1, em float64) bool {
	c := (a0 + a1) / 2
	return g1 > g0 && c >= g0-0.15*em && c <= g1+0.15*em
}

// onLast reports whether the accent glyph g sits on the last glyph of the
// current run, a letter, and whether its centre lies past that glyph's
// end; centre is the last glyph's centre along the line.
func (lo *layout) onLast(g glyph) (on, past bool, centre float64) {
	c := lo.cur
	if c == nil || len(c.gl) == 0 {
		return false, false, 0
	}
	last := &c.gl[len(c.gl)-1]
	if last.text == " " || !isLetterText(last.text) {
		return false, false, 0
	}
	u := g.x*c.ux + g.y*c.uy
	adv := g.ix*c.ux + g.iy*c.uy
	across := -(g.x-lo.inkX)*c.uy + (g.y-lo.inkY)*c.ux
	em := math.Max(g.size, 1)
	a0, a1 := math.Min(u, u+adv), math.Max(u, u+adv)
	if math.Abs(across) > 1.2*em || !onGlyph(a0, a1, last.u0, last.u1, em) {
		return false, false, 0
	}
	return true, (a0+a1)/2 > last.u1, (last.u0 + last.u1) / 2
}

// composeLast composes mark with the last glyph of the current run; it
// reports whether it could.
func (lo *layout) composeLast(mark string) bool {
	c := lo.cur
	if c == nil || len(c.gl) == 0 {
		return false
	}
	last := &c.gl[len(c.gl)-1]
	s := c.b.String()
	if !isLetterText(last.text) || !strings.HasSuffix(s, last.text) {
		return false
	}
	composed := withMark(last.text, mark)
	c.b.Reset()
	c.b.WriteString(s[:len(s)-len(last.text)] + composed)
	last.text = composed
	return true
}

// withMark composes a letter with a combining mark. A dotless i or j
// (drawn to take an accent) becomes the plain letter first, so that
// "ı" and an acute read "í".
func withMark(letter, mark string) string {
	switch letter {
	case "ı":
		letter = "i"
	case "ȷ":
		letter = "j"
	}
	return norm.NFC.String(letter + mark)
}

// isLetterText reports whether s starts with a letter.
func isLetterText(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	return n > 0 && unicode.IsLetter(r)
}

// add places one glyph, composing spacing accents with their letters.
func (lo *layout) add(g glyph) {
	if mark, ok := accentFor(g.text); ok {
		on, past, lastC := lo.onLast(g)
		if on && !past && lo.composeLast(mark) {
			return
		}
		lo.flushAccent()
		u := g.x*g.ux + g.y*g.uy
		adv := g.ix*g.ux + g.iy*g.uy
		lo.pending = &pendingAccent{mark: mark, u0: math.Min(u, u+adv), u1: math.Max(u, u+adv), g: g, orLast: on, lastC: lastC}
		return
	}
	if p := lo.pending; p != nil && strings.TrimSpace(g.text) != "" {
		lo.pending = nil
		u := g.x*g.ux + g.y*g.uy
		adv := g.ix*g.ux + g.iy*g.uy
		g0, g1 := math.Min(u, u+adv), math.Max(u, u+adv)
		across := -(g.x-p.g.x)*g.uy + (g.y-p.g.y)*g.ux
		c := (p.u0 + p.u1) / 2
		switch {
		case isLetterText(g.text) && math.Abs(across) < 1.2*math.Max(g.size, 1) && onGlyph(p.u0, p.u1, g0, g1, math.Max(g.size, 1)) &&
			(!p.orLast || math.Abs(c-(g0+g1)/2) < math.Abs(c-p.lastC)):
			g.text = withMark(g.text, p.mark)
		case p.orLast && lo.composeLast(p.mark):
		default:
			lo.addGlyph(p.g)
		}
	}
	lo.addGlyph(g)
}

// flushAccent places a waiting accent that no letter after it took: on
// the letter before it when it sits there too, else as it is.
func (lo *layout) flushAccent() {
	if p := lo.pending; p != nil {
		lo.pending = nil
		if !p.orLast || !lo.composeLast(p.mark) {
			lo.addGlyph(p.g)
		}
	}
}
