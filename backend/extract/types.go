package extract

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"cairn/backend/kb"
)

// Entity types from evidence. Every mention of an entity in a chunk votes
// for a type with what the text says around it, and the name's own words
// and shape add theirs; the entity takes the type with the most votes (one
// type per entity), "other" when nothing says more. The evidence, strongest
// first:
//
//   - the name's head word ("… University", "Lake …", "… Inc."): classify
//   - a description of the name by a class noun: a copula ("X is a Canadian
//     guitarist", "X was a town in"), an apposition ("X, a physicist,"),
//     a noun before it ("the band X", "the city of X"): classNouns, or
//     the noun's ending for people ("racer", "cellist")
//   - the words around it: an honorific ("Dr. X"), a life span or "(born",
//     ", who", a verb of a person ("X said", "X married"), a place
//     preposition ("born in X", "near X", "in X"), an organisation's verbs
//     ("joined X", "signed with X")
//   - the document's own reference: a sentence that goes on with "He" or
//     "She" after a sentence that opens with the name; a person's surname
//     (or first name) used alone elsewhere in the chunk
//   - lists of places: "Vancouver, British Columbia, Canada" — one known
//     place makes its comma neighbours places
//   - name shape: a demonym used as an adjective ("a German racer": the
//     nation, typed location) and two or three plain capitalised words
//     (a weak vote for a person's name).

// typeVotes are the votes of one entity.
type typeVotes map[string]float64

func (v typeVotes) best() (string, float64) {
	bt, bs := "", 0.0
	for _, t := range []string{"person", "organization", "location", "event", "work", "law", "product", "concept", "abbreviation"} {
		if v[t] > bs {
			bt, bs = t, v[t]
		}
	}
	return bt, bs
}

