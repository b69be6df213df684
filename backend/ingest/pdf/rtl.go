package pdf

import (
	"unicode"

	"golang.org/x/text/unicode/bidi"
)

// Right-to-left text. A PDF paints glyphs left to right on the page, so a
// line of Arabic, Hebrew, Persian or Urdu comes out of the page analysis in
// visual order: its words and letters reversed. visualToLogical undoes
// that for the common cases the Unicode bidirectional algorithm produces:
// a right-to-left line with embedded left-to-right runs (numbers, Latin
// words), and a left-to-right line with embedded right-to-left words.

// isRTL reports whether r is a strong right-to-left character.
func isRTL(r rune) bool {
	if r < 0x0590 {
		return false
	}
	p, _ := bidi.LookupRune(r)
	c := p.Class()
	return c == bidi.R || c == bidi.AL
}

// isLTRStrong reports whether r keeps left-to-right order inside a
// right-to-left line: a strong L character or a digit.
func isLTRStrong(r rune) bool {
	if r >= '0' && r <= '9' {
		return true
	}
	if r < 0x80 {
		return unicode.IsLetter(r)
	}
	p, _ := bidi.LookupRune(r)
	c := p.Class()
	return c == bidi.L || c == bidi.EN || c == bidi.AN
}

// rtlCounts counts strong right-to-left and left-to-right letters.
func rtlCounts(s string) (rtl, ltr int) {
	for _, r := range s {
		switch {
		case isRTL(r):
			rtl++
		case unicode.IsLetter(r):
			ltr++
		}
	}
	return
}

// rtlDominant reports whether most letters of the lines are right-to-left
// (the page's columns are then read right to left).
func rtlDominant(lines []*pline) bool {
	rtl, ltr := 0, 0
	for _, l := range lines {
		a, b := rtlCounts(l.text)
		rtl += a
		ltr += b
	}
	return rtl > ltr
}

// visualToLogical turns one line in visual order into logical order.
func visualToLogical(s string) string {
	rtl, ltr := rtlCounts(s)
	if rtl == 0 {
		return s
	}
	rs := []rune(s)
	if rtl >= ltr {
		// A right-to-left line: reverse it, then put the left-to-right
		// runs (numbers, Latin words, with the separators inside them)
		// back in their own order.
		rs = []rune(bidi.ReverseString(s))
		reverseRuns(rs, isLTRStrong, func(r rune) bool {
			return r == '.' || r == ',' || r == ':' || r == '/' || r == '-' || r == ' ' || r == '%' || r == '\''
		})
		return string(rs)
	}
	// A left-to-right line: reverse each right-to-left stretch.
	reverseRuns(rs, isRTL, func(r rune) bool { return r == ' ' || unicode.IsPunct(r) || unicode.IsMark(r) })
	return string(rs)
}

// reverseRuns reverses, in place and with bracket mirroring, every maximal
// stretch that starts and ends with a core rune and holds only core and
// inner runes.
func reverseRuns(rs []rune, core, inner func(rune) bool) {
	for i := 0; i < len(rs); {
		if !core(rs[i]) {
			i++
			continue
		}
		end := i // last core rune of the stretch
		for j := i + 1; j < len(rs); j++ {
			if core(rs[j]) || unicode.IsMark(rs[j]) {
				end = j
				continue
			}
			if !inner(rs[j]) {
				break
			}
		}
		seg := []rune(bidi.ReverseString(string(rs[i : end+1])))
		copy(rs[i:end+1], seg)
		i = end + 1
	}
}
