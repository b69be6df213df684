// Package route sends a question that names a document to it: by the
// organisation, title words or file name that tell the document apart in
// its library, narrowed by the period the question names ("FY2018",
// "2022", "Q2 2023") against the document's own period. A question that
// names no document is not routed, nor one in a library where its words do
// not single out a few documents.
//
// Only documents of more than one passage are routed to: a one-passage
// document's title is already part of its passage's index (the multi-hop
// evaluation sets are of that shape, one short passage per title).
package route

import (
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"cairn/backend/identity"
	"cairn/backend/question"
)

// Doc is what routing knows of one document.
type Doc struct {
	ID                                   int64
	Title, Organisation, DocType, Period string
	FileName                             string
	Chunks                               int
}

// Route is where a question goes: the documents (none: the whole project)
// and why, in the question's words.
type Route struct {
	Docs    []int64
	Because []string
	// Unowned are the names the question asks something of ("Kestrel" in
	// "What was Kestrel's operating income?") that no document is about,
	// in a library of several organisations' documents: the question
	// names none of its documents, and what they state is another
	// organisation's. Such a question is not routed by its period.
	Unowned []string
}

// Question routes the question q among docs, by the words that may name
// a document (q.DocWords) and the period it names (q.Period).
func Question(q *question.Question, docs []Doc) Route {
	var cands []Doc
	for _, d := range docs {
		if d.Chunks >= 2 {
			cands = append(cands, d)
		}
	}
	if len(cands) < 2 {
		return Route{}
	}
	// Each document's identity words.
	words := make([]map[string]bool, len(cands))
	initials := make([]string, len(cands))
	for i, d := range cands {
		words[i] = identityWords(d)
		initials[i] = initialsOf(d.Organisation)
	}

	// Each name word of the question picks the documents it singles out;
	// a document is picked by its words (a comparison names several).
	picked := make([][]string, len(cands))
	for _, qw := range q.DocWords {
		var hit []int
		for i := range cands {
			if namesDoc(qw, words[i], initials[i]) {
				hit = append(hit, i)
			}
		}
		if len(hit) == 0 || len(hit) == len(cands) {
			continue // names nothing, or every document
		}
		for _, i := range hit {
			picked[i] = append(picked[i], qw)
		}
	}
	// Documents picked by the same words are one group (one organisation's
	// reports); the period the question names narrows each group.
	groups := map[string][]int{}
	var keys []string
	for i, ws := range picked {
		if len(ws) == 0 {
			continue
		}
		k := strings.Join(ws, " ")
		if groups[k] == nil {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], i)
	}
	y := q.Period
	if len(keys) == 0 {
		if un := unowned(q, cands, words, initials); len(un) > 0 {
			return Route{Unowned: un}
		}
		return byPeriod(cands, y)
	}
	var chosen []int
	var why []string
	narrowed := false
	for _, k := range keys {
		g := groups[k]
		why = append(why, k)
		if y > 0 && len(g) > 1 {
			var inYear []int
			for _, i := range g {
				for _, dy := range identity.Years(cands[i].Period, cands[i].FileName) {
					if dy == y {
						inYear = append(inYear, i)
						break
					}
				}
			}
			if len(inYear) > 0 && len(inYear) < len(g) {
				g, narrowed = inYear, true
			}
		}
		if bySpan := ofSpan(q, g, cands); len(bySpan) < len(g) {
			g = bySpan
			why = append(why, spanWord(q))
		}
		chosen = append(chosen, g...)
	}
	sort.Ints(chosen)
	if narrowed {
		why = append(why, strconv.Itoa(y))
	}
	r := Route{Because: why}
	for _, i := range chosen {
		r.Docs = append(r.Docs, cands[i].ID)
	}
	return r
}

// namesDoc says the question's word qw names the document whose identity
// words and organisation's initials are given: one of its words, its
// initials written in capitals ("AMD"), or the start of one of its words
// written in capitals ("NVDA" is not, "COSTCO" is "Costco Wholesale").
func namesDoc(qw string, words map[string]bool, initials string) bool {
	key := strings.ToLower(qw)
	switch {
	case words[key]:
		return true
	case isCaps(qw) && len(key) >= 2 && key == initials:
		return true
	case isCaps(qw) && len(key) >= 3:
		for w := range words {
			if len(w) > len(key) && strings.HasPrefix(w, key) {
				return true
			}
		}
	}
	return false
}

// unowned returns the names the question asks something of, written as
// owners ("Kestrel's", "the Partners' fees"), that name none of the
// documents, when the documents are several organisations' (two
// organisations at least): what the documents state is theirs, not the
// named one's.
func unowned(q *question.Question, cands []Doc, words []map[string]bool, initials []string) []string {
	orgs := map[string]bool{}
	for _, d := range cands {
		if d.Organisation != "" {
			orgs[strings.ToLower(d.Organisation)] = true
		}
	}
	if len(orgs) < 2 {
		return nil
	}
	var out []string
	for _, a := range q.Anchors {
		if isYearOrNumber(a) || !owner(q.Text, a) {
			continue
		}
		named := false
		for i := range cands {
			named = named || namesDoc(a, words[i], initials[i])
			for _, w := range splitWords(a) {
				named = named || namesDoc(w, words[i], initials[i])
			}
		}
		if !named {
			out = append(out, a)
		}
	}
	return out
}

