package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// folded is a chunk text normalised for matching names (NFKC, lower case,
// one space for any run of spaces, typographic apostrophes and dashes made
// plain), with the byte offset in the original text of every byte of the
// folded form, so a match maps back to an exact span of the source.
type folded struct {
	s    string
	orig []int // orig[i] = start offset in the original of the rune that produced s[i]; len(s)+1 entries
}

func foldRune(r rune) string {
	switch r {
	case '’', '‘', 'ʼ', '`':
		return "'"
	case '‐', '‑', '‒', '–', '—', '−':
		return "-"
	case '“', '”', '„':
		return "\""
	}
	if unicode.IsSpace(r) {
		return " "
	}
	return strings.ToLower(norm.NFKC.String(string(r)))
}

func fold(text string) folded {
	var b strings.Builder
	var orig []int
	lastSpace := true
	for i, r := range text {
		f := foldRune(r)
		if f == " " {
			if lastSpace {
				continue
			}
			lastSpace = true
		} else {
			lastSpace = false
		}
		for j := 0; j < len(f); j++ {
			orig = append(orig, i)
		}
		b.WriteString(f)
	}
	orig = append(orig, len(text))
	return folded{s: b.String(), orig: orig}
}

// foldName folds a name the same way, trimmed.
func foldName(name string) string { return strings.TrimSpace(fold(name).s) }

// spanEnd maps the end of a folded match back to the end of the original
// rune that produced its last byte.
func (f folded) span(text string, a, b int) (int, int) {
	start := f.orig[a]
	last := f.orig[b-1]
	_, size := utf8.DecodeRuneInString(text[last:])
	return start, last + size
}

// findAll returns the byte spans in text of every occurrence of name (after
// folding both), at word boundaries for names that start/end with a letter
// or digit of an alphabetic script (CJK has no word boundaries).
func findAll(text string, f folded, name string, maxHits int) [][2]int {
	n := foldName(name)
	if n == "" {
		return nil
	}
	var out [][2]int
	for from := 0; from < len(f.s); {
		i := strings.Index(f.s[from:], n)
		if i < 0 {
			break
		}
		a := from + i
		b := a + len(n)
		from = a + 1
		if !boundary(f.s, a, b) {
			continue
		}
		s, e := f.span(text, a, b)
		out = append(out, [2]int{s, e})
		from = b
		if maxHits > 0 && len(out) >= maxHits {
			break
		}
	}
	return out
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

func boundary(s string, a, b int) bool {
	first, _ := utf8.DecodeRuneInString(s[a:])
	last, _ := utf8.DecodeLastRuneInString(s[:b])
	if a > 0 && isWordRune(first) && !isCJK(first) {
		prev, _ := utf8.DecodeLastRuneInString(s[:a])
		if isWordRune(prev) && !isCJK(prev) {
			return false
		}
	}
	if b < len(s) && isWordRune(last) && !isCJK(last) {
		next, _ := utf8.DecodeRuneInString(s[b:])
		if isWordRune(next) && !isCJK(next) {
			return false
		}
	}
	return true
}

// words splits folded text into comparable tokens: alphabetic words and
// single CJK characters.
func words(s string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for _, r := range s {
		switch {
		case isCJK(r):
			flush()
			out = append(out, string(r))
		case isWordRune(r):
			cur.WriteRune(unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
	return out
}

// overlap is the share of a's distinct tokens found in b (0..1).
func overlap(a, b []string) float64 {
	if len(a) == 0 {
		return 0
	}
	in := map[string]bool{}
	for _, w := range b {
		in[w] = true
	}
	seen := map[string]bool{}
	hit, n := 0, 0
	for _, w := range a {
		if seen[w] {
			continue
		}
		seen[w] = true
		n++
		if in[w] {
			hit++
		}
	}
	return float64(hit) / float64(n)
}