var (
	copulaDesc  = regexp.MustCompile(`^\s*(?:\([^()]*\)\s*)?,?\s*(?:is|was|are|were|has been|had been|became|becomes|remains|served as|works as|worked as)\s+(?:also\s+|now\s+|currently\s+)?(?:a|an|the|one of the)\s+([^,;:()]*)`)
	appoDesc    = regexp.MustCompile(`^\s*,\s+(?:a|an|the)\s+([^,;:()]*)`)
	nounBefore  = regexp.MustCompile(`\b(?:the|a|an|his|her|their|its|fellow)\s+((?:[A-Za-z-]+\s+){0,2}?)([a-z]+)\s+$`)
	ofBefore    = regexp.MustCompile(`\b(city|town|village|province|county|state|republic|kingdom|island|islands|region|municipality|district|capital|suburb|borough)\s+of\s+$`)
	placeStrong = regexp.MustCompile(`\b(?:born|died|raised|located|situated|based|headquartered|buried|settled|lives|lived|grew up|moved)\s+(?:in|at|near|to|on)\s+(?:the\s+)?$|\b(?:near|outside|north of|south of|east of|west of)\s+$|\b(?:bordered|bounded|borders|adjoined)\s+(?:on\s+the\s+[a-z]+\s+)?(?:by\s+)?$|\bon\s+the\s+(?:north|south|east|west|northeast|northwest|southeast|southwest)(?:ern)?\s+(?:side\s+)?by\s+$|\(born\s+[^()]{0,40}?\d{3,4},\s+$|\b(?:north|south|east|west|northeast|northwest|southeast|southwest)\s+to\s+$|\b(?:travels|travelled|traveled|passes|passed|runs|ran|flows|flowed|continues|crosses|crossed)\s+(?:on\s+)?(?:through|into|past|to)\s+(?:the\s+)?$|\b(?:Mt|Mts|Mtn|Ft)\.\s+$`)
	orgBefore   = regexp.MustCompile(`\b(?:joined|joining|signed with|signed for|signed to|played for|plays for|playing for|served with|merged with|merger with|spells? (?:with|for)|member of|worked for|works for|employed by|acquired by|subsidiary of|division of|graduated from|studied at|attended|enrolled at|released by|published by|released on|owned by|chairman of|ceo of|president of|founder of|drafted by|traded to|loaned to|transferred to|moved to the|manager of|captain of|coach of|coached)\s+(?:the\s+)?$`)
	ofPlace     = regexp.MustCompile(`\b[a-z]{3,}\s+of\s+$`)
	// "one of the districts of X", "the Kotayk Province of X": a place
	// noun (any listed one, singular or plural) before "of"
	nounOf = regexp.MustCompile(`\b([A-Za-z]+)\s+of\s+(?:the\s+)?$`)
	// "the younger brother, X", "its capital, X": a class noun and a comma
	// "married X", "the son of X", "the X administration": a person
	personBefore = regexp.MustCompile(`\b(?:married|marries|marry|widow of|(?:son|daughter|sons|daughters|wife|husband|father|mother|brother|sister|child|children|grandson|granddaughter|nephew|niece|heir|descendant|descendants)\s+of)\s+$`)
	personAfter  = regexp.MustCompile(`^\s+administration\b`)
	// "X, king of …", "X, son of …": a person's title or kin before "of"
	roleOfAfter = regexp.MustCompile(`^,?\s+(?:the\s+)?(?:[a-z]+\s+)?([a-z]+)\s+of\b`)
	// "of northeastern X", "capital is X": a place
	placeBef2 = regexp.MustCompile(`\b(?:of|across|throughout)\s+(?:north|south|east|west|northern|southern|eastern|western|central|northeastern|northwestern|southeastern|southwestern)\s+$|\bcapital\s+(?:is|was|city is)\s+$`)
	// "the X prefecture", "X road": a place noun right after the name
	placeNounAfter = regexp.MustCompile(`^\s+([a-z]+)\b`)
	// "masters such as X", "industries such as X", "children: X": the kind
	// a list's first name belongs to
	suchAs    = regexp.MustCompile(`\b([a-z]+)(?:\s+(?:such as|including|like|namely)|\s*:)\s+(?:the\s+)?$`)
	nativeOf  = regexp.MustCompile(`\bnatives?\s+of\s+(?:the\s+)?$`)
	nounComma = regexp.MustCompile(`\b(?:the|a|an|his|her|their|its)\s+(?:[A-Za-z-]+\s+){0,3}?([a-z]+),\s+$`)
	// "(X, 2 June 1663 – Y, May 1719)": where a life began and ended
	lifePlace   = regexp.MustCompile(`^,\s+(?:\d{1,2}\s+[A-Z][a-z]+|[A-Z][a-z]+\s+\d{1,2},?|[A-Z][a-z]+)?\s*\d{3,4}\s*[)–—-]`)
	theBefore   = regexp.MustCompile(`(?:^|\s)[Tt]he\s+$`)
	placeBefThe = regexp.MustCompile(`\b(?:in|at|near|from|across|throughout)\s+the\s+$`)
	// "X was founded in", "X, founded in 1990,": a body someone set up
	orgVerb = regexp.MustCompile(`^(?:\s+(?:was|were|is|has been|had been)\s+(?:founded|formed|established|incorporated|headquartered|dissolved|disbanded|acquired|listed)\b|,\s+(?:founded|formed|established|headquartered)\s+(?:in|by)\b)`)
	// "X's wife", "X's death": what only a person has
	personPoss = regexp.MustCompile(`^['’]s\s+(?:wife|husband|son|daughter|sons|daughters|father|mother|parents|brother|sister|widow|children|death|birth|childhood|marriage|funeral)\b`)
	// "developed by X" names a maker (a company), "directed by X" an author (a person)
	orgBy    = regexp.MustCompile(`\b(?:developed|manufactured|published|operated|owned|distributed|marketed|broadcast|released|issued|acquired|sponsored|organized|organised|administered|governed|controlled)\s+by\s+(?:the\s+)?$`)
	personBy = regexp.MustCompile(`\b(?:directed|written|composed|painted|founded|produced|sung|performed|illustrated|edited|designed|authored|narrated|created|invented|played|voiced|portrayed|coached|led|co-written|co-founded)\s+by\s+$|\b(?:starring|featuring|co-starring)\s+$`)
	// a possessive after a name: the words before it govern what it has
	possessor = regexp.MustCompile(`^['’]s?\s`)
	// "X's capital", "X's population": what a place has
	placePoss  = regexp.MustCompile(`^['’]s\s+(?:capital|largest city|population|prime minister|president|borders?|coast|coastline|provinces|regions|territory|independence|parliament|national)\b`)
	personVerb = regexp.MustCompile(`^\s+(?:was born|died|married|starred|graduated|retired|resigned|wrote|sang|studied|divorced|testified|recalled)\b|^\s*\((?:c\.\s*)?(?:born|b\.|\d{3,4}\s*[-–]\s*\d{3,4}|died|d\.)`)
)

// descNoun is the head noun of a description phrase: the last lower-case
// word before a preposition, a relative word or a conjunction ("German
// skeleton racer who competed" → "racer").
func descNoun(phrase string) string {
	head := ""
	for _, w := range strings.Fields(phrase) {
		lw := strings.ToLower(strings.Trim(w, ".,;:\"“”'’"))
		if lw == "" {
			break
		}
		if stopDesc[lw] {
			break
		}
		r, _ := utf8.DecodeRuneInString(w)
		if unicode.IsUpper(r) || unicode.IsDigit(r) {
			continue // a demonym or a year before the noun ("weekly Catholic newspaper")
		}
		head = lw
		if strings.HasSuffix(w, ".") || strings.HasSuffix(w, ",") {
			break
		}
	}
	return head
}

