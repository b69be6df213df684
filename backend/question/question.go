// Package question is the analysed question: a question's text read once
// (its language, its words as the tokenizer cuts them, the word keys of
// document frequencies and hashed vectors, its kind, the years and names
// it says) and handed down to routing, retrieval, search and the answer
// core, so that the text is tokenised in this one place and a step that
// needs the question's words reads them here. A question put to another
// step (a deep plan's sub-question, a chained question with a hop's entity
// put in) is another text and gets its own Question.
//
// It sits below backend/route, backend/search, backend/retrieve and
// backend/reason, which take it, and above backend/analyze, backend/embed,
// backend/answerspan, backend/formula and backend/lexicon, which it reads
// the text with.
package question

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"cairn/backend/analyze"
	"cairn/backend/answerspan"
	"cairn/backend/embed"
	"cairn/backend/formula"
	"cairn/backend/lexicon"
)

// Question is one question's text, analysed once.
type Question struct {
	Text string // as asked (trimmed by the caller)
	// Lang is the language of the text (lexicon.Detect: "en", "zh", ...;
	// "" without letters).
	Lang string
	// Tokens are the text's words and CJK runs (analyze.Tokens): what
	// every word list, stem and search term of the question is made from.
	Tokens []analyze.Token
	// Fields are the text's whitespace-separated words as written
	// (strings.Fields), punctuation kept: the n-grams looked up as entity
	// aliases.
	Fields []string
	// Words are the distinct word keys of the text ("w:stem", CJK "c:"
	// characters and "w:" bigrams; embed.WordsOf): the keys of document
	// frequencies and of the built-in vectors.
	Words []string
	// Kind is the question classified (answerspan.Classify): the kind of
	// answer it asks for, its focus noun, the items it compares.
	Kind answerspan.Question
	// Years are the years the text names, once each, in order; a span
	// ("FY2015 - FY2017") names the years inside it too.
	Years []int
	// Names are the name-like spans of the text (NameSpans).
	Names []string
	// DocWords are the words that may name a document, as written ("X9",
	// "Norcell", "NBK"): capitalised or digits among letters, not
	// function words, years or periods ("FY2018", "Q2"). Routing reads them.
	DocWords []string
	// AskWords are the word keys (as Words, a fiscal year as its year:
	// "FY2021" is "2021") of the sentence that asks:
	// the one ending in "?", without the sentences around it that set a
	// role or the answer's form ("Assume you are an analyst.", "Round
	// your answer to two places."). The same as Words for a text of one
	// sentence or none ending in "?". Support (reason) weighs the
	// evidence against them.
	AskWords []string
	// Computed are the AskWords that name a figure worked out from
	// others ("ratio", "average", "change"; lexicon computed_words):
	// what Cairn computes, not what a passage must say, so support does
	// not weigh them.
	Computed []string
	// Anchors are the words by which the text names what it asks about
	// (Anchors; English text only): a passage that answers it holds them.
	// Reason declines a question whose scope never mentions one of them.
	Anchors []string
	// Moved is the way the text asks whether a quantity moved
	// (answerspan.Direction): +1 up, -1 down, 0 neither.
	Moved int
	// Period is the latest year the text names, in any of its forms
	// ("2018", "FY18", "Q2'23", "Q22023"); 0 when none. Routing narrows
	// a company's reports by it.
	Period int
	// NamesQuarter, NamesFiscalYear and NamesPartYear say the text names
	// a quarter ("Q2", "second quarter", "three months ended"), a fiscal
	// year ("FY2023", "fiscal 2022", "annual") or a part of a year longer
	// than a quarter ("six months ended"; PeriodSpans, English cues):
	// routing prefers the reports, a ranking the tables, that cover such
	// a span.
	NamesQuarter, NamesFiscalYear, NamesPartYear bool
	// LongFormOf is the short form in capitals the text asks the long form
	// of ("What does QRTL stand for?": "QRTL"; LongFormOf); "" otherwise.
	LongFormOf string
	// SectionLabels are the labelled parts of a document the text asks
	// the title or topic of ("What is the topic of Unit 7?": "Unit 7";
	// SectionLabels); nil otherwise.
	SectionLabels []string
	// Typed is the text as the user typed it when Text is that text with
	// misspelled words respelled (Respelled says which); "" otherwise.
	Typed     string
	Respelled []Respelling

	vecMu sync.Mutex
	vecs  map[string][]float32
}

