package extract

import (
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"cairn/backend/chunk"
	"cairn/backend/kb"
	"cairn/backend/relphrase"
)

// Limits of the offline extractor per chunk.
const (
	maxSpanTokens      = 6  // longest capitalised span
	maxMentionsPerName = 5  // mentions recorded per entity and chunk
	maxFactsPerChunk   = 5  // salient sentences kept as facts
	maxCJKPhrases      = 10 // CJK key phrases per chunk
	maxRelPerSentence  = 12 // co-occurrences per sentence
	// stated relations per sentence: a lead sentence may state a dozen
	// names of its subject
	maxStatedPerSentence = 24
)

type token struct {
	a, b int // byte span in the chunk text
	text string
}

// tokens are the words of s (letters, digits, marks, with inner ' - . &).
func tokens(s string) []token {
	var out []token
	start := -1
	for i, r := range s {
		w := isWordRune(r) && !isCJK(r)
		inner := start >= 0 && (r == '\'' || r == '’' || r == '-' || r == '.' || r == '&') && i+utf8.RuneLen(r) < len(s)
		if inner {
			next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
			inner = isWordRune(next) && !isCJK(next)
		}
		switch {
		case w || inner:
			if start < 0 {
				start = i
			}
		default:
			if start >= 0 {
				end := i
				if r == '.' && initialism(s[start:i]) {
					end++ // "U.S." keeps its last period, which may end the sentence too
				}
				out = append(out, token{start, end, s[start:end]})
				start = -1
			}
		}
	}
	if start >= 0 {
		out = append(out, token{start, len(s), s[start:]})
	}
	return out
}

// initialism reports whether a word is single letters joined by periods,
// its last period not yet read ("U.S", "N.A", "e.g").
func initialism(w string) bool {
	n := 0
	for i, r := range w {
		if i%2 == 0 && !unicode.IsLetter(r) || i%2 == 1 && r != '.' || r >= utf8.RuneSelf {
			return false
		}
		n++
	}
	return n >= 3 && n%2 == 1
}

func capitalised(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r) || unicode.IsTitle(r)
}

