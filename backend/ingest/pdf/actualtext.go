package pdf

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	lp "github.com/ledongthuc/pdf"
)

// Replacement text. A producer that draws glyphs whose own codes do not
// say what they read (a ligature, a contextual Arabic form, a word set
// letter by letter) may wrap them in a marked-content sequence with an
// /ActualText entry: "/Span <</ActualText (fi)>> BDC … EMC" (PDF 32000
// 14.9.4). The glyphs drawn inside it read as that text, laid out where
// they are. Only a sequence whose glyphs stand on one line is read so:
// a replacement spanning lines (a word hyphenated across a line end)
// cannot be placed, and its glyphs are read as drawn. An inner sequence
// inside one being replaced is part of it.

// maxActualRunes bounds a replacement text read in place of glyphs.
const maxActualRunes = 200

// actualSpan is an open marked-content sequence with replacement text.
type actualSpan struct {
	text   string
	formAt int // form nesting of the stream that opened it
	depth  int // marked-content depth at which it opened
	glyphs []glyph
	codes  []int // how each glyph's own code was read (codeRead …)
}

// actualText returns the /ActualText of a BDC's property list, inline
// or named in the resources' /Properties; ok is false when it has none.
func actualText(args []operand, res *resources) (string, bool) {
	if len(args) < 2 {
		return "", false
	}
	p := args[len(args)-1]
	switch p.kind {
	case kDict:
		for i := 0; i+1 < len(p.arr); i += 2 {
			if p.arr[i].kind == kName && p.arr[i].str == "ActualText" && p.arr[i+1].kind == kStr {
				return textString(p.arr[i+1].str), true
			}
		}
	case kName:
		if res == nil {
			return "", false
		}
		v := key(key(key(res.v, "Properties"), p.str), "ActualText")
		if v.Kind() == lp.String {
			return textString(v.RawString()), true
		}
	}
	return "", false
}

// textString decodes a PDF text string: UTF-16BE after its byte order
// mark, UTF-8 after its mark (PDF 2.0), else one byte per character.
func textString(s string) string {
	switch {
	case strings.HasPrefix(s, "\xfe\xff"):
		return utf16Text(s[2:])
	case strings.HasPrefix(s, "\xef\xbb\xbf") && utf8.ValidString(s[3:]):
		return s[3:]
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}

// closeActual ends the replacement span: its text is placed as one glyph
// over the extent of the glyphs drawn inside it, when they stand on one
// line; else they are placed as drawn.
func (w *walker) closeActual() {
	s := w.actual
	w.actual = nil
	if s == nil || len(s.glyphs) == 0 {
		return
	}
	if g, ok := replaced(s); ok {
		if g.text != "" {
			w.lay.add(g)
		}
		return
	}
	for i, g := range s.glyphs {
		w.place(g, s.codes[i], false)
	}
}

// replaced is the glyph that reads as the span's text: at the start of
// the span's glyphs along their line, as wide as they are together. ok
// is false when the glyphs are not on one line or the text is too long.
func replaced(s *actualSpan) (glyph, bool) {
	first := s.glyphs[0]
	if utf8.RuneCountInString(s.text) > maxActualRunes || !plainText(s.text) || s.text != "" && strings.TrimSpace(s.text) == "" {
		return glyph{}, false
	}
	ux, uy := first.ux, first.uy
	u := func(g glyph) float64 { return g.x*ux + g.y*uy }
	across := func(g glyph) float64 { return -g.x*uy + g.y*ux }
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, g := range s.glyphs {
		if math.Abs(g.ux-ux) > 0.01 || math.Abs(g.uy-uy) > 0.01 ||
			math.Abs(across(g)-across(first)) > 0.3*math.Max(first.size, 1) {
			return glyph{}, false
		}
		a := u(g)
		ink := g.ix*ux + g.iy*uy
		lo = math.Min(lo, math.Min(a, a+ink))
		hi = math.Max(hi, math.Max(a, a+ink))
	}
	g := first
	// a tab or line break inside reads as a space
	g.text = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return ' '
		}
		return r
	}, s.text)
	shift := lo - u(first)
	g.x, g.y = first.x+shift*ux, first.y+shift*uy
	g.ix, g.iy = (hi-lo)*ux, (hi-lo)*uy
	adv := 0.0
	for _, o := range s.glyphs {
		a := u(o)
		adv = math.Max(adv, a+o.dx*ux+o.dy*uy-lo)
	}
	adv = math.Max(adv, hi-lo)
	g.dx, g.dy = adv*ux, adv*uy
	return g, true
}

// A replacement of only white space (InDesign writes a tab leader's dots
// as "\t") is not read: the glyphs are, and the gaps around them give
// the spaces.

// plainText reports whether a replacement text can be read: valid, and
// no replacement character, private-use character or control character
// other than a tab or line break (producers write "\t" followed by
// U+FFFD for a tab leader's dots, or a bell).
func plainText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r == 0xFFFD || isPrivateUse(r) || r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r >= 0x7f && r < 0xa0 {
			return false
		}
	}
	return true
}
