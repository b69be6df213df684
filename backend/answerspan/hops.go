package answerspan

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"cairn/backend/analyze"
)

// Inner is the innermost described entity of a chained question: the
// phrase that describes it ("the director of Dance for Rain") and a
// question asking for it ("Who is the director of Dance for Rain?").
// Answering Ask and putting the answer in place of Phrase leaves a
// question with one hop less.
type Inner struct {
	Phrase string
	Ask    string
	// Start and End are the phrase's byte offsets in the question.
	Start, End int
}

// Innermost finds the innermost entity a question describes instead of
// naming it: a relation of a named entity ("the director of Dance for
// Rain", "Vellmor's country") or a noun with a relative clause about one
// ("the country where the Tarn River is found", "the company Skylark
// International Airways is part of", "the person who voices Robo"). The
// rightmost such phrase is taken (questions nest to the right). known are
// names found for earlier hops, taken as names wherever they occur. ok is
// false when the question describes no entity, or when the phrase is all
// the question asks ("Who is the spouse of Tomas Rell?": one hop left).
func Innermost(question string, known []string) (Inner, bool) {
	p := parseHops(question, known)
	var found []Inner
	for _, m := range []func(*hopParse) []Inner{(*hopParse).possessive, (*hopParse).relationOf, (*hopParse).relative, (*hopParse).adjunct} {
		found = append(found, m(p)...)
	}
	// The innermost phrase holds no other; of those, the rightmost.
	best := -1
	for i, a := range found {
		inner := true
		for j, b := range found {
			if i != j && a.Start <= b.Start && b.End <= a.End && (a.Start != b.Start || a.End != b.End) {
				inner = false
			}
		}
		if inner && (best < 0 || a.End > found[best].End || a.End == found[best].End && a.Start > found[best].Start) {
			best = i
		}
	}
	if best < 0 {
		return Inner{}, false
	}
	in := found[best]
	if !hasContent(question[:in.Start] + " " + question[in.End:]) {
		return Inner{}, false
	}
	return in, true
}

// hopParse is a question cut into words, with the spans of the names it
// holds.
type hopParse struct {
	q    string
	toks []tok
	// ent[k] is the index of the name token k belongs to, -1 for none;
	// ents are the names as token ranges [first, last].
	ent  []int
	ents [][2]int
}

// parseHops cuts a question into words and marks its names: the known
// names, quoted titles, runs of capitalised words, a name with its title
// after a comma, and titles with lower-case words inside.
func parseHops(q string, known []string) *hopParse {
	p := &hopParse{q: q, toks: words(q)}
	p.ent = make([]int, len(p.toks))
	for k := range p.ent {
		p.ent[k] = -1
	}
	mark := func(start, end int) {
		first, last := -1, -1
		for k, t := range p.toks {
			if t.start >= start && t.end <= end {
				if first < 0 {
					first = k
				}
				last = k
			}
		}
		if first < 0 {
			return
		}
		for k := first; k <= last; k++ {
			if p.ent[k] >= 0 {
				return // inside a name already marked
			}
		}
		for k := first; k <= last; k++ {
			p.ent[k] = len(p.ents)
		}
		p.ents = append(p.ents, [2]int{first, last})
	}
	low := strings.ToLower(q)
	for _, k := range known {
		if k == "" {
			continue
		}
		if i := strings.Index(low, strings.ToLower(k)); i >= 0 {
			mark(i, i+len(k))
		}
	}
	for _, m := range reQuot.FindAllStringSubmatchIndex(q, -1) {
		mark(m[2], m[3])
	}
	for _, sp := range names(q) {
		mark(sp.Start, sp.End)
	}
	// A name and its title after a comma: "Irmina of Tarn, Queen of
	// Westmark", "Hugo Marsh, 3rd Earl of Eastbrook".
	for i := 0; i+1 < len(p.ents); i++ {
		a, b := p.ents[i], p.ents[i+1]
		next := a[1] + 1 // the title's first word: "Queen", "11th"
		if next >= len(p.toks) || p.possessiveTok(a[1]) || strings.TrimSpace(p.q[p.toks[a[1]].end:p.toks[next].start]) != "," || !titleWord(p.toks[next].text) {
			continue
		}
		if b[0] != next && !(b[0] == next+1 && reOrdinal.MatchString(strings.ToLower(p.toks[next].text)) && p.joined(next)) {
			continue
		}
		for k := next; k <= b[1]; k++ {
			p.ent[k] = i
		}
		p.ents[i][1] = b[1]
		p.ents = append(p.ents[:i+1], p.ents[i+2:]...)
		for k := b[1] + 1; k < len(p.toks); k++ {
			if p.ent[k] > i {
				p.ent[k]--
			}
		}
		i--
	}
	// A title with lower-case words inside: "Lied und Leben",
	// "Songs We Sang with Lou", "Supper at Mona's".
	for i := 0; i+1 < len(p.ents); i++ {
		a, b := p.ents[i], p.ents[i+1]
		gap := b[0] - a[1] - 1
		if p.possessiveTok(a[1]) || gap < 1 || gap > 2 {
			continue
		}
		ok := true
		for k := a[1] + 1; k < b[0]; k++ {
			if !p.plain(k) || !titleJoin[p.lower(k)] || !p.joined(k-1) || !p.joined(k) {
				ok = false
			}
		}
		if gap == 2 && p.lower(a[1]+2) != "the" || p.lower(a[1]+1) == "and" && gap != 2 {
			ok = false
		}
		if !ok {
			continue
		}
		for k := a[1] + 1; k <= b[1]; k++ {
			p.ent[k] = i
		}
		p.ents[i][1] = b[1]
		p.ents = append(p.ents[:i+1], p.ents[i+2:]...)
		for k := b[1] + 1; k < len(p.toks); k++ {
			if p.ent[k] > i {
				p.ent[k]--
			}
		}
		i--
	}
	return p
}

