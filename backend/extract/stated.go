package extract

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"cairn/backend/kb"
	"cairn/backend/relphrase"
)

// Stated relations of one sentence. Two kinds of statement link two
// mentions:
//
//   - the sentence's subject and what its verb reaches: the mention that
//     opens the sentence (or, for a sentence opening with "He", "She",
//     "It", "They" or a possessive of them, the entity the text was last
//     about) is the subject; every later mention reached through a verb is
//     an object, the predicate being the verb and the preposition right
//     before the object ("born in", "won at", "is an album by"). A
//     parenthesis right after the subject states about it too ("X (born
//     … in Y)").
//   - two neighbouring mentions joined by a phrase that reads as a
//     relation (relphrase: a verb phrase, copula, apposition, possessive),
//     by one preposition ("the Academy in London": "in") or, for two
//     places, by a comma ("Reno, Nevada": "located in").
//
// Everything else the sentence puts side by side is co-occurrence (a
// retrieval signal, not a relation).

// smention is a mention inside one sentence: entity and byte span relative
// to the sentence.
type smention struct {
	entity int
	a, b   int
}

// stated is one relation a sentence states.
type stated struct {
	subj, obj int // entities
	pred      string
	conf      float64
}

var (
	// "X state of Y", "X's province of Y": a place noun between two names
	placeOfGap  = regexp.MustCompile(`^(?:['’]s\s+)?(?:[a-z]+\s+)?([a-z]+)\s+of(?:\s+the)?$`)
	pronounOpen = regexp.MustCompile(`^\W*(He|She|It|They|His|Her|Its|Their)\b`)
	classOpen   = regexp.MustCompile(`^\W*The ([a-z]+)\b`)
	clauseBreak = regexp.MustCompile(`[;:]|\.\s|\bwhile\b|\bwhereas\b|\bbut\b`)
)

// subjectOf is the mention that opens sentence s (within its first two
// words, an article or an opening bracket aside), or -1.
func subjectOf(s string, in []smention) int {
	if len(in) == 0 {
		return -1
	}
	lead := strings.Fields(s[:in[0].a])
	n := 0
	for _, w := range lead {
		lw := strings.ToLower(strings.Trim(w, "\"“(['‘"))
		if lw == "the" || lw == "a" || lw == "an" || lw == "" {
			continue
		}
		n++
	}
	if n == 0 {
		return 0
	}
	// after an opening phrase ("In July 2012 X agreed …", "After retiring,
	// X became …"): the first mention right before the sentence's first verb,
	// not inside a prepositional phrase
	for k, m := range in {
		before := strings.Fields(s[:m.a])
		if len(before) > 0 && onePrep[strings.ToLower(before[len(before)-1])] {
			continue
		}
		for _, w := range before {
			lw := strings.ToLower(strings.Trim(w, ",\"“”()"))
			if copulas[lw] || auxiliaries[lw] || irregular[lw] {
				return -1 // a verb came first: the mention is no subject
			}
		}
		if opensWithVerb(s[m.b:]) {
			return k
		}
		if k >= 2 {
			break
		}
	}
	return -1
}

// opensWithVerb says the text after a mention starts with a verb (after
// adverbs, a closed bracket or an auxiliary).
func opensWithVerb(after string) bool {
	t := strings.TrimSpace(after)
	if strings.HasPrefix(t, "(") {
		if k := strings.Index(t, ")"); k > 0 {
			t = strings.TrimSpace(t[k+1:])
		}
	}
	for _, w := range strings.Fields(t) {
		lw := strings.ToLower(strings.Trim(w, ",\"“”"))
		if adverbs[lw] {
			continue
		}
		return copulas[lw] || auxiliaries[lw] || verbish(lw)
	}
	return false
}

