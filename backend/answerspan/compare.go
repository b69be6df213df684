package answerspan

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

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

// relational says the question compares a related person ("the director
// born first"), not the items themselves.
func (f *finder) relational() bool {
	return len(f.related) > 0
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
	for _, rw := range f.related {
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
					// "a 1998 film by Lina Moraes": the maker, unnamed.
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
//
// A question about one thing ("Is the plant capital-intensive?") that no
// sentence decides gets its "yes" and "no" under MinScore: a guess is no
// answer (the passages are shown as evidence). A verdict from a table's
// cells (the reasoner's byCellsDirection) lifts one above it.
func (f *finder) yesNo() []Candidate {
	yes := Candidate{Text: "yes", Score: 0.5}
	no := Candidate{Text: "no", Score: 0.45}
	if len(f.q.Options) != 2 {
		yes.Score, no.Score = undecidedYes, undecidedNo
	}
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
	} else if agrees, at, ok := f.directionVerdict(minDirectionRel); ok {
		chain := []Ref{at}
		yes.Chain, no.Chain = chain, chain
		if agrees {
			yes.Score = 0.7
		} else {
			no.Score = 0.7
		}
	} else if up, down, ok := whichWay(f.q.Text); ok {
		// "Did X increase or decrease?": the way the best sentence
		// says it moved, in the question's word for it.
		f.moved = 1
		if rose, at, ok := f.directionVerdict(minWayRel); ok {
			way := Candidate{Text: up, Score: decidedWay, Chain: []Ref{at}}
			if !rose {
				way.Text = down
			}
			return []Candidate{way, yes, no}
		}
		f.moved = 0
	}
	return []Candidate{yes, no}
}

// decidedWay is the score of the way a sentence says a quantity moved,
// asked "did it increase or decrease?".
const decidedWay = 0.7

// minWayRel is the least part of the question's words (by weight) the
// sentence stating the way must say: more than for a yes/no, since the
// answer is the sentence's word itself ("Flour sales rose" says
// nothing of the miller's wages as a share of flour sales).
const minWayRel = 0.6

// whichWay reads a question that asks which way a quantity moved, its
// two ways joined by "or" ("increase or decrease", "rise or fall"): the
// question's word for up and for down.
func whichWay(text string) (up, down string, ok bool) {
	ws := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !isAlnum(r) })
	for i := 1; i+1 < len(ws); i++ {
		if ws[i] != "or" {
			continue
		}
		a, b := ws[i-1], ws[i+1]
		switch {
		case riseWords[a] && fallWords[b]:
			return a, b, true
		case fallWords[a] && riseWords[b]:
			return b, a, true
		}
	}
	return "", "", false
}

// undecidedYes and undecidedNo score the answers to a yes/no question
// about one thing that nothing decided: under MinScore, so not offered.
const (
	undecidedYes = 0.40
	undecidedNo  = 0.35
)

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
			if sp.Type == TDemonym && !inTitleWords(sp.Text, f.ps[i].Title) {
				return f.valueKey(sp.Text), sp.Text, Ref{Passage: i, Start: s.start, End: s.end}
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
				if m := regionAfter.FindStringSubmatch(s.text[sp.End:]); m != nil && !f.smaller {
					last = m[1] // "Eastbrook, Vermont": the region says more of the country
				}
				return f.valueKey(last), last, Ref{Passage: i, Start: s.start, End: s.end}
			}
		}
	}
	return "", "", Ref{}
}

// asksSmallerPlace reports whether a "same …" question compares a place
// smaller than a country (a state, county, city).
func asksSmallerPlace(q string) bool {
	for _, w := range strings.Fields(strings.ToLower(q)) {
		if smallerPlaces[strings.Trim(w, "?,.")] {
			return true
		}
	}
	return false
}

// valueKey is the key two items' values are compared by: for a question
// about countries or nationalities the nationality a demonym, country or
// US state stands for; for "the same state" (or city, county) the place
// itself, since Alabama and Texas differ though both are American.
func (f *finder) valueKey(v string) string {
	if f.smaller {
		return strings.ToLower(v)
	}
	return demonymKey(v)
}

// regionAfter matches the region or country written after a place
// (", Vermont" after "Eastbrook").
var regionAfter = regexp.MustCompile(`^, ((?:[A-Z][a-z]+)(?: [A-Z][a-z]+)?)\b`)

// inTitleWords reports whether word is one of the words of title: the
// "Marian" of "Marian Ostrowe" is her name, not a demonym.
func inTitleWords(word, title string) bool {
	for _, w := range strings.Fields(title) {
		if strings.EqualFold(strings.Trim(w, "(),"), word) {
			return true
		}
	}
	return false
}

func demonymKey(s string) string {
	s = strings.ToLower(s)
	if d, ok := demonyms[s]; ok {
		return d
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