func allCaps(w string) bool {
	n := 0
	for _, r := range w {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n > 0
}

func onlySpace(s string) bool {
	return strings.TrimSpace(s) == "" && !strings.Contains(s, "\n\n") && !strings.Contains(s, kb.PageSeparator)
}

type candidate struct {
	name         string
	typ, sem     string
	priority     int // title 3, file name 2, heading 1, span 0
	aliases      []string
	concepts     []string
	sentenceHead bool
	typed        bool // found by a typed pattern (a date, amount, section ...)
	a, b         int  // a typed span's bytes in the chunk text
	// commonTail: the name's last word is a common word of the document
	// (written in lower case there: "Consolidated Balance Sheets"), so its
	// shape alone says nothing of a person
	commonTail bool
}

// capitalisedSpans finds name candidates in one sentence.
func capitalisedSpans(text string, sent [2]int, lower lowerWords) []candidate {
	s := text[sent[0]:sent[1]]
	toks := tokens(s)
	var out []candidate
	for i := 0; i < len(toks); {
		if !capitalised(toks[i].text) {
			i++
			continue
		}
		// the name ends a list of names ("Alby, Cove and Hesk"): "and"
		// starts the next name, not a part of this one
		inList := i > 0 && capitalised(toks[i-1].text) && strings.TrimSpace(s[toks[i-1].b:toks[i].a]) == ","
		j := i + 1
		for j < len(toks) && j-i < maxSpanTokens+2 {
			gap := s[toks[j-1].b:toks[j].a]
			if !onlySpace(gap) && !(initial(toks[j-1].text) && strings.HasPrefix(gap, ".") && onlySpace(gap[1:]) && capitalised(toks[j].text)) {
				break // an initial's period goes on to the name: "E. D. Marrow"
			}
			if capitalised(toks[j].text) {
				j++
				continue
			}
			if toks[j].text == "and" && (listOfNames(toks[i:j], toks[j+1:]) || inList) {
				break // "Doc Pomus and Mort Shuman": two names
			}
			if connectors[strings.ToLower(toks[j].text)] && j+1 < len(toks) && capitalised(toks[j+1].text) && onlySpace(s[toks[j].b:toks[j+1].a]) {
				j += 2
				continue
			}
			break
		}
		run := toks[i:j]
		head := i == 0 || lineStart(s, toks[i].a)
		i = j
		for len(run) > 0 && (leadStop[strings.ToLower(run[0].text)] || connectors[run[0].text]) {
			if (run[0].text == "New" || !head && ordinalLead[run[0].text]) && len(run) > 1 && (!head || !lower.has(strings.ToLower(run[1].text))) {
				break // "New Kestria", "the Second Varn War": a name that opens with "New" or an ordinal, unless a sentence opens with "New rules"
			}
			run = run[1:] // "Table of Contents" → not "of Contents"
			head = false
		}
		for len(run) > 0 && connectors[strings.ToLower(run[len(run)-1].text)] {
			run = run[:len(run)-1]
		}
		if len(run) == 0 || len(run) > maxSpanTokens {
			continue
		}
		caps := true
		for _, t := range run {
			caps = caps && allCaps(t.text)
		}
		if caps && len(run) > 3 {
			continue // a heading or a shouted line, not a name
		}
		name := s[run[0].a:run[len(run)-1].b]
		for _, ps := range possessiveEndings {
			if strings.HasSuffix(name, ps) && len(name) > len(ps)+1 {
				name = name[:len(name)-len(ps)] // "Company’s": the possessor is the name
				run[len(run)-1].text = strings.TrimSuffix(run[len(run)-1].text, ps)
				run[len(run)-1].b -= len(ps)
				break
			}
		}
		if len(run) == 1 {
			w := run[0].text
			lw := strings.ToLower(w)
			if utf8.RuneCountInString(w) < 2 || leadStop[lw] || (head && lower.has(lw)) || (head && !allCaps(w) && lower.has(lw)) {
				continue
			}
			if !allCaps(w) && lower.has(lw) {
				continue // a common word capitalised for emphasis or at a line start
			}
			if head && !allCaps(w) && !lower.has("\x00"+w) {
				continue // a capitalised word only ever at a line's start ("Investigate", "Generating"): a list item, not a name
			}
			if isNumberLike(w) || typeWords[lw] || documentParts[lw] {
				continue // "Exhibit 10.1", "Article 5": a part of the document, no entity
			}
		}
		typ, sem := classify(name)
		if typ == "other" && len(run) == 1 && abbreviation(run[0].text) {
			typ, sem = "abbreviation", "abbreviation" // "IRS", "RDF": what it abbreviates is not known here
		}
		c := candidate{name: name, typ: typ, sem: sem, sentenceHead: head}
		// "Internal Revenue Service (IRS)", "北京 (Beijing)": the bracket names an alias
		// when it abbreviates the name or writes it in another script;
		// "Janne Johnsen (Conservative Party)", "Bergen (Norway)" say
		// something else of the name
		rest := s[run[len(run)-1].b:]
		if a := bracketAlias(rest); a != "" && (definedAbbreviation(name, a) || otherScript(name, a)) {
			c.aliases = append(c.aliases, a)
		}
		out = append(out, c)
	}
	return out
}

// initial says a token is one capital letter: a name's initial before its
// period.
func initial(w string) bool {
	r, n := utf8.DecodeRuneInString(w)
	return n == len(w) && unicode.IsUpper(r)
}

// listOfNames says "and" between left and what follows joins two names
// rather than making one ("Norm Barker and Richard Uglow", not "Bank of
// Research and Development"): two capitalised words on each side, none of
// them a connector.
func listOfNames(left, right []token) bool {
	if len(left) < 2 || len(right) < 2 || !capitalised(right[0].text) || !capitalised(right[1].text) {
		return false
	}
	for _, t := range left {
		if connectors[strings.ToLower(t.text)] {
			return false
		}
	}
	return true
}

func isNumberLike(w string) bool {
	for _, r := range w {
		if unicode.IsLetter(r) && !strings.ContainsRune("IVXLCDM", r) {
			return false
		}
	}
	return true
}

// bracketAlias returns X when s starts with " (X)" and X is a short name.
// otherScript says a and b are written in different scripts (one with CJK
// characters, the other without).
func otherScript(a, b string) bool {
	has := func(s string) bool {
		for _, r := range s {
			if isCJK(r) {
				return true
			}
		}
		return false
	}
	return has(a) != has(b)
}

func bracketAlias(s string) string {
	t := strings.TrimLeft(s, " ")
	var open, close string
	switch {
	case strings.HasPrefix(t, "("):
		open, close = "(", ")"
	case strings.HasPrefix(t, "（"):
		open, close = "（", "）"
	default:
		return ""
	}
	t = t[len(open):]
	end := strings.Index(t, close)
	if end <= 0 {
		return ""
	}
	a := strings.TrimSpace(t[:end])
	if n := len(strings.Fields(a)); n == 0 || n > 5 || utf8.RuneCountInString(a) > 60 || isNumberLike(a) {
		return ""
	}
	if r, _ := utf8.DecodeRuneInString(a); !(unicode.IsUpper(r) || isCJK(r)) {
		return ""
	}
	return a
}

// classify gives a coarse and a semantic type from the words of a name.
func classify(name string) (string, string) {
	ws := strings.Fields(strings.ToLower(name))
	if len(ws) == 0 {
		return "other", ""
	}
	last, first := strings.Trim(ws[len(ws)-1], ".,"), strings.Trim(ws[0], ".,")
	// "Circuit Court of Cook County", "University of Toronto": the head
	// noun stands before the first "of" and decides over the last word
	for k := 1; k+1 < len(ws); k++ {
		if ws[k] != "of" {
			continue
		}
		head := strings.Trim(ws[k-1], ".,")
		for _, r := range typeRules {
			for _, w := range r.words {
				if head == w && !r.first {
					return r.typ, w
				}
			}
		}
		break
	}
	for _, r := range typeRules {
		for _, w := range r.words {
			if last == w || (r.first && first == w) || (r.typ == "location" && first == w && len(ws) > 1) {
				return r.typ, w
			}
		}
	}
	return "other", ""
}

// cjkPhrases returns key phrases of the CJK runs of text: n-grams (2–4
// characters) seen at least twice in the chunk, maximal (not inside a longer
// phrase seen as often), not starting or ending with a function character;
// plus anything in title brackets 《》「」.
func cjkPhrases(text string) []candidate {
	var out []candidate
	seen := map[string]bool{}
	for _, br := range [][2]string{{"《", "》"}, {"「", "」"}, {"『", "』"}} {
		for rest := text; ; {
			a := strings.Index(rest, br[0])
			if a < 0 {
				break
			}
			rest = rest[a+len(br[0]):]
			b := strings.Index(rest, br[1])
			if b < 0 {
				break
			}
			in := strings.TrimSpace(rest[:b])
			if n := utf8.RuneCountInString(in); n >= 2 && n <= 30 && !seen[in] && !strings.Contains(in, "\n") {
				seen[in] = true
				out = append(out, candidate{name: in, typ: "work", sem: "title"})
			}
			rest = rest[b:]
		}
	}
	// accessor variety: a string is a word candidate when it occurs at least
	// twice and is preceded and followed by at least two different
	// characters (a run boundary counts as a new one each time)
	count := map[string]int{}
	left := map[string]map[rune]bool{}
	right := map[string]map[rune]bool{}
	var runs [][]rune
	var cur []rune
	for _, r := range text {
		if unicode.Is(unicode.Han, r) || unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			cur = append(cur, r)
			continue
		}
		if len(cur) > 1 {
			runs = append(runs, cur)
		}
		cur = nil
	}
	if len(cur) > 1 {
		runs = append(runs, cur)
	}
	boundary := rune(-1)
	for _, run := range runs {
		for n := 2; n <= 4; n++ {
			for i := 0; i+n <= len(run); i++ {
				g := run[i : i+n]
				if strings.ContainsRune(cjkStop, g[0]) || strings.ContainsRune(cjkStop, g[n-1]) {
					continue
				}
				k := string(g)
				count[k]++
				if left[k] == nil {
					left[k], right[k] = map[rune]bool{}, map[rune]bool{}
				}
				if i > 0 {
					left[k][run[i-1]] = true
				} else {
					left[k][boundary] = true
					boundary--
				}
				if i+n < len(run) {
					right[k][run[i+n]] = true
				} else {
					right[k][boundary] = true
					boundary--
				}
			}
		}
	}
	for k := range count {
		if len(left[k]) < 2 || len(right[k]) < 2 {
			delete(count, k)
		}
	}
	type ph struct {
		s string
		n int
	}
	var phs []ph
	for g, n := range count {
		if n < 2 {
			continue
		}
		maximal := true
		for g2, n2 := range count {
			if n2 == n && len(g2) > len(g) && strings.Contains(g2, g) {
				maximal = false
				break
			}
		}
		if maximal {
			phs = append(phs, ph{g, n})
		}
	}
	sort.Slice(phs, func(i, j int) bool {
		si, sj := phs[i].n*utf8.RuneCountInString(phs[i].s), phs[j].n*utf8.RuneCountInString(phs[j].s)
		if si != sj {
			return si > sj
		}
		return phs[i].s < phs[j].s
	})
	for _, p := range phs {
		if len(out) >= maxCJKPhrases {
			break
		}
		if !seen[p.s] {
			seen[p.s] = true
			out = append(out, candidate{name: p.s, typ: "concept", sem: "keyphrase"})
		}
	}
	return out
}

