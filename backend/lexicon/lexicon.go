// Package lexicon holds the words the offline answer core reads questions
// and sentences with, one categorised lexicon per language, as data: the
// embedded files en.json, zh.json and ja.json (loaded once, on first use).
//
// A lexicon's categories are named word lists (question words and the
// answer kind each asks for, relation words, class nouns, function words,
// demonyms, month names, number words ...), ordered pairs (a country and
// its demonym) and groups (a question kind and its cues). Every category
// carries a doc string saying what class of question or sentence it
// serves. answerspan, relphrase and reason take their words from here, and
// so does the graph extractor (extract: name spans, entity types, stated
// relations; its categories are named graph_*).
//
// Detect names the language of a text by its script and, for Latin
// script, by its function words: Han gives Chinese, kana Japanese, Hangul
// Korean; Latin text is English unless another language's function words
// (detect.json, which holds no lexicon) outnumber English ones. Of gives a
// language's lexicon, nil when there is none; a lexicon whose Answers is
// false (Japanese: relation verbs only) gives no short answers.
package lexicon

import (
	"embed"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
)

//go:embed *.json
var files embed.FS

// Lexicon is one language's categorised words.
type Lexicon struct {
	Lang string `json:"lang"` // ISO 639-1 code: "en", "zh"
	Name string `json:"name"` // "English"
	// Answers says the lexicon can read a question's kind (it has
	// question words): its questions get short answers.
	Answers bool   `json:"answers"`
	Doc     string `json:"doc"`

	WordLists map[string]WordList `json:"words"`
	PairLists map[string]PairList `json:"pairs"`
	GroupSets map[string]GroupSet `json:"groups"`
}

// WordList is a category of words, in the order the file gives them.
type WordList struct {
	Doc   string   `json:"doc"`
	Words []string `json:"words"`
}

// PairList is a category of ordered pairs (key, value).
type PairList struct {
	Doc   string      `json:"doc"`
	Pairs [][2]string `json:"pairs"`
}

// GroupSet is a category of named groups of words.
type GroupSet struct {
	Doc    string              `json:"doc"`
	Groups map[string][]string `json:"groups"`
}

// detectFile is detect.json: function words of languages that have no
// lexicon, so that a question in one is recognised as not English.
type detectFile struct {
	Doc       string `json:"doc"`
	Languages map[string]struct {
		Name  string   `json:"name"`
		Words []string `json:"words"`
	} `json:"languages"`
}

type data struct {
	lex    map[string]*Lexicon
	detect map[string]map[string]bool // language → its function words
	names  map[string]string          // language → its name
}

var load = sync.OnceValue(func() *data {
	d := &data{lex: map[string]*Lexicon{}, detect: map[string]map[string]bool{}, names: map[string]string{
		"ko": "Korean",
	}}
	entries, err := files.ReadDir(".")
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		b, err := files.ReadFile(e.Name())
		if err != nil {
			panic(err)
		}
		if e.Name() == "detect.json" {
			var f detectFile
			if err := json.Unmarshal(b, &f); err != nil {
				panic(fmt.Sprintf("lexicon: %s: %v", e.Name(), err))
			}
			for lang, l := range f.Languages {
				d.detect[lang] = set(l.Words)
				d.names[lang] = l.Name
			}
			continue
		}
		l := &Lexicon{}
		if err := json.Unmarshal(b, l); err != nil {
			panic(fmt.Sprintf("lexicon: %s: %v", e.Name(), err))
		}
		if l.Lang+".json" != path.Base(e.Name()) {
			panic(fmt.Sprintf("lexicon: %s holds language %q", e.Name(), l.Lang))
		}
		d.lex[l.Lang] = l
		d.names[l.Lang] = l.Name
		if w, ok := l.WordLists["detect"]; ok {
			d.detect[l.Lang] = set(w.Words)
		}
	}
	return d
})

// Of is the lexicon of a language (an ISO 639-1 code), nil when there is
// none.
func Of(lang string) *Lexicon { return load().lex[lang] }

// English is the English lexicon.
func English() *Lexicon { return Of("en") }

