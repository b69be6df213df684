package kb

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// NormKey is the normalised form under which entity names and aliases are
// matched: Unicode NFKC, lower case, punctuation and symbols turned into
// spaces, spaces collapsed, a possessive "'s" and a leading English article
// dropped. Letters of every script are kept as they are, accents included
// ("Alû" stays "alû", "北京" stays "北京"), so different names never collapse
// into one key because of an ASCII-only rule.
func NormKey(s string) string {
	s = norm.NFKC.String(s)
	var b strings.Builder
	space := true
	for _, r := range s {
		switch {
		case r == '\'' || r == '’':
			// apostrophes join ("O'Brien" -> "obrien"); possessives handled below
			continue
		case unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r):
			b.WriteRune(unicode.ToLower(r))
			space = false
		default: // space, punctuation, symbols, controls
			if !space {
				b.WriteByte(' ')
				space = true
			}
		}
	}
	out := strings.TrimSpace(b.String())
	for _, art := range []string{"the ", "a ", "an "} {
		if strings.HasPrefix(out, art) && len(out) > len(art) {
			out = out[len(art):]
			break
		}
	}
	// possessive: the apostrophe was dropped, so "Smith's" became "smiths";
	// undo it only when the original had the apostrophe before a final s.
	if hasPossessive(s) {
		out = strings.TrimSuffix(out, "s")
	}
	return out
}

func hasPossessive(s string) bool {
	s = strings.TrimRightFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) && r != '\'' && r != '’' })
	return strings.HasSuffix(s, "'s") || strings.HasSuffix(s, "’s")
}

// TopicKey is the key under which a document title or section heading names
// a topic: NormKey without a trailing qualifier in parentheses ("Mercury
// (planet)" → "mercury"), so it equals the NormKey of the name it is about.
func TopicKey(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, ")") {
		if i := strings.LastIndex(s, "("); i > 0 {
			s = s[:i]
		}
	}
	return NormKey(s)
}

// OneLine collapses every run of white space in s, line breaks included,
// to one space and trims the ends.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