// New analyses text.
func New(text string) *Question {
	toks := analyze.Tokens(text)
	lang := lexicon.Detect(text)
	var anchors []string
	if lang == "en" {
		// capitals mark names in English; in German every noun has one
		anchors = Anchors(text)
	}
	words := embed.WordsOf(toks)
	askToks := toks
	if ask := askingSentence(text); ask != text {
		askToks = analyze.Tokens(ask)
	}
	askWords := embed.WordsOf(periodsAsYears(askToks))
	q := &Question{
		Text:     text,
		Lang:     lang,
		AskWords: askWords,
		Tokens:   toks,
		Fields:   strings.Fields(text),
		Words:    words,
		Kind:     answerspan.Classify(text),
		Years:    years(text),
		Names:    nameSpans(text, toks),
		DocWords: docWords(text),
		Anchors:  anchors,
		Period:   latestYear(text),
		Moved:    answerspan.Direction(text),
		// English cues ask for a long form.
		LongFormOf:    LongFormOf(text),
		SectionLabels: SectionLabels(text),
	}
	q.NamesQuarter, q.NamesFiscalYear, q.NamesPartYear = PeriodSpans(text)
	q.Computed = computedWords(lang, askWords)
	return q
}

// computedWords are the words of ask that name a computed figure in the
// lexicon of lang (computed_words); none for a language without it.
func computedWords(lang string, ask []string) []string {
	keys := computedKeys()[lang]
	if keys == nil {
		return nil
	}
	var out []string
	for _, w := range ask {
		if keys[w] {
			out = append(out, w)
		}
	}
	return out
}

// computedKeys are the word keys of each lexicon's computed_words, by
// language, cut once.
var computedKeys = sync.OnceValue(func() map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, lang := range lexicon.Languages() {
		lex := lexicon.Of(lang)
		if lex == nil || !lex.Has("computed_words") {
			continue
		}
		keys := map[string]bool{}
		for _, w := range lex.Words("computed_words") {
			for _, k := range embed.WordsOf(analyze.Tokens(w)) {
				keys[k] = true
			}
		}
		out[lang] = keys
	}
	return out
})

// PeriodSpans reports whether text names a quarter ("Q2", "Q2'23", "the
// second quarter", "three months ended"), a fiscal year ("FY2023", "FY
// 23", "fiscal 2022", "fiscal year", "annual", "full-year", "twelve months
// ended") and a part of a year longer than a quarter ("six months ended",
// "nine months", "year to date", "first half"). English cues.
func PeriodSpans(text string) (quarter, fiscalYear, partYear bool) {
	return quarterCue.MatchString(text), fiscalYearCue.MatchString(text), partYearCue.MatchString(text)
}

var (
	quarterCue    = regexp.MustCompile(`(?i)\bq[1-4](?:\b|['’]?\d)|\bquarter(?:ly|s)?\b|\b(?:three|3)[\s-]months?\b`)
	partYearCue   = regexp.MustCompile(`(?i)\b(?:six|6|nine|9)[\s-]months?\b|\byear[\s-]to[\s-]date\b|\bytd\b|\b(?:first|second)\s+half\b|\bhalf[\s-]year\b`)
	fiscalYearCue = regexp.MustCompile(`(?i)\bfy\s?['’]?\d{2,4}\b|\bfiscal\s+(?:year\b|(?:19|20)\d\d\b)|\bannual(?:ly)?\b|\bfull[\s-]year\b|\b(?:twelve|12)[\s-]months?\b`)
)

// Respelling is a word of a question the project never holds, read as a
// word it does that is spelled a letter or two apart ("requiremnt" as
// "requirement").
type Respelling struct {
	Word string `json:"word"`
	As   string `json:"as"`
}

