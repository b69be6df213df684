// Package answerspan finds the short answer to a question in retrieved
// passages without a model: it classifies the question (who, when, where,
// how many, which of two, yes/no, what-is, list), lists candidate answer
// spans of the fitting type in the passages (names, dates, numbers, amounts,
// defined terms, the compared items) and scores them by the evidence chain
// that reaches them from the question's entities (a bridge passage for a
// two-hop question), type fit and passage rank. Everything here is a pure
// function of its inputs. Its words come from backend/lexicon, by the
// question's language: English and Chinese questions are classified, one
// in a language without a lexicon is not (Question.NoLexicon).
package answerspan

import (
	"regexp"
	"slices"
	"strings"

	"cairn/backend/lexicon"
)

// Kind is the kind of answer a question asks for.
type Kind string

// The question kinds.
const (
	Person   Kind = "who"
	Date     Kind = "when"
	Place    Kind = "where"
	Number   Kind = "how many"
	Choice   Kind = "which of two"
	YesNo    Kind = "yes-no"
	Define   Kind = "what-is"
	List     Kind = "list"
	Demonym  Kind = "nationality"
	Thing    Kind = "what" // a named thing: a film, a band, a company ...
	Unknown  Kind = "other"
	earliest      = -1
	latest        = 1
)

// Question is a classified question.
type Question struct {
	Text    string
	Kind    Kind
	Options []string // the two items of a "which of two" or a yes/no comparison
	Order   int      // Choice: earliest (-1) or latest (+1) wins; 0 when not a time comparison
	Event   string   // Choice/YesNo: "born", "died", "released", ... the event compared (may be empty)
	Same    bool     // YesNo: "the same X" / "both"
	Focus   string   // the noun the answer is an instance of ("film", "director"), when stated
	// Resolved is a chained question with the entities found for its inner
	// hops put in place of the phrases describing them ("Who is the spouse
	// of Tomas Rell?"), and Trail the sentences that found them, first hop
	// first. Classify leaves both empty; a caller resolving the hops sets
	// them.
	Resolved string
	Trail    []Ref
	// Lang is the question's language (lexicon.Detect: "en", "zh", ...).
	// NoLexicon says Cairn has no lexicon with question words for it: the
	// question is not classified (Kind is Unknown) and gets no short
	// answer, only the best supporting sentences (NoShortReason says so).
	Lang      string
	NoLexicon bool
	// Kinds are the classes ("person", "place", "work") the knowledge
	// graph gives names of the passages, keyed as the finder keys names
	// (GraphKinds); a candidate's class comes from here where the graph
	// has the name, else from the passage titled with it. Classify leaves
	// it empty; the caller that knows the passages sets it.
	Kinds map[string]string
	// read holds what Classify read from Text besides its kind, so that
	// finding candidates (Find, FindHop, Bridges, each run several times
	// for one question) and the table reading do not cut the text again.
	// A Question built otherwise has none; its text is then read when
	// needed.
	read *textReading
}

// textReading is what Classify reads from a question's text for the
// steps after it.
type textReading struct {
	stems   []string // Stems(Text)
	names   []Span   // names(Text)
	moved   int      // Direction(Text)
	smaller bool     // asksSmallerPlace(Text)
	related []string // relatedBy(Text)
}

// reading is q's textReading: Classify's, else read now.
func (q Question) reading() *textReading {
	if q.read != nil {
		return q.read
	}
	return readText(q.Text)
}

func readText(text string) *textReading {
	return &textReading{stems: Stems(text), names: names(text), moved: Direction(text), smaller: asksSmallerPlace(text), related: relatedBy(text)}
}

