package answerspan

import (
	"math"
	"regexp"
	"strings"
)

// typeFit is how well a span's type fits the question's kind (0: not at all).
func (f *finder) typeFit(sp Span, s sent) float64 {
	fit := f.kindFit(sp, s)
	if fit == 0 {
		return 0
	}
	if (f.q.Kind == Person || f.q.Kind == Place) && quoted(s.text, sp) {
		fit *= 0.3 // a quoted name is a title: "Night Harbor" (1986)
	}
	if f.q.Kind != Demonym && sp.Type == TName && !strings.Contains(sp.Text, " ") && isDemonym(sp.Text) {
		fit *= 0.2 // "American" is rarely the answer unless a nationality is asked
	}
	if f.q.Focus != "" && (sp.Type == TName || sp.Type == TQuoted) {
		fit *= focusFit(sp.Text, f.q.Focus)
	}
	if sp.Type == TNumber && f.q.Kind == Number && f.amountAsked && strings.ContainsAny(sp.Text, currencySigns) {
		fit *= amountFit // "the total amount" is money before a count of days
	}
	return fit
}

// currencySigns mark a figure as money.
const currencySigns = "$€£¥₹₩"

// amountFit weighs a sum of money up when the question asks an amount.
const amountFit = 1.5

// focusFit weighs a name by its head word against the question's focus
// noun: "Ada Brook Stadium" for "what stadium" fits, "West Eastbrook High
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
			if reConverted.MatchString(s.text[:sp.Start]) {
				return 0.7 // "6.8 inches (17.3 cm)": the amount is the first
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
		case "":
			if f.otherKind(sp.Text, "place") {
				fit *= 0.3
			}
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
		case "":
			if f.otherKind(sp.Text, "person") {
				fit *= 0.3
			}
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

// reConverted is the text before an amount given again in other units, in
// brackets after the first ("6.8 inches (").
var reConverted = regexp.MustCompile(`\d[\d,.]*\s*[A-Za-z%°]*\s*\(\s*(?:about |approx\. |c\. )?$`)

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
	return roleAdjectives[w]
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

// otherKind says the knowledge graph types a name as another kind of
// thing than the question asks for (a place or a work where a person is
// asked, a person or a work where a place is): where no passage about the
// name says what it is, the graph's type demotes it. The graph's types
// are too coarse to promote a name (most names in a passage about people
// are people).
func (f *finder) otherKind(name, want string) bool {
	g := f.q.Kinds[norm(name)]
	return g != "" && g != want
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