// lower is token k's text in lower case ("" past the end).
func (p *hopParse) lower(k int) string {
	if k < 0 || k >= len(p.toks) {
		return ""
	}
	return strings.ToLower(p.toks[k].text)
}

// plain says token k is a lower-case word outside every name.
func (p *hopParse) plain(k int) bool {
	if k < 0 || k >= len(p.toks) || p.ent[k] >= 0 {
		return false
	}
	w := p.toks[k].text
	return strings.ToLower(w) == w
}

// joined says nothing but a space separates tokens k and k+1 (no comma,
// no question mark).
func (p *hopParse) joined(k int) bool {
	if k+1 >= len(p.toks) {
		return false
	}
	gap := p.q[p.toks[k].end:p.toks[k+1].start]
	return strings.TrimSpace(gap) == "" || gap == "\" " || gap == " \""
}

// entAt is the name starting at token k (after an optional "the"), as its
// last token, or -1.
func (p *hopParse) entAt(k int) (int, int) {
	if p.lower(k) == "the" && k+1 < len(p.toks) && p.ent[k+1] >= 0 {
		k++
	}
	if k >= len(p.toks) || p.ent[k] < 0 || p.ents[p.ent[k]][0] != k {
		return -1, -1
	}
	return k, p.ents[p.ent[k]][1]
}

// phrase makes the Inner of tokens [first, last], with its question; a
// closing quote right after it belongs to it.
func (p *hopParse) phrase(first, last int, ask string) Inner {
	start, end := p.toks[first].start, p.toks[last].end
	if end < len(p.q) && (p.q[end] == '"' || strings.HasPrefix(p.q[end:], "”")) && strings.Count(p.q[start:end], "\"")+strings.Count(p.q[start:end], "“") > 0 {
		_, n := utf8.DecodeRuneInString(p.q[end:])
		end += n
	}
	return Inner{Phrase: p.q[start:end], Ask: ask, Start: start, End: end}
}

// name is the text of tokens [first, last] without a possessive "'s".
func (p *hopParse) name(first, last int) string {
	t := p.q[p.toks[first].start:p.toks[last].end]
	for _, s := range nameEndings {
		t = strings.TrimSuffix(t, s)
	}
	return strings.Trim(t, "\"“” ")
}

// possessiveTok says token k ends in "'s".
func (p *hopParse) possessiveTok(k int) bool {
	t := p.toks[k].text
	return strings.HasSuffix(t, "'s") || strings.HasSuffix(t, "’s") || strings.HasSuffix(t, "s'") || strings.HasSuffix(t, "s’")
}