var (
	reOr      = regexp.MustCompile(`(?i)[,:]?\s*(?:\bbetween\s+)?([^,?]+?)\s+or\s+([^,?]+?)\s*\??\s*$`)
	reOrFront = regexp.MustCompile(`(?i)^(?:was|is|were|did|does|do|are)\s+(.+?)\s+or\s+(.+?)\s+(born|died|released|founded|formed|established|published|made|created|older|younger|first|earlier|later)\b`)
	reBoth    = regexp.MustCompile(`(?i)^(?:are|were|is|was|do|does|did|have|has)\s+(?:both\s+)?(?:(?-i:[a-z]+),?\s+)?(.+?)\s+and\s+(.+?)\s+(?:both|of the same|from the same|located in the same|in the same|the same|have the same|share)\b`)
	// reSameAs is a comparison of two items by one attribute, the second
	// after "as" ("Does A have the same nationality as B?", "Is A in the
	// same county as B?").
	reSameAs = regexp.MustCompile(`(?i)^(?:are|were|is|was|do|does|did|have|has)\s+(.+?)\s+(?:(?:have|has|had|share|shares|hold|holds|of|from|in|located in|born in)\s+)?the\s+same\s+\S+(?:\s+\S+)?\s+as\s+(.+?)\s*\??\s*$`)
	reOutOf  = regexp.MustCompile(`(?i)\bout of\s+(.+?)\s+and\s+(.+?)\s*\??\s*$`)
	reOpen   = regexp.MustCompile(`^(?:what (?:does|do|did) .+ (?:say|state|describe|explain|tell|provide|cover)\b|how (?:does|do|did|can|should|is|are)\b|who (?:must|should|needs? to|has to|have to|is required|are required|is eligible|are eligible|qualifies|qualify)\b|why\b|explain\b|describe\b|summari[sz]e\b)`)
	reAttr   = regexp.MustCompile(`^(?:what|which) (?:is|was|are|were) (?:the |his |her |their )?([a-z]+) (?:of|does|did|do)\b`)
	// "What is the standard deduction?": a term to explain, not a name.
	reWhatTheTerm = regexp.MustCompile(`^what (?:is|are) (?:the |an? )?(?:[a-z0-9-]+ ){0,3}[a-z0-9-]+\s*\?*$`)
	reBetween     = regexp.MustCompile(`(?i)\bbetween\s+(.+?)\s+and\s+(.+?),`)
)

// Classify names the kind of answer a question asks for, and the compared
// items of a comparison.
//
// The question's language picks the lexicon it is read with: English
// (Latin script with English function words, or no letters at all),
// Chinese (Han script, classifyZh); a question in another language is
// left Unknown with NoLexicon set.
func Classify(q string) Question {
	out := classify(q)
	out.read = readText(out.Text)
	return out
}

