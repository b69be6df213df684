package answerspan

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"cairn/backend/analyze"
)

// Passage is one retrieved passage, best first.
type Passage struct {
	Title     string
	Text      string
	Sentences [][2]int // sentence byte spans in Text
}

// Ref is a sentence of a passage: [Start,End) in its Text.
type Ref struct {
	Passage    int
	Start, End int
}

// Candidate is a scored short answer with the sentences that support it, in
// reasoning order (the first hop's sentence, then the one stating the
// answer). Span is the answer inside its passage's text (End == 0 for an
// answer that is no span, such as "yes").
type Candidate struct {
	Text    string
	Type    Type
	Score   float64
	Span    Ref
	Chain   []Ref
	Bridge  string // the entity a two-hop chain passes through, if any
	Value   string // a compared item: the date that decided the comparison, as written
	Subject string // the question entity the chain starts from
	// Items: a yes/no comparison's items, each with the value compared
	// ("the same country": the country each is in) where one was found.
	Items []Compared
}

// Compared is an item of a yes/no comparison and the value it was
// compared by, with the sentence that states it.
type Compared struct {
	Item, Value string
	Ref         Ref
}

// MinScore is the score under which a candidate is not offered as the
// answer (DEV sets, `cairn eval`).
const MinScore = 0.45

// Decided is the score of the item a comparison chose by the dates of
// both items, each found in the evidence.
const Decided = 0.9

// IDF weighs a question word key (as embed.Words makes them, "w:stem").
type IDF func(word string) float64

// Stems are the word keys of text: stemmed, stop words dropped, "w:" prefix
// (the keys embed.Words and the lexical document frequencies use).
func Stems(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range analyze.Tokens(text) {
		if t.CJK {
			for _, g := range analyze.Bigrams(t.Text) {
				if !seen["w:"+g] {
					seen["w:"+g] = true
					out = append(out, "w:"+g)
				}
			}
			continue
		}
		if analyze.IsStop(t.Text) {
			continue
		}
		k := "w:" + analyze.Stem(t.Text)
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// synonyms: question words whose answer sentences use another word.
var synonyms = map[string][]string{
	"w:birth": {"w:born"}, "w:born": {"w:birth"}, "w:death": {"w:die", "w:kill"}, "w:die": {"w:death", "w:kill"},
	"w:director": {"w:direct"}, "w:direct": {"w:director"}, "w:compos": {"w:compos"}, "w:perform": {"w:sung", "w:sing", "w:record"},
	"w:spous": {"w:marri", "w:wife", "w:husband"}, "w:wife": {"w:marri"}, "w:husband": {"w:marri"}, "w:father": {"w:son", "w:daughter"},
	"w:mother": {"w:son", "w:daughter"}, "w:writer": {"w:written", "w:wrote", "w:write"}, "w:author": {"w:written", "w:wrote"},
	"w:founder": {"w:found"}, "w:produc": {"w:produc"}, "w:nation": {"w:citizen"}, "w:bury": {"w:buri"}, "w:buri": {"w:bury"},
}

type sent struct {
	p, start, end int
	text          string
	stems         map[string]bool
	spans         []Span  // candidate spans, computed once
	toks          []tok   // words
	tokQ          []bool  // whether a word is a question word (or synonym)
	rel           float64 // sentRel, computed once
}

// prepare fills a sentence's spans, words and relevance on first use.
func (f *finder) prepare(s *sent) {
	if s.toks != nil {
		return
	}
	s.spans = Spans(s.text)
	if attrNouns[f.q.Focus] {
		s.spans = append(s.spans, RoleSpans(s.text)...)
	}
	s.toks = words(s.text)
	if s.toks == nil {
		s.toks = []tok{}
	}
	s.tokQ = make([]bool, len(s.toks))
	for k, w := range s.toks {
		s.tokQ[k] = f.isQuestionWord(w.text)
	}
	s.rel = f.sentRel(*s)
}

// isQuestionWord says a word (by its text) is a question word or a
// synonym of one.
func (f *finder) isQuestionWord(w string) bool {
	q, ok := f.wordQ[w]
	if !ok {
		for _, st := range Stems(w) {
			if f.qSyn[st] {
				q = true
			}
		}
		f.wordQ[w] = q
	}
	return q
}

type finder struct {
	q        Question
	ps       []Passage
	idf      IDF
	qStems   []string
	qNames   []string // capitalised names of the question (lower-case)
	qSet     map[string]bool
	relTotal float64
	anchor   []float64 // how much a passage's title is named by the question
	bridge   []float64 // a passage whose title an anchor passage mentions
	bridgeBy []Ref
	cov      []float64
	sents    [][]sent
	titleIx  map[string]int
	titleSt  []map[string]bool
	qSyn     map[string]bool // question words and their synonyms
	focusRe  *regexp.Regexp
	classes  map[string]string
	hops     int
	wordQ    map[string]bool   // a word is a question word (or a synonym of one), by its text
	yearOnly bool              // the question asks for a year, not a date
	both     bool              // "both X and Y": the answer is the entity each passage names
	have     []map[string]bool // the word keys of each passage (title and text)
	chainSt  []map[string]bool // the words of the sentence leading to a bridge passage, and its passage's title
}

// Find lists the candidate short answers of q in the passages, best first.
func Find(q Question, ps []Passage, idf IDF) []Candidate {
	if len(ps) == 0 {
		return nil
	}
	f := newFinder(q, ps, idf)
	var cs []Candidate
	switch q.Kind {
	case Choice:
		cs = f.choice()
	case YesNo:
		cs = f.yesNo()
	case Define:
		cs = f.define()
		if len(cs) == 0 {
			cs = f.spans()
		}
	case Unknown, List:
		// An open question, or one asking for a list: the best sentences
		// answer it (one phrase would leave most of it out).
		return nil
	default:
		cs = f.spans()
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].Score > cs[j].Score })
	return cs
}