// owner says name stands in text as an owner: followed by "'s" or, after
// a final s, by an apostrophe alone.
func owner(text, name string) bool {
	for i := strings.Index(text, name); i >= 0; {
		rest := text[i+len(name):]
		for _, mark := range []string{"'s", "’s", "'", "’"} {
			if strings.HasPrefix(rest, mark) {
				after := strings.TrimPrefix(rest, mark)
				r := []rune(after + " ")[0]
				if (mark == "'s" || mark == "’s" || strings.HasSuffix(name, "s")) && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
					return true
				}
			}
		}
		j := strings.Index(rest, name)
		if j < 0 {
			break
		}
		i += len(name) + j
	}
	return false
}

// ofSpan narrows docs (indexes into cands) to the reports covering the
// span of time the question names: a fiscal year and no quarter keeps the
// annual reports, a quarter (or six or nine months) and no fiscal year the
// quarterly ones; all of
// docs when it names both or neither, or no report covers it.
func ofSpan(q *question.Question, docs []int, cands []Doc) []int {
	want := ""
	// A part of a year longer than a quarter is what quarterly reports
	// print beside the quarter ("six months ended").
	quarterly := q.NamesQuarter || q.NamesPartYear
	switch {
	case q.NamesFiscalYear && !quarterly:
		want = identity.SpanYear
	case quarterly && !q.NamesFiscalYear:
		want = identity.SpanQuarter
	default:
		return docs
	}
	var out []int
	for _, i := range docs {
		if identity.PeriodSpan(cands[i].Period) == want {
			out = append(out, i)
		}
	}
	if len(out) == 0 {
		return docs
	}
	return out
}

// spanWord says in the question's terms why ofSpan narrowed: "fiscal
// year" or "quarter".
func spanWord(q *question.Question) string {
	if q.NamesQuarter || q.NamesPartYear {
		return "quarter"
	}
	return "fiscal year"
}

// byPeriod routes a question that names no document but a year to the
// documents whose own period (or file name) holds that year, when they
// are few: at most a quarter of the library ("the 2019 annual report",
// "Q2 of FY2024" where one report covers it). A year many documents cover
// says too little to route by.
func byPeriod(cands []Doc, y int) Route {
	if y == 0 {
		return Route{}
	}
	var docs []int64
	for _, d := range cands {
		for _, dy := range identity.Years(d.Period, d.FileName) {
			if dy == y {
				docs = append(docs, d.ID)
				break
			}
		}
	}
	if len(docs) == 0 || len(docs) > max(1, len(cands)/4) {
		return Route{}
	}
	return Route{Docs: docs, Because: []string{strconv.Itoa(y)}}
}

// identityWords are the words of a document's title, organisation and file
// name (lower case), with adjacent words also joined ("foot locker" gives
// "footlocker"; "coca-cola" gives "coca", "cola", "cocacola"). Years are
// left to the period.
func identityWords(d Doc) map[string]bool {
	out := map[string]bool{}
	file := strings.TrimSuffix(d.FileName, filepath.Ext(d.FileName))
	name := d.Organisation
	if name == "" {
		name = d.Title
	}
	for _, s := range []string{name, file} {
		ws := withoutLegalForm(splitWords(s))
		for i, w := range ws {
			if isYearOrNumber(w) {
				continue
			}
			out[w] = true
			if i > 0 && !isYearOrNumber(ws[i-1]) {
				out[ws[i-1]+w] = true
			}
		}
	}
	return out
}

// splitWords cuts s into lower-case runs of letters and digits.
func splitWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func isYearOrNumber(w string) bool {
	for _, r := range w {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// initialsOf is the initials of a multi-word organisation name without its
// legal form ("Advanced Micro Devices, Inc." → "amd").
func initialsOf(org string) string {
	ws := withoutLegalForm(splitWords(org))
	if len(ws) < 2 {
		return ""
	}
	var b strings.Builder
	for _, w := range ws {
		b.WriteString(w[:1])
	}
	return b.String()
}

func withoutLegalForm(ws []string) []string {
	out := ws[:0:0]
	for _, w := range ws {
		if !identity.IsLegalForm(w) {
			out = append(out, w)
		}
	}
	return out
}

func isCaps(w string) bool {
	letters := 0
	for _, r := range w {
		if unicode.IsLetter(r) {
			letters++
			if !unicode.IsUpper(r) {
				return false
			}
		}
	}
	return letters >= 2
}
