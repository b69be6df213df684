package pdf

import "unicode"

// IsCJK reports whether r is a Han, Hiragana, Katakana or Hangul character.
func IsCJK(r rune) bool {
	if r < 0x1100 {
		return false
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}