func newFinder(q Question, ps []Passage, idf IDF) *finder {
	f := &finder{q: q, ps: ps, idf: idf, qSet: map[string]bool{}, titleIx: map[string]int{}, qSyn: map[string]bool{}, classes: map[string]string{}, wordQ: map[string]bool{}}
	f.hops = Hops(q)
	lowQ := strings.ToLower(q.Text)
	f.yearOnly = strings.Contains(lowQ, "what year") || strings.Contains(lowQ, "which year")
	f.both = strings.Contains(" "+strings.ToLower(q.Text)+" ", " both ")
	f.qStems = Stems(q.Text)
	for _, w := range f.qStems {
		f.qSet[w] = true
		f.qSyn[w] = true
		for _, y := range synonyms[w] {
			f.qSyn[y] = true
		}
		f.relTotal += idf(w)
	}
	if q.Focus != "" {
		f.focusRe = regexp.MustCompile(`\b(?:is|was|are|were)\b[^.]{0,80}\b` + regexp.QuoteMeta(strings.TrimSuffix(q.Focus, "s")))
	}
	f.titleSt = make([]map[string]bool, len(ps))
	for _, n := range names(q.Text) {
		f.qNames = append(f.qNames, norm(n.Text))
	}
	for _, o := range q.Options {
		f.qNames = append(f.qNames, norm(o))
	}
	lq := norm(q.Text)
	f.anchor = make([]float64, len(ps))
	f.bridge = make([]float64, len(ps))
	f.bridgeBy = make([]Ref, len(ps))
	f.cov = make([]float64, len(ps))
	f.sents = make([][]sent, len(ps))
	f.have = make([]map[string]bool, len(ps))
	f.chainSt = make([]map[string]bool, len(ps))
	for i, p := range ps {
		t := titleKey(p.Title)
		if t != "" {
			for _, k := range []string{norm(p.Title), t} {
				if _, ok := f.titleIx[k]; !ok {
					f.titleIx[k] = i
				}
			}
			if strings.Contains(" "+lq+" ", " "+t+" ") {
				f.anchor[i] = 1
			} else {
				f.anchor[i] = 0.8 * overlap(Stems(p.Title), f.qSet)
			}
		}
		f.titleSt[i] = map[string]bool{}
		for _, w := range Stems(p.Title) {
			f.titleSt[i][w] = true
		}
		have := map[string]bool{}
		for _, w := range Stems(p.Title + "\n" + p.Text) {
			have[w] = true
		}
		f.cov[i] = f.weighted(have)
		f.have[i] = have
		for _, sp := range p.Sentences {
			s := p.Text[sp[0]:sp[1]]
			st := map[string]bool{}
			for _, w := range Stems(s) {
				st[w] = true
			}
			f.sents[i] = append(f.sents[i], sent{p: i, start: sp[0], end: sp[1], text: s, stems: st})
		}
	}
	// Bridge passages: their title is named in a passage the question names.
	for i, p := range ps {
		t := titleKey(p.Title)
		if t == "" || f.anchor[i] >= 0.99 {
			continue
		}
		for j := range ps {
			h := f.firstHop(j)
			if j == i || h < 0.5 || titleKey(ps[j].Title) == t {
				continue
			}
			for _, s := range f.sents[j] {
				if strings.Contains(" "+norm(s.text)+" ", " "+t+" ") {
					b := h * (0.6 + 0.4*f.sentRel(s))
					if b > f.bridge[i] {
						f.bridge[i] = b
						f.bridgeBy[i] = Ref{Passage: j, Start: s.start, End: s.end}
					}
				}
			}
		}
	}
	for i := range ps {
		if f.bridge[i] > 0 && f.anchor[i] < 0.5 {
			r := f.bridgeBy[i]
			st := map[string]bool{}
			for w := range f.titleSt[r.Passage] {
				st[w] = true
			}
			for _, w := range Stems(ps[r.Passage].Text[r.Start:r.End]) {
				st[w] = true
			}
			f.chainSt[i] = st
		}
	}
	return f
}

// TitleKey is a document title as the name of its subject, normalised
// and without a bracketed disambiguation: "Ray Taylor (director)" and
// "ray taylor" have the same key.
func TitleKey(title string) string { return titleKey(title) }

// titleKey is a passage title as a mention of its subject: normalised,
// without a trailing disambiguation in brackets ("Scott Howell (political
// consultant)" → "scott howell").
func titleKey(title string) string {
	t := strings.TrimSpace(title)
	if strings.HasSuffix(t, ")") {
		if i := strings.LastIndex(t, " ("); i > 0 {
			t = t[:i]
		}
	}
	return norm(t)
}

// chainRel is the IDF share of the question's words that the chain to a
// sentence of passage i holds: the sentence, its passage's title and, for
// a bridge passage, the sentence that led there with that passage's title.
func (f *finder) chainRel(s sent) float64 {
	if f.chainSt[s.p] == nil {
		return s.rel
	}
	have := map[string]bool{}
	for w := range s.stems {
		have[w] = true
	}
	for w := range f.titleSt[s.p] {
		have[w] = true
	}
	for w := range f.chainSt[s.p] {
		have[w] = true
	}
	return math.Max(s.rel, f.weighted(have))
}

// beyond is how much more of the question the passage titled by a
// candidate holds than the sentence naming it (with its chain): a
// candidate whose own passage states more of what the question says is
// the bridge to the answer, not the answer (0 when it titles no other
// passage).
func (f *finder) beyond(i int, s sent, text string) float64 {
	j, ok := f.titleIx[norm(text)]
	if !ok {
		j, ok = f.titleIx[titleKey(text)]
	}
	if !ok || j == i || f.anchor[j] >= 0.99 {
		return 0
	}
	have := map[string]bool{}
	for w := range s.stems {
		have[w] = true
	}
	for w := range f.titleSt[i] {
		have[w] = true
	}
	for w := range f.chainSt[i] {
		have[w] = true
	}
	// The candidate's own name is not evidence beyond the sentence.
	for _, w := range Stems(text) {
		have[w] = true
	}
	base := f.weighted(have)
	for w := range f.have[j] {
		have[w] = true
	}
	return f.weighted(have) - base
}

// firstHop is how well passage i starts the chain: the question names its
// title, or it holds most of the question's words (the question describes
// its subject without naming it).
func (f *finder) firstHop(i int) float64 {
	return math.Max(f.anchor[i], f.cov[i])
}

func overlap(ws []string, set map[string]bool) float64 {
	if len(ws) == 0 {
		return 0
	}
	n := 0
	for _, w := range ws {
		if set[w] {
			n++
		}
	}
	return float64(n) / float64(len(ws))
}

func (f *finder) weighted(have map[string]bool) float64 {
	if f.relTotal == 0 {
		return 0
	}
	var got float64
	for _, w := range f.qStems {
		if have[w] {
			got += f.idf(w)
			continue
		}
		for _, s := range synonyms[w] {
			if have[s] {
				got += 0.8 * f.idf(w)
				break
			}
		}
	}
	return got / f.relTotal
}

// sentRel is the IDF share of the question's words a sentence holds, its
// passage title counting as part of it (a Wikipedia-like passage names its
// subject in the title and says "he" after).
func (f *finder) sentRel(s sent) float64 {
	have := map[string]bool{}
	for w := range s.stems {
		have[w] = true
	}
	for w := range f.titleSt[s.p] {
		have[w] = true
	}
	return f.weighted(have)
}

// norm lower-cases and keeps letters, digits and single spaces.
func norm(s string) string {
	var b strings.Builder
	sp := false
	for _, r := range strings.ToLower(s) {
		if r == '\'' || r == '’' {
			continue
		}
		if isAlnum(r) {
			if sp && b.Len() > 0 {
				b.WriteByte(' ')
			}
			sp = false
			b.WriteRune(r)
		} else {
			sp = true
		}
	}
	out := b.String()
	for _, a := range []string{"the ", "a ", "an "} {
		out = strings.TrimPrefix(out, a)
	}
	return out
}

func isAlnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 && (r < 0x2000 || r > 0x206f)
}

// typeFit is how well a span's type fits the question's kind (0: not at all).
func (f *finder) typeFit(sp Span, s sent) float64 {
	fit := f.kindFit(sp, s)
	if fit == 0 {
		return 0
	}
	if (f.q.Kind == Person || f.q.Kind == Place) && quoted(s.text, sp) {
		fit *= 0.3 // a quoted name is a title: "Maximum Overdrive" (1986)
	}
	if f.q.Kind != Demonym && sp.Type == TName && !strings.Contains(sp.Text, " ") && isDemonym(sp.Text) {
		fit *= 0.2 // "American" is rarely the answer unless a nationality is asked
	}
	if f.q.Focus != "" && (sp.Type == TName || sp.Type == TQuoted) {
		fit *= focusFit(sp.Text, f.q.Focus)
	}
	return fit
}