type mention struct {
	entity int
	a, b   int // in chunk text
}

var pageHeaderRe = regexp.MustCompile(`(?i)^(page|seite|página|p\.)\s*\d|\d{1,2}:\d{2}|^\d+$`)

// headingLike rejects running headers and footers that the chunker took
// for headings ("Page 13 of 48 Instructions for Form 1040NR 7:48 - ...").
// titleLine is a chunk's first line when it reads as a title: a line of
// its own, one to ten words opening and ending with a capitalised word (a
// bracketed qualifier aside, which is left out: "(film)"), no verb, no
// sentence end. "" otherwise.
func titleLine(text string) string {
	k := strings.Index(text, "\n")
	if k <= 0 {
		return ""
	}
	t := strings.TrimSpace(text[:k])
	if i := strings.LastIndex(t, " ("); i > 0 && strings.HasSuffix(t, ")") {
		t = strings.TrimSpace(t[:i])
	}
	ws := strings.Fields(t)
	r, _ := utf8.DecodeRuneInString(t)
	if len(ws) == 0 || len(ws) > 10 || utf8.RuneCountInString(t) > 80 || !unicode.IsUpper(r) || !capitalised(ws[len(ws)-1]) ||
		strings.ContainsAny(t[len(t)-1:], ".,:;?!-") || !headingLike(t) || statesSomething(t) {
		return ""
	}
	return t
}

