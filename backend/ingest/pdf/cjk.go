package pdf

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// IsCJK reports whether r is a Han, Hiragana, Katakana or Hangul character.
func IsCJK(r rune) bool {
	if r < 0x1100 {
		return false
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// simplifiedRadicals maps the C-simplified (and a few J-simplified)
// radicals of the CJK Radicals Supplement block to the unified ideographs
// they stand for. Fonts made by some Office versions map glyphs to these
// radical code points in their ToUnicode CMaps; readers and search expect
// the ordinary characters.
var simplifiedRadicals = map[rune]rune{
	0x2EB0: '纟', 0x2EC5: '见', 0x2EC6: '角', 0x2EC8: '讠', 0x2EC9: '贝',
	0x2ECB: '车', 0x2ED0: '钅', 0x2ED3: '长', 0x2ED4: '门', 0x2ED9: '韦',
	0x2EDA: '页', 0x2EDB: '风', 0x2EDC: '飞', 0x2EE0: '饣', 0x2EE2: '马',
	0x2EE5: '鱼', 0x2EE6: '鸟', 0x2EE7: '卤', 0x2EE8: '麦', 0x2EE9: '黄',
	0x2EEA: '黾', 0x2EEB: '斉', 0x2EEC: '齐', 0x2EED: '歯', 0x2EEE: '齿',
	0x2EEF: '竜', 0x2EF0: '龙', 0x2EF2: '亀', 0x2EF3: '龟',
}

// normalizeRadicals replaces Kangxi radicals (U+2F00-U+2FD5, by their
// compatibility decomposition) and simplified supplement radicals with the
// unified ideographs.
func normalizeRadicals(s string) string {
	has := false
	for _, r := range s {
		if r >= 0x2E80 && r <= 0x2FDF {
			has = true
			break
		}
	}
	if !has {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 0x2F00 && r <= 0x2FD5:
			if d := []rune(norm.NFKC.String(string(r))); len(d) == 1 {
				return d[0]
			}
		case r >= 0x2E80 && r <= 0x2EFF:
			if u, ok := simplifiedRadicals[r]; ok {
				return u
			}
		}
		return r
	}, s)
}