// classNouns are the head words that say what kind of thing a name is.
var classNouns = map[string]bool{"school": true, "college": true, "university": true, "district": true, "county": true, "city": true, "state": true, "province": true, "region": true, "country": true, "river": true, "lake": true, "falls": true, "waterfall": true, "mountain": true, "airport": true, "stadium": true, "station": true, "church": true, "cathedral": true, "museum": true, "park": true, "bridge": true, "street": true, "hotel": true, "hospital": true, "company": true, "party": true, "army": true, "navy": true, "league": true, "club": true, "team": true, "band": true, "award": true, "prize": true, "treaty": true, "act": true, "war": true, "battle": true, "island": true, "sea": true, "ocean": true, "bay": true, "range": true, "valley": true, "desert": true, "forest": true, "canal": true, "dam": true, "tower": true, "palace": true, "castle": true, "abbey": true, "theatre": true, "theater": true, "festival": true, "conference": true, "council": true, "court": true, "records": true, "network": true, "channel": true, "magazine": true, "newspaper": true, "album": true, "film": true, "novel": true, "song": true, "institute": true, "academy": true}

// focusAlias are head words that name the question's focus otherwise.
var focusAlias = map[string][]string{"waterfall": {"falls"}, "body": {"river", "lake", "sea", "ocean", "bay"}, "mountain": {"mount", "peak"}, "range": {"mountains"}, "company": {"inc", "corporation", "ltd", "records"}, "station": {"radio"}, "university": {"college", "institute"}}

// focusFit weighs a name by its head word against the question's focus
// noun: "Jack Trice Stadium" for "what stadium" fits, "West Chicago High
// School" for "what county" does not.
func focusFit(name, focus string) float64 {
	ws := strings.Fields(strings.ToLower(name))
	if len(ws) == 0 {
		return 1
	}
	head := strings.Trim(ws[len(ws)-1], ".,")
	sing := func(w string) string {
		if w != "falls" && w != "mountains" {
			return strings.TrimSuffix(w, "s")
		}
		return w
	}
	foc := sing(focus)
	if len(ws) > 1 && sing(head) == foc {
		return 1.4
	}
	for _, a := range focusAlias[foc] {
		if head == a || len(ws) > 1 && ws[0] == a {
			return 1.4
		}
	}
	if len(ws) > 1 && classNouns[head] && (classNouns[foc] || placeNoun(foc)) {
		return 0.6 // a name of another kind
	}
	return 1
}

func (f *finder) kindFit(sp Span, s sent) float64 {
	if sp.Type == TDemonym && f.q.Kind != Demonym {
		return 0
	}
	pre := strings.ToLower(strings.TrimSpace(lastWords(s.text[:sp.Start], 2)))
	preLast := lastWord(pre)
	switch f.q.Kind {
	case Date:
		if sp.Type == TDate {
			return 1
		}
		return 0
	case Number:
		if sp.Type == TNumber {
			if reBareYear.MatchString(sp.Text) {
				return 0.3 // "2017" counts nothing: a year
			}
			return 1
		}
		return 0
	case Place:
		if sp.Type != TName || onlyDemonyms(sp.Text) {
			return 0
		}
		fit := 0.6
		if preLast == "in" || preLast == "at" || preLast == "near" || preLast == "of" || preLast == "from" || strings.HasSuffix(pre, "born in") || strings.HasSuffix(pre, "died in") {
			fit = 1
		}
		switch f.classOf(sp.Text) {
		case "place":
			fit = math.Max(fit, 1)
		case "person", "work":
			fit *= 0.3
		}
		return fit
	case Person:
		if sp.Type != TName {
			return 0
		}
		fit := 0.7
		if preLast == "in" || preLast == "at" || preLast == "near" {
			fit = 0.3
		}
		if preLast == "by" || preLast == "and" || preLast == "with" || strings.HasSuffix(pre, "son of") || strings.HasSuffix(pre, "daughter of") || strings.HasSuffix(pre, "married") {
			fit = 1
		}
		n := len(strings.Fields(sp.Text))
		if n == 1 {
			fit *= 0.6
		}
		if orgLike(sp.Text) {
			fit *= 0.3
		}
		if n > 5 {
			fit *= 0.5
		}
		switch f.classOf(sp.Text) {
		case "person":
			fit = 1
		case "place", "work":
			fit *= 0.3
		}
		return fit
	case Demonym:
		switch sp.Type {
		case TDemonym:
			return 1
		case TName:
			if f.classOf(sp.Text) == "place" || preLast == "in" || preLast == "of" {
				return 0.6
			}
			return 0.2
		}
		return 0
	case Thing, Unknown, List, Define:
		if sp.Type == TRole {
			if attrNouns[f.q.Focus] {
				return 1
			}
			return 0
		}
		switch sp.Type {
		case TName, TQuoted:
			fit := 0.8
			if attrNouns[f.q.Focus] {
				fit = 0.3 // a profession or a genre is no proper name
			}
			if f.q.Focus != "" {
				if c := f.classOf(sp.Text); c == f.q.Focus || c == "focus" {
					fit = 1
				}
			}
			return fit
		case TDate:
			return 0.3
		case TNumber:
			return 0.2
		}
		return 0.3
	}
	return 0.3
}

// attrNouns are focus nouns whose answer is a common noun that describes
// its subject ("What was the profession of ...?" – "aviator").
var attrNouns = map[string]bool{"profession": true, "occupation": true, "job": true, "genre": true, "position": true, "role": true, "instrument": true, "sport": true, "career": true, "title": true, "rank": true, "office": true}

var (
	reRoleCopula = regexp.MustCompile(`\b(?:is|was|are|were|became|becomes) (?:a|an|the) ((?:[A-Za-z][a-z-]* ){0,4}?[a-z][a-z-]*)(?: who| which| that| from| for| in| of| at| with|,|\.|;| and|$)`)
	reRoleAs     = regexp.MustCompile(`\b(?:as|plays as|played as|works as|worked as|served as) (?:a|an|the) ((?:[A-Za-z][a-z-]* ){0,3}?[a-z][a-z-]*)(?: for| in| at| with| of|,|\.|;| and|$)`)
)

// RoleSpans are the common-noun descriptions a sentence gives its subject:
// what follows "is a" or "as a", up to the next clause ("was a pioneering
// English aviator who" → "aviator", "plays as a central defender for" →
// "central defender"). Leading adjectives of nationality and quality are
// dropped.
func RoleSpans(s string) []Span {
	var out []Span
	for _, re := range []*regexp.Regexp{reRoleCopula, reRoleAs} {
		for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
			start, end := m[2], m[3]
			ws := words(s[start:end])
			k := 0
			for k < len(ws)-1 && roleAdjective(ws[k].text) {
				k++
			}
			if len(ws) == 0 {
				continue
			}
			st := start + ws[k].start
			out = append(out, Span{Start: st, End: end, Text: s[st:end], Type: TRole})
			if len(ws)-k > 1 {
				// The head noun alone ("English aviator" → "aviator").
				h := start + ws[len(ws)-1].start
				out = append(out, Span{Start: h, End: end, Text: s[h:end], Type: TRole})
			}
		}
	}
	return out
}

func roleAdjective(w string) bool {
	if capWord(w) {
		return true // "English", "Cherokee": a people or a place describes the noun
	}
	switch w {
	case "famous", "former", "pioneering", "professional", "leading", "noted", "renowned", "prominent", "retired", "well-known", "successful", "popular", "prolific", "influential", "great", "major", "minor", "first", "second", "third", "late", "early", "young", "old", "new":
		return true
	}
	return false
}

