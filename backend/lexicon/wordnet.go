package lexicon

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"strings"
	"sync"
)

// English synonyms from WordNet 3.1 (Princeton University; licence in
// WORDNET_LICENSE): for every noun, the other nouns of its first, most
// frequent sense ("expenditure": outgo, spending, outlay; "net profit":
// net income, profit, earnings …). A general English thesaurus, not a
// field's glossary: the answer core reads a figure's name in the words a
// document uses for it when the document never uses the question's
// ("capital expenditure" printed as "Capital spending"). Derived by
// tools/wordnet from the WordNet database files.

//go:embed wordnet_en.tsv.gz
var wordnetData []byte

var (
	wordnetOnce sync.Once
	wordnet     map[string][]string
)

// Synonyms returns the nouns WordNet gives for a noun or noun phrase in
// its first sense (lower case, words separated by single spaces), in
// WordNet's order; nil when it gives none.
func Synonyms(noun string) []string {
	wordnetOnce.Do(loadWordnet)
	return wordnet[strings.Join(strings.Fields(strings.ToLower(noun)), " ")]
}

func loadWordnet() {
	wordnet = map[string][]string{}
	zr, err := gzip.NewReader(bytes.NewReader(wordnetData))
	if err != nil {
		panic("lexicon: wordnet table: " + err.Error()) // embedded at build time
	}
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) > 1 {
			wordnet[fs[0]] = fs[1:]
		}
	}
	if err := sc.Err(); err != nil {
		panic("lexicon: wordnet table: " + err.Error())
	}
}
