// Package analyze splits text into the terms Cairn indexes and embeds:
// Unicode word runs (lower-cased, NFKC), English stemming and stop words,
// and overlapping character bigrams for CJK runs, which have no spaces
// between words. It is shared by the built-in embedder and lexical search
// so that documents and questions are cut the same way.
package analyze

import (
	"cairn/backend/lexicon"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"

	"github.com/kljensen/snowball/english"
	"golang.org/x/text/unicode/norm"
)

// Token is a run of letters/digits (Latin, Cyrillic, Greek, Hangul words...)
// or a run of CJK ideographs/kana.
type Token struct {
	Text string // lower-cased, NFKC
	CJK  bool
}

// IsCJK reports whether r is written without spaces between words (Han,
// Hiragana, Katakana). Hangul uses spaces and is treated as a word script.
func IsCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || r == 'ー'
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// Tokens cuts s into word and CJK runs, in order.
func Tokens(s string) []Token {
	s = strings.ToLower(norm.NFKC.String(s))
	var out []Token
	scanWords(s, false, func(start, end int, cjk bool) {
		out = append(out, Token{Text: s[start:end], CJK: cjk})
	})
	for i := range out {
		if !out[i].CJK {
			out[i].Text = strings.TrimRight(strings.TrimSuffix(out[i].Text, "'s"), "'")
		}
	}
	return out
}

// scanWords calls emit with the byte span of each run of s that Tokens
// reads as one token: a run of CJK characters, or of word characters with
// apostrophes inside (also the typographic one when curly is set).
func scanWords(s string, curly bool, emit func(start, end int, cjk bool)) {
	start, cjk := -1, false
	flush := func(end int) {
		if start >= 0 {
			emit(start, end, cjk)
			start = -1
		}
	}
	for i, r := range s {
		switch {
		case IsCJK(r):
			if start >= 0 && !cjk {
				flush(i)
			}
			if start < 0 {
				start, cjk = i, true
			}
		case isWordRune(r) || ((r == '\'' || curly && r == '’') && start >= 0 && !cjk):
			if start >= 0 && cjk {
				flush(i)
			}
			if start < 0 {
				start, cjk = i, false
			}
		default:
			flush(i)
		}
	}
	flush(len(s))
}

// Stem reduces an English word to its stem (Porter2); other words come back unchanged.
func Stem(w string) string {
	for _, r := range w {
		if r > unicode.MaxLatin1 {
			return w
		}
	}
	if len(w) < 3 {
		return w
	}
	if st, ok := stems.Load(w); ok {
		return st.(string)
	}
	st := english.Stem(w, false)
	if stemsKept.Add(1) <= maxKeptStems {
		stems.Store(strings.Clone(w), st)
	}
	return st
}

// stems memoises Stem: a vocabulary repeats, and the Porter2 stemmer was
// a tenth of indexing's time. At most maxKeptStems words are kept.
var (
	stems     sync.Map // word -> stem
	stemsKept atomic.Int64
)

const maxKeptStems = 200_000

// Bigrams returns the overlapping character bigrams of a CJK run; a single
// character comes back as itself.
func Bigrams(run string) []string {
	rs := []rune(run)
	if len(rs) == 1 {
		return []string{run}
	}
	out := make([]string, 0, len(rs)-1)
	for i := 0; i+1 < len(rs); i++ {
		out = append(out, string(rs[i:i+2]))
	}
	return out
}

// CJKBigramText is the text a CJK-bigram index column holds: every CJK run of
// s cut into overlapping bigrams, space-separated.
func CJKBigramText(s string) string {
	var b strings.Builder
	for _, t := range Tokens(s) {
		if !t.CJK {
			continue
		}
		for _, g := range Bigrams(t.Text) {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(g)
		}
	}
	return b.String()
}

// IsStop reports whether w is an English function word that carries no
// topic (the lexicon's index_stopwords).
func IsStop(w string) bool { _, ok := stopWords[w]; return ok }

var stopWords = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range lexicon.English().Words("index_stopwords") {
		m[w] = struct{}{}
	}
	return m
}()
