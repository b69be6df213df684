package answerspan

import (
	"math"
	"slices"
	"strings"
)

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

// saysComputed reports whether a sentence may state the figure the
// question asks when that figure is worked out from others ("the current
// ratio", "the average price"; lexicon computed_words): only a sentence
// that says the word does. Any sentence may when the question asks no
// such figure.
func (f *finder) saysComputed(text string) bool {
	if len(f.computed) == 0 {
		return true
	}
	for _, w := range Stems(text) {
		if slices.Contains(f.computed, w) {
			return true
		}
	}
	return false
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
			says := f.saysComputed(s.text)
			for _, sp := range s.spans {
				fit := f.typeFit(sp, s)
				if fit == 0 {
					continue
				}
				if sp.Type == TNumber && !says {
					// "the current ratio" is no amount the sentence
					// gives without saying it is the ratio
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
					// "the Marbrook crime family" for "what crime family".
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
// lower-case words before it) right after a name: "Marbrook crime
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