// classOf types a name by the evidence passage titled with it: "person"
// (born, died, a person noun), "place" (city, town, country ...), "work"
// (film, album, song, novel ...), "focus" when its first sentence says it is
// the question's focus noun, else "".
func (f *finder) classOf(name string) string {
	key := norm(name)
	if c, ok := f.classes[key]; ok {
		return c
	}
	c := f.class(key)
	f.classes[key] = c
	return c
}

func (f *finder) class(key string) string {
	i, ok := f.titleIx[key]
	if !ok || len(f.sents[i]) == 0 {
		return ""
	}
	first := strings.ToLower(f.sents[i][0].text)
	if len(first) > 300 {
		first = first[:300]
	}
	if f.focusRe != nil && f.focusRe.MatchString(first) {
		return "focus"
	}
	switch {
	case reWork.MatchString(first):
		return "work"
	case rePersonDef.MatchString(first):
		return "person"
	case rePlaceDef.MatchString(first):
		return "place"
	}
	return ""
}

var (
	rePersonDef = regexp.MustCompile(`\(\s*(?:born|b\.|c\.|died|d\.|\d{1,2} \w+ \d{3,4}|\w+ \d{1,2}, \d{3,4}|\d{3,4})\b|\b(?:was|is) an? (?:[a-z]+ ){0,3}(?:actor|actress|singer|writer|author|director|player|musician|politician|composer|producer|artist|king|queen|poet|novelist|scientist|footballer|rapper|comedian|journalist|painter|businessman|screenwriter|filmmaker|cinematographer|nobleman|noblewoman|prince|princess|duke|duchess|count|countess|bishop|general|officer|lawyer|judge|historian|philosopher|engineer|architect|designer|model|dancer|guitarist|drummer|songwriter|athlete|cyclist|swimmer|boxer|wrestler|coach|manager|priest|monk|saint|teacher|professor|physician|inventor|entrepreneur|explorer|emperor|ruler|sultan|pharaoh|lord|knight|soldier|diplomat|activist|economist|mathematician|physicist|chemist|biologist|astronomer|editor|publisher|broadcaster|presenter|host|chef|photographer|sculptor|illustrator|cartoonist|animator|voice actor|television personality)\b`)
	rePlaceDef  = regexp.MustCompile(`\b(?:is|was) (?:a|an|the) (?:[a-z-]+ ){0,4}(?:city|town|village|country|municipality|commune|state|province|region|county|district|capital|island|river|lake|mountain|suburb|neighbourhood|neighborhood|borough|parish|settlement|hamlet|territory|kingdom|republic|nation|area|locality)\b`)
	reWork      = regexp.MustCompile(`\b(?:is|was) (?:a|an|the) (?:[a-z0-9-]+ ){0,4}(?:film|movie|album|song|single|novel|book|play|opera|series|show|sitcom|game|video game|documentary|poem|painting|musical|ep|soundtrack|comic|manga|anime|magazine|newspaper)\b`)
)

func lastWords(s string, n int) string {
	ws := strings.Fields(s)
	if len(ws) > n {
		ws = ws[len(ws)-n:]
	}
	return strings.Join(ws, " ")
}

func lastWord(s string) string {
	ws := strings.Fields(s)
	if len(ws) == 0 {
		return ""
	}
	return strings.Trim(ws[len(ws)-1], ",;:()\"")
}

// inQuestion is how much of a candidate the question already says (1: all).
func (f *finder) inQuestion(text string) float64 {
	n := norm(text)
	for _, qn := range f.qNames {
		if qn == n || strings.Contains(" "+qn+" ", " "+n+" ") {
			return 1
		}
	}
	ws := Stems(text)
	if len(ws) == 0 {
		return 1
	}
	return overlap(ws, f.qSet)
}

// passageWeight is how well a passage sits on the evidence chain: named by
// the question, reached from one that is, or covering its words.
func (f *finder) passageWeight(i int) float64 {
	w := math.Max(f.anchor[i], math.Max(0.95*f.bridge[i], 0.7*f.cov[i]))
	return w + 0.15/float64(i+1)
}

// spans scores every typed span of the evidence.
func (f *finder) spans() []Candidate {
	type agg struct {
		c     Candidate
		count int
	}
	best := map[string]*agg{}
	var order []string
	for i := range f.ps {
		pw := f.passageWeight(i)
		for si := range f.sents[i] {
			f.prepare(&f.sents[i][si])
			s := f.sents[i][si]
			rel := f.chainRel(s)
			for _, sp := range s.spans {
				fit := f.typeFit(sp, s)
				if fit == 0 {
					continue
				}
				inQ := f.inQuestion(sp.Text)
				if inQ >= 0.99 {
					continue
				}
				prox := f.proximity(s, sp)
				score := fit * (0.45*rel + 0.35*pw + 0.2*prox) * (1 - 0.7*inQ) * f.hopFit(i, sp)
				if x := f.beyond(i, s, sp.Text); x > 0.1 && !f.both {
					score *= math.Max(0.4, 1-1.5*(x-0.1))
				}
				if f.q.Kind == Date {
					score *= f.dateHint(s, sp) * f.dateDetail(sp)
				}
				if f.q.Kind == Place {
					score *= f.placeHint(s, sp)
				}
				key := norm(sp.Text)
				if key == "" {
					continue
				}
				text := strings.TrimSpace(sp.Text)
				if f.q.Kind == Date && f.yearOnly && sp.Type == TDate {
					// "In what year ...": the year of "June 21, 1966".
					if m := reYear.FindAllString(text, -1); len(m) > 0 && !strings.ContainsAny(text, "–-") {
						text = m[len(m)-1]
						key = norm(text)
					}
				}
				end := sp.End
				if ext := f.focusAfter(s.text[sp.End:], sp); ext > 0 {
					// "the DeCavalcante crime family" for "what crime family".
					end += ext
					text = strings.TrimSpace(s.text[sp.Start:end])
				} else if f.q.Kind == Number && sp.Type == TNumber {
					// "how many records": "150 million", not "150 million records".
					if k := strings.LastIndex(text, " "); k > 0 && f.isQuestionWord(text[k+1:]) && !reWord.MatchString(text[k+1:]) {
						text = text[:k]
						end = sp.Start + len(text)
					}
				}
				key = norm(text)
				c := Candidate{Text: text, Type: sp.Type, Score: score,
					Span: Ref{Passage: i, Start: s.start + sp.Start, End: s.start + end}}
				c.Chain = f.chain(i, s)
				c.Subject, c.Bridge = f.ends(i)
				if a, ok := best[key]; ok {
					a.count++
					if score > a.c.Score {
						a.c = c
					}
					continue
				}
				best[key] = &agg{c: c, count: 1}
				order = append(order, key)
			}
		}
	}
	var out []Candidate
	for _, k := range order {
		a := best[k]
		a.c.Score = round3(a.c.Score * (1 + 0.08*math.Min(float64(a.count-1), 3)))
		out = append(out, a.c)
	}
	return out
}