// verbPhrase is the predicate a stretch of text between a subject and an
// object states: its first verb (after adverbs and auxiliaries, which stay
// with it) and the preposition right before the object. ok is false when
// the stretch holds no verb or crosses a clause boundary.
func verbPhrase(between string) (string, bool) {
	if clauseBreak.MatchString(between) || secondVerb(between) {
		return "", false
	}
	// a bracket right after the subject: "(born 1963 in Y)" states "born";
	// a closed one ("(1911 – 1971) was a …") is passed over
	t := strings.TrimSpace(between)
	if strings.HasPrefix(t, "(") {
		if k := strings.Index(t, ")"); k > 0 {
			t = strings.TrimSpace(t[k+1:])
		}
	}
	inBracket := strings.HasPrefix(t, "(") && !strings.Contains(t, ")")
	t = strings.TrimLeft(t, "(,")
	ws := strings.Fields(t)
	var verb []string
	k := 0
	for ; k < len(ws); k++ {
		w := strings.ToLower(strings.Trim(ws[k], ",\"“”()"))
		r, _ := utf8.DecodeRuneInString(ws[k])
		if w == "" || unicode.IsDigit(r) {
			if inBracket {
				continue // "(born 13 March 1963 in …": the date sits between
			}
			return "", false
		}
		if adverbs[w] || auxiliaries[w] {
			verb = append(verb, w)
			continue
		}
		if copulas[w] || w == "born" || w == "died" || verbish(w) {
			verb = append(verb, w)
			break
		}
		if inBracket && (unicode.IsUpper(r) || strings.HasSuffix(ws[k], ",")) {
			continue
		}
		return "", false
	}
	if k == len(ws) {
		return "", false
	}
	// a passive or a copula takes its participle along ("was released", "is an album by")
	if k+1 < len(ws) && copulas[verb[len(verb)-1]] {
		if nx := strings.ToLower(ws[k+1]); strings.HasSuffix(nx, "ed") || nx == "born" || nx == "known" || nx == "made" {
			verb = append(verb, nx)
			k++
		}
	}
	if len(verb) > 0 && copulas[verb[len(verb)-1]] {
		// "is a German skeleton racer": the noun it is said to be
		if n := descNoun(strings.Join(ws[k+1:], " ")); n != "" && len(ws) > k+1 {
			verb = append(verb, n)
		}
	}
	last := strings.ToLower(strings.Trim(ws[len(ws)-1], ",\"“”("))
	pred := strings.Join(verb, " ")
	if onePrep[last] && len(ws)-1 > k && !strings.HasSuffix(pred, " "+last) {
		pred += " " + last
	} else if len(ws) >= 2 && strings.ToLower(ws[len(ws)-1]) == "the" && onePrep[strings.ToLower(ws[len(ws)-2])] && len(ws)-2 > k {
		pred += " " + strings.ToLower(ws[len(ws)-2])
	}
	return pred, true
}

// secondVerb says the stretch holds a second, coordinated verb phrase ("was
// the son of X and grew up in Y"): what follows belongs to that verb, which
// the first one's predicate would misname.
func secondVerb(between string) bool {
	ws := strings.Fields(between)
	for i := 0; i+1 < len(ws); i++ {
		if strings.ToLower(strings.Trim(ws[i], ",")) != "and" {
			continue
		}
		n := strings.ToLower(strings.Trim(ws[i+1], ",\"“”"))
		if adverbs[n] && i+2 < len(ws) {
			n = strings.ToLower(strings.Trim(ws[i+2], ",\"“”"))
		}
		if irregular[n] || copulas[n] || auxiliaries[n] || strings.HasSuffix(n, "ed") && len(n) > 4 {
			return true
		}
	}
	return false
}

// verbish reads a lower-case word as a verb form by its shape: a past
// ("founded", "won"), a third person ("owns" — see relphrase for the
// guards) or a base form in a short closed set of relation verbs.
func verbish(w string) bool {
	if determiners[w] || onePrep[w] || w == "and" || w == "or" || w == "as" || w == "that" || w == "which" || w == "who" {
		return false
	}
	if strings.HasSuffix(w, "ed") && len(w) > 4 {
		return true
	}
	return irregular[w] || strings.HasSuffix(w, "s") && len(w) > 3 && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "ous") && !strings.HasSuffix(w, "ics")
}

