// Package relphrase says what a sentence states between two of its
// mentions: a predicate only where the text states one (a verb phrase
// between the mentions, a copula "X is a Y", an apposition "X, the Y of Z",
// a possessive "X's Y"), else a label quoting the sentence that joins them.
// It never invents a predicate from unrelated words.
package relphrase

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"cairn/backend/lexicon"
)

// CoOccurs is the predicate of a relation whose sentence states no phrase
// between the two mentions: its label is the sentence.
const CoOccurs = "co-occurs with"

// MaxWords is the longest phrase between two mentions taken as a predicate.
const MaxWords = 7

// The words relphrase reads English sentences with (backend/lexicon/en.json)
// and those it reads CJK sentences with (zh.json, ja.json).
var (
	en          = lexicon.English()
	copula      = en.Set("copulas")
	notVerbs    = en.Set("not_verbs")
	verbLike    = regexp.MustCompile(`^(?:[a-z]+(?:ed|en)|[a-z]{3,}(?:es|s)|[a-z]+ing|` + en.Alt("irregular_verbs") + `)$`)
	pronoun     = regexp.MustCompile(`^(?:` + en.Alt("subject_pronouns") + `)\b`)
	function    = en.Set("function_words")
	preposition = en.Set("prepositions")
	// auxiliaries may lead a predicate ("will replace", "can file").
	auxiliaries = en.Set("modal_auxiliaries")
	// adverbs may come before a predicate's verb ("also owns", "later became").
	adverbs     = en.Set("adverbs")
	determiners = en.Set("determiners")
	// possessives are "'s " and "’s ": "X's Y" states Y of X.
	possessives = func() []string {
		var out []string
		for _, e := range en.Words("possessive_endings") {
			out = append(out, e+" ")
		}
		return out
	}()
	// cjkVerbs are the CJK verbs that state a relation between two names;
	// the text between the mentions must be one of them, after an optional
	// negation or modal (cjkLead) and before an optional 于/了 ("并不属于",
	// "应当依照").
	cjkVerbs = append(append([]string(nil), lexicon.Of("zh").Words("relation_verbs")...), lexicon.Of("ja").Words("relation_verbs")...)
	cjkLead  = append(append([]string(nil), lexicon.Of("zh").Words("relation_leads")...), lexicon.Of("ja").Words("relation_leads")...)
)

// Between returns the label of an edge from a to b stated by sentence, and
// whether it is a phrase the sentence states (false: the label quotes the
// sentence). title is the passage's subject, which a pronoun ("He", "It")
// at the sentence's start may stand for.
func Between(sentence, a, b, title string) (string, bool) {
	s := strings.Join(strings.Fields(sentence), " ")
	ia, la := find(s, a)
	if ia < 0 && title != "" && strings.EqualFold(strings.TrimSpace(title), strings.TrimSpace(a)) {
		if m := pronoun.FindStringIndex(s); m != nil {
			ia, la = m[0], m[1]-m[0]
		}
	}
	ib, lb := find(s, b)
	if ia >= 0 && ib >= 0 {
		if p, ok := Phrase(s, ia, la, ib, lb); ok {
			return p, true
		}
	}
	return Quote(s), false
}

// Quote is the label of an edge joined by a sentence: the sentence, cut at
// 60 characters.
func Quote(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= 60 {
		return "“" + s + "”"
	}
	r := []rune(s)
	cut := string(r[:57])
	if i := strings.LastIndex(cut, " "); i > 30 {
		cut = cut[:i]
	}
	return "“" + cut + "…”"
}

// find locates name in s at word boundaries: exactly first, then case
// folded unless the name is all capitals ("CASES" is not "cases").
func find(s, name string) (int, int) {
	name = strings.TrimSpace(name)
	if name == "" {
		return -1, 0
	}
	if i := strings.Index(s, name); i >= 0 && boundary(s, i-1, true) && boundary(s, i+len(name), false) {
		return i, len(name)
	}
	if strings.ToUpper(name) == name {
		return -1, 0
	}
	ls, ln := strings.ToLower(s), strings.ToLower(name)
	from := 0
	for {
		i := strings.Index(ls[from:], ln)
		if i < 0 {
			return -1, 0
		}
		i += from
		if boundary(ls, i-1, true) && boundary(ls, i+len(ln), false) {
			return i, len(ln)
		}
		from = i + 1
	}
}