// focusAfter is the length of the question's focus noun (with up to two
// lower-case words before it) right after a name: "DeCavalcante crime
// family" answers "what crime family"; 0 when the name is not followed by it.
func (f *finder) focusAfter(rest string, sp Span) int {
	if f.q.Focus == "" || sp.Type != TName || strings.HasSuffix(sp.Text, "'s") || strings.HasSuffix(sp.Text, "’s") {
		return 0
	}
	ws := strings.Fields(rest)
	if len(ws) == 0 || rest[0] != ' ' {
		return 0
	}
	for n := 0; n < 3 && n < len(ws); n++ {
		w := ws[n]
		bare := strings.TrimRight(w, ".,;:)")
		if bare == "" || strings.ToLower(bare) != bare {
			return 0
		}
		if bare == f.q.Focus || strings.TrimSuffix(bare, "s") == f.q.Focus {
			// The question's words right after the focus noun belong to
			// it: "crime family" for "what crime family".
			for n+1 < len(ws) && n < 3 && ws[n] == bare {
				next := ws[n+1]
				nb := strings.TrimRight(next, ".,;:)")
				if nb == "" || strings.ToLower(nb) != nb || !f.isQuestionWord(nb) || analyzeStop(nb) {
					break
				}
				n++
				w, bare = next, nb
			}
			at := 0
			for k := 0; k <= n; k++ {
				at = strings.Index(rest[at:], ws[k]) + at + len(ws[k])
			}
			return at - (len(w) - len(bare))
		}
		if !f.isQuestionWord(bare) {
			return 0
		}
	}
	return 0
}

// hopFit prefers, for a chained question, answers in a bridge passage
// that are not the bridge itself; for a one-relation question, answers in
// the passage the question names.
func (f *finder) hopFit(i int, sp Span) float64 {
	isBridge := f.bridge[i] > 0 && f.anchor[i] < 0.5
	// The entity the question describes without naming it (the title of a
	// passage holding most of its words) leads to the answer; it is not it.
	if j, ok := f.titleIx[norm(sp.Text)]; ok && f.anchor[j] < 0.5 && f.cov[j] >= 0.6 && f.q.Kind != Choice {
		if c := f.classOf(sp.Text); !(f.q.Focus != "" && c == "focus") {
			return 0.6
		}
	}
	if f.hops >= 2 {
		fit := 1.0
		if !isBridge && f.anchor[i] >= 0.5 {
			fit = 0.55
		}
		if j, ok := f.titleIx[norm(sp.Text)]; ok && f.bridge[j] > 0 {
			fit *= 0.5 // the bridge is the way to the answer, not the answer
		}
		return fit
	}
	if isBridge && f.q.Kind != Person && f.q.Kind != Thing {
		return 0.8
	}
	return 1
}

// proximity is 1 when a question word sits right beside the span, falling
// with the distance in words.
func (f *finder) proximity(s sent, sp Span) float64 {
	ws := s.toks
	bestD := 1000
	pos := -1
	for k, w := range ws {
		if w.start >= sp.Start && pos < 0 {
			pos = k
		}
	}
	if pos < 0 {
		return 0
	}
	for k, w := range ws {
		if w.start >= sp.Start && w.end <= sp.End {
			continue
		}
		if s.tokQ[k] {
			d := k - pos
			if d < 0 {
				d = -d
			}
			bestD = min(bestD, d)
		}
	}
	if bestD == 1000 {
		return 0
	}
	return 1 / (1 + 0.3*float64(bestD))
}

// dateHint prefers the date of the event the question asks about: the
// first date of "(1 May 1900 – 2 June 1980)" is a birth, the second a death.
func (f *finder) dateHint(s sent, sp Span) float64 {
	low := strings.ToLower(f.q.Text)
	pre := s.text[:sp.Start]
	paren := strings.LastIndex(pre, "(") > strings.LastIndex(pre, ")")
	dash := strings.ContainsAny(lastWords(pre, 2), "–-")
	switch {
	case strings.Contains(low, "death") || strings.Contains(low, "die"):
		if paren && dash || strings.Contains(strings.ToLower(lastWords(pre, 4)), "died") {
			return 1.2
		}
		if paren {
			return 0.6
		}
	case strings.Contains(low, "birth") || strings.Contains(low, "born"):
		if paren && !dash || strings.Contains(strings.ToLower(lastWords(pre, 4)), "born") {
			return 1.2
		}
		if paren {
			return 0.6
		}
	}
	return 1
}

// placeHint prefers the place of the event the question asks about: "born
// in Sopron" for a birthplace, "died in" for a place of death, "buried
// at" for a burial place.
func (f *finder) placeHint(s sent, sp Span) float64 {
	low := " " + strings.ToLower(f.q.Text)
	pre := strings.ToLower(lastWords(s.text[:sp.Start], 4))
	for _, e := range [][2]string{{"born", "born"}, {"birth", "born"}, {"died", "died"}, {"death", "died"}, {" die", "died"}, {"buried", "buried"}, {"burial", "buried"}} {
		if strings.Contains(low, e[0]) {
			if strings.Contains(pre, e[1]) {
				return 1.25
			}
			return 1
		}
	}
	return 1
}

// dateDetail prefers a full date ("April 5, 1975") when the question asks
// for a date ("on which date", "date of death"), not a year.
func (f *finder) dateDetail(sp Span) float64 {
	if f.yearOnly {
		return 1
	}
	hi, lo := 1.15, 0.85
	if !strings.Contains(strings.ToLower(f.q.Text), "date") {
		hi, lo = 1.08, 0.92 // "when": a full date when one is given
	}
	if reYear.MatchString(sp.Text) && len(strings.Fields(sp.Text)) >= 2 {
		return hi
	}
	return lo
}

// chain is the supporting sentences of an answer found in passage i,
// sentence s: the sentence that leads to a bridge passage first.
func (f *finder) chain(i int, s sent) []Ref {
	here := Ref{Passage: i, Start: s.start, End: s.end}
	if f.bridge[i] > 0 && f.anchor[i] < 0.5 {
		return []Ref{f.bridgeBy[i], here}
	}
	return []Ref{here}
}

// ends names the question entity and the bridge of passage i's chain.
func (f *finder) ends(i int) (subject, bridge string) {
	if f.bridge[i] > 0 && f.anchor[i] < 0.5 {
		return f.ps[f.bridgeBy[i].Passage].Title, f.ps[i].Title
	}
	if f.firstHop(i) > 0.3 {
		return f.ps[i].Title, ""
	}
	return "", ""
}

// choice answers "which of A or B": the item whose compared date wins, or
// the one the evidence supports best.
func (f *finder) choice() []Candidate {
	var out []Candidate
	type val struct {
		y    float64
		ok   bool
		ref  Ref
		path []Ref
		via  string
	}
	vals := make([]val, len(f.q.Options))
	for k, o := range f.q.Options {
		ps := f.about(o)
		c := Candidate{Text: o, Type: TName}
		if len(ps) > 0 {
			c.Span = Ref{Passage: ps[0]}
			c.Subject = f.ps[ps[0]].Title
			if len(f.sents[ps[0]]) > 0 {
				s := f.sents[ps[0]][0]
				c.Chain = []Ref{{Passage: ps[0], Start: s.start, End: s.end}}
				// The option named where the passage names it.
				if at := strings.Index(strings.ToLower(s.text), strings.ToLower(o)); at >= 0 {
					c.Span = Ref{Passage: ps[0], Start: s.start + at, End: s.start + at + len(o)}
				}
			}
			c.Score = 0.5 + 0.1*f.cov[ps[0]]
		}
		if f.q.Order != 0 && len(ps) > 0 {
			if y, ref, path, via, ok := f.eventDate(ps); ok {
				vals[k] = val{y: y, ok: true, ref: ref, path: path, via: via}
				c.Chain = path
				c.Bridge = via
				c.Value = f.dateText(ref, y)
			}
		}
		out = append(out, c)
	}
	// A related person's date ("the director born first") is not compared
	// with an item's own date when the other's person was not found.
	mixed := len(vals) == 2 && vals[0].ok && vals[1].ok && (vals[0].via == "") != (vals[1].via == "") && f.relational()
	if len(out) == 2 && vals[0].ok && vals[1].ok && vals[0].y != vals[1].y && !mixed {
		win := 0
		if (vals[1].y < vals[0].y) == (f.q.Order == earliest) {
			win = 1
		}
		out[win].Score = Decided
		out[1-win].Score = 0.4
		out[win].Chain = append(append([]Ref{}, vals[win].path...), vals[1-win].path...)
	}
	return out
}