// sentenceRelations returns the relations sentence s states between its
// mentions (sorted by position). topic is the entity a sentence opening
// with a pronoun stands for (-1: none); it returns the sentence's own
// subject entity (-1: none), which the next sentences' pronouns may refer
// to.
func sentenceRelations(s string, in []smention, topic int, lead bool, place func(entity int) bool) ([]stated, int) {
	var out []stated
	seen := map[[2]int]bool{}
	add := func(a, b int, pred string, conf float64) {
		if a == b || pred == "" {
			return
		}
		k := [2]int{min(a, b), max(a, b)}
		if seen[k] {
			return
		}
		seen[k] = true
		out = append(out, stated{a, b, pred, conf})
	}
	subj, subjEnd, first := -1, 0, 0
	if k := subjectOf(s, in); k >= 0 {
		subj, subjEnd, first = in[k].entity, in[k].b, k+1
		// "X and Y were …": the subject is the list
		for first < len(in) && strings.TrimSpace(s[in[first-1].b:in[first].a]) == "and" {
			first++
		}
		subjEnd = in[first-1].b
	} else if m := pronounOpen.FindStringSubmatchIndex(s); m != nil && topic >= 0 {
		subj, subjEnd = topic, m[3]
		for first < len(in) && in[first].a < subjEnd {
			first++
		}
	} else if m := classOpen.FindStringSubmatchIndex(s); m != nil && topic >= 0 && nounType(s[m[2]:m[3]]) != "" && opensWithVerb(s[m[1]:]) {
		// "The film was directed by X", "The band signed with Y": a
		// sentence opening with "the" and a class noun talks about the
		// entity the text is about
		subj, subjEnd = topic, m[1]
		for first < len(in) && in[first].a < subjEnd {
			first++
		}
	}
	isLead := lead && subj >= 0 && subjectOf(s, in) == 0
	if isLead {
		// the document's lead sentence defines its subject: every name
		// its description holds says something of it ("X (born 1950 in
		// Y) is a Z singer, a member of W")
		lastPred := ""
		for k := first; k < len(in); k++ {
			var pred string
			if k > first && in[k-1].b <= in[k].a && conjunct(s[in[k-1].b:in[k].a]) && lastPred != "" {
				pred = lastPred
			} else {
				pred = leadPredicate(s[subjEnd:in[k].a], s[in[k].b:])
			}
			lastPred = pred
			if otherName(s[subjEnd:in[k].a], pred) {
				continue // "(formerly Y)", "also known as Y", "(Quenforth: Y)": another name of the subject, no relation
			}
			add(subj, in[k].entity, pred, 0.45)
		}
	}
	if subj >= 0 && !isLead {
		lastPred, lastK := "", -1
		for k := first; k < len(in); k++ {
			var pred string
			var ok bool
			if lastK >= 0 && lastK == k-1 && in[k-1].b <= in[k].a && conjunct(s[in[k-1].b:in[k].a]) {
				// "written by A and B", "born in A, B": the relation
				// carries over to each conjunct
				pred, ok = lastPred, true
			} else {
				pred, ok = verbPhrase(s[subjEnd:in[k].a])
			}
			if ok {
				lastPred, lastK = pred, k
				add(subj, in[k].entity, pred, 0.5)
				for j := 0; j < first && j < len(in); j++ {
					if in[j].entity != subj && subjectOf(s, in) == 0 {
						add(in[j].entity, in[k].entity, pred, 0.5) // every member of a listed subject
					}
				}
			}
		}
	}
	listed := inList(s, in)
	for k := 0; k+1 < len(in); k++ {
		a, b := in[k], in[k+1]
		if a.entity == b.entity {
			continue
		}
		if p, ok := relphrase.Phrase(s, a.a, a.b-a.a, b.a, b.b-b.a); ok {
			add(a.entity, b.entity, p, 0.6)
			// "A founded B and C": the phrase reaches every conjunct after b
			for j := k + 2; j < len(in) && in[j-1].b <= in[j].a && conjunct(s[in[j-1].b:in[j].a]); j++ {
				add(a.entity, in[j].entity, p, 0.5)
			}
			continue
		}
		gap := strings.TrimSpace(s[a.b:b.a])
		if sm := placeOfGap.FindStringSubmatch(gap); sm != nil && nounType(sm[1]) == "location" {
			add(b.entity, a.entity, "located in", 0.5) // "the U.S. state of Connecticut": Connecticut is in the U.S.
			continue
		}
		if nat := s[a.a:a.b]; demonym(nat, s[a.b:]) && nounRun(gap) != "" {
			// "the Kestrian power metal band X", "Kestrian producer X": X
			// is of the people the adjective names
			add(b.entity, a.entity, "is "+nounRun(gap), 0.5)
			continue
		}
		gap = strings.TrimSuffix(strings.TrimSuffix(gap, " the"), " The")
		if neighbourPrep[gap] {
			add(a.entity, b.entity, gap, 0.5)
		} else if gap == "," && place != nil && place(a.entity) && place(b.entity) && !listed[k] {
			add(a.entity, b.entity, "located in", 0.5)
		}
	}
	// a chain of places, each in the next ("Brelloc, Welmshire, Kestria",
	// "in the Varn Hills of central Welmshire in Kestria"): each is in every
	// later one, not only its neighbour
	if place != nil {
		for k := 0; k < len(in); {
			j := k
			for j+1 < len(in) && !listed[j] && place(in[j].entity) && place(in[j+1].entity) && in[j].b <= in[j+1].a && placeChainGap.MatchString(s[in[j].b:in[j+1].a]) {
				j++
			}
			for x := k; x < j; x++ {
				for y := x + 2; y <= j; y++ {
					add(in[x].entity, in[y].entity, "located in", 0.45)
				}
			}
			k = j + 1
		}
	}
	return out, subj
}