// Respelled analyses text, a respelling of typed (fixes says how): the
// question is read as text and shown as typed.
func Respelled(typed, text string, fixes []Respelling) *Question {
	q := New(text)
	q.Typed, q.Respelled = typed, fixes
	return q
}

// Asked is the question as the user typed it.
func (q *Question) Asked() string {
	if q.Typed != "" {
		return q.Typed
	}
	return q.Text
}

// Vector is the question's vector under key (the embedder and the word
// weights it was made with), made by embed on the first call and kept:
// the passage search and the relation recall embed the same question the
// same way, once. Calls from several goroutines wait for the first.
func (q *Question) Vector(key string, embed func() ([]float32, error)) ([]float32, error) {
	q.vecMu.Lock()
	defer q.vecMu.Unlock()
	if v, ok := q.vecs[key]; ok {
		return v, nil
	}
	v, err := embed()
	if err != nil {
		return nil, err
	}
	if q.vecs == nil {
		q.vecs = map[string][]float32{}
	}
	q.vecs[key] = v
	return v, nil
}

// yearRE finds a year a question names, alone or in a fiscal-year or
// quarter form ("2018", "FY2018", "FY 2018", "Q2 2023", "2021 Q1").
var yearRE = regexp.MustCompile(`(?i)(?:\bFY\s?|\b)((?:19|20)\d\d)\b`)

// years lists the years text names, once each, in order; a span of years
// ("FY2015 - FY2017") names the years inside it too.
func years(text string) []int {
	var out []int
	seen := map[int]bool{}
	add := func(y int) {
		if !seen[y] {
			seen[y] = true
			out = append(out, y)
		}
	}
	if a, b, ok := formula.YearRange(text); ok {
		for y := a; y <= b; y++ {
			add(y)
		}
	}
	for _, m := range yearRE.FindAllStringSubmatch(text, -1) {
		y, _ := strconv.Atoi(m[1])
		add(y)
	}
	return out
}

// NameSpans returns the name-like spans of a text: runs of capitalised
// words (joined across "of", "the", "de", "von", ...), quoted strings and
// CJK runs. The first word counts only when it is not a function word.
func NameSpans(text string) []string { return nameSpans(text, analyze.Tokens(text)) }

// nameSpans is NameSpans of text cut into toks.
func nameSpans(q string, toks []analyze.Token) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		s = strings.Trim(s, " ?!.,;:\"'()“”‘’")
		if len([]rune(s)) >= 2 && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, quoted := range quotedSpans(q) {
		add(quoted)
	}
	words := strings.Fields(q)
	var run []string
	flush := func() {
		for len(run) > 0 && isJoiner(run[len(run)-1]) {
			run = run[:len(run)-1]
		}
		if len(run) > 0 {
			add(strings.Join(run, " "))
		}
		run = nil
	}
	for i, w := range words {
		clean := strings.Trim(w, "?!.,;:\"'()“”‘’")
		if clean == "" {
			flush()
			continue
		}
		first, _ := firstRune(clean)
		capital := unicode.IsUpper(first) || unicode.IsDigit(first) && len(run) > 0
		if i == 0 && analyze.IsStop(strings.ToLower(clean)) {
			capital = false
		}
		switch {
		case capital:
			run = append(run, clean)
		case len(run) > 0 && isJoiner(clean):
			run = append(run, clean)
		default:
			flush()
		}
		if strings.ContainsAny(w, ",;:?!") {
			flush()
		}
	}
	flush()
	for _, t := range toks {
		if t.CJK {
			add(t.Text)
		}
	}
	return out
}

func firstRune(s string) (rune, bool) {
	for _, r := range s {
		return r, true
	}
	return 0, false
}

func isJoiner(w string) bool {
	switch strings.ToLower(w) {
	case "of", "the", "de", "da", "del", "von", "van", "der", "la", "le", "and", "&", "for", "in", "on":
		return true
	}
	return false
}