// demonym says a one-word name reads as a people's adjective: ending in
// -an, -ian, -ese, -ish or -i and followed by a lower-case word ("German
// skeleton racer", "Japanese company").
func demonym(name, after string) bool {
	if strings.ContainsAny(name, " -.") || utf8.RuneCountInString(name) < 4 || allCaps(name) {
		return false
	}
	l := strings.ToLower(name)
	ok := false
	for _, suf := range demonymSuffixes {
		if strings.HasSuffix(l, suf) {
			ok = true
		}
	}
	if !ok {
		return false
	}
	a := strings.TrimLeft(after, " ")
	if len(a) == len(after) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(a)
	if !unicode.IsLower(r) {
		return false
	}
	// the adjective of a noun, not the subject of a verb ("Petrosian won")
	next := strings.ToLower(strings.Trim(strings.Fields(a)[0], ".,;:"))
	return !(copulas[next] || auxiliaries[next] || adverbs[next] || onePrep[next] || determiners[next] || irregular[next] || strings.HasSuffix(next, "ed") ||
		next == "and" || next == "or" || next == "who" || next == "which" || next == "that" || next == "as")
}

// nameHeadType is the type a name's head word says: its last word ("Adriatic
// Sea", "Norwegian Army") or the word before its first "of" ("University of
// Toronto", "Metropolitan City of Bari"), read as a class noun (the listed
// ones only: a name ending in "-er" is no person).
func nameHeadType(name string) string {
	ws := strings.Fields(name)
	if len(ws) < 2 {
		return ""
	}
	for k := 1; k+1 < len(ws); k++ {
		if ws[k] == "of" {
			if t := listedNounType(ws[k-1]); t != "" {
				return t
			}
			break
		}
	}
	if t := listedNounType(ws[len(ws)-1]); t != "" {
		return t
	}
	// "Loyola University Chicago", "Bank Vestria": a body's class noun
	// before a name that tells which one
	for k := len(ws) - 2; k >= 0; k-- {
		if w := ws[k]; capitalised(w) && listedNounType(w) == "organization" {
			return "organization"
		}
	}
	return ""
}

// partyDiscount weighs a description that makes a name "the" party of
// something by an agent noun read from its ending alone ("X is the seller
// of protection", "the issuer of the notes", "the purchaser"): a role in a
// dealing, which companies hold as often as people, so it says a third of
// what "a painter" or a listed class noun says. 1 for any other
// description; match is the whole description, desc its noun phrase.
func partyDiscount(match, desc string) float64 {
	lead := strings.TrimSpace(strings.TrimSuffix(match, desc))
	noun := strings.ToLower(descNoun(desc))
	if strings.HasSuffix(lead, " the") && listedNounType(noun) == "" && personNoun(noun) {
		return 1.0 / 3
	}
	return 1
}

// listedNounType is nounType without the reading by endings.
func listedNounType(w string) string {
	if personNoun(strings.ToLower(w)) {
		if _, ok := classNouns[strings.ToLower(w)]; !ok {
			return ""
		}
	}
	if classNouns[strings.ToLower(w)] == "person" {
		return "" // "Jeff Healey's Roadhouse Band" no, but "Prince", "King" lead a person's name, not end it
	}
	return nounType(w)
}

// personShape says a name is two or three plain capitalised words (no
// connector, digit, type word or all-capital word): how people's names are
// written.
func personShape(name string) bool {
	ws := strings.Fields(name)
	if len(ws) < 2 || len(ws) > 4 {
		return false
	}
	if l := strings.ToLower(ws[0]); strings.HasSuffix(l, "ese") || strings.HasSuffix(l, "ish") || compass[l] {
		return false // "Chinese Christians", "Polish Radio", "North America"
	}
	plain := 0
	for k, w := range ws {
		if k > 0 && k < len(ws)-1 && nameParticles[w] {
			continue // "Jefferson Madeira da Silva"
		}
		plain++
		lw := strings.ToLower(strings.Trim(w, "."))
		if !capitalised(w) || allCaps(strings.TrimSuffix(w, ".")) && utf8.RuneCountInString(w) > 2 || typeWords[lw] || classNouns[lw] != "" && classNouns[lw] != "person" {
			return false
		}
		for _, r := range w {
			if !unicode.IsLetter(r) && r != '.' && r != '\'' && r != '’' && r != '-' {
				return false
			}
		}
	}
	return plain <= 4
}

// roleName says a name of two words or more is only a post: person class
// nouns ("President", "Officer") and the words that qualify them, nothing
// that names a particular person.
func roleName(name string) bool {
	ws := strings.Fields(name)
	if len(ws) < 2 {
		return false // "Prince", "Bishop": a one-word name may be a person's
	}
	for k, w := range ws {
		if w == "of" && k > 0 {
			ws = ws[:k] // "Vice President of Finance": the post is before "of"
			break
		}
	}
	post := false
	for _, w := range ws {
		lw := strings.ToLower(strings.Trim(w, ".,"))
		switch {
		case classNouns[lw] == "person":
			post = true
		case roleWords[lw], lw == "of", lw == "and", lw == "the":
		default:
			return false
		}
	}
	return post
}

var pronounStart = regexp.MustCompile(`^\W*(?:He|She|His|Her)\b`)

