package pdf

import (
	"unicode"
)

// textStats counts the kinds of characters in a text.
type textStats struct {
	runes        int // non-space characters
	good         int // letters and digits
	bad          int // U+FFFD, private use, control characters
	latin1       int // letters in U+0080..U+00FF (mojibake signal)
	letters      int
	latinWords   int // runs of Latin letters
	longLetters  int // letters in Latin runs of 25 or more
	latinLetters int
}

// measure computes textStats for s.
func measure(s string) textStats {
	var st textStats
	run := 0
	endRun := func() {
		if run > 0 {
			st.latinWords++
			if run >= 25 {
				st.longLetters += run
			}
		}
		run = 0
	}
	for _, r := range s {
		if unicode.IsSpace(r) {
			endRun()
			continue
		}
		st.runes++
		switch {
		case r == 0xFFFD || isPrivateUse(r) || r < 0x20 || r >= 0x7f && r < 0xa0:
			st.bad++
		case unicode.IsLetter(r):
			st.good++
			st.letters++
			if r >= 0x80 && r <= 0xff {
				st.latin1++
			}
		case unicode.IsDigit(r):
			st.good++
		}
		if r < 0x250 && unicode.IsLetter(r) {
			run++
			st.latinLetters++
		} else {
			endRun()
		}
	}
	endRun()
	return st
}

// isPrivateUse reports code points of the Private Use Areas.
func isPrivateUse(r rune) bool {
	return r >= 0xE000 && r <= 0xF8FF || r >= 0xF0000
}

// verdict explains why a page's text is not trusted ("" = trusted).
type verdict string

// minorUnmapped is the verdict for a page that is fine except for a few
// glyphs of a CJK font without a Unicode map: worth a second opinion, but
// the walker's text is kept unless the fallback recovers more.
const minorUnmapped verdict = "a few glyphs without a Unicode mapping"

// judge decides whether the walker's text for a page can be trusted, from
// the walker's own counters and the character statistics of the text.
func judge(r *pageResult, text string) verdict {
	st := measure(text)
	switch {
	case r.err != nil:
		return verdict("walker stopped: " + r.err.Error())
	case r.glyphs >= 10 && r.undecodable*50 > r.glyphs:
		return "font without a usable Unicode map"
	case r.noFont > 0 && st.runes < 20:
		return "text shown with a font that could not be loaded"
	}
	if v := judgeStats(st); v != "" {
		return v
	}
	if r.unmappedCID > 0 {
		return minorUnmapped
	}
	return ""
}

// preferFallback decides whether PDFium's text (is) should replace the
// walker's (ws) on a page the judge rejected with verdict v.
func preferFallback(v verdict, ws, is textStats) bool {
	if judgeStats(is) != "" {
		return score(is) > score(ws)
	}
	if v == minorUnmapped {
		return is.good >= ws.good
	}
	return true
}

// judgeStats applies the text-only tests; it is also used to compare the
// walker's text with PDFium's.
func judgeStats(st textStats) verdict {
	switch {
	case st.runes >= 10 && st.bad*20 > st.runes:
		return "replacement or control characters"
	case st.letters >= 20 && st.latin1*10 > st.letters*3:
		return "Latin-1 mojibake (CJK font decoded as bytes?)"
	case st.runes >= 40 && st.good*10 < st.runes*3:
		return "few letters or digits"
	case st.latinLetters >= 200 && st.longLetters*10 > st.latinLetters*3:
		return "words run together (missing spaces)"
	}
	return ""
}

// score ranks two candidate texts for the same page: readable characters
// count, damaged ones count against.
func score(st textStats) int {
	return st.good - 3*st.bad
}
