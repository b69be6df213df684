package extract

import (
	"strings"

	"cairn/backend/lexicon"
)

// The words the offline extractor reads names and sentences with are data:
// the graph_* categories of the English lexicon (backend/lexicon/en.json)
// and the Chinese lexicon's key-phrase stops. Each category's doc there
// says what it serves; the names below are the ones the rules use.
var (
	en = lexicon.English()

	// connectors may join capitalised words inside one name ("Bank of
	// America", "Ludwig van Beethoven").
	connectors = en.Set("graph_name_connectors")
	// leadStop are capitalised words that start sentences but not names.
	leadStop = en.Set("graph_sentence_leads")
	// ordinalLead are ordinals that open a name inside a sentence ("the
	// Second Varn War"), though at a sentence's start they are no part of
	// one.
	ordinalLead = en.Set("graph_ordinal_leads")

	onePrep       = en.Set("graph_one_prepositions")
	copulas       = en.Set("graph_copulas")
	auxiliaries   = en.Set("graph_auxiliaries")
	adverbs       = en.Set("graph_adverbs")
	determiners   = en.Set("graph_determiners")
	irregular     = en.Set("graph_irregular_verbs")
	neighbourPrep = en.Set("graph_neighbour_prepositions")
	leadPreps     = en.Set("graph_lead_prepositions")

	stopDesc       = en.Set("graph_description_stops")
	nameParticles  = en.Set("graph_name_particles")
	compass        = en.Set("graph_compass_words")
	roleWords      = en.Set("graph_role_words")
	partWords      = en.Set("graph_place_part_words")
	functionWords  = en.Set("graph_not_person_words")
	notPersonNouns = en.Set("graph_not_person_nouns")

	// classNouns are common nouns that say what kind of thing a name is
	// when a sentence describes the name with them: "X is a city in …",
	// "X, a Canadian guitarist, …", "the band X": noun → type. A head noun
	// that is not listed is read by its ending (personNoun).
	classNouns       = inverted(en.Groups("graph_class_nouns"))
	irregularPlurals = en.Map("graph_irregular_plurals")
	pluralSuffixes   = en.Words("graph_plural_suffixes")
	personSuffixes   = en.Words("graph_person_suffixes")
	personEerNouns   = en.Set("graph_person_eer_nouns")
	demonymSuffixes  = en.Words("graph_demonym_suffixes")
	// documentParts name a numbered part of a document ("Exhibit 10.1",
	// "Article 5"): alone they are no entity.
	documentParts = en.Set("graph_document_parts")
	// listTails end a run of names as a list ("A, B, C, and other
	// companies"): no neighbours in it are places one in another.
	listTails = en.Set("graph_list_tails")
	// possessiveEndings are cut from a name's end ("Company’s": the
	// possessor is the name), in this order.
	possessiveEndings = en.Words("graph_possessive_endings")

	// typeRules read a coarse type from a name's last word (or first,
	// when first is set): "Internal Revenue Service" is an organization.
	// classify checks them in this order.
	typeRules = []typeRule{
		nameRule("graph_name_head_organization", "organization", false),
		nameRule("graph_name_head_law", "law", false),
		nameRule("graph_name_lead_work", "work", true),
		nameRule("graph_name_head_location", "location", false),
		nameRule("graph_name_lead_location", "location", true),
		nameRule("graph_name_lead_organization", "organization", true),
		nameRule("graph_name_lead_person", "person", true),
		nameRule("graph_name_head_event", "event", false),
	}
	// typeWords are the words classify reads types from: alone they are
	// generic nouns ("Department", "Code"), not names.
	typeWords = ruleWords(typeRules)

	// cjkStop are characters that do not start or end a CJK key phrase.
	cjkStop = strings.Join(lexicon.Of("zh").Words("key_phrase_stops"), "")
)

type typeRule struct {
	words []string
	typ   string
	first bool
}

func nameRule(cat, typ string, first bool) typeRule {
	return typeRule{words: en.Words(cat), typ: typ, first: first}
}

func ruleWords(rules []typeRule) map[string]bool {
	out := map[string]bool{}
	for _, r := range rules {
		for _, w := range r.words {
			out[w] = true
		}
	}
	return out
}

// inverted turns groups of words (type → nouns) into noun → type.
func inverted(groups map[string][]string) map[string]string {
	out := map[string]string{}
	for typ, ws := range groups {
		for _, w := range ws {
			out[w] = typ
		}
	}
	return out
}