// inList marks the mentions of a coordinated list ("A, B, C and D", "A, B
// or C"): a run of mentions joined by commas that a conjunction ends. Its
// members are side by side, not one inside the next.
func inList(s string, in []smention) []bool {
	out := make([]bool, len(in))
	for k := 0; k < len(in); {
		j, conj := k, false
		for j+1 < len(in) && in[j].b <= in[j+1].a && conjunct(s[in[j].b:in[j+1].a]) {
			if strings.TrimSpace(s[in[j].b:in[j+1].a]) != "," {
				conj = true
			}
			j++
		}
		// Three names or more by commas, then "and" or "or" before words
		// that are no name ("A, B, C, and other companies", "…, etc."),
		// are a list too; two are not ("Reno, Nevada, and other towns").
		if !conj && j-k >= 2 && endsList(s[in[j].b:]) {
			conj = true
		}
		if conj {
			for x := k; x <= j; x++ {
				out[x] = true
			}
		}
		k = j + 1
	}
	return out
}

// listTailRE reads the word after a list's last name, past a comma and
// "and"/"or": ", and other …", ", other …", " or similar …", ", etc.".
var listTailRE = regexp.MustCompile(`^,?\s*(?:(?:and|or)\s+)?(\p{Ll}+)\b`)

// endsList reports whether rest, the text after a run of names, ends
// the run as a list without naming another (lexicon graph_list_tails).
func endsList(rest string) bool {
	m := listTailRE.FindStringSubmatch(rest)
	return m != nil && listTails[m[1]]
}

// placeChainGap joins two places of a chain: a comma, "in", "of", with an
// article or a compass word ("of central", "in the").
var placeChainGap = regexp.MustCompile(`^\s*(?:,|,?\s*(?:in|of)(?:\s+the)?(?:\s+(?:north|south|east|west|central|northern|southern|eastern|western|northeastern|northwestern|southeastern|southwestern))?)\s*$`)

// nounRun is the last word of a gap of one to five lower-case words
// (adjectives and a noun, "power metal band", "rapper and singer"), or "".
func nounRun(gap string) string {
	ws := strings.Fields(gap)
	if len(ws) == 0 || len(ws) > 5 {
		return ""
	}
	for i, w := range ws {
		r, _ := utf8.DecodeRuneInString(w)
		lw := strings.ToLower(w)
		if lw == "and" && i > 0 && i < len(ws)-1 {
			continue // "rapper and singer X"
		}
		if !unicode.IsLower(r) || strings.ContainsAny(w, ",;:()\"") || determiners[lw] || leadPreps[lw] || copulas[lw] || auxiliaries[lw] || irregular[lw] || stopDesc[lw] {
			return ""
		}
	}
	return ws[len(ws)-1]
}