func headingLike(h string) bool {
	if pageHeaderRe.MatchString(h) {
		return false
	}
	letters, digits := 0, 0
	for _, r := range h {
		if unicode.IsLetter(r) {
			letters++
		} else if unicode.IsDigit(r) {
			digits++
		}
	}
	return letters > 0 && digits*4 <= letters
}

// valueTypes are the typed spans that are values (facts of the entities
// they qualify), never entities.
var valueTypes = map[string]bool{"date": true, "money": true, "percent": true, "quantity": true}

// quotedCommonWord reports whether a quoted title is one word that the
// chunk or its document also writes in lower case: a common noun made a
// defined term ("X9 Company (the “Company”)", the “Plan”, the “Notes”)
// or set in quotes for emphasis, not the title of a work. Initials
// ("“AAA”") are kept.
func quotedCommonWord(name string, lower lowerWords) bool {
	return !strings.ContainsAny(name, " \t\n") && !allCaps(name) && lower.has(strings.ToLower(name))
}

// lowerWords are the words a chunk and its document write in lower case
// (LowerWords), and, under "\x00"+word, the chunk's capitalised words
// inside its sentences. The document's set is looked up, not copied into
// each chunk's: a long report's set copied per passage cost a quarter of
// the offline extraction.
type lowerWords struct{ chunk, doc map[string]bool }