func quotedSpans(q string) []string {
	var out []string
	for _, pair := range [][2]string{{`"`, `"`}, {"“", "”"}, {"'", "'"}} {
		rest := q
		for {
			i := strings.Index(rest, pair[0])
			if i < 0 {
				break
			}
			rest = rest[i+len(pair[0]):]
			j := strings.Index(rest, pair[1])
			if j < 0 {
				break
			}
			if j > 0 && j < 120 {
				out = append(out, rest[:j])
			}
			rest = rest[j+len(pair[1]):]
		}
	}
	return out
}

// docWords are the words of text that may name a document: written with
// a capital or a digit among letters ("Norcell", "X9", "NBK"), not the
// language's function words, and not a bare year or a period ("FY2018").
func docWords(q string) []string {
	var out []string
	for _, raw := range strings.FieldsFunc(q, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’' }) {
		w := strings.TrimSuffix(strings.TrimSuffix(raw, "'s"), "’s")
		w = strings.Trim(w, "'’")
		if w == "" || isYearOrNumber(w) {
			continue
		}
		first := []rune(w)[0]
		hasDigit := strings.IndexFunc(w, unicode.IsDigit) >= 0
		if !unicode.IsUpper(first) && !(hasDigit && strings.IndexFunc(w, unicode.IsLetter) >= 0) {
			continue
		}
		if analyze.IsStop(strings.ToLower(w)) || periodWord.MatchString(w) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// Anchors are the words by which a question names what it asks about: a
// word written with a capital that does not open a sentence ("Kestria",
// "BaiduCloud"), a word of digits and capitals ("X9", "3M"; not "top2"),
// and a year written out ("2023", also inside "FY2023"). Not function
// words, acronyms ("COGS", "P&L": a field's terms as often as names, and
// written out by documents), periods ("FY2018" is its year, "Q2"
// nothing), page nouns ("Slide 4"), unit codes ("USD"), a date format
// ("YYYY-MM-DD"), a measure ("30-second") or an ordinal ("2nd"). None in a
// text written in capitals, which shows no names by case. A possessive is
// the name ("Kestria's": "Kestria").
func Anchors(text string) []string {
	if inCapitals(text) {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	add := func(w string) {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	for _, t := range anchorTokens(text) {
		w := strings.TrimSuffix(strings.TrimSuffix(t.word, "'s"), "’s")
		if m := anchorYear.FindStringSubmatch(w); m != nil {
			add(m[1])
			continue
		}
		low := strings.ToLower(w)
		if t.opens || acronym(w) || measureCompound(w) || periodWord.MatchString(w) || periodMark.MatchString(w) || ordinal.MatchString(w) || dateFormat(w) || analyze.IsStop(low) || pageNouns[low] || sectionNouns[low] || unitCodes[low] {
			continue
		}
		first, _ := firstRune(w)
		hasDigit := strings.IndexFunc(w, unicode.IsDigit) >= 0
		hasUpper := strings.IndexFunc(w, unicode.IsUpper) >= 0
		if unicode.IsUpper(first) && len([]rune(w)) > 1 || hasDigit && hasUpper {
			add(w)
		}
	}
	return out
}

// periodsAsYears writes a fiscal year as its year ("fy2021" → "2021"):
// documents write the year in their tables and text ("2021", "Fiscal
// 2021"), so the period word would count as one no passage holds.
func periodsAsYears(toks []analyze.Token) []analyze.Token {
	out := make([]analyze.Token, len(toks))
	for i, t := range toks {
		if m := anchorYear.FindStringSubmatch(t.Text); m != nil {
			t.Text = m[1]
		}
		out[i] = t
	}
	return out
}

// askingSentence is the sentence of text that ends in "?" (the first
// such), or text itself when none or every sentence does. A sentence ends
// at ".", "?" or "!" before a space or a capital ("…2015?Round your …").
func askingSentence(text string) string {
	rs := []rune(text)
	start := 0
	var sentences []string
	for i, r := range rs {
		if !strings.ContainsRune(".?!", r) {
			continue
		}
		if i+1 < len(rs) && !unicode.IsSpace(rs[i+1]) && !unicode.IsUpper(rs[i+1]) {
			continue
		}
		if r == '.' && abbreviationBefore(rs[:i]) {
			continue // "Mr. J.B. Arden" is one sentence
		}
		sentences = append(sentences, strings.TrimSpace(string(rs[start:i+1])))
		start = i + 1
	}
	if rest := strings.TrimSpace(string(rs[start:])); rest != "" {
		sentences = append(sentences, rest)
	}
	if len(sentences) < 2 {
		return text
	}
	for _, s := range sentences {
		if strings.HasSuffix(s, "?") {
			return s
		}
	}
	return text
}

// abbreviationBefore reports whether the text before a period ends on an
// initial ("R.A", "C") or a title written without vowels ("Mr", "Dr",
// "Mrs", "St"): a capital letter alone, or a capitalised word of at most
// three letters none of which is a vowel. Such a period ends no sentence.
func abbreviationBefore(rs []rune) bool {
	j := len(rs)
	for j > 0 && unicode.IsLetter(rs[j-1]) {
		j--
	}
	word := rs[j:]
	if len(word) == 0 || len(word) > 3 || !unicode.IsUpper(word[0]) {
		return false
	}
	if len(word) == 1 {
		return true
	}
	for _, r := range word {
		if strings.ContainsRune("aeiouyAEIOUY", r) {
			return false
		}
	}
	return true
}

// The English words Anchors leaves out, and those that ask for a long
// form, read once.
var (
	pageNouns    = lexicon.English().Set("page_nouns")
	sectionNouns = lexicon.English().Set("section_label_nouns")
	unitCodes    = lexicon.English().Set("unit_codes")
	longFormCues = lexicon.English().Words("long_form_cues")
)

// LongFormOf returns the short form a question asks the long form of: a
// word in capitals standing next to (at most longFormReach words from) a
// phrase that asks what it stands for, means or abbreviates (English
// cues: "What does QRTL stand for?", "What is the full form of SRC?");
// "" when it asks none, names two such words, or is written in capitals.
func LongFormOf(text string) string {
	if inCapitals(text) {
		return ""
	}
	words := strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '&'
	})
	low := make([]string, len(words))
	for i, w := range words {
		low[i] = strings.ToLower(w)
	}
	var cues [][2]int // word spans of the cue phrases
	for _, c := range longFormCues {
		cw := strings.Fields(c)
		for i := 0; i+len(cw) <= len(low); i++ {
			if slices.Equal(low[i:i+len(cw)], cw) {
				cues = append(cues, [2]int{i, i + len(cw)})
			}
		}
	}
	found, near := "", false
	for i, w := range words {
		if !acronym(w) {
			continue
		}
		if found != "" && found != w {
			return "" // two short forms: which one it asks about is unclear
		}
		found = w
		for _, c := range cues {
			near = near || i < c[0] && c[0]-i <= longFormReach || i >= c[1] && i-c[1] < longFormReach
		}
	}
	if !near {
		return ""
	}
	return found
}

// longFormReach is how many words from its cue a short form may stand
// ("What does the abbreviation PP&E mean": one before "mean").
const longFormReach = 3

// inCapitals reports whether text is written in capitals (at most one
// lower-case letter to four capitals), which shows no names or short
// forms by case.
func inCapitals(text string) bool {
	lower, upper := 0, 0
	for _, r := range text {
		switch {
		case unicode.IsLower(r):
			lower++
		case unicode.IsUpper(r):
			upper++
		}
	}
	return lower*4 < upper
}

// anchorToken is a word of a question and whether it opens a sentence.
type anchorToken struct {
	word  string
	opens bool
}

// anchorTokens cuts text into words (letters and digits, joined by
// hyphens, apostrophes, ampersands and inner full stops: "Wi-Fi",
// "Kestria's", "AT&T", "U.S") and marks the first word of each sentence.
func anchorTokens(text string) []anchorToken {
	var out []anchorToken
	opens := true
	rs := []rune(text)
	for i := 0; i < len(rs); {
		r := rs[i]
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			if strings.ContainsRune(".?!:", r) {
				opens = true
			}
			i++
			continue
		}
		j := i + 1
		for j < len(rs) {
			if unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) {
				j++
				continue
			}
			if strings.ContainsRune("-'’&.", rs[j]) && j+1 < len(rs) && (unicode.IsLetter(rs[j+1]) || unicode.IsDigit(rs[j+1])) {
				j += 2
				continue
			}
			break
		}
		out = append(out, anchorToken{word: string(rs[i:j]), opens: opens})
		opens = false
		i = j
	}
	return out
}