func classify(q string) Question {
	text := strings.TrimLeft(strings.TrimSpace(q), "\\\"'“ ")
	switch lang := lexicon.Detect(text); {
	case lang == "zh":
		return classifyZh(text)
	case lang != "en" && lang != "":
		return Question{Text: text, Kind: Unknown, Lang: lang, NoLexicon: true}
	}
	low := strings.ToLower(text)
	// A yes/no question after a short opening phrase ("Looking at the
	// ledger, did costs rise?") is read from its clause; not when the
	// phrase holds the question word ("In what region of the country
	// ..., is the town?").
	if i := strings.Index(text, ", "); i > 0 && i <= maxOpening && !strings.ContainsAny(text[:i], "?") {
		if f := strings.Fields(strings.ToLower(text[i+2:])); len(f) > 1 && yesNoLead[f[0]] && !slices.ContainsFunc(strings.Fields(low[:i]), whWord) && !yesNoLead[strings.Fields(low)[0]] {
			return classify(text[i+2:])
		}
	}
	out := Question{Text: text, Kind: Unknown, Lang: "en"}
	first := strings.Fields(low)
	lead := ""
	if len(first) > 0 {
		lead = strings.Trim(first[0], ",.?!\"'")
	}
	out.Event, out.Order = comparedEvent(low)
	// Which of two: "..., A or B?" / "Was A or B born first?"
	if m := reOrFront.FindStringSubmatch(text); m != nil {
		out.Kind, out.Options = Choice, []string{clean(m[1]), clean(m[2])}
		return out
	}
	if strings.Contains(low, " or ") && !yesNoLead[lead] || (yesNoLead[lead] && strings.Contains(low, ", ") && strings.Contains(low, " or ")) {
		if m := reOr.FindStringSubmatch(text); m != nil {
			a, b := clean(m[1]), clean(m[2])
			if i := strings.LastIndex(a, ","); i >= 0 {
				a = clean(a[i+1:])
			}
			a = trimLead(a)
			if a != "" && b != "" && len(strings.Fields(a)) <= 12 {
				out.Kind, out.Options = Choice, []string{a, b}
				return out
			}
		}
	}
	if m := reOutOf.FindStringSubmatch(text); m != nil {
		out.Kind, out.Options = Choice, []string{clean(m[1]), clean(m[2])}
		return out
	}
	if m := reBetween.FindStringSubmatch(text); m != nil && strings.Contains(low, "which") {
		out.Kind, out.Options = Choice, []string{clean(m[1]), clean(m[2])}
		return out
	}
	if yesNoLead[lead] {
		out.Kind = YesNo
		out.Same = strings.Contains(low, " same ") || strings.Contains(low, " both ")
		if m := reBoth.FindStringSubmatch(text); m != nil {
			out.Options = []string{clean(m[1]), clean(m[2])}
		} else if m := reSameAs.FindStringSubmatch(text); m != nil {
			out.Options = []string{clean(m[1]), clean(m[2])}
		} else if i := strings.Index(low, " and "); i > 0 {
			rest := strings.Fields(text[i+5:])
			head := strings.Fields(text[:i])
			if len(head) > 1 && len(rest) > 0 {
				var b []string
				for _, w := range rest {
					if !isCapital(w) && len(b) > 0 {
						break
					}
					b = append(b, w)
				}
				var a []string
				for j := len(head) - 1; j >= 1; j-- {
					if !isCapital(head[j]) && len(a) > 0 {
						break
					}
					a = append([]string{head[j]}, a...)
				}
				// Two periods ("between FY2022 and FY2021") are no two
				// items to compare: the question asks about one thing.
				if len(a) > 0 && len(b) > 0 && !strings.ContainsAny(strings.Join(a, "")+strings.Join(b, ""), "0123456789") {
					out.Options = []string{clean(strings.Join(a, " ")), clean(strings.Join(b, " "))}
				}
			}
		}
		out.Focus = yesNoFocus(low)
		return out
	}
	focus := focusNoun(low)
	if m := reAttr.FindStringSubmatch(low); m != nil && attrNouns[m[1]] {
		focus = m[1] // "what was the profession of ..."
	}
	if reOpen.MatchString(low) || reWhatTheTerm.MatchString(low) && !containsAny(low+" ", termPreps) {
		return out // "What does X say about Y?", "How does ...", "Why ...": no one-phrase answer
	}
	switch {
	case personLead[lead]:
		out.Kind = Person
	case lead == "when" || containsAny(low, dateCues) && !strings.Contains(low, "how many"):
		out.Kind = Date
	case containsAny(low, numWords):
		out.Kind = Number
	case strings.Contains(low, "nationality") || strings.Contains(low, "what country is") && strings.Contains(low, " from") || strings.HasPrefix(low, "which country") && strings.HasSuffix(strings.TrimRight(low, "? "), " from"):
		out.Kind = Demonym
	case lead == "where" || containsAny(low, placeCues) && (lead == "what" || lead == "which") || placeNoun(focus) && (lead == "in" || lead == "what" || lead == "which" || lead == "from"):
		out.Kind = Place
		out.Focus = focus
	case strings.HasPrefix(low, "what is a ") || strings.HasPrefix(low, "what is an ") || strings.HasPrefix(low, "define ") || strings.HasPrefix(low, "what does") && (strings.Contains(low, "prohibit") || strings.Contains(low, "mean") || strings.Contains(low, "require") || strings.Contains(low, "stand for")):
		out.Kind = Define
	case strings.HasPrefix(low, "list ") || strings.HasPrefix(low, "name the ") || strings.HasPrefix(low, "what are the"):
		out.Kind = List
	case strings.HasSuffix(strings.TrimRight(low, "?. "), " who") || strings.HasSuffix(strings.TrimRight(low, "?. "), " whom"):
		out.Kind = Person
	case lead == "which" || lead == "what" || lead == "in" || strings.Contains(low, " which ") || strings.Contains(low, " what "):
		out.Kind = Thing
		out.Focus = focus
		switch {
		case personNoun(focus):
			out.Kind = Person
		case focus == "year" || focus == "date":
			out.Kind = Date
		}
	case strings.Contains(low, "who "):
		out.Kind = Person
	}
	if out.Kind == Unknown && strings.Contains(low, "who") {
		out.Kind = Person
	}
	return out
}