// endsTitle says a name ending in "'s" at token k is a title, not a
// possessive: nothing but punctuation or a function word follows it
// ("Supper at Mona's?").
func (p *hopParse) endsTitle(k int) bool {
	return !p.joined(k) || !p.plain(k+1) || hopStop[p.lower(k+1)]
}

// possessive is "Vellmor's country", "Lia Fenn's city of birth".
func (p *hopParse) possessive() []Inner {
	var out []Inner
	for _, e := range p.ents {
		if !p.possessiveTok(e[1]) {
			continue
		}
		k := e[1] + 1
		if !p.joined(e[1]) || !p.plain(k) || hopStop[p.lower(k)] {
			continue
		}
		head := []string{p.lower(k)}
		last := k
		if p.joined(k) && p.plain(k+1) && !hopStop[p.lower(k+1)] && (nounLike(p.lower(k+1)) || isAdjectiveLike(p.lower(k)) && !nounLike(p.lower(k))) {
			head = append(head, p.lower(k+1))
			last = k + 1
		}
		if p.joined(last) && p.lower(last+1) == "of" && ofTail[p.lower(last+2)] {
			head = append(head, "of", p.lower(last+2))
			last += 2
		}
		out = append(out, p.phrase(e[0], last, askOf(strings.Join(head, " "), p.name(e[0], e[1]))))
	}
	return out
}

// headAfter gathers the head words after "the" at token k: at most max
// plain words, up to a stop word or one where ends. It returns them and
// the index of the token after the last.
func (p *hopParse) headAfter(k, max int, ends func(lower string) bool) ([]string, int) {
	var head []string
	j := k + 1
	for ; j < len(p.toks) && len(head) < max && p.plain(j) && !ends(p.lower(j)) && !hopStop[p.lower(j)]; j++ {
		head = append(head, p.lower(j))
	}
	return head, j
}

// relationOf is "the director of Dance for Rain", "the first president of
// Norland": a relation noun of a name. "the village of Ashcombe" names a
// place; it is the name itself.
func (p *hopParse) relationOf() []Inner {
	var out []Inner
	for k := range p.toks {
		if p.lower(k) != "the" {
			continue
		}
		head, j := p.headAfter(k, 3, func(w string) bool { return w == "of" })
		if len(head) == 0 || p.lower(j) != "of" || !p.joined(j-1) || !p.joined(j) {
			continue
		}
		if len(head) == 1 && appositive[head[0]] || idleWords[head[len(head)-1]] {
			continue
		}
		first, last := p.entAt(j + 1)
		if first < 0 || p.possessiveTok(last) {
			continue
		}
		out = append(out, p.phrase(k, last, askOf(strings.Join(head, " "), p.name(first, last))))
	}
	return out
}

// adjunct is "the Paper Moon singer", "the Rainy Shore
// performer": a name before a person's relation noun.
func (p *hopParse) adjunct() []Inner {
	var out []Inner
	for k := range p.toks {
		if p.lower(k) != "the" || !p.joined(k) {
			continue
		}
		first, last := p.entAt(k + 1)
		if first != k+1 || p.possessiveTok(last) || !p.joined(last) || !p.plain(last+1) {
			continue
		}
		head := p.lower(last + 1)
		if !isRelationWord(head) && !personNoun(head) {
			continue
		}
		out = append(out, p.phrase(k, last+1, askOf(head, p.name(first, last))))
	}
	return out
}

