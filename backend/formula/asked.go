package formula

import (
	"regexp"
	"strconv"
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
	s, ok := askedPhrase(question)
	if !ok || len(strings.Fields(s)) > maxAskedWords {
		return "", false
	}
	return s, true
}

// askedPhrase is the figure's phrase as Asked reads it, of any length.
func askedPhrase(question string) (string, bool) {
	m := askedRE.FindStringSubmatch(question)
	if m == nil {
		// Or a change asked of it ("By how much did X rise from 2019 to
		// 2020?", "How much higher was X in 2020 than in 2019?").
		if m = movedRE.FindStringSubmatch(question); m == nil {
			if m = comparedRE.FindStringSubmatch(question); m == nil {
				return "", false
			}
		}
	}
	s := parenRE.ReplaceAllString(m[1], " ")
	s = ownerTailRE.ReplaceAllString(s, "")
	s = ownerRE.ReplaceAllString(s, "")
	s = datedPeriodRE.ReplaceAllString(s, " ")
	s = periodRE.ReplaceAllString(s, " ")
	s = strings.Join(strings.Fields(s), " ")
	for {
		// The owner's name may stand before the period just removed
		// ("… for Acme in FY2021").
		t := ownerTailRE.ReplaceAllString(s, "")
		t = measureLeadRE.ReplaceAllString(t, "")
		t = measureTailRE.ReplaceAllString(t, "")
		t = changeLeadRE.ReplaceAllString(t, "")
		t = danglingRE.ReplaceAllString(t, "")
		t = periodEdgeRE.ReplaceAllString(t, "")
		t = leadingDanglingRE.ReplaceAllString(t, "")
		t = strings.TrimSpace(t)
		if t == s || t == "" {
			break
		}
		s = t
	}
	s = name(strings.TrimLeft(s, " -–—:,"))
	return s, s != ""
}

// AskedFormula reads the arithmetic a question's asked figure states by
// its wording, when it defines none: "A as a % of B" (or a percentage, a
// share of B) is A / B, "the A to B ratio" (or "the ratio of A to B", or
// "A to B" asked rounded) is A / B, "the A margin" is A / revenue, and
// "the 3 year average of E" over a span of years the question names ("FY2017 -
// FY2019") is the mean of E in each year of it. ok is false when the
// figure's phrase says none of these.
func AskedFormula(question string) (Formula, bool) {
	s, ok := askedPhrase(question)
	if !ok {
		return Formula{}, false
	}
	target := s
	averaged := false
	if m := averageOfRE.FindStringSubmatch(s); m != nil {
		s, averaged = m[1], true
	}
	var e *Expr
	if m := shareOfRE.FindStringSubmatch(s); m != nil {
		e = &Expr{Op: '/', L: &Expr{Name: name(m[1])}, R: &Expr{Name: name(m[2])}}
	} else if m := toRatioRE.FindStringSubmatch(s); m != nil {
		e = &Expr{Op: '/', L: &Expr{Name: name(m[1])}, R: &Expr{Name: name(m[2])}}
	} else if m := marginRE.FindStringSubmatch(s); m != nil {
		// A margin is a figure as a share of revenue ("operating
		// margin": operating income / revenue).
		e = &Expr{Op: '/', L: &Expr{Name: name(m[1])}, R: &Expr{Name: marginBase}}
	} else if m := ratioOfRE.FindStringSubmatch(s); m != nil {
		e = &Expr{Op: '/', L: &Expr{Name: name(m[1])}, R: &Expr{Name: name(m[2])}}
	} else if m := bareToRE.FindStringSubmatch(s); m != nil && roundedRE.MatchString(question) {
		// "A to B" without the word "ratio" is one when the question
		// asks the answer rounded to decimals.
		e = &Expr{Op: '/', L: &Expr{Name: name(m[1])}, R: &Expr{Name: name(m[2])}}
	} else if averaged {
		e = &Expr{Name: name(s)}
	} else {
		return Formula{}, false
	}
	if averaged {
		a, b, ok := YearRange(question)
		if !ok {
			return Formula{}, false
		}
		var sum *Expr
		for y := a; y <= b; y++ {
			term := substitute(e, nil, 0).inYear(y)
			term.Paren = term.Op != 0
			if sum == nil {
				sum = term
			} else {
				sum = &Expr{Op: '+', L: sum, R: term}
			}
		}
		sum.Paren = true
		e = &Expr{Op: '/', L: sum, R: &Expr{Num: float64(b - a + 1)}}
	}
	return Formula{Target: target, Expr: e}, true
}

// maxYearSpan is the longest span of years YearRange reads.
const maxYearSpan = 10

// yearRangeRE finds a span of years ("FY2015 - FY2017", "2019–2021",
// "2015 to 2017").
var yearRangeRE = regexp.MustCompile(`(?i)\b(?:FY\s?)?((?:19|20)\d\d)\s*(?:-|–|—|to|through)\s*(?:FY\s?)?((?:19|20)\d\d)\b`)

// YearRange finds the first span of years a text names ("FY2015 -
// FY2017"): its first and last year, the first before the last and at most
// maxYearSpan apart.
func YearRange(text string) (first, last int, ok bool) {
	for _, m := range yearRangeRE.FindAllStringSubmatch(text, -1) {
		a, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[2])
		if a < b && b-a <= maxYearSpan {
			return a, b, true
		}
	}
	return 0, 0, false
}