// acronym says w is written in capitals ("COGS", "P&L", "USA", "URLs"): a term of
// the field as often as a name, and one a document may write out instead
// ("cost of goods sold"), so no anchor.
func acronym(w string) bool {
	w = strings.TrimSuffix(w, "s") // "URLs"
	letters := 0
	for _, r := range w {
		switch {
		case unicode.IsLower(r):
			return false
		case unicode.IsLetter(r):
			letters++
		case !unicode.IsDigit(r) && r != '&' && r != '.' && r != '-':
			return false
		}
	}
	return letters >= 2 && strings.IndexFunc(w, unicode.IsDigit) < 0
}

// periodMark is a period with its year or quarter in one word ("Q2'2023",
// "FY2023Q1", "2021Q1", "H1'24").
var periodMark = regexp.MustCompile(`^(?i)(?:fy|q[1-4]|h[12])?'?(?:\d\d|\d{4})?(?:q[1-4]|h[12])?$`)

// measureCompound says w is a number joined to a word ("30-second",
// "10-year"): a measure, not a name.
func measureCompound(w string) bool {
	n, rest, ok := strings.Cut(w, "-")
	return ok && n != "" && rest != "" && strings.IndexFunc(n, func(r rune) bool { return !unicode.IsDigit(r) }) < 0
}