// inferTypes gives each entity of a chunk its type from the evidence of all
// its mentions (see the comment above typeVotes). sentOf gives the
// sentence span of every mention.
func inferTypes(text string, sents [][2]int, ents []candidate, ms []mention) ([]string, []float64) {
	votes := make([]typeVotes, len(ents))
	// prior: the votes of a name's shape alone (an acronym, two or three
	// plain capitalised words), which say little; a chunk's vote outside
	// the chunk counts them a tenth (see the weights below)
	prior := make([]typeVotes, len(ents))
	for i, cd := range ents {
		votes[i] = typeVotes{}
		prior[i] = typeVotes{}
		switch {
		case cd.typ == "other" || cd.typ == "":
		case cd.typ == "abbreviation":
			votes[i]["abbreviation"] += 0.4
			prior[i]["abbreviation"] += 0.4
			if utf8.RuneCountInString(cd.name) >= 3 {
				votes[i]["organization"] += 0.5 // an acronym names an organisation more often than anything else
				prior[i]["organization"] += 0.5
			}
		case cd.priority >= 2:
			// the document's title or file name says nothing of the kind of
			// what it names ("Castor Vasquith" titles a passage about a man):
			// typed by the text alone, or other, which aligns with any type
		case cd.priority == 1:
			votes[i][cd.typ] += 0.5
		default:
			votes[i][cd.typ] += 3
		}
		if cd.priority == 0 && (cd.typ == "other" || cd.typ == "") && nameHeadType(cd.name) == "" {
			for _, a := range cd.aliases {
				if definedAbbreviation(cd.name, a) {
					votes[i]["organization"] += 1.2 // a name the document abbreviates ("… Democracy (MMD)") names a body
					break
				}
			}
		}
		if cd.priority == 0 && roleName(cd.name) {
			// "Vice President", "Chief Executive Officer": a post, not
			// the person who holds it
			votes[i]["concept"] += 3
			continue
		}
		if cd.priority == 0 && (cd.typ == "other" || cd.typ == "") {
			if ws := strings.Fields(cd.name); len(ws) >= 2 && compass[strings.ToLower(ws[0])] && nameHeadType(cd.name) == "" {
				votes[i]["location"] += 2 // "Western Pennsylvania", "East Prussia"
			} else if t := nameHeadType(cd.name); t != "" {
				votes[i][t] += 2.5
			} else if t := classNouns[strings.ToLower(cd.name)]; t != "" && t != "person" && !strings.Contains(cd.name, " ") {
				votes[i][t] += 1.5 // "the Navy", "Parliament": a class noun used as a name names one of its kind
			} else if personShape(cd.name) && !cd.commonTail {
				votes[i]["person"] += 0.6
				prior[i]["person"] += 0.6
			} else if abbreviation(cd.name) && utf8.RuneCountInString(cd.name) >= 3 {
				votes[i]["organization"] += 0.5 // an acronym names an organisation more often than anything else
				prior[i]["organization"] += 0.5
			}
		}
	}
	sentOf := func(m mention) [2]int {
		for _, s := range sents {
			if m.a >= s[0] && m.b <= s[1] {
				return s
			}
		}
		return [2]int{m.a, m.b}
	}
	for _, m := range ms {
		s := sentOf(m)
		before, after := text[s[0]:m.a], text[m.b:s[1]]
		v := votes[m.entity]
		if theBefore.MatchString(before) {
			v["person"] -= 1 // "the Pittsburgh Gazette": a person's name takes no article
			if strings.Contains(text[m.a:m.b], " ") {
				v["organization"] += 0.3 // "the Carolina Panthers": a body, more often than not
			}
		}
		// a list's later names take the frame before its first: "played
		// for the Tars, Wexley Owls and Brint Kings", "through Alby, Cove
		// and Hesk"
		head := listHead(before)
		framed := func(re *regexp.Regexp) bool { return re.MatchString(before) || head != before && re.MatchString(head) }
		if sm := suchAs.FindStringSubmatch(head); sm != nil && !functionWords[sm[1]] {
			if t := nounType(sm[1]); t != "" {
				v[t] += 1.2
			}
		} else if includes.MatchString(head) {
			// "Towns in the zone include X, Y and Z": the kind the
			// sentence's subject names
			if t := subjectKind(head); t != "" {
				v[t] += 1.2
			}
		}
		if nativeOf.MatchString(before) || placeBef2.MatchString(before) {
			v["location"] += 2
		}
		if personBefore.MatchString(before) || personAfter.MatchString(after) {
			v["person"] += 1.5
		}
		if sm := roleOfAfter.FindStringSubmatch(after); sm != nil && classNouns[sm[1]] == "person" {
			v["person"] += 1.5
		}
		if sm := placeNounAfter.FindStringSubmatch(after); sm != nil && nounType(sm[1]) == "location" && classNouns[sm[1]] != "person" && !strings.Contains(text[m.a:m.b], " ") {
			v["location"] += 1
		}
		if honorific.MatchString(before) || personAft.MatchString(after) || personVerb.MatchString(after) {
			v["person"] += 2
		}
		if placePoss.MatchString(after) {
			v["location"] += 1.2
		}
		if orgBy.MatchString(before) {
			v["organization"] += 1.2
		} else if personBy.MatchString(before) {
			v["person"] += 1.5
		}
		// a class noun right before the name, without an article: "guitarist
		// X", "club X", "the Harbour League club X"
		if ws := strings.Fields(before); len(ws) > 0 && !strings.HasSuffix(before, ",") {
			w := ws[len(ws)-1]
			if r, _ := utf8.DecodeRuneInString(w); unicode.IsLower(r) && !functionWords[w] {
				if t, ok := classNouns[w]; ok {
					v[t] += 1.2
				} else if len(w) >= 6 && personNoun(w) {
					v["person"] += 1
				}
			}
		}
		if personPoss.MatchString(after) {
			v["person"] += 1.5
		}
		if orgVerb.MatchString(after) {
			v["organization"] += 1.2
		}
		if orgAft.MatchString(after) {
			v["organization"] += 2
		}
		if orgForm.MatchString(after) {
			v["organization"] += 3
			v["person"] -= 1
		}
		if placeAft.MatchString(after) {
			v["location"] += 1
		}
		if sm := nounOf.FindStringSubmatch(before); sm != nil && !ofBefore.MatchString(before) && nounType(sm[1]) == "location" && classNouns[strings.ToLower(sm[1])] != "person" {
			v["location"] += 1.5
		}
		if sm := nounComma.FindStringSubmatch(before); sm != nil {
			if t, ok := classNouns[sm[1]]; ok {
				v[t] += 1.5
			}
		}
		if lifePlace.MatchString(after) && (strings.HasSuffix(strings.TrimSpace(before), "(") || strings.HasSuffix(strings.TrimSpace(before), "–") || strings.HasSuffix(strings.TrimSpace(before), "-")) {
			v["location"] += 2
		}
		if possessor.MatchString(after) {
			// "outside X's coverage area", "in X's plans": the
			// preposition governs what X has, and says nothing of X
		} else if framed(placeStrong) || framed(ofBefore) {
			v["location"] += 2
		} else if framed(placeBef) && !abbreviation(text[m.a:m.b]) {
			// ("in AOCI", "from CIB": initials after a bare preposition
			// name an account, a segment, a body; places written as
			// initials take the article: "in the UK")
			v["location"] += 0.8
		} else if placeBefThe.MatchString(before) {
			v["location"] += 0.5
		}
		if framed(orgBefore) {
			v["organization"] += 1.5
		}
		if sm := copulaDesc.FindStringSubmatch(after); sm != nil {
			if t := nounType(descNoun(sm[1])); t != "" {
				v[t] += 3 * partyDiscount(sm[0], sm[1])
			}
		} else if sm := appoDesc.FindStringSubmatch(after); sm != nil {
			if t := nounType(descNoun(sm[1])); t != "" {
				v[t] += 2 * partyDiscount(sm[0], sm[1])
			}
		}
		if sm := nounBefore.FindStringSubmatch(before); sm != nil {
			if t, ok := classNouns[sm[2]]; ok {
				v[t] += 2
			}
		}
		if demonym(text[m.a:m.b], after) {
			v["location"] += 2
		} else if l := strings.ToLower(text[m.a:m.b]); !strings.Contains(l, " ") && (strings.HasSuffix(l, "ish") || strings.HasSuffix(l, "ese")) && len(l) > 5 {
			v["location"] += 1 // "Swedish", "Japanese": a people's (or their language's) name
		} else if !strings.ContainsAny(l, " -.") && strings.HasSuffix(l, "ans") && len(l) > 6 && !allCaps(text[m.a:m.b]) {
			v["location"] += 1 // "Russians", "Americans": a people, named for its nation
		}
		if ofPlace.MatchString(before) && !strings.Contains(text[m.a:m.b], " ") && !abbreviation(text[m.a:m.b]) {
			v["location"] += 0.5 // "the capital of X", "the king of X"; not initials ("the use of PFAS")
		}
	}
	// "He"/"She" going on after a sentence that opens with the name
	for k := 1; k < len(sents); k++ {
		if !pronounStart.MatchString(text[sents[k][0]:sents[k][1]]) {
			continue
		}
		for j := k - 1; j >= 0; j-- {
			var in []smention
			for _, m := range ms {
				if m.a >= sents[j][0] && m.b <= sents[j][1] {
					in = append(in, smention{m.entity, m.a - sents[j][0], m.b - sents[j][0]})
				}
			}
			if sub := subjectOf(text[sents[j][0]:sents[j][1]], in); sub >= 0 {
				votes[in[sub].entity]["person"] += 2
				break
			}
			if pronounStart.MatchString(text[sents[j][0]:sents[j][1]]) {
				continue // the same person goes on
			}
			break
		}
	}
	// a surname alone (never with an article): both are a person's
	articled := make([]bool, len(ents))
	for _, m := range ms {
		if theBefore.MatchString(text[max(0, m.a-5):m.a]) {
			articled[m.entity] = true
		}
	}
	ends := nameEnds(ents)
	for i, cd := range ents {
		ws := strings.Fields(cd.name)
		if len(ws) < 2 || len(ws) > 4 || !personShape(strings.Join(ws[max(0, len(ws)-3):], " ")) {
			continue
		}
		if t, sc := votes[i].best(); t != "person" && sc >= 1 {
			continue // "Fennick Fotball was founded": a body, whose first word alone is no first name
		}
		for j, cj := range ents {
			if j != i && !strings.Contains(cj.name, " ") && (cj.name == ws[len(ws)-1] || cj.name == ws[0] && len(ws) == 2) && !articled[j] && !articled[i] && ends[cj.name] == 1 {
				votes[i]["person"] += 2
				votes[j]["person"] += 2
			}
		}
	}
	// a family's name: a word alone that ends several people's names (a
	// father's and his son's), each a person by what the text says of it
	for j, cj := range ents {
		if strings.Contains(cj.name, " ") || articled[j] || ends[cj.name] < 2 || !capitalised(cj.name) {
			continue
		}
		all, n := true, 0
		for i, cd := range ents {
			ws := strings.Fields(cd.name)
			if i == j || len(ws) < 2 || extendsName(cd.name, ents, i) || ws[0] != cj.name && ws[len(ws)-1] != cj.name {
				continue
			}
			n++
			if t, sc := votes[i].best(); ws[len(ws)-1] != cj.name || t != "person" || sc-prior[i]["person"] < 1.5 {
				all = false
				break
			}
		}
		if all && n >= 2 {
			votes[j]["person"] += 1.5
		}
	}
	// "Diocese of X", "University of X": a one-word name after the "of" of
	// another name is a place
	ofName := map[string]bool{}
	for _, cd := range ents {
		if ws := strings.Fields(cd.name); len(ws) >= 3 && ws[len(ws)-2] == "of" {
			ofName[ws[len(ws)-1]] = true
		}
	}
	for i, cd := range ents {
		if ofName[cd.name] {
			votes[i]["location"] += 1
		}
	}
	// a name that opens with a place's name and goes on (a made-up
	// "Brindle Harbour Falcons" after "Brindle Harbour" was named a place;
	// only a place first) names a team, a company, a body: no person
	for i, cd := range ents {
		ws := strings.Fields(cd.name)
		if len(ws) < 2 {
			continue
		}
		for j, cj := range ents {
			if j != i && strings.HasPrefix(cd.name, cj.name+" ") && votes[j]["location"] >= 0.8 {
				if t, _ := votes[j].best(); t == "location" {
					votes[i]["person"] -= 1.5
					votes[i]["organization"] += 0.8
					break
				}
			}
		}
	}
	// "Fennick" after "Fennick Fotball", "Stellan" after "Stellan
	// University": a body's name cut to its first words, which the text
	// says nothing else of, is a short form of it
	for j, cj := range ents {
		if _, sc := votes[j].best(); sc-prior[j]["person"]-prior[j]["organization"] >= 0.8 || cj.priority > 1 {
			continue
		}
		for i, cd := range ents {
			if i == j || !strings.HasPrefix(cd.name, cj.name+" ") {
				continue
			}
			if t, sc := votes[i].best(); t == "organization" && sc-prior[i]["organization"] >= 1.2 {
				votes[j]["organization"] += 1.2
				break
			}
		}
	}
	// "Old Bohumín", "Upper Silesia" after "Bohumín", "Silesia" were
	// named places: a place's name under a word that tells its parts apart
	for i, cd := range ents {
		ws := strings.Fields(cd.name)
		if len(ws) < 2 || !compass[strings.ToLower(ws[0])] && !partWords[strings.ToLower(ws[0])] {
			continue
		}
		rest := strings.Join(ws[1:], " ")
		for j, cj := range ents {
			if j != i && cj.name == rest {
				if t, sc := votes[j].best(); t == "location" && sc >= 0.8 {
					votes[i]["location"] += 1.5
					break
				}
			}
		}
	}
	// coordinated names are of one kind: "in Spain and Italy", "Poland,
	// Hungary or Austria"
	for round := 0; round < 2; round++ {
		for k := 0; k+1 < len(ms); k++ {
			a, b := ms[k], ms[k+1]
			if g := strings.TrimSpace(text[a.b:b.a]); g != "and" && g != "or" && g != ", and" && g != ", or" && g != "," {
				continue
			}
			ta, sa := votes[a.entity].best()
			tb, sb := votes[b.entity].best()
			// a post is said of a name ("the Vice President, Orla Venn"),
			// it is not listed with it
			if sa >= 0.8 && sb < 0.8 && ta != "concept" {
				votes[b.entity][ta] += 0.8
			}
			if sb >= 0.8 && sa < 0.8 && tb != "concept" {
				votes[a.entity][tb] += 0.8
			}
			if round == 0 && strings.TrimSpace(text[a.b:b.a]) == "," && roleName(ents[a.entity].name) {
				votes[b.entity]["person"] += 1.5 // "the Vice President, Orla Venn": the post's holder
			}
		}
	}
	// places listed with commas: "Vancouver, British Columbia, Canada"
	for round := 0; round < 2; round++ {
		for k := 0; k+1 < len(ms); k++ {
			a, b := ms[k], ms[k+1]
			if strings.TrimSpace(text[a.b:b.a]) != "," {
				continue
			}
			ta, sa := votes[a.entity].best()
			tb, sb := votes[b.entity].best()
			if ta == "location" && sa >= 0.8 && votes[b.entity]["location"] < 1 {
				votes[b.entity]["location"] += 1.5
			}
			if tb == "location" && sb >= 0.8 && votes[a.entity]["location"] < 1 {
				votes[a.entity]["location"] += 1.5
			}
		}
	}
	out := make([]string, len(ents))
	weight := make([]float64, len(ents))
	for i, cd := range ents {
		t, s := votes[i].best()
		switch {
		case pluralInitials(cd.name):
			// "RSUs", "VIEs": initials made plural name a kind of thing
			out[i], weight[i] = "concept", 1
		case s >= 0.5:
			// the evidence of the text, and a tenth of the name's shape
			out[i], weight[i] = t, max(min(s-0.9*prior[i][t], maxTypeWeight), 0.05)
		case cd.typ != "" && cd.priority < 2:
			out[i], weight[i] = cd.typ, 0.25
		default:
			out[i] = "other"
		}
	}
	return out, weight
}