// leadPredicate names what a lead sentence states between its subject and a
// later name: the verb phrase when one reaches the name ("was born in"),
// else the word and preposition right before it ("directed by", "member
// of", "capital of", "from"), else the copula and the noun the name
// qualifies ("is singer" for "is a Kestrian singer").
func leadPredicate(between, after string) string {
	if p, ok := verbPhrase(between); ok && strings.Contains(strings.ToLower(strings.Join(strings.Fields(between), " ")), p) && !copulas[lastWord(p)] && !determiners[lastWord(p)] && lastWord(p) != "a" && lastWord(p) != "an" {
		return p // the verb phrase as written: "was born in", "founded"
	}
	if t := strings.TrimSpace(between); strings.HasPrefix(t, "(") && !strings.Contains(t, ")") {
		ws := strings.Fields(t)
		last := strings.ToLower(ws[len(ws)-1])
		if strings.HasPrefix(t, "(born ") && leadPreps[last] {
			return "born " + last // "(born 4 May 1950 in Y"
		}
		if r, _ := utf8.DecodeLastRuneInString(strings.TrimRight(last, ",")); unicode.IsDigit(r) || leadPreps[last] && strings.ContainsAny(t, "0123456789") {
			// a life span's places: "(4 May 1815, Y – 21 March 1851 in Z"
			if strings.ContainsAny(t, "–—") || strings.Contains(t, " - ") {
				return "died in"
			}
			return "born in"
		}
	}
	ws := strings.Fields(between)
	for len(ws) > 0 && determiners[strings.ToLower(strings.Trim(ws[len(ws)-1], "\"“(‘'"))] {
		ws = ws[:len(ws)-1]
	}
	if len(ws) > 0 {
		last := strings.ToLower(strings.Trim(ws[len(ws)-1], "\"“(‘'"))
		if leadPreps[last] && !strings.ContainsAny(ws[len(ws)-1], ",;:)") {
			if len(ws) > 1 {
				prev := ws[len(ws)-2]
				lp := strings.ToLower(prev)
				r, _ := utf8.DecodeRuneInString(prev)
				if unicode.IsLower(r) && !strings.ContainsAny(prev, ",;:()\"") && !determiners[lp] && !leadPreps[lp] && !stopDesc[lp] || lp == "born" || lp == "based" || lp == "located" || lp == "known" || lp == "founded" {
					return lp + " " + last
				}
			}
			if !neighbourPrep[last] && last != "near" {
				return "" // a bare "for", "on", "to", "with", "as" says too little of the subject
			}
			return last
		}
		r, _ := utf8.DecodeRuneInString(last)
		if unicode.IsLower(r) && strings.HasSuffix(last, "ing") && !strings.ContainsAny(ws[len(ws)-1], ",;:)") {
			return last // "starring X", "featuring X"
		}
	}
	if p, ok := verbPhrase(between); ok && !strings.Contains(" "+p+" ", " is ") && !strings.Contains(" "+p+" ", " was ") {
		return p // "founded", "has won"
	}
	cop := ""
	for _, w := range ws {
		if lw := strings.ToLower(strings.Trim(w, ",")); copulas[lw] {
			cop = lw
			break
		}
	}
	if cop == "" {
		return "" // a name before the verb and after no preposition: an apposition of the subject ("X, Y, (born …) is"), not stated of it
	}
	if n := headNoun(after); n != "" {
		return cop + " " + n
	}
	return cop
}