func boundary(s string, i int, before bool) bool {
	if i < 0 || i >= len(s) {
		return true
	}
	var r rune
	if before {
		r, _ = utf8.DecodeLastRuneInString(s[:i+1])
	} else {
		r, _ = utf8.DecodeRuneInString(s[i:])
	}
	if r >= 0x2E80 { // CJK: no spaces between words
		return true
	}
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// Phrase is the predicate a sentence states from the mention at [ia,ia+la)
// to the one at [ib,ib+lb): the words between them when the subject comes
// first and they read as a relation (a verb, a copula, an apposition "X,
// the Y of", a possessive "X's Y"). ok is false when they do not.
func Phrase(s string, ia, la, ib, lb int) (string, bool) {
	if ia+la > ib {
		return "", false // the object comes first or they overlap: the text does not read subject → object
	}
	if end := strings.TrimRight(s, " \t\n\"”’)"); strings.HasSuffix(end, "?") || strings.HasSuffix(end, "？") || strings.HasSuffix(end, "吗") {
		return "", false // a question asserts nothing
	}
	if after, obj := s[ib+lb:], s[ib:ib+lb]; strings.HasPrefix(after, "'s") || strings.HasPrefix(after, "’s") || strings.HasSuffix(obj, "'s") || strings.HasSuffix(obj, "’s") {
		return "", false // "X is Norland's largest …": the object is a possessor, not what is stated
	}
	if before := strings.Fields(s[:ia]); len(before) > 0 && (preposition[strings.ToLower(before[len(before)-1])] || len(before) > 1 && preposition[strings.ToLower(before[len(before)-2])] && !strings.HasSuffix(before[len(before)-1], ",")) {
		return "", false // "Retrieval in open-domain QA is …": the subject is not the one the verb is about
	}
	mid := s[ia+la : ib]
	if strings.IndexFunc(mid, isCJKRune) >= 0 {
		// The object must end its clause ("…解除劳动合同，"), not open a
		// longer noun phrase ("是劳动者付出劳动的报酬"); the subject must not
		// follow a preposition ("与劳动者解除…": the worker is not the one acting).
		if r, _ := utf8.DecodeRuneInString(s[ib+lb:]); isCJKRune(r) || unicode.IsLetter(r) {
			return "", false
		}
		if r, _ := utf8.DecodeLastRuneInString(s[:ia]); isCJKRune(r) || unicode.IsLetter(r) {
			return "", false // the subject must start its clause, not end a longer word or a "与/向 …" phrase
		}
		return cjkPhrase(mid)
	}
	// Possessive: "X's Y Z" → "Y".
	for _, ap := range possessives {
		if strings.HasPrefix(mid, ap) {
			w := strings.Fields(strings.TrimRight(mid[len(ap):], " ,"))
			if len(w) >= 1 && len(w) <= 3 && allLower(w) {
				return strings.Join(w, " "), true
			}
			return "", false
		}
	}
	trim := strings.TrimSpace(mid)
	if trim == "" {
		return "", false
	}
	// Apposition "X, the Y of Z" (and "X, a Y of Z").
	if strings.HasPrefix(trim, ",") {
		in := strings.TrimSpace(strings.TrimPrefix(trim, ","))
		w := strings.Fields(in)
		if len(w) >= 2 && len(w) <= 5 && (w[0] == "the" || w[0] == "a" || w[0] == "an") && w[len(w)-1] == "of" && allLower(w) && !strings.ContainsAny(in, ",;()\"“”'‘’•") {
			return strings.Join(w, " "), true
		}
		// "X, who founded Z" / "X, which owns Z"
		if len(w) >= 2 && len(w) <= MaxWords && (w[0] == "who" || w[0] == "which") && hasVerb(w[1:]) && allLower(w) && !strings.ContainsAny(in, ",;()") {
			return strings.Join(w[1:], " "), true
		}
		return "", false
	}
	if strings.ContainsAny(trim, ",;:()[]\"“”•·") {
		return "", false
	}
	w := strings.Fields(trim)
	if len(w) > MaxWords || !allLower(w) {
		return "", false
	}
	for _, x := range w {
		if x == "that" || x == "which" || x == "who" || x == "whose" || x == "where" || x == "when" {
			return "", false // a relative clause: the object belongs to another verb
		}
	}
	if !hasVerb(w) {
		return "", false
	}
	// A copula alone with an article ("is a") is the statement "X is a Y".
	return strings.Join(w, " "), true
}

func allLower(w []string) bool {
	for _, x := range w {
		r, _ := utf8.DecodeRuneInString(x)
		if unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

// hasVerb says the words read as a predicate: after any adverbs, they
// start with a copula, an auxiliary or a verb form (not a preposition, an
// adjective or a gerund: "for not filing in", "available under").
func hasVerb(w []string) bool {
	for i, x := range w {
		x = strings.ToLower(strings.Trim(x, ".,"))
		if adverbs[x] {
			continue
		}
		if copula[x] || auxiliaries[x] {
			return true
		}
		if notVerbs[x] || function[x] || strings.HasSuffix(x, "ing") || strings.HasSuffix(x, "ness") || strings.HasSuffix(x, "ous") {
			return false
		}
		if !verbLike.MatchString(x) {
			return false
		}
		// An "-s" word is a verb ("amends the", "requires a") only before a
		// determiner or at the end, else a plural noun ("packages and").
		if strings.HasSuffix(x, "s") && !copula[x] && i+1 < len(w) && !determiners[strings.ToLower(w[i+1])] {
			return false
		}
		return true
	}
	return false
}

func hasLetters(w string) bool {
	return strings.IndexFunc(w, unicode.IsLetter) >= 0
}

// cjkPhrase is the predicate of CJK text between two mentions: a relation
// verb, perhaps negated or with a modal, nothing else.
func cjkPhrase(mid string) (string, bool) {
	t := strings.TrimSpace(mid)
	rest := t
	for _, l := range cjkLead {
		if strings.HasPrefix(rest, l) {
			rest = rest[len(l):]
			break
		}
	}
	rest = strings.TrimSuffix(rest, "了")
	for _, v := range cjkVerbs {
		if rest == v || rest == v+"于" {
			return t, true
		}
	}
	return "", false
}

func isCJKRune(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}
