package tables

import (
	"strings"
	"unicode"
)

// IsAcronym reports whether a word is written as initials: two or more
// capital letters, "&" allowed between them ("COGS", "PP&E", "D&A").
func IsAcronym(w string) bool {
	letters := 0
	for i, r := range w {
		switch {
		case unicode.IsUpper(r):
			letters++
		case r == '&' && i > 0 && i < len(w)-1:
		default:
			return false
		}
	}
	return letters >= 2
}

// Spell finds the words of a label that an acronym's letters are the
// initials of ("PP&E" in "Purchases of property, plant and equipment" is
// "property, plant and equipment"; "COGS" in "Cost of goods sold" the
// whole label). Words minor says are function words may be passed over
// inside the run ("and", "of"); the run starts and ends on a letter's
// word. An "n" may stand for "and", as in "PPNE" (property, plant 'n'
// equipment). "" when no run spells it.
func Spell(acronym, label string, minor func(string) bool) string {
	var letters []rune
	for _, r := range strings.ToLower(acronym) {
		if unicode.IsLetter(r) {
			letters = append(letters, r)
		}
	}
	type word struct {
		text       string
		start, end int
	}
	var words []word
	start := -1
	for i, r := range label + " " {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			words = append(words, word{strings.ToLower(label[start:i]), start, i})
			start = -1
		}
	}
	if len(letters) < 2 {
		return ""
	}
	// match returns the index after the last word of a run that spells
	// letters[ai:] from word wi, or -1.
	var match func(ai, wi int) int
	match = func(ai, wi int) int {
		if ai == len(letters) {
			return wi
		}
		if wi == len(words) {
			return -1
		}
		// A function word is passed over first, and stands for its
		// letter only when nothing else spells the rest ("of" in COGS).
		w := words[wi].text
		if minor(w) {
			if end := match(ai, wi+1); end >= 0 {
				return end
			}
		}
		if []rune(w)[0] == letters[ai] || letters[ai] == 'n' && w == "and" {
			return match(ai+1, wi+1)
		}
		return -1
	}
	for i := range words {
		if []rune(words[i].text)[0] != letters[0] {
			continue
		}
		if end := match(0, i); end > i {
			return label[words[i].start:words[end-1].end]
		}
	}
	return ""
}