// pluralInitials reports whether a name is initials made plural with a
// lower-case "s" ("RSUs", "NGOs", "PRSUs"): a kind of thing, never one
// person, place or body.
func pluralInitials(name string) bool {
	stem, ok := strings.CutSuffix(name, "s")
	return ok && abbreviation(stem)
}

// maxTypeWeight caps the weight of one chunk's vote for a name's type:
// a chunk that says much of a name does not outvote many that say a little.
// A vote resting on the name's shape alone weighs a tenth of its score, so
// that one passage saying what a name is outweighs many that only write it.
const maxTypeWeight = 6.0

// includes ends the words before a list the sentence's subject is said
// to include.
var includes = regexp.MustCompile(`\b(?:include|includes|included|comprise|comprises|comprised)\s+(?:the\s+)?$`)

// subjectKind is the kind of thing the first plural class noun of a
// sentence's opening words names ("Towns and cities in this zone
// include"), or "".
func subjectKind(before string) string {
	for _, w := range strings.Fields(before) {
		lw := strings.ToLower(strings.Trim(w, ",;:"))
		if includes.MatchString(lw + " ") {
			break
		}
		if !strings.HasSuffix(lw, "s") && irregularPlurals[lw] == "" {
			continue
		}
		if t := nounType(lw); t != "" && classNouns[lw] == "" {
			return t
		}
	}
	return ""
}

