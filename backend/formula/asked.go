package formula

import (
	"regexp"
	"strings"
)

// Asked finds the one figure a question asks for by name when it states
// no formula ("What was the 2019 total of accounts payable for Acme?" →
// "accounts payable"): the noun phrase after "what is/was", without its
// periods, its whose-figure part ("Acme's", "for Acme"), a parenthesis
// ("(in millions)") or a measure word around it ("the amount of", "total
// … value"). ok is false when the question asks no such figure or the
// phrase is left empty. English wording, like Parse.
func Asked(question string) (string, bool) {
	m := askedRE.FindStringSubmatch(question)
	if m == nil {
		return "", false
	}
	s := parenRE.ReplaceAllString(m[1], " ")
	s = ownerTailRE.ReplaceAllString(s, "")
	s = ownerRE.ReplaceAllString(s, "")
	s = periodRE.ReplaceAllString(s, " ")
	s = strings.Join(strings.Fields(s), " ")
	for {
		t := measureLeadRE.ReplaceAllString(s, "")
		t = measureTailRE.ReplaceAllString(t, "")
		t = changeLeadRE.ReplaceAllString(t, "")
		t = danglingRE.ReplaceAllString(t, "")
		t = strings.TrimSpace(t)
		if t == s || t == "" {
			break
		}
		s = t
	}
	s = name(s)
	if s == "" || len(strings.Fields(s)) > maxAskedWords {
		return "", false
	}
	return s, true
}

// maxAskedWords is the longest phrase read as a figure's name: a longer one
// is a clause, not a name.
const maxAskedWords = 8

var (
	// parenRE is a parenthesis inside the asked phrase ("(in USD millions)").
	parenRE = regexp.MustCompile(`\s*\([^)]*\)`)
	// ownerTailRE is the whose-figure tail ("… for Acme Corp", "… of 3M"):
	// a preposition before a capitalised or numbered name.
	ownerTailRE = regexp.MustCompile(`\s+(?:for|of|at)\s+(?:the\s+)?[\p{Lu}\d][\p{L}\d&.\-]*(?:\s+[\p{Lu}\d][\p{L}\d&.\-]*)*\s*$`)
	// ownerRE is a possessive name before the figure ("Acme Corp's").
	ownerRE = regexp.MustCompile(`^(?:the\s+)?(?:[\p{Lu}\d][\p{L}\d&.\-]*\s+)*[\p{Lu}\d][\p{L}\d&.\-]*['’]s\s+`)
	// periodRE is a period named with the figure ("FY2019", "FY 2019",
	// "Q2 2023", "2021 Q1", "fiscal 2018", "year end", "year-end").
	periodRE = regexp.MustCompile(`(?i)\b(?:(?:fiscal\s+(?:year\s+)?|FY\s?)?(?:19|20)\d\d(?:\s*Q[1-4])?|Q[1-4]\s*(?:(?:19|20)\d\d)?|year[\s-]end(?:ed)?|fiscal\s+year)\b`)
	// measureLeadRE and measureTailRE are the words that say a figure is
	// one without naming which ("the total amount of", "… value").
	measureLeadRE = regexp.MustCompile(`(?i)^(?:the\s+)?(?:total\s+)?(?:amount|value|figure|level|sum)\s+of\s+(?:the\s+)?`)
	measureTailRE = regexp.MustCompile(`(?i)\s+(?:amount|value|figure|level)$`)
	// changeLeadRE is the change asked of a figure ("the year-over-year
	// change in X"): the figure is X, read in each year named, and the
	// change between them is worked out with the cells.
	changeLeadRE = regexp.MustCompile(`(?i)^(?:the\s+)?(?:year[\s-]over[\s-]year\s+|annual\s+)?(?:change|growth|increase|decrease|difference)\s+(?:in|of)\s+(?:the\s+)?`)
	// danglingRE is what a removed period leaves at the end ("… from to").
	danglingRE = regexp.MustCompile(`(?i)(?:\s+(?:from|between|to|and|in|for|of|at|as|on|by|during))+$`)
)