// creatorRel are the relations "a film by X" states without naming them.
var creatorRel = map[string]bool{"director": true, "author": true, "writer": true, "composer": true, "creator": true, "painter": true, "architect": true}

// relational says the question compares a related person ("the director
// born first"), not the items themselves.
func (f *finder) relational() bool {
	return len(relatedBy(f.q.Text)) > 0
}

// relatedBy is the relation words a question follows from its items ("the
// director of", "whose father", "X's mother"), not those naming the items'
// own kind ("which composer was born first").
func relatedBy(q string) []string {
	low := " " + strings.ToLower(q)
	var out []string
	for _, rw := range relationWords {
		for at := 0; ; {
			i := strings.Index(low[at:], " "+rw)
			if i < 0 {
				break
			}
			i += at
			at = i + 1
			end := i + 1 + len(rw)
			if end < len(low) && low[end] >= 'a' && low[end] <= 'z' && low[end] != 's' {
				continue // a longer word
			}
			before := strings.Fields(low[:i])
			if len(before) > 0 {
				prev := before[len(before)-1]
				if prev == "the" || prev == "whose" || prev == "his" || prev == "her" || prev == "its" || prev == "their" || strings.HasSuffix(prev, "'s") || strings.HasSuffix(prev, "’s") || prev == "paternal" || prev == "maternal" {
					out = append(out, rw)
					break
				}
			}
		}
	}
	return out
}

// about is the passages about a name: titled with it, else naming it.
func (f *finder) about(name string) []int {
	n := norm(name)
	var out []int
	for i, p := range f.ps {
		if norm(p.Title) == n || titleKey(p.Title) == n {
			out = append(out, i)
		}
	}
	if len(out) > 0 {
		return out
	}
	for i, p := range f.ps {
		t := norm(p.Title)
		if t != "" && (strings.Contains(" "+n+" ", " "+t+" ") || strings.Contains(" "+t+" ", " "+n+" ")) {
			out = append(out, i)
		}
	}
	if len(out) > 0 {
		return out
	}
	for i, p := range f.ps {
		if strings.Contains(" "+norm(p.Text)+" ", " "+n+" ") {
			out = append(out, i)
		}
	}
	return out
}

var reBareYear = regexp.MustCompile(`^(?:1[0-9]|20)\d{2}$`)

var reYear = regexp.MustCompile(`\b(\d{3,4})\b`)

// eventDate is the date of the compared event in the passages about one
// item; when the question compares a related person ("the director born
// later"), it follows the relation to that person's passage first.
func (f *finder) eventDate(ps []int) (float64, Ref, []Ref, string, bool) {
	for _, rw := range relatedBy(f.q.Text) {
		// Follow: the first name in the item's passage that titles
		// another evidence passage, in a sentence with the relation word.
		for _, i := range ps {
			for _, s := range f.sents[i] {
				st := Stems(rw)
				said := len(st) > 0 && (s.stems[st[0]] || hasSyn(s.stems, st[0]))
				if !said && !creatorRel[rw] {
					continue
				}
				for _, sp := range names(s.text) {
					j, ok := f.titleIx[norm(sp.Text)]
					if !ok || j == i {
						continue
					}
					// "a 1998 film by Ventura Pons": the maker, unnamed.
					if !said && lastWord(strings.ToLower(s.text[:sp.Start])) != "by" {
						continue
					}
					if y, ref, ok := f.dateIn(j); ok {
						return y, ref, []Ref{{Passage: i, Start: s.start, End: s.end}, ref}, f.ps[j].Title, true
					}
				}
			}
		}
		break
	}
	for _, i := range ps {
		if y, ref, ok := f.dateIn(i); ok {
			return y, ref, []Ref{ref}, "", true
		}
	}
	return 0, Ref{}, nil, "", false
}

func hasSyn(have map[string]bool, w string) bool {
	for _, s := range synonyms[w] {
		if have[s] {
			return true
		}
	}
	return false
}

// dateText is the date span of a sentence that reads as year y (the
// compared value, as written), or "" (a lifespan is no date of the text).
func (f *finder) dateText(r Ref, y float64) string {
	if r.End <= r.Start {
		return ""
	}
	s := f.ps[r.Passage].Text[r.Start:r.End]
	for _, sp := range Spans(s) {
		if sp.Type != TDate {
			continue
		}
		if v, ok := yearOf(sp.Text); ok && math.Abs(v-y) < 1e-9 {
			return strings.TrimSpace(sp.Text)
		}
	}
	return ""
}

// dateIn finds the compared event's date in passage i as a fractional year.
func (f *finder) dateIn(i int) (float64, Ref, bool) {
	ev := f.q.Event
	fallback, fbRef, fbOK := 0.0, Ref{}, false
	for _, s := range f.sents[i] {
		spans := []Span{}
		for _, sp := range Spans(s.text) {
			if sp.Type == TDate {
				spans = append(spans, sp)
			}
		}
		if len(spans) == 0 {
			continue
		}
		low := strings.ToLower(s.text)
		pick := -1
		switch ev {
		case "died", "lifespan":
			for k, sp := range spans {
				pre := s.text[:sp.Start]
				if strings.ContainsAny(lastWords(pre, 2), "–-") || strings.Contains(strings.ToLower(lastWords(pre, 4)), "died") {
					pick = k
				}
			}
			if ev == "lifespan" && pick > 0 {
				a, _ := yearOf(spans[0].Text)
				b, _ := yearOf(spans[pick].Text)
				return b - a, Ref{Passage: i, Start: s.start, End: s.end}, true
			}
		default:
			if ev == "" || strings.Contains(low, ev) || strings.Contains(low, "(") || ev == "born" {
				pick = 0
			} else if !fbOK {
				// "X is a 2013 film": the passage's first date, when no
				// sentence names the event.
				if y, ok := yearOf(spans[0].Text); ok {
					fallback, fbRef, fbOK = y, Ref{Passage: i, Start: s.start, End: s.end}, true
				}
			}
		}
		if pick < 0 {
			continue
		}
		if y, ok := yearOf(spans[pick].Text); ok {
			return y, Ref{Passage: i, Start: s.start, End: s.end}, true
		}
	}
	return fallback, fbRef, fbOK
}

var monthNum = map[string]int{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}