func (l lowerWords) has(w string) bool { return l.chunk[w] || l.doc[w] }

// ExtractOffline is the deterministic extractor.
func ExtractOffline(in Input) Result {
	c := in.Chunk
	text := c.Text
	r := Result{Extractor: Offline, Entities: []Entity{}, Relations: []Relation{}, Facts: []kb.Fact{}}
	f := fold(text)
	lower := lowerWords{chunk: LowerWords(text), doc: in.DocLower} // words seen in lower case in this chunk, and its document
	sents := chunk.Sentences(text)
	// Capitalised words seen inside a sentence, not at its or a line's
	// start, are kept under "\x00"+word: only those may be one-word names
	// at a line's start.
	for _, sp := range sents {
		st := text[sp[0]:sp[1]]
		for k, t := range tokens(st) {
			if k > 0 && capitalised(t.text) && !lineStart(st, t.a) {
				lower.chunk["\x00"+t.text] = true
			}
		}
	}

	var cands, vals []candidate
	if t := strings.TrimSpace(in.DocTitle); t != "" && utf8.RuneCountInString(t) <= 120 {
		cands = append(cands, candidate{name: t, typ: "work", sem: "document", priority: 3})
	}
	if fn := strings.TrimSpace(strings.TrimSuffix(filepath.Base(in.FileName), filepath.Ext(in.FileName))); fn != "" {
		fn = strings.Join(strings.FieldsFunc(fn, func(r rune) bool { return r == '_' || r == '-' || unicode.IsSpace(r) }), " ")
		cands = append(cands, candidate{name: fn, typ: "work", sem: "document", priority: 2})
	}
	if t := titleLine(text); c.Ordinal == 0 && t != "" && len(findAll(text, f, t, 0)) >= 2 {
		// the document's title line, when the text names it again ("Harrow
		// Lane (film)" over "Harrow Lane is a 1994 film …"), is a name, typed by the text like any other
		cands = append(cands, candidate{name: t})
	}
	for _, h := range c.HeadingPath {
		h = kb.OneLine(h)
		if n := len(strings.Fields(h)); n > 0 && n <= 12 && utf8.RuneCountInString(h) <= 80 && headingLike(h) {
			cands = append(cands, candidate{name: h, typ: "concept", sem: "topic", priority: 1})
		}
	}
	for _, s := range sents {
		for _, v := range typedSpans(text, s) {
			if valueTypes[v.typ] {
				vals = append(vals, v) // a date, an amount, a share or a quantity is a fact, not a node
				continue
			}
			if v.sem == "title" && quotedCommonWord(v.name, lower) {
				continue
			}
			cands = append(cands, v)
		}
		cands = append(cands, capitalisedSpans(text, s, lower)...)
	}
	cands = append(cands, cjkPhrases(text)...)

	// one entity per normalised name; the highest-priority candidate names it
	byKey := map[string]int{}
	var ents []candidate
	for _, cd := range cands {
		k := kb.NormKey(cd.name)
		if k == "" || isNumberLike(k) && !cd.typed {
			continue
		}
		if i, ok := byKey[k]; ok {
			if cd.priority > ents[i].priority {
				cd.aliases = append(cd.aliases, ents[i].aliases...)
				ents[i] = cd
			} else {
				ents[i].aliases = append(ents[i].aliases, cd.aliases...)
			}
			continue
		}
		byKey[k] = len(ents)
		ents = append(ents, cd)
	}

	// mentions: every occurrence, longest names first claim their bytes
	order := make([]int, len(ents))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(ents[order[a]].name) > len(ents[order[b]].name) })
	claimed := make([]bool, len(text)+1)
	var ms, over []mention
	for _, i := range order {
		n := 0
		for _, sp := range findAll(text, f, ents[i].name, 0) {
			free := true
			for k := sp[0]; k < sp[1]; k++ {
				if claimed[k] {
					free = false
					break
				}
			}
			if !free {
				continue
			}
			for k := sp[0]; k < sp[1]; k++ {
				claimed[k] = true
			}
			if n < maxMentionsPerName {
				ms = append(ms, mention{i, sp[0], sp[1]})
			} else {
				over = append(over, mention{i, sp[0], sp[1]}) // not recorded, but its sentence may state a relation
			}
			n++
		}
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].a < ms[j].a })
	for i := range ents {
		if ws := strings.Fields(ents[i].name); len(ws) >= 2 {
			ents[i].commonTail = lower.has(strings.ToLower(ws[len(ws)-1]))
		}
	}
	types, weights := inferTypes(text, sents, ents, ms)
	// a surname alone whose full name another passage of the document
	// writes ("Ham" after "Peter William Ham" a page before)
	for i, cd := range ents {
		if types[i] != "other" || cd.priority > 0 || strings.Contains(cd.name, " ") || in.DocSurnames[cd.name] != 1 {
			continue
		}
		inChunk := false
		for _, cj := range ents {
			if strings.HasSuffix(cj.name, " "+cd.name) {
				inChunk = true // the chunk's own names decided already
				break
			}
		}
		if !inChunk {
			types[i], weights[i] = "person", 0.5
		}
	}
	// short forms become mentions of the name they shorten; capitalised
	// common nouns ("a Producer") are no entities
	short, sharedSurnames := shortForms(text, ents, types, ms)
	for _, j := range sharedSurnames {
		if types[j] == "other" {
			types[j], weights[j] = "person", 0.5
		}
	}
	generic := indefinite(text, ms, len(ents))
	for i, cd := range ents {
		if cd.priority == 0 && roleName(cd.name) && !strings.Contains(cd.name, " of ") {
			generic[i] = true // "Vice President", "Chief Executive Officer": a post anyone may hold, no name
		}
	}
	for j, i := range short {
		ents[i].aliases = append(ents[i].aliases, ents[j].name)
	}
	kept := ms[:0]
	for _, m := range ms {
		if t, ok := short[m.entity]; ok {
			m.entity = t
		}
		if !generic[m.entity] || ents[m.entity].priority > 0 {
			kept = append(kept, m)
		}
	}
	ms = kept
	// every occurrence, the unrecorded ones too, for the sentences' relations
	all := append([]mention(nil), ms...)
	for _, m := range over {
		if t, ok := short[m.entity]; ok {
			m.entity = t
		}
		if !generic[m.entity] || ents[m.entity].priority > 0 {
			all = append(all, m)
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].a < all[j].a })
	// number entities in order of first mention
	idx := map[int]int{}
	for _, m := range ms {
		if _, ok := idx[m.entity]; ok {
			continue
		}
		cd := ents[m.entity]
		idx[m.entity] = len(r.Entities)
		name := text[m.a:m.b]
		if kb.NormKey(name) != kb.NormKey(cd.name) {
			name = cd.name // a short form came first: the entity keeps its full name
		}
		e := Entity{Name: name, Type: types[m.entity], TypeWeight: weights[m.entity], SemanticType: cd.sem, Aliases: dedupe(cd.aliases, cd.name)}
		if cd.sem != "" && cd.sem != "document" && cd.sem != "keyphrase" && cd.sem != "title" {
			e.Concepts = []string{cd.sem, e.Type}
		}
		r.Entities = append(r.Entities, e)
	}
	for _, m := range ms {
		e := &r.Entities[idx[m.entity]]
		e.Mentions = append(e.Mentions, source(c, m.a, m.b))
	}

	// relations and facts, sentence by sentence
	type scored struct {
		s     [2]int
		score int
	}
	var salient []scored
	topic := -1 // the entity the text is about: a sentence opening with "He" or "It" states about it
	leadDone, docTopic := c.Ordinal > 0, -1
	for si, s := range sents {
		var in []mention
		for _, m := range all {
			if m.a >= s[0] && m.b <= s[1] {
				in = append(in, m)
			}
		}
		distinct := map[int]bool{}
		for _, m := range in {
			distinct[m.entity] = true
		}
		sin := make([]smention, len(in))
		for k, m := range in {
			sin[k] = smention{m.entity, m.a - s[0], m.b - s[0]}
		}
		// the lead: the document's first sentence that opens with a name
		// and states something of it (a verb), among its first three
		lead := !leadDone && si < 3 && len(distinct) > 1 && statesSomething(text[s[0]:s[1]])
		if lead || si >= 2 {
			leadDone = true
		}
		t := topic
		if docTopic >= 0 {
			t = docTopic
		}
		st, subj := sentenceRelations(text[s[0]:s[1]], sin, t, lead, func(e int) bool { return types[e] == "location" })
		attachValues(&r, c, vals, s, in, subj, idx)
		if subj >= 0 {
			topic = subj
			if lead {
				docTopic = subj // the lead's subject is what the document's "it" and "the film" are about
			}
		}
		linked := map[[2]int]bool{}
		for _, x := range st {
			if len(linked) >= maxStatedPerSentence {
				break
			}
			linked[[2]int{min(x.subj, x.obj), max(x.subj, x.obj)}] = true
			r.Relations = append(r.Relations, Relation{Subject: idx[x.subj], Object: idx[x.obj], Predicate: x.pred,
				Statement: kb.OneLine(text[s[0]:s[1]]), Confidence: x.conf, Source: source(c, s[0], s[1])})
		}
		// neighbours the sentence states nothing between: co-occurrence, a
		// retrieval signal (not exported or drawn as a relation unless asked for)
		nco := 0
		for k := 0; k+1 < len(in) && nco < maxRelPerSentence; k++ {
			a, b := in[k], in[k+1]
			if a.entity == b.entity || linked[[2]int{min(a.entity, b.entity), max(a.entity, b.entity)}] {
				continue
			}
			r.Relations = append(r.Relations, Relation{Subject: idx[a.entity], Object: idx[b.entity], Predicate: relphrase.CoOccurs,
				Statement: kb.OneLine(text[s[0]:s[1]]), Confidence: 0.3, Source: source(c, s[0], s[1])})
			nco++
		}
		if len(distinct) > 0 && factLike(text[s[0]:s[1]]) {
			salient = append(salient, scored{s, len(distinct)})
		}
	}
	sort.SliceStable(salient, func(i, j int) bool { return salient[i].score > salient[j].score })
	if len(salient) > maxFactsPerChunk {
		salient = salient[:maxFactsPerChunk]
	}
	sort.Slice(salient, func(i, j int) bool { return salient[i].s[0] < salient[j].s[0] })
	for i, s := range salient {
		r.Facts = append(r.Facts, kb.Fact{Ordinal: i, Text: kb.OneLine(text[s.s[0]:s.s[1]]), Source: source(c, s.s[0], s.s[1])})
	}
	r.setStatus("no names, key phrases or salient sentences found")
	return r
}