// Languages are the languages that have a lexicon, sorted.
func Languages() []string {
	var out []string
	for l := range load().lex {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// Name is a language's English name ("German"), or its code when unknown.
func Name(lang string) string {
	if n, ok := load().names[lang]; ok {
		return n
	}
	return lang
}

// Words is a word-list category, in file order. A category the lexicon
// does not have is a programming error: Words panics (the package's tests
// load every category its users name).
func (l *Lexicon) Words(cat string) []string {
	w, ok := l.WordLists[cat]
	if !ok {
		panic(fmt.Sprintf("lexicon %s: no word list %q", l.Lang, cat))
	}
	return w.Words
}

// Has says whether the lexicon has a category of any shape.
func (l *Lexicon) Has(cat string) bool {
	if l == nil {
		return false
	}
	_, w := l.WordLists[cat]
	_, p := l.PairLists[cat]
	_, g := l.GroupSets[cat]
	return w || p || g
}

// Set is a word-list category as a set.
func (l *Lexicon) Set(cat string) map[string]bool { return set(l.Words(cat)) }

// Alt is a word-list category as a regular-expression alternation
// ("a|b|c", each word quoted), in file order.
func (l *Lexicon) Alt(cat string) string {
	ws := l.Words(cat)
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = regexp.QuoteMeta(w)
	}
	return strings.Join(q, "|")
}

// Pairs is a pair category, in file order.
func (l *Lexicon) Pairs(cat string) [][2]string {
	p, ok := l.PairLists[cat]
	if !ok {
		panic(fmt.Sprintf("lexicon %s: no pair list %q", l.Lang, cat))
	}
	return p.Pairs
}

// Map is a pair category as a map (a later pair wins a repeated key).
func (l *Lexicon) Map(cat string) map[string]string {
	out := map[string]string{}
	for _, p := range l.Pairs(cat) {
		out[p[0]] = p[1]
	}
	return out
}

// Groups is a group category.
func (l *Lexicon) Groups(cat string) map[string][]string {
	g, ok := l.GroupSets[cat]
	if !ok {
		panic(fmt.Sprintf("lexicon %s: no groups %q", l.Lang, cat))
	}
	return g.Groups
}

// Group is one group of a group category (nil when it has none).
func (l *Lexicon) Group(cat, name string) []string { return l.Groups(cat)[name] }

// SetOf is a list of words as a set.
func SetOf(words []string) map[string]bool { return set(words) }

// Union is the union of sets of words.
func Union(sets ...map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, s := range sets {
		for w := range s {
			out[w] = true
		}
	}
	return out
}

func set(ws []string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// Detect names the language of text: "zh" for Han script (without kana),
// "ja" with kana, "ko" for Hangul; for Latin script, the language whose
// function words (lower-case words past the first, so that names do not
// count) are most frequent in it, English on a tie or when none is; ""
// when text has no letters.
func Detect(text string) string {
	var han, kana, hangul, latin int
	for _, r := range text {
		switch {
		case unicode.Is(unicode.Han, r):
			han++
		case unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r):
			kana++
		case unicode.Is(unicode.Hangul, r):
			hangul++
		case unicode.IsLetter(r):
			latin++
		}
	}
	words := latinWords(text)
	switch {
	case kana > 0 && kana+han >= len(words):
		return "ja"
	case hangul > 0 && hangul >= len(words):
		return "ko"
	case han > 0 && han >= len(words):
		return "zh"
	case latin == 0:
		return ""
	}
	d := load()
	best, bestN := "en", 0
	count := func(fw map[string]bool) int {
		n := 0
		for i, w := range words {
			if fw[w] && (i == 0 || !firstUpper(w, text)) {
				n++
			}
		}
		return n
	}
	bestN = count(d.detect["en"])
	var langs []string
	for lang := range d.detect {
		langs = append(langs, lang)
	}
	sort.Strings(langs)
	for _, lang := range langs {
		if lang == "en" {
			continue
		}
		if n := count(d.detect[lang]); n > bestN {
			best, bestN = lang, n
		}
	}
	return best
}

// latinWords are text's words of letters, lower-cased, each marked by
// firstUpper through the original text.
func latinWords(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' }) {
		if strings.IndexFunc(f, func(r rune) bool {
			return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
		}) >= 0 {
			continue
		}
		out = append(out, strings.ToLower(f))
	}
	return out
}

// firstUpper says the word w (lower-cased) is written capitalised
// somewhere in text: a name's word ("Die Hard"), not a function word.
func firstUpper(w, text string) bool {
	if w == "" {
		return false
	}
	cap := strings.ToUpper(w[:1]) + w[1:]
	for from := 0; ; {
		i := strings.Index(text[from:], cap)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(cap)
		if (i == 0 || !isLetterByte(text[i-1])) && (end == len(text) || !isLetterByte(text[end])) {
			return true
		}
		from = i + 1
	}
}

func isLetterByte(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80 }