// yearOf reads a date span as a fractional year (month and day refine it).
func yearOf(s string) (float64, bool) {
	m := reYear.FindAllString(s, -1)
	if len(m) == 0 {
		return 0, false
	}
	y, _ := strconv.Atoi(m[len(m)-1])
	if strings.HasSuffix(strings.TrimSpace(s), "BC") || strings.HasSuffix(strings.TrimSpace(s), "BCE") {
		y = -y
	}
	frac := 0.0
	low := strings.ToLower(s)
	for k, v := range monthNum {
		if strings.Contains(low, k) {
			frac = float64(v-1) / 12
		}
	}
	if d := regexp.MustCompile(`\b(\d{1,2})\b`).FindString(s); d != "" {
		n, _ := strconv.Atoi(d)
		frac += float64(n) / 400
	}
	return float64(y) + frac, true
}

// yesNo answers a yes/no question: for "the same X" whether both items'
// passages give the same value, for "both X" whether both are described so,
// else whether the best passage states the question's words.
func (f *finder) yesNo() []Candidate {
	yes := Candidate{Text: "yes", Score: 0.5}
	no := Candidate{Text: "no", Score: 0.45}
	if len(f.q.Options) == 2 {
		a, b := f.about(f.q.Options[0]), f.about(f.q.Options[1])
		if len(a) > 0 && len(b) > 0 {
			chain := []Ref{f.firstSent(a[0]), f.firstSent(b[0])}
			yes.Chain, no.Chain = chain, chain
			yes.Subject, no.Subject = f.ps[a[0]].Title, f.ps[a[0]].Title
			if strings.Contains(strings.ToLower(f.q.Text), "same") {
				va, ta, ra := f.attributeAt(a[0])
				vb, tb, rb := f.attributeAt(b[0])
				if va != "" && vb != "" {
					if va == vb {
						yes.Score = 0.8
					} else {
						no.Score = 0.8
					}
					items := []Compared{{Item: f.ps[a[0]].Title, Value: ta, Ref: ra}, {Item: f.ps[b[0]].Title, Value: tb, Ref: rb}}
					yes.Items, no.Items = items, items
				}
			} else if foc := f.q.Focus; foc != "" {
				// Every word the question says of both ("both American
				// directors") must describe each item.
				st := Stems(foc)
				low := strings.ToLower(f.q.Text)
				if k := strings.LastIndex(low, strings.ToLower(f.q.Options[1])); k >= 0 {
					for _, w := range Stems(low[k+len(f.q.Options[1]):]) {
						if w != "w:both" && w != "w:same" && w != "w:consid" && w != "w:consider" {
							st = append(st, w)
						}
					}
				}
				ha, hb := f.describesAll(a[0], st), f.describesAll(b[0], st)
				if ha && hb {
					yes.Score = 0.8
				} else {
					no.Score = 0.7
				}
			}
		}
	}
	return []Candidate{yes, no}
}

func (f *finder) firstSent(i int) Ref {
	if len(f.sents[i]) == 0 {
		return Ref{Passage: i}
	}
	s := f.sents[i][0]
	return Ref{Passage: i, Start: s.start, End: s.end}
}

// attribute is an item's comparable value from its first sentences: a
// demonym or the place after "in".
func (f *finder) attribute(i int) string {
	key, _, _ := f.attributeAt(i)
	return key
}

// attributeAt is attribute with the value as written and the sentence
// stating it.
func (f *finder) attributeAt(i int) (key, text string, at Ref) {
	for k, s := range f.sents[i] {
		if k > 2 {
			break
		}
		for _, sp := range Spans(s.text) {
			if sp.Type == TDemonym {
				return demonymKey(sp.Text), sp.Text, Ref{Passage: i, Start: s.start, End: s.end}
			}
		}
	}
	for k, s := range f.sents[i] {
		if k > 2 {
			break
		}
		for _, sp := range names(s.text) {
			if lw := lastWord(strings.ToLower(s.text[:sp.Start])); lw == "in" {
				ws := strings.Split(sp.Text, ", ")
				last := ws[len(ws)-1]
				return demonymKey(last), last, Ref{Passage: i, Start: s.start, End: s.end}
			}
		}
	}
	return "", "", Ref{}
}

func demonymKey(s string) string {
	s = strings.ToLower(s)
	switch s {
	case "united states", "us", "usa", "u.s.", "america":
		return "american"
	case "united kingdom", "uk", "england", "scotland", "wales", "britain", "english", "scottish", "welsh":
		return "british"
	}
	return s
}

// describes says whether the first sentences of passage i use one of the
// words.
func (f *finder) describes(i int, ws []string) bool {
	for k, s := range f.sents[i] {
		if k > 2 {
			break
		}
		for _, w := range ws {
			if s.stems[w] {
				return true
			}
		}
	}
	return false
}

// define answers "what does X prohibit / mean / require": the words after
// the question's verb in the best sentence that uses it.
func (f *finder) define() []Candidate {
	var verb []string
	for _, w := range Stems(f.q.Text) {
		switch w {
		case "w:prohibit", "w:mean", "w:requir", "w:stand", "w:defin", "w:allow", "w:permit", "w:provid", "w:includ", "w:cover", "w:exempt":
			verb = append(verb, w)
		}
	}
	var out []Candidate
	for i := range f.ps {
		pw := f.passageWeight(i)
		for _, s := range f.sents[i] {
			ws := words(s.text)
			for k, w := range ws {
				st := Stems(w.text)
				if len(st) == 0 {
					continue
				}
				hit := false
				for _, v := range verb {
					if st[0] == v {
						hit = true
					}
				}
				lw := strings.ToLower(w.text)
				// A verb form, not the noun ("prohibitions"), and not negated.
				if !hit || strings.HasSuffix(lw, "ion") || strings.HasSuffix(lw, "ions") || strings.HasSuffix(lw, "ing") || k+1 >= len(ws) {
					continue
				}
				prev := ""
				if k > 0 {
					prev = strings.ToLower(ws[k-1].text)
				}
				if prev == "not" || prev == "never" || prev == "no" {
					continue
				}
				var start, end int
				if (prev == "is" || prev == "are" || prev == "was" || prev == "were" || prev == "be") && strings.HasSuffix(lw, "ed") && k >= 2 {
					// Passive: "Making or selling devices ... is prohibited".
					start, end = 0, ws[k-2].end
					if c := strings.LastIndexAny(s.text[:end], ";:"); c >= 0 {
						start = c + 1
					}
				} else {
					start = ws[k+1].start
					end = len(s.text)
					if c := strings.IndexAny(s.text[start:], ";:"); c > 0 {
						end = start + c
					}
					if c := strings.Index(s.text[start:end], ", but"); c > 0 {
						end = start + c
					}
				}
				for start < end && s.text[start] == ' ' {
					start++
				}
				rest := strings.Fields(s.text[start:end])
				if len(rest) > 18 {
					end = start + len(strings.Join(rest[:18], " "))
				}
				text := strings.TrimRight(strings.TrimSpace(s.text[start:end]), ".,")
				if len(strings.Fields(text)) < 2 {
					continue
				}
				score := (0.6*f.sentRel(s) + 0.3*pw + 0.1) * f.refersTo(i, s.start, s.start+w.start)
				out = append(out, Candidate{Text: text, Type: TPhrase, Score: round3(score),
					Span:  Ref{Passage: i, Start: s.start + start, End: s.start + start + len(text)},
					Chain: []Ref{{Passage: i, Start: s.start, End: s.end}}})
			}
		}
	}
	return out
}

