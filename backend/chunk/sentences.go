package chunk

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// abbreviations end with a period but do not end a sentence.
var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "etc": true, "vs": true, "cf": true, "mr": true, "mrs": true, "ms": true, "dr": true,
	"prof": true, "sr": true, "jr": true, "st": true, "no": true, "fig": true, "figs": true, "eq": true, "vol": true,
	"pp": true, "p": true, "inc": true, "ltd": true, "co": true, "corp": true, "u.s": true, "u.k": true, "art": true,
	"sec": true, "ch": true, "approx": true, "jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true,
	"aug": true, "sep": true, "sept": true, "oct": true, "nov": true, "dec": true, "al": true, "ed": true, "eds": true,
	"mt": true, "mts": true, "mtn": true,
}

// Sentences returns the [start, end) byte spans of the sentences of a block,
// trimmed of surrounding space. Latin sentences end at . ! ? (not after an
// abbreviation, an initial or inside a number) followed by space; CJK ones at
// 。！？； and their full-width variants; a newline ends a sentence too.
func Sentences(s string) [][2]int {
	var out [][2]int
	start := 0
	add := func(end int) {
		a, b := start, end
		for a < b {
			r, size := utf8.DecodeRuneInString(s[a:])
			if !unicode.IsSpace(r) {
				break
			}
			a += size
		}
		for b > a {
			r, size := utf8.DecodeLastRuneInString(s[:b])
			if !unicode.IsSpace(r) {
				break
			}
			b -= size
		}
		if a < b {
			out = append(out, [2]int{a, b})
		}
		start = end
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		next := i + size
		switch r {
		case '\n':
			add(next)
		case '。', '！', '？', '；', '!', '?', '．':
			// absorb closing quotes/brackets
			for next < len(s) {
				r2, sz := utf8.DecodeRuneInString(s[next:])
				if !strings.ContainsRune("”’\"')）」』", r2) {
					break
				}
				next += sz
			}
			if r > 0x3000 || r == '．' || next >= len(s) || isSpaceAt(s, next) {
				add(next)
			}
		case '.':
			if endsSentence(s, i, next) {
				for next < len(s) && strings.ContainsRune("”’\"')", rune(s[next])) {
					next++
				}
				add(next)
			}
		}
		i = max(next, i+size)
	}
	add(len(s))
	return out
}

func isSpaceAt(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsSpace(r)
}

// endsSentence decides whether the period at s[i] ends a sentence.
func endsSentence(s string, i, next int) bool {
	if next < len(s) && !isSpaceAt(s, next) && !strings.ContainsRune("”’\"')", rune(s[next])) {
		return false // 3.14, e.g.x, file.txt
	}
	// the word before the period
	j := i
	for j > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:j])
		if !(unicode.IsLetter(r) || r == '.') {
			break
		}
		j -= size
	}
	word := strings.ToLower(s[j:i])
	if abbreviations[word] || abbreviations[strings.TrimSuffix(word, ".")] {
		return false
	}
	if utf8.RuneCountInString(word) == 1 && unicode.IsUpper([]rune(s[j:i])[0]) {
		return false // an initial: "J. R. R. Tolkien"
	}
	// the next word must not start lower-case ("approx. three")
	k := next
	for k < len(s) && isSpaceAt(s, k) {
		_, size := utf8.DecodeRuneInString(s[k:])
		k += size
	}
	if k < len(s) {
		r, _ := utf8.DecodeRuneInString(s[k:])
		if unicode.IsLower(r) {
			return false
		}
	}
	return true
}