// listItem is one earlier item of a list of names, with its comma or
// "and": "76ers, ", "Wexley Owls and ", "Brugg an der Aare, ", and with a
// name in brackets after it: "Kingsport (Portrigh) and ".
var listItem = regexp.MustCompile(`(?:^|\s)(?:\p{Lu}[\p{L}\d.'’&-]*|\d+\p{L}[\p{L}\d.'’&-]*)(?:\s+(?:\p{Lu}[\p{L}\d.'’&-]*|\d+\p{L}[\p{L}\d.'’&-]*|of|de|the|an|der|am|im|la|le|du|des|del|di|da|van|von))*(?:\s+\([^()]{1,40}\))?,?\s+(?:and\s+|or\s+)?$`)

// listHead is the text before a name with the earlier names of the list
// it is in taken off (at most eight), so the words before the list's
// first name are read as what is said of every name in it. Text not
// ending in a list comes back as it is.
func listHead(before string) string {
	out := before
	for k := 0; k < 8; k++ {
		t := strings.TrimRight(out, " ")
		if !strings.HasSuffix(t, ",") && !strings.HasSuffix(t, " and") && !strings.HasSuffix(t, " or") {
			break
		}
		loc := listItem.FindStringIndex(out)
		if loc == nil {
			break
		}
		if strings.HasPrefix(out[loc[0]:], " ") {
			loc[0]++ // the space before the item stays
		}
		out = out[:loc[0]]
	}
	return out
}

