package answerspan

import (
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"

	"cairn/backend/analyze"
)

// Passage is one retrieved passage, best first.
type Passage struct {
	Title     string
	Text      string
	Sentences [][2]int // sentence byte spans in Text
	// words are the passage's word keys and each sentence's candidate
	// spans, which do not depend on the question: NewPassage computes them
	// once for every Find the passage goes to; without them each Find
	// computes its own.
	words *passageWords
}

// passageWords is what Find reads of a passage whatever the question.
type passageWords struct {
	title []string        // the title's word keys
	have  map[string]bool // the word keys of the title and text
	sents []sentWords
}

// sentWords is what Find reads of a sentence whatever the question.
type sentWords struct {
	stems map[string]bool
	spans []Span
	toks  []tok
}

// NewPassage makes a passage with its words worked out once, for a
// caller that passes it to Find more than once.
func NewPassage(title, text string, sentences [][2]int) Passage {
	p := Passage{Title: title, Text: text, Sentences: sentences}
	p.words = wordsOf(p)
	return p
}

// wordsOf is a passage's words: as NewPassage stored them, else computed.
func wordsOf(p Passage) *passageWords {
	if p.words != nil {
		return p.words
	}
	w := &passageWords{title: Stems(p.Title), have: map[string]bool{}}
	for _, k := range Stems(p.Title + "\n" + p.Text) {
		w.have[k] = true
	}
	for _, sp := range p.Sentences {
		s := p.Text[sp[0]:sp[1]]
		st := map[string]bool{}
		for _, k := range Stems(s) {
			st[k] = true
		}
		toks := words(s)
		if toks == nil {
			toks = []tok{}
		}
		w.sents = append(w.sents, sentWords{stems: st, spans: Spans(s), toks: toks})
	}
	return w
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
// answer (DEV sets, `cairn-eval eval`).
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

type sent struct {
	p, k       int // passage, and the sentence's index in it
	start, end int
	text       string
	stems      map[string]bool
	spans      []Span  // candidate spans, computed once
	toks       []tok   // words
	tokQ       []bool  // whether a word is a question word (or synonym)
	rel        float64 // sentRel, computed once
}

// prepare fills a sentence's spans, words and relevance on first use.
func (f *finder) prepare(s *sent) {
	if s.toks != nil {
		return
	}
	sw := f.words[s.p].sents[s.k]
	s.spans = sw.spans
	if attrNouns[f.q.Focus] {
		s.spans = append(s.spans[:len(s.spans):len(s.spans)], RoleSpans(s.text)...)
	}
	if f.q.Lang == "zh" {
		// A Chinese question's amounts and dates are read the Chinese way
		// (with their unit: "六个月"); a bare figure ("第21条") is none.
		var spans []Span
		for _, sp := range s.spans {
			if sp.Type != TNumber && sp.Type != TDate {
				spans = append(spans, sp)
			}
		}
		s.spans = append(spans, zhSpans(s.text)...)
	}
	s.toks = sw.toks
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
	q           Question
	ps          []Passage
	idf         IDF
	qStems      []string
	smaller     bool     // the question asks for a place smaller than a country (asksSmallerPlace)
	moved       int      // the way the question asks a quantity moved (Direction)
	related     []string // the relation words the question follows from its items (relatedBy)
	qNames      []string // capitalised names of the question (lower-case)
	qSet        map[string]bool
	relTotal    float64
	anchor      []float64 // how much a passage's title is named by the question
	bridge      []float64 // a passage whose title an anchor passage mentions
	bridgeBy    []Ref
	cov         []float64
	sents       [][]sent
	titleIx     map[string]int
	titleSt     []map[string]bool
	qSyn        map[string]bool // question words and their synonyms
	focusRe     *regexp.Regexp
	classes     map[string]string
	hops        int
	wordQ       map[string]bool   // a word is a question word (or a synonym of one), by its text
	yearOnly    bool              // the question asks for a year, not a date
	computed    []string          // a figure question's stems naming a computed figure (saysComputed)
	amountAsked bool              // the question asks an amount ("the total amount"): money fits best
	both        bool              // "both X and Y": the answer is the entity each passage names
	have        []map[string]bool // the word keys of each passage (title and text)
	chainSt     []map[string]bool // the words of the sentence leading to a bridge passage, and its passage's title
	words       []*passageWords   // each passage's words (wordsOf)
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
	f.amountAsked = slices.Contains(strings.Fields(strings.Trim(lowQ, "?")), "amount")
	f.both = strings.Contains(" "+strings.ToLower(q.Text)+" ", " both ")
	read := q.reading()
	f.qStems = read.stems
	f.smaller = read.smaller
	f.moved = read.moved
	f.related = read.related
	for _, w := range f.qStems {
		if computed[w] && q.Kind == Number {
			f.computed = append(f.computed, w)
		}
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
	for _, n := range read.names {
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
	f.words = make([]*passageWords, len(ps))
	for i, p := range ps {
		pw := wordsOf(p)
		f.words[i] = pw
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
				f.anchor[i] = 0.8 * overlap(pw.title, f.qSet)
			}
		}
		f.titleSt[i] = map[string]bool{}
		for _, w := range pw.title {
			f.titleSt[i][w] = true
		}
		f.cov[i] = f.weighted(pw.have)
		f.have[i] = pw.have
		for k, sp := range p.Sentences {
			f.sents[i] = append(f.sents[i], sent{p: i, k: k, start: sp[0], end: sp[1], text: p.Text[sp[0]:sp[1]], stems: pw.sents[k].stems})
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
// and without a bracketed disambiguation: "Ann Miro (director)" and
// "ray taylor" have the same key.
func TitleKey(title string) string { return titleKey(title) }

// titleKey is a passage title as a mention of its subject: normalised,
// without a trailing disambiguation in brackets ("Ivo Marsh (political
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
	for _, a := range articles {
		out = strings.TrimPrefix(out, a)
	}
	return out
}

func isAlnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 && (r < 0x2000 || r > 0x206f)
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