// otherName says a name after a lead's subject is another name of it: in
// the bracket right after the subject unless a preposition or a date leads
// to it ("(born 1950 in Y)", "(1815 – 1851 Y)"), or after "known as",
// "called", "formerly", "née".
func otherName(between, pred string) bool {
	if strings.HasSuffix(pred, "known as") || strings.HasSuffix(pred, "called") {
		return true
	}
	t := strings.TrimSpace(between)
	ws := strings.Fields(t)
	if len(ws) > 0 {
		switch strings.ToLower(strings.Trim(ws[len(ws)-1], "(,;:\"“")) {
		case "formerly", "née", "nee", "called", "aka", "or", "also":
			return true
		}
	}
	if !strings.HasPrefix(t, "(") || strings.Contains(t, ")") {
		return false
	}
	if len(ws) == 0 {
		return true
	}
	lw := ws[len(ws)-1]
	if strings.HasSuffix(lw, ":") || strings.HasSuffix(lw, ";") || lw == "(" {
		return true
	}
	if strings.HasSuffix(lw, ",") {
		return false // "(born 1950 in Y, Z", "(4 May 1815, Y"
	}
	lw = strings.ToLower(strings.Trim(lw, "(;"))
	r, _ := utf8.DecodeRuneInString(lw)
	return unicode.IsLower(r) && !leadPreps[lw] && lw != "born" && lw != "died"
}

// headNoun is the noun a name in a description qualifies: the last
// lower-case word of the words right after it, before a preposition,
// participle, relative word or punctuation ("drama film directed by": film).
func headNoun(after string) string {
	head := ""
	for _, w := range strings.Fields(after) {
		lw := strings.ToLower(strings.Trim(w, ".,;:\"“”'’()"))
		r, _ := utf8.DecodeRuneInString(lw)
		if lw == "" || stopDesc[lw] || leadPreps[lw] || strings.HasPrefix(w, "(") {
			break
		}
		if !unicode.IsLetter(r) || !unicode.IsLower([]rune(w)[0]) {
			if head != "" {
				break
			}
			continue
		}
		if len(lw) > 4 && (strings.HasSuffix(lw, "ed") || strings.HasSuffix(lw, "ing")) && head != "" {
			break
		}
		head = lw
		if strings.ContainsAny(w, ".,;:)") {
			break
		}
	}
	return head
}

// conjunct says the text between two mentions joins them in a list: "and",
// "or", a comma, ", and".
func conjunct(gap string) bool {
	switch strings.TrimSpace(gap) {
	case "and", "or", ",", ", and", ", or", "as well as":
		return true
	}
	return false
}

// maxValuesPerEntity caps the values one chunk attaches to one entity.
const maxValuesPerEntity = 12

// attachValues gives the values of sentence sent (dates, amounts,
// percentages, quantities) to the entity they qualify: the sentence's
// subject (subj; for "He"/"It" sentences the entity the text is about),
// else the nearest mention before the value, else the first after it. A
// sentence without a mention attaches nothing: a value needs an entity the
// text states it of.
func attachValues(r *Result, c kb.Chunk, vals []candidate, sent [2]int, in []mention, subj int, idx map[int]int) {
	for _, v := range vals {
		if v.a < sent[0] || v.b > sent[1] {
			continue
		}
		owner := subj
		if owner < 0 {
			for _, m := range in {
				if m.b <= v.a {
					owner = m.entity
				} else if owner < 0 && m.a >= v.b {
					owner = m.entity
					break
				}
			}
		}
		k, ok := idx[owner]
		if owner < 0 || !ok || len(r.Entities[k].Values) >= maxValuesPerEntity {
			continue
		}
		r.Entities[k].Values = append(r.Entities[k].Values, kb.Value{Kind: v.typ, Text: v.name, Source: source(c, v.a, v.b)})
	}
}

// statesSomething says a sentence holds a verb: a copula, an auxiliary or
// a word read as a verb form (not a title or a heading line).
func statesSomething(s string) bool {
	for _, w := range strings.Fields(s) {
		lw := strings.Trim(w, ",.;:\"“”()")
		r, _ := utf8.DecodeRuneInString(lw)
		if !unicode.IsLower(r) {
			continue
		}
		if copulas[lw] || auxiliaries[lw] || irregular[lw] || lw == "born" {
			return true
		}
	}
	return false
}

func lastWord(p string) string {
	return p[strings.LastIndex(p, " ")+1:]
}