// nameEnds counts, for each word, the distinct longer names of the chunk
// that end (or start) with it: "South Gondar" and "North Gondar" share no
// surname. Variants of one name ("Henrik Angell", "Henrik August Angell":
// the same first and last word) count once, and a name that only goes on
// from another ("Jeff Healey's Roadhouse" after "Jeff Healey") not at all.
func nameEnds(ents []candidate) map[string]int {
	ends := map[string]int{}
	seen := map[[2]string]bool{}
	for i, cd := range ents {
		ws := strings.Fields(cd.name)
		if len(ws) < 2 || extendsName(cd.name, ents, i) {
			continue
		}
		key := [2]string{ws[0], ws[len(ws)-1]}
		if seen[key] {
			continue
		}
		seen[key] = true
		ends[ws[len(ws)-1]]++
		if ws[0] != ws[len(ws)-1] {
			ends[ws[0]]++
		}
	}
	return ends
}

// extendsName says name goes on from another name of ents (not ents[self])
// of two words or more: "Jeff Healey's Roadhouse", "Jeff Healey Band".
func extendsName(name string, ents []candidate, self int) bool {
	for j, cj := range ents {
		if j == self || !strings.Contains(cj.name, " ") || len(cj.name) >= len(name) || !strings.HasPrefix(name, cj.name) {
			continue
		}
		if rest := name[len(cj.name):]; strings.HasPrefix(rest, " ") || strings.HasPrefix(rest, "'s ") || strings.HasPrefix(rest, "’s ") {
			return true
		}
	}
	return false
}