// relative is "the country where the Tarn River is found", "the company
// Skylark International Airways is part of", "the person who voices Robo
// in the Star Harbor Saga", "the state that borders Norland".
func (p *hopParse) relative() []Inner {
	var out []Inner
	for k := range p.toks {
		if p.lower(k) != "the" {
			continue
		}
		head, j := p.headAfter(k, 2, func(w string) bool { return relativizer[w] })
		if len(head) == 0 || !p.joined(j-1) || idleWords[head[len(head)-1]] {
			continue
		}
		h := strings.Join(head, " ")
		rel := ""
		if relativizer[p.lower(j)] {
			rel = p.lower(j)
			j++
			if rel == "in" || rel == "at" || rel == "on" {
				if p.lower(j) != "which" {
					continue
				}
				j++
			}
			if !p.joined(j - 1) {
				continue
			}
		} else if n := len(head); n == 2 && participle(head[1]) {
			// "the country containing Velmoor", "the film directed by".
			rel, head, j = "participle", head[:1], j-1
			h = head[0]
		} else if n == 1 && p.plain(j) && participle(p.lower(j)) && p.joined(j) {
			rel = "participle"
		} else if n != 1 {
			continue
		}
		subj := j
		if p.lower(subj) == "the" && appositive[p.lower(subj+1)] && p.lower(subj+2) == "of" {
			subj += 3 // "where the village of Ashcombe is located"
		}
		first, last := p.entAt(subj)
		if first >= 0 && !p.possessiveTok(last) {
			// An object clause: the name, then its verb ("where the Bubye
			// River is found", "Skylark International Airways is part of").
			if rel == "" && !verbLead(p.lower(last+1)) {
				continue
			}
			stop := p.clauseEnd(last)
			if stop <= last {
				continue
			}
			clause := p.q[p.toks[j].start:p.toks[stop].end]
			out = append(out, p.phrase(k, stop, askRelative(h, rel, clause, false)))
			continue
		}
		// "whose official sport is jousting": its noun, a verb, one word.
		if rel == "whose" {
			if stop := p.whoseEnd(j); stop > j {
				clause := p.q[p.toks[j-1].start:p.toks[stop].end]
				out = append(out, p.phrase(k, stop, askRelative(h, rel, clause, false)))
			}
			continue
		}
		// A subject clause: "who voices Robo (in the Star Harbor ...)",
		// "that borders Norland": a few words ending at a name.
		if rel != "who" && rel != "that" && rel != "which" && rel != "participle" {
			continue
		}
		stop := -1
		for m := j; m < len(p.toks) && m < j+6; m++ {
			if p.ent[m] >= 0 {
				stop = p.ents[p.ent[m]][1]
				break
			}
			if !p.plain(m) || !p.joined(m) || relativizer[p.lower(m)] && m > j && p.lower(m) != "in" && p.lower(m) != "on" && p.lower(m) != "at" {
				break
			}
		}
		if stop < 0 || p.possessiveTok(stop) && !p.endsTitle(stop) {
			continue
		}
		// "... Robo in the Star Harbor Saga": a place or work
		// right after the name belongs to the clause.
		if p.joined(stop) && (p.lower(stop+1) == "in" || p.lower(stop+1) == "of") && p.joined(stop+1) {
			if f, l := p.entAt(stop + 2); f >= 0 && (!p.possessiveTok(l) || p.endsTitle(l)) {
				stop = l
			}
		}
		clause := p.q[p.toks[j].start:p.toks[stop].end]
		out = append(out, p.phrase(k, stop, askRelative(h, rel, clause, true)))
	}
	return out
}

// whoseEnd is the last token of a "whose" clause starting at token j:
// up to three words of its noun, a linking verb and the word it links
// ("official sport is jousting"), or -1.
func (p *hopParse) whoseEnd(j int) int {
	m := j
	for ; m < len(p.toks) && m < j+3 && p.plain(m) && !auxWords[p.lower(m)] && p.joined(m); m++ {
	}
	if m == j || !auxWords[p.lower(m)] || !p.joined(m) || m+1 >= len(p.toks) {
		return -1
	}
	if f, l := p.entAt(m + 1); f >= 0 {
		return l
	}
	if !p.plain(m + 1) {
		return -1
	}
	return m + 1
}