func placeNoun(w string) bool { return placeNouns[w] || placeNouns[strings.TrimSuffix(w, "s")] }

// maxOpening is the longest opening phrase (in bytes) read before a
// question's clause.
const maxOpening = 60

// whWord reports whether w opens a wh-question ("what", "which", "how").
func whWord(w string) bool { return whWords[strings.Trim(w, ",.?!\"'")] }

func personNoun(w string) bool { return personNouns[w] || personNouns[strings.TrimSuffix(w, "s")] }

// focusNoun is the noun after "which"/"what" ("which film ..." → "film").
func focusNoun(low string) string {
	low = strings.NewReplacer("is the name of the ", "", "was the name of the ", "", "is the name of ", "", "kind of ", "", "type of ", "", "sort of ", "").Replace(low)
	ws := strings.Fields(strings.NewReplacer(",", " ", "?", " ", "\"", " ").Replace(low))
	for i, w := range ws {
		if (w == "which" || w == "what") && i+1 < len(ws) {
			for _, n := range ws[i+1 : min(len(ws), i+4)] {
				if n == "is" || n == "was" || n == "are" || n == "were" || n == "did" || n == "does" || n == "do" || n == "has" || n == "had" || n == "the" || n == "a" || n == "an" || n == "of" {
					if n == "the" || n == "a" || n == "an" {
						continue
					}
					break
				}
				if !isAdjective(n) {
					return n
				}
			}
		}
	}
	return ""
}

func isAdjective(w string) bool {
	return strings.HasSuffix(w, "ish") || strings.HasSuffix(w, "ian") || strings.HasSuffix(w, "can") || adjectives[w]
}

func yesNoFocus(low string) string {
	for _, k := range sameCues {
		if i := strings.LastIndex(low, k); i >= 0 {
			ws := strings.Fields(strings.Trim(low[i+len(k):], "?. "))
			if len(ws) > 0 {
				return strings.Trim(ws[len(ws)-1], "?.,")
			}
		}
	}
	return ""
}

// comparedEvent finds what a comparison compares and which end wins.
func comparedEvent(low string) (string, int) {
	order := 0
	switch {
	case containsAny(low, orderEarly):
		order = earliest
	case containsAny(low, orderLate):
		order = latest
	}
	event := ""
	for _, e := range events {
		if strings.Contains(low, e[0]) {
			event = e[1]
			break
		}
	}
	if event == "lifespan" {
		order = latest
	}
	return event, order
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

func clean(s string) string {
	s = strings.TrimSpace(strings.Trim(s, " ?.!\"“”'"))
	// "the birth of Ada Brook", "the forming of The Velvet Larks":
	// the item, not the event.
	if m := reEventOf.FindStringSubmatch(s); m != nil {
		s = m[1]
	}
	return strings.TrimSpace(s)
}

// trimLead drops a question's lead words before the first option of
// "Who was born first, A or B" ("Which film came out first A or B").
func trimLead(a string) string {
	ws := strings.Fields(a)
	if len(ws) <= 1 {
		return a
	}
	// Keep the trailing run of words that starts with a capital letter,
	// digit or quote (the option), with lower-case connectors inside.
	i := len(ws)
	for j := len(ws) - 1; j >= 0; j-- {
		if isCapital(ws[j]) {
			i = j
			continue
		}
		if connector[strings.ToLower(ws[j])] && j > 0 && j < len(ws)-1 {
			continue
		}
		break
	}
	if i < len(ws) {
		return strings.Join(ws[i:], " ")
	}
	return a
}

func isCapital(w string) bool {
	w = strings.TrimLeft(w, "\"'“(")
	if w == "" {
		return false
	}
	c := w[0]
	return c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