// nameVariants says two names of two words or more are one name written
// in full and shorter: the same first and last word ("Henrik August
// Angell", "Henrik Angell").
func nameVariants(a, b string) bool {
	wa, wb := strings.Fields(a), strings.Fields(b)
	return len(wa) >= 2 && len(wb) >= 2 && wa[0] == wb[0] && wa[len(wa)-1] == wb[len(wb)-1]
}

// shortForms maps a one-word entity to the longer entity of the chunk it
// is a short form of: a person's surname ("Gibson" for "Duff Gibson"). A
// word that could shorten two names shortens none, but it is still a
// person's name: shared lists those words ("Ham" after "Pete Ham" and
// "Peter William Ham"). (Other short forms, "the Gazette" for "the Evening
// Gazette", stay entities of their own: merging two things is worse than
// keeping one twice.)
func shortForms(text string, ents []candidate, types []string, ms []mention) (out map[int]int, shared []int) {
	articled := make([]bool, len(ents))
	for _, m := range ms {
		if theBefore.MatchString(text[max(0, m.a-5):m.a]) {
			articled[m.entity] = true
		}
	}
	out = map[int]int{}
	ambiguous := map[int]bool{}
	for i, cd := range ents {
		ws := strings.Fields(cd.name)
		if len(ws) < 2 || len(ws) > 5 || cd.priority == 1 {
			continue
		}
		for j, cj := range ents {
			if j == i || strings.Contains(cj.name, " ") || cj.typed {
				continue
			}
			if !(types[i] == "person" && types[j] != "location" && !articled[j] && cj.name == ws[len(ws)-1]) {
				continue
			}
			if t, seen := out[j]; seen && t != i {
				if !nameVariants(ents[t].name, cd.name) {
					ambiguous[j] = true
					shared = append(shared, j)
				} else if ents[t].priority <= cd.priority {
					continue // the text's own writing of the name, before a title's
				}
			}
			out[j] = i
		}
	}
	// the document's own definitions: "Internal Revenue Service (IRS)"
	// makes "IRS" a short form of the name it abbreviates
	for i, cd := range ents {
		for _, a := range cd.aliases {
			if !definedAbbreviation(cd.name, a) {
				continue
			}
			for j, cj := range ents {
				if j == i || cj.typed || cj.priority > 0 || kb.NormKey(cj.name) != kb.NormKey(a) {
					continue
				}
				if t, seen := out[j]; seen && t != i {
					ambiguous[j] = true
				}
				out[j] = i
			}
		}
	}
	for j := range ambiguous {
		delete(out, j)
	}
	return out, shared
}

// definedAbbreviation says abbr (from "name (abbr)") abbreviates name: all
// capitals, its first letter the name's, and no longer than the name's
// words allow ("Digital Millennium Copyright Act (DMCA)", not "Janne
// Johnsen (Conservative Party)").
func definedAbbreviation(name, abbr string) bool {
	a := strings.ReplaceAll(abbr, ".", "")
	ws := strings.Fields(name)
	if len(ws) < 2 || !abbreviation(a) || utf8.RuneCountInString(a) > 2*len(ws) {
		return false
	}
	r1, _ := utf8.DecodeRuneInString(a)
	r2, _ := utf8.DecodeRuneInString(name)
	return unicode.ToUpper(r2) == r1
}

// indefinite says every mention of an entity follows "a" or "an": a
// capitalised common noun ("was a Producer"), not a name. A people's
// adjective ("a German racer") is not one.
func indefinite(text string, ms []mention, n int) []bool {
	seen, all := make([]bool, n), make([]bool, n)
	for i := range all {
		all[i] = true
	}
	for _, m := range ms {
		seen[m.entity] = true
		if !aBefore.MatchString(text[max(0, m.a-4):m.a]) || demonym(text[m.a:m.b], text[m.b:min(len(text), m.b+30)]) {
			all[m.entity] = false
		}
	}
	for i := range all {
		all[i] = all[i] && seen[i]
	}
	return all
}

var aBefore = regexp.MustCompile(`(?:^|\s)[Aa]n?\s+$`)
