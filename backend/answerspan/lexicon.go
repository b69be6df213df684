package answerspan

import (
	"regexp"
	"slices"
	"strings"

	"cairn/backend/lexicon"
)

// The English words answerspan reads questions and sentences with, from
// the English lexicon (backend/lexicon/en.json; each category's doc says
// what it serves). Questions in other languages are classified with their
// own lexicon (classify_zh.go) or not at all (Question.NoLexicon).
var (
	en = lexicon.English()

	// Question words and the answer kind each asks for.
	yesNoLead    = en.Set("yes_no_lead")
	whWords      = en.Set("wh_words")
	personLead   = lexicon.SetOf(en.Group("question_kinds", "who"))
	dateCues     = en.Group("question_kinds", "when")
	numWords     = en.Group("question_kinds", "how many")
	computed     = stemSet(en.Words("computed_words"))
	placeCues    = en.Group("question_kinds", "where")
	orderEarly   = en.Words("order_earliest")
	orderLate    = en.Words("order_latest")
	events       = en.Pairs("compared_events")
	adjectives   = en.Set("adjectives")
	defineVerbs  = en.Set("define_verbs")
	synonyms     = synonymStems(en.Groups("relation_synonyms"))
	relationMore = en.Set("relation_words_more")

	// Relations and class nouns: what kind of thing a name is.
	relationWords    = en.Words("relation_words")
	creatorRel       = en.Set("creator_relations")
	personNouns      = en.Set("person_nouns")
	placeNouns       = en.Set("place_nouns")
	attrNouns        = en.Set("attribute_nouns")
	classNouns       = en.Set("class_nouns")
	focusAlias       = en.Groups("focus_aliases")
	roleAdjectives   = en.Set("role_adjectives")
	workNouns        = en.Set("work_nouns")
	holders          = en.Set("place_holders")
	held             = en.Set("place_held")
	sameAs           = en.Map("place_same_as")
	institutionWords = en.Set("institution_words")
	orgWords         = en.Set("organisation_words")
	appositive       = en.Set("appositive_nouns")
	nobility         = en.Set("nobility")

	// Nationality.
	demonyms     = en.Map("demonyms")
	demonymExact = en.Set("demonym_words")

	// The direction a quantity moved.
	riseWords = en.Set("rise_words")
	fallWords = en.Set("fall_words")

	// Dates and numbers.
	monthNum = monthNumbers(en.Words("months"))
	calendar = lexicon.Union(en.Set("months"), en.Set("weekdays"))
	months   = `(?:` + en.Alt("months") + `|` + en.Alt("month_abbreviations") + `)`

	// Function words.
	connector    = en.Set("name_connectors")
	leadStop     = en.Set("sentence_openers")
	commonStop   = en.Set("stopwords")
	relativizer  = en.Set("relativizers")
	auxWords     = en.Set("auxiliaries")
	verbLeads    = en.Set("verb_leads")
	determiners  = en.Set("determiners_short")
	adverbs      = en.Set("adverbs_short")
	prepositions = en.Set("prepositions_short")
	hopStop      = en.Set("hop_stops")
	titleJoin    = en.Set("title_joiners")
	ofTail       = en.Set("of_tails")
	idleWords    = en.Set("idle_words")
	naming       = en.Set("naming_participles")
	termPreps    = pad(en.Words("term_prepositions"), " ", " ")
	sameCues     = pad(en.Words("same_cues"), "", " ")
	articles     = pad(en.Words("articles"), "", " ")
	possessives  = en.Words("possessive_endings")
	// nameEndings are cut from a name in a question: a possessive, or the
	// apostrophe of a plural's ("the Smiths'").
	nameEndings   = append(append([]string(nil), possessives...), "'", "’")
	smallerPlaces = en.Set("smaller_places")
)

// The regular expressions built on the lexicon's words.
var (
	reEventOf   = regexp.MustCompile(`^(?i:the )?(?i:` + en.Alt("event_nouns") + `) of (.+)$`)
	reNum       = regexp.MustCompile(`(?:[$€£¥]\s?)?\b\d(?:[\d,]*\d)?(?:\.\d+)?(?:\s*(?:` + en.Alt("number_scales") + `))?(?:\s+(?:[a-z]+){1})?`)
	reWord      = regexp.MustCompile(`\b(?:` + en.Alt("number_words") + `)\b`)
	rePersonDef = regexp.MustCompile(`\(\s*(?:(?:born|b\.|c\.|died|d\.|\d{1,2} \w+ \d{3,4}|\w+ \d{1,2}, \d{3,4})\b|\d{3,4}\s*[–-]|\d{3,4}\))|\b(?:was|is) an? (?:[a-z]+ ){0,3}(?:` + en.Alt("person_nouns") + `)\b`)
	rePlaceDef  = regexp.MustCompile(`\b(?:is|was) (?:a|an|the) (?:[a-z-]+ ){0,4}(?:` + en.Alt("place_kinds") + `)\b`)
	reWork      = regexp.MustCompile(`\b(?:is|was) (?:a|an|the) (?:[a-z0-9-]+ ){0,4}(?:` + en.Alt("work_nouns") + `)\b`)
	rePlaceKind = regexp.MustCompile(`\b(?:is|was) (?:a|an|the) (?:[a-z0-9-]+ ){0,4}?(` + en.Alt("place_kinds") + `)\b`)
)

// monthNumbers maps the first three letters of each month's name, lower
// case, to its number ("jan": 1).
func monthNumbers(names []string) map[string]int {
	out := map[string]int{}
	for i, m := range names {
		out[strings.ToLower(m[:3])] = i + 1
	}
	return out
}

// pad puts before and after around each word.
func pad(words []string, before, after string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = before + w + after
	}
	return out
}

// synonymStems are the relation synonyms by stem: the stems of a
// question's word ("spouse": "w:spous") to those of the words a passage
// may state it with ("w:marri", "w:wife", "w:husband").
func synonymStems(groups map[string][]string) map[string][]string {
	out := map[string][]string{}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		for _, ks := range Stems(k) {
			for _, w := range groups[k] {
				for _, st := range Stems(w) {
					if st != ks && !slices.Contains(out[ks], st) {
						out[ks] = append(out[ks], st)
					}
				}
			}
		}
	}
	return out
}

// stemSet is the set of the stems of words (Stems).
func stemSet(words []string) map[string]bool {
	out := map[string]bool{}
	for _, w := range words {
		for _, st := range Stems(w) {
			out[st] = true
		}
	}
	return out
}
