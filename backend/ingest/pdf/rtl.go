package pdf

import (
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/bidi"
	"golang.org/x/text/unicode/norm"
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

// rtlLineText is the logical text of a line holding right-to-left
// script: its runs left to right, each run's glyphs by position (a PDF
// may draw a right-to-left run in any order), spaces where space glyphs
// or gaps are, then the visual sequence of glyphs turned into logical
// order. Glyphs stay whole: a lam-alef ligature keeps its two letters in
// their own order.
func rtlLineText(l *pline) string {
	var units []string
	// end is where the last glyph placed ends, across runs: a word drawn
	// in two pieces is one word when the pieces touch.
	end := math.Inf(-1)
	for ri, r := range l.runs {
		gs := append([]placed(nil), r.gl...)
		sort.SliceStable(gs, func(i, j int) bool { return gs[i].u0 < gs[j].u0 })
		gs = withMarks(gs)
		if ri > 0 && r.u0-l.runs[ri-1].u1 > wordGapEm*l.size {
			units = append(units, " ")
		}
		for _, g := range gs {
			if g.text == " " {
				if len(units) > 0 && units[len(units)-1] != " " {
					units = append(units, " ")
				}
				continue
			}
			if len(units) > 0 && units[len(units)-1] != " " && g.u0-end > 2*wordGapEm*l.size {
				units = append(units, " ")
			}
			units = append(units, g.text)
			end = math.Max(end, g.u1)
		}
	}
	// Latin and Arabic letters never join into one word: where a line
	// switches script without a space (producers often drop it), add one.
	var spaced []string
	for i, u := range units {
		if i > 0 && u != " " && units[i-1] != " " {
			a, b := unitClass(units[i-1]), unitClass(u)
			if a != b && a != 'N' && b != 'N' {
				spaced = append(spaced, " ")
			}
		}
		spaced = append(spaced, u)
	}
	return strings.Join(strings.Fields(visualToLogical(spaced)), " ")
}

// withMarks attaches each combining mark glyph (a vowel sign, shadda,
// tanwin, niqqud: Unicode Mn) to the letter it is drawn on, the one whose
// extent holds the mark's centre (else the nearest), so that it follows
// its letter in logical order. Sorted by position, a mark drawn over the
// middle of its letter comes after it, and once the line is turned into
// logical order it would stand before it ("شكًرا" for "شكرًا"). gs is
// sorted by u0; the result keeps that order without the marks.
func withMarks(gs []placed) []placed {
	var out []placed
	var marks []placed
	for _, g := range gs {
		if isMarkText(g.text) {
			marks = append(marks, g)
			continue
		}
		out = append(out, g)
	}
	if len(marks) == 0 {
		return gs
	}
	for _, m := range marks {
		c := (m.u0 + m.u1) / 2
		best, bestD := -1, math.Inf(1)
		for i, g := range out {
			if g.text == " " {
				continue
			}
			d := 0.0
			switch {
			case c < g.u0:
				d = g.u0 - c
			case c > g.u1:
				d = c - g.u1
			}
			if d < bestD {
				best, bestD = i, d
			}
		}
		if best < 0 {
			return gs // marks alone: leave them as drawn
		}
		out[best].text = norm.NFC.String(out[best].text + m.text)
	}
	return out
}

// isMarkText reports whether s is one or more nonspacing combining marks.
func isMarkText(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !unicode.Is(unicode.Mn, r) {
			return false
		}
	}
	return true
}

// unitClass classifies a glyph's text: 'R' right-to-left, 'L' left-to-right
// (letters, digits), 'N' neutral (spaces, punctuation).
func unitClass(u string) byte {
	for _, r := range u {
		switch {
		case isRTL(r):
			return 'R'
		case isLTRStrong(r):
			return 'L'
		}
	}
	return 'N'
}

// visualToLogical turns one line, as glyph texts in visual (left to right)
// order, into logical order: a line of mostly right-to-left letters is
// reversed with its left-to-right stretches (numbers, Latin words) kept in
// their own order; a mostly left-to-right line has only its right-to-left
// stretches reversed. Brackets are mirrored where their order flips.
func visualToLogical(units []string) string {
	rtl, ltr := 0, 0
	for _, u := range units {
		switch unitClass(u) {
		case 'R':
			rtl++
		case 'L':
			ltr++
		}
	}
	us := append([]string(nil), units...)
	if rtl >= ltr {
		reverseUnits(us)
		reverseStretches(us, 'L', func(u string) bool {
			return u == "." || u == "," || u == ":" || u == "/" || u == "-" || u == "%"
		})
	} else {
		reverseStretches(us, 'R', func(u string) bool { return u == " " || unitClass(u) == 'N' })
	}
	return strings.Join(us, "")
}

// reverseUnits reverses glyph order, mirroring brackets.
func reverseUnits(us []string) {
	for i, j := 0, len(us)-1; i < j; i, j = i+1, j-1 {
		us[i], us[j] = us[j], us[i]
	}
	for i, u := range us {
		if utf8.RuneCountInString(u) == 1 {
			us[i] = bidi.ReverseString(u)
		}
	}
}

// reverseStretches reverses every maximal stretch that starts and ends
// with a unit of class core and holds only core and inner units.
func reverseStretches(us []string, core byte, inner func(string) bool) {
	for i := 0; i < len(us); {
		if unitClass(us[i]) != core {
			i++
			continue
		}
		end := i
		for j := i + 1; j < len(us); j++ {
			if unitClass(us[j]) == core {
				end = j
				continue
			}
			if !inner(us[j]) {
				break
			}
		}
		reverseUnits(us[i : end+1])
		i = end + 1
	}
}
