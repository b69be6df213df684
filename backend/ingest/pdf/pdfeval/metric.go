// Package pdfeval measures PDF text extraction against pdftotext
// (poppler-utils) with the token-F1 metric of research/parsers.md. The
// package tests and the pdff1 command share it.
package pdfeval

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"cairn/backend/ingest/pdf"
)

// Tokens splits s into the tokens used by the extraction-quality metric of
// research/parsers.md: the text is NFKC-normalised and lower-cased, then a
// token is either a maximal run of letters/digits or one single CJK
// character (Han, Hiragana, Katakana or Hangul), so that the score does not
// depend on how a reader spaces CJK text.
func Tokens(s string) []string {
	s = strings.ToLower(norm.NFKC.String(s))
	var out []string
	start := -1
	for i, r := range s {
		switch {
		case IsCJK(r):
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			out = append(out, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) && start >= 0:
			if start < 0 {
				start = i
			}
		default:
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// IsCJK reports whether r is a Han, Hiragana, Katakana or Hangul character.
func IsCJK(r rune) bool { return pdf.IsCJK(r) }

// F1 returns the multiset token F1 of candidate against reference, together
// with precision and recall. Two empty texts score 1.
func F1(candidate, reference []string) (f1, precision, recall float64) {
	if len(candidate) == 0 && len(reference) == 0 {
		return 1, 1, 1
	}
	if len(candidate) == 0 || len(reference) == 0 {
		return 0, 0, 0
	}
	counts := make(map[string]int, len(reference))
	for _, t := range reference {
		counts[t]++
	}
	overlap := 0
	for _, t := range candidate {
		if counts[t] > 0 {
			counts[t]--
			overlap++
		}
	}
	if overlap == 0 {
		return 0, 0, 0
	}
	precision = float64(overlap) / float64(len(candidate))
	recall = float64(overlap) / float64(len(reference))
	return 2 * precision * recall / (precision + recall), precision, recall
}

// TextF1 is F1 over the tokens of two texts.
func TextF1(candidate, reference string) float64 {
	f, _, _ := F1(Tokens(candidate), Tokens(reference))
	return f
}

// CJKShare is the share of tokens of s that are single CJK characters; the
// measuring tools use it to split a corpus into CJK and non-CJK documents.
func CJKShare(tokens []string) float64 {
	if len(tokens) == 0 {
		return 0
	}
	n := 0
	for _, t := range tokens {
		if r := []rune(t); len(r) == 1 && IsCJK(r[0]) {
			n++
		}
	}
	return float64(n) / float64(len(tokens))
}

// NgramF1 is the multiset F1 of the word n-grams of candidate against those
// of reference: unlike token F1 it drops when reading order is wrong (two
// columns read across, a header spliced into a paragraph). Two texts
// shorter than n score 1 when both are empty, else 0.
func NgramF1(candidate, reference []string, n int) float64 {
	grams := func(ts []string) map[string]int {
		m := map[string]int{}
		for i := 0; i+n <= len(ts); i++ {
			m[strings.Join(ts[i:i+n], "\x00")]++
		}
		return m
	}
	c, r := grams(candidate), grams(reference)
	nc, nr := max(len(candidate)-n+1, 0), max(len(reference)-n+1, 0)
	if nc == 0 && nr == 0 {
		if len(candidate) == 0 && len(reference) == 0 {
			return 1
		}
		return 0
	}
	hit := 0
	for g, k := range c {
		hit += min(k, r[g])
	}
	if hit == 0 {
		return 0
	}
	p, rc := float64(hit)/float64(nc), float64(hit)/float64(nr)
	return 2 * p * rc / (p + rc)
}