// marginBase is what a margin divides by: the revenue, as statements
// name their top line.
const marginBase = "revenue"

// maxAskedWords is the longest phrase read as a figure's name: a longer one
// is a clause, not a name.
const maxAskedWords = 8

var (
	// parenRE is a parenthesis inside the asked phrase ("(in USD millions)").
	parenRE = regexp.MustCompile(`\s*\([^)]*\)`)
	// ownerTailRE is the whose-figure tail ("… for Acme Corp", "… of X9"):
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
	// movedRE asks how far a figure moved ("how much did X increase",
	// "what percentage did X grow").
	movedRE = regexp.MustCompile(`(?i)\b(?:by\s+)?(?:how\s+much|what\s+percent(?:age)?|how\s+many\s+percent(?:age\s+points)?)\s+(?:did|does|has|have|had|was|were|is|are)\s+(.+?)\s+(?:increase|decrease|grow|rise|fall|decline|drop|change|shrink|improve|go\s+up|go\s+down)d?\b`)
	// comparedRE asks how much a figure differs between periods ("how much
	// higher was X in 2002 compared to 2001").
	comparedRE = regexp.MustCompile(`(?i)\bhow\s+much\s+(?:higher|lower|more|less|greater|larger|smaller|bigger)\s+(?:was|were|is|are|did)\s+(.+?)\s+(?:in|for|at|during)\s+(?:FY\s?|fiscal\s+(?:year\s+)?)?(?:19|20)\d\d`)
	// averageOfRE is an average asked over years ("3 year average of X",
	// "the average X").
	averageOfRE = regexp.MustCompile(`(?i)^(?:the\s+)?(?:\d+|one|two|three|four|five)?[\s-]*(?:years?[\s-]+)?average\s+(?:of\s+)?(?:the\s+)?(.+)$`)
	// shareOfRE is a figure asked as a part of another ("X as a % of Y").
	shareOfRE = regexp.MustCompile(`(?i)^(.+?)\s+as\s+(?:an?\s+)?(?:%|percent(?:age)?|share|proportion|fraction)\s+of\s+(?:the\s+)?(.+)$`)
	// toRatioRE is a ratio asked by its two terms ("the X to Y ratio").
	toRatioRE = regexp.MustCompile(`(?i)^(.+?)\s+to\s+(.+?)\s+ratio$`)
	// marginRE is a margin asked of a figure ("the D&A % margin", "the
	// operating margin"): the figure's name, at least one word besides
	// "margin".
	marginRE = regexp.MustCompile(`(?i)^(.+?)\s+(?:%\s+)?margin(?:\s+%|\s+\(?(?:as\s+a\s+)?(?:%|percent(?:age)?)\)?)?$`)
	// ratioOfRE is a ratio asked the other way round ("the ratio of X to
	// Y", "the ratio between X and Y").
	ratioOfRE = regexp.MustCompile(`(?i)^(?:the\s+)?ratio\s+(?:of|between)\s+(?:the\s+)?(.+?)\s+(?:to|and)\s+(?:the\s+)?(.+)$`)
	// bareToRE is "X to Y" alone, each side a few words; roundedRE a
	// question asking its answer to some decimal places, which makes such
	// a phrase a ratio.
	bareToRE  = regexp.MustCompile(`(?i)^((?:[\p{L}\d&'’\-]+\s+){0,3}[\p{L}\d&'’\-]+)\s+to\s+((?:[\p{L}\d&'’\-]+\s+){0,3}[\p{L}\d&'’\-]+)$`)
	roundedRE = regexp.MustCompile(`(?i)\bround(?:ed)?\b[^.?!]*\b(?:decimals?|decimal\s+places?|places?)\b`)
	// datedPeriodRE is a period named by its last day ("the fiscal year
	// ending June 27, 2025", "as of May 31, 2024"), English month names.
	datedPeriodRE = regexp.MustCompile(`(?i)\b(?:(?:for|in|during|as\s+of|at)\s+)?(?:the\s+)?(?:(?:fiscal\s+)?(?:year|quarter|period)\s+(?:ending|ended)\s+|as\s+of\s+)?(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+\d{1,2},?\s+(?:19|20)\d\d\b`)
	// leadingDanglingRE is what removed periods leave at the start ("to
	// average X" of "2021 to 2023 average X").
	leadingDanglingRE = regexp.MustCompile(`(?i)^(?:(?:from|between|to|and|through|-|–|—)\s+)+`)
	// danglingRE is what a removed period leaves at the end ("… from to").
	// periodEdgeRE is what the edge of a period removed leaves at the end
	// ("… at the end" of "… at the end of 2022", "as of the close", "in
	// the fourth quarter" of "… in the fourth quarter of fiscal 2022").
	periodEdgeRE = regexp.MustCompile(`(?i)(?:\s+(?:at|by|as\s+of|on|from|in|for|during))?\s+(?:the\s+)?(?:end|close|beginning|start|(?:first|second|third|fourth)\s+(?:fiscal\s+)?quarter)$`)
	danglingRE   = regexp.MustCompile(`(?i)(?:\s+(?:from|between|to|and|in|for|of|at|as|on|by|during))+$`)
)