// ordinal is a number written as an ordinal ("2nd", "15th").
var ordinal = regexp.MustCompile(`^(?i)\d+(?:st|nd|rd|th)$`)

// anchorYear is a year written out, alone or as a fiscal year.
var anchorYear = regexp.MustCompile(`^(?i:fy)?((?:19|20)\d\d)$`)

// dateFormat says w spells a date's format ("YYYY-MM-DD", "MM/YY"): runs
// of one repeated letter between separators.
func dateFormat(w string) bool {
	parts := strings.FieldsFunc(w, func(r rune) bool { return r == '-' || r == '/' || r == '.' })
	if len(parts) == 0 {
		return false
	}
	for _, p := range parts {
		r := []rune(p)
		if len(r) < 2 || !unicode.IsLetter(r[0]) {
			return false
		}
		for _, c := range r {
			if c != r[0] {
				return false
			}
		}
	}
	return true
}

// periodWord: "FY2018", "Q2", "Q22023", "H1" name a period, not a document.
var periodWord = regexp.MustCompile(`^(?i:fy|q[1-4]|h[12])\d*$`)

// latestYear is the latest year text names in any of its forms (0: none).
func latestYear(q string) int {
	y := 0
	for _, m := range yearRe.FindAllStringSubmatch(q, -1) {
		if v, _ := strconv.Atoi(m[1]); v > y {
			y = v
		}
	}
	for _, m := range quarterYear.FindAllStringSubmatch(q, -1) {
		if v, _ := strconv.Atoi(m[1]); v > y {
			y = v
		}
	}
	// "FY18", "Q2'23"
	for _, m := range shortYear.FindAllStringSubmatch(q, -1) {
		if v, _ := strconv.Atoi(m[1]); 2000+v > y {
			y = 2000 + v
		}
	}
	return y
}

var (
	yearRe    = regexp.MustCompile(`(?:^|[^0-9])((?:19|20)\d\d)(?:[^0-9]|$)`)
	shortYear = regexp.MustCompile(`(?i)\b(?:fy|q[1-4]\s*')\s*(\d\d)\b`)
	// "Q22023": a quarter written against its year.
	quarterYear = regexp.MustCompile(`(?i)\bq[1-4]((?:19|20)\d\d)\b`)
)

func isYearOrNumber(w string) bool {
	for _, r := range w {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}