// clauseEnd is the last token of an object clause whose subject name ends
// at token last: its verb words ("is found", "was born", "is part of",
// "is a citizen of"), ending at a comma, at a second verb ("born is
// located"), at another relative word, or after a stranded preposition
// ("is from").
func (p *hopParse) clauseEnd(last int) int {
	stop := last
	verb := false // a verb other than an auxiliary was taken
	np := 0       // words left of a noun phrase after a determiner
	for m := last + 1; m < len(p.toks) && m <= last+7; m++ {
		if !p.joined(m-1) || !p.plain(m) {
			break
		}
		w := p.lower(m)
		switch {
		case w == "where" || w == "that" || w == "which" || w == "who" || w == "whom" || w == "whose" || w == "when":
			return stop
		case prepositions[w]:
			next := p.lower(m + 1)
			if f, l := p.entAt(m + 1); f >= 0 && p.joined(m) {
				return l
			}
			stop = m
			if w == "to" && p.plain(m+1) && p.joined(m) && !determiners[next] {
				return m + 1 // "licensed to broadcast"
			}
			if !p.joined(m) || !determiners[next] {
				return stop // a stranded preposition ends the clause
			}
			np = 0
			continue
		case determiners[w]:
			// A noun phrase that ends the question is taken whole ("made
			// his big screen debut?"); inside it, one word ("is a citizen
			// | become").
			np = 1
			run := 0
			for n := m + 1; n < len(p.toks) && n <= m+3 && p.plain(n) && !auxWords[p.lower(n)]; n++ {
				run++
				if !p.joined(n) {
					np = run
					break
				}
			}
			stop = m
			continue
		case np > 0:
			np--
			if np == 0 {
				np = -1
			}
			stop = m
			verb = true
			continue
		case verb && (w == "place" || w == "part") && p.lower(m-1) != w:
			// "took place", "is part of"
		case np < 0 || verb && !adverbs[w]:
			return stop // a second verb ("born is located")
		case auxWords[w] || adverbs[w]:
		default:
			verb = true
		}
		stop = m
	}
	return stop
}

// askOf asks for the relation head of name.
func askOf(head, name string) string {
	last := head
	if i := strings.Index(last, " of "); i > 0 {
		last = last[:i]
	}
	if f := strings.Fields(last); len(f) > 0 {
		last = f[len(f)-1]
	}
	if personNoun(last) || isRelationWord(last) {
		return "Who is the " + head + " of " + name + "?"
	}
	return "Which " + head + " of " + name + "?"
}

// askRelative asks for the noun of a relative clause.
func askRelative(head, rel, clause string, subject bool) string {
	last := head
	if f := strings.Fields(head); len(f) > 0 {
		last = f[len(f)-1]
	}
	if personNoun(last) || isRelationWord(last) || rel == "who" || rel == "whom" {
		if subject && rel != "participle" {
			return "Who " + clause + "?"
		}
		return "Who is the " + head + " " + clause + "?"
	}
	return "Which " + head + " " + clause + "?"
}

func isRelationWord(w string) bool {
	w = strings.TrimSuffix(w, "s")
	for _, r := range relationWords {
		if r == w {
			return true
		}
	}
	return relationMore[w]
}

// isAdjectiveLike says a word after a possessive describes its noun
// rather than being it ("Ivo Marsh's religious denomination").
func isAdjectiveLike(w string) bool {
	return strings.HasSuffix(w, "ous") || strings.HasSuffix(w, "al") || strings.HasSuffix(w, "ic") || strings.HasSuffix(w, "ive")
}

// nounLike says a word after a possessive's first noun continues it
// ("headquarters city", "home town").
func nounLike(w string) bool {
	return placeNoun(w) || personNoun(w) || classNouns[w]
}

// hasContent says a question keeps words of its own once the phrase is
// taken out ("What is the name of" keeps none).
func hasContent(rest string) bool {
	for _, t := range analyze.Tokens(rest) {
		w := strings.ToLower(t.Text)
		if analyze.IsStop(w) || idleWords[w] {
			continue
		}
		return true
	}
	return false
}

// participle says a word is a verb's -ing or -ed form that can start a
// reduced relative clause ("containing", "directed").
func participle(w string) bool {
	return len(w) > 5 && (strings.HasSuffix(w, "ing") || strings.HasSuffix(w, "ed")) && !naming[w]
}

// verbLead says a word can start the verb of an object clause right after
// its subject name ("is", "was", "died", "lived").
func verbLead(w string) bool {
	if auxWords[w] {
		return true
	}
	return strings.HasSuffix(w, "ed") || verbLeads[w]
}

// titleWord says a word starts a title after a name ("Queen", "11th").
func titleWord(w string) bool {
	l := strings.ToLower(w)
	if nobility[l] {
		return true
	}
	return reOrdinal.MatchString(l)
}

var reOrdinal = regexp.MustCompile(`^\d+(?:st|nd|rd|th)$`)