func dedupe(xs []string, name string) []string {
	key := kb.NormKey(name)
	seen := map[string]bool{key: true}
	var out []string
	for _, x := range xs {
		k := kb.NormKey(x)
		if k != "" && !seen[k] {
			seen[k] = true
			out = append(out, x)
		}
	}
	return out
}

// factLike says whether a sentence can stand as a fact: long enough, not a
// heading line, not mostly numbers.
func factLike(s string) bool {
	ws := strings.Fields(s)
	cjk := 0
	letters, digits := 0, 0
	for _, r := range s {
		if isCJK(r) {
			cjk++
		}
		if unicode.IsLetter(r) {
			letters++
		} else if unicode.IsDigit(r) {
			digits++
		}
	}
	if cjk >= 12 {
		return digits*2 < letters
	}
	return len(ws) >= 6 && len(ws) <= 80 && digits*3 < letters
}

// lineStart says the text before byte a of s, back to the last line break,
// holds no word (a list item, a wrapped heading, a table cell).
func lineStart(s string, a int) bool {
	before := s[:a]
	if k := strings.LastIndex(before, "\n"); k >= 0 {
		before = before[k+1:]
	} else {
		return false
	}
	return strings.IndexFunc(before, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0
}

// abbreviation says w is an all-capital abbreviation of 2-6 letters.
func abbreviation(w string) bool {
	n := 0
	for _, r := range w {
		if !unicode.IsUpper(r) {
			return false
		}
		n++
	}
	return n >= 2 && n <= 6
}