var (
	reSectionRef = regexp.MustCompile(`(?i)(?:\bsection|§)\s*(\d+[a-z]?(?:\([0-9a-zA-Z]+\))*)`)
	reSubsection = regexp.MustCompile(`(?i)\b(?:subsection|paragraph|clause|title|article|chapter)\s*\(?[0-9a-zA-Z]+\)?`)
	reAnaphor    = regexp.MustCompile(`(?i)^\W*(?:the provision|this provision|the section|this section|it|the prohibition|the law|the act)\b`)
)

// refersTo weighs a statement whose sentence starts at byte sent and whose
// verb is at byte verb of passage i by the section it is said of, against
// the section the question asks about: the subject before the verb when it
// names one ("Section 1201 prohibits", "Subsection (a) prohibits"), else,
// for "the provision", "it" …, the section the text last named before the
// sentence. The same section 1.2, another one ("section 1201(k)" for
// "section 1201", a subsection) 0.7, none or no section asked about 1.
func (f *finder) refersTo(i, sent, verb int) float64 {
	q := reSectionRef.FindStringSubmatch(f.q.Text)
	if q == nil {
		return 1
	}
	want := strings.ToLower(q[1])
	text := f.ps[i].Text
	subject := text[sent:verb]
	if m := reSectionRef.FindAllStringSubmatch(subject, -1); len(m) > 0 {
		if strings.ToLower(m[0][1]) == want {
			return 1.2
		}
		return 0.7
	}
	if reSubsection.MatchString(subject) {
		return 0.7
	}
	if !reAnaphor.MatchString(subject) {
		return 1
	}
	refs := reSectionRef.FindAllStringSubmatch(text[:sent], -1)
	if len(refs) == 0 {
		return 1
	}
	if strings.ToLower(refs[len(refs)-1][1]) == want {
		return 1.2
	}
	return 0.7
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// Hops counts the relations a question chains: relation nouns ("father",
// "director", a grandparent counting two) and the asked attribute (birth,
// death, nationality, a date or place). Two or more: the answer sits in a
// bridge passage, not in the passage the question names.
func Hops(q Question) int {
	low := " " + strings.ToLower(q.Text) + " "
	n := 0
	for _, rw := range relationWords {
		n += strings.Count(low, " "+rw+" ") + strings.Count(low, " "+rw+"'s ") + strings.Count(low, " "+rw+"?")
	}
	n += 2 * (strings.Count(low, "grandfather") + strings.Count(low, "grandmother"))
	n += strings.Count(low, "-in-law")
	switch q.Kind {
	case Date, Place, Demonym, Number:
		n++
	}
	return n
}

// Bridges names the entities a two-hop question may pass through: names
// in the sentences of the passages the question names (or of the compared
// items' passages) that carry one of its relation words, best first. The
// caller fetches their passages when they were not retrieved.
func Bridges(q Question, ps []Passage) []string {
	f := newFinder(q, ps, func(string) float64 { return 1 })
	low := strings.ToLower(q.Text)
	var rel []string
	for _, rw := range relationWords {
		if strings.Contains(low, rw) {
			rel = append(rel, Stems(rw)...)
		}
	}
	if strings.Contains(low, "grand") {
		rel = append(rel, "w:father", "w:mother")
	}
	type named struct {
		name string
		rel  float64
	}
	var found []named
	seen := map[string]bool{}
	for i := range ps {
		if f.firstHop(i) < 0.5 {
			continue
		}
		for _, s := range f.sents[i] {
			hit := len(rel) == 0
			for _, w := range rel {
				if s.stems[w] || hasSyn(s.stems, w) {
					hit = true
				}
			}
			if !hit {
				continue
			}
			toks := words(s.text)
			for _, sp := range names(s.text) {
				k := norm(sp.Text)
				if seen[k] || f.inQuestion(sp.Text) >= 0.99 || len(strings.Fields(sp.Text)) > 6 || isDemonym(sp.Text) {
					continue
				}
				seen[k] = true
				score := f.firstHop(i) + f.sentRel(s)
				if relBefore(toks, sp.Start, rel) {
					score++ // "directed by George Pearson": the relation names it
				}
				found = append(found, named{sp.Text, score})
			}
		}
	}
	sort.SliceStable(found, func(a, b int) bool { return found[a].rel > found[b].rel })
	out := make([]string, len(found))
	for k, n := range found {
		out[k] = n.name
	}
	return out
}

// relBefore says one of the relation word keys is among the three words
// before position at ("directed by X", "his father X").
func relBefore(toks []tok, at int, rel []string) bool {
	k := -1
	for i, t := range toks {
		if t.start >= at {
			k = i
			break
		}
	}
	if k < 0 {
		return false
	}
	for i := max(0, k-3); i < k; i++ {
		for _, st := range Stems(toks[i].text) {
			for _, w := range rel {
				if st == w {
					return true
				}
				for _, y := range synonyms[w] {
					if st == y {
						return true
					}
				}
			}
		}
	}
	return false
}

var orgWords = map[string]bool{"america": true, "award": true, "awards": true, "actress": true, "actor": true, "university": true, "college": true, "school": true, "association": true, "stadium": true, "company": true, "records": true, "church": true, "party": true, "league": true, "club": true, "team": true, "corporation": true, "inc": true, "ltd": true, "group": true, "band": true, "festival": true, "museum": true, "river": true, "county": true, "city": true, "state": true, "states": true, "kingdom": true, "republic": true, "empire": true, "war": true, "street": true, "island": true, "film": true, "series": true, "show": true, "album": true, "television": true, "network": true, "channel": true, "radio": true, "province": true, "district": true, "institute": true, "academy": true, "hospital": true, "council": true, "army": true, "navy": true, "force": true, "department": true, "ministry": true, "agency": true, "prize": true, "cup": true, "championship": true, "games": true, "olympics": true}

// orgLike says a name holds a word of an organisation, place or work.
func orgLike(name string) bool {
	for _, w := range strings.Fields(strings.ToLower(name)) {
		if orgWords[strings.Trim(w, ".,")] {
			return true
		}
	}
	return false
}

// onlyDemonyms says every word of a name is a demonym or a connector
// ("English and Spanish"): languages and peoples, not places.
func onlyDemonyms(name string) bool {
	n := 0
	for _, w := range strings.Fields(name) {
		if connector[strings.ToLower(w)] {
			continue
		}
		if !isDemonym(w) {
			return false
		}
		n++
	}
	return n > 0
}

// quoted says the span sits right inside quotation marks.
func quoted(s string, sp Span) bool {
	before := strings.TrimRight(s[:sp.Start], " ")
	after := strings.TrimLeft(s[sp.End:], " ")
	open := strings.HasSuffix(before, "\"") || strings.HasSuffix(before, "“")
	close := strings.HasPrefix(after, "\"") || strings.HasPrefix(after, "”")
	return open && close
}

// describesAll says every word occurs in the first sentences of passage i
// (its title counted).
func (f *finder) describesAll(i int, ws []string) bool {
	seen := map[string]bool{}
	for w := range f.titleSt[i] {
		seen[w] = true
	}
	for k, s := range f.sents[i] {
		if k > 2 {
			break
		}
		for w := range s.stems {
			seen[w] = true
		}
	}
	for _, w := range ws {
		if !seen[w] && !hasSyn(seen, w) {
			return false
		}
	}
	return true
}
