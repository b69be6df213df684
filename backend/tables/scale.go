package tables

import (
	"regexp"
	"strings"
)

// scaleRE finds a scale a table states for its figures ("(Millions)",
// "in thousands, except per share data", "$ in billions").
var scaleRE = regexp.MustCompile(`(?i)(?:^|[\s(\[$,])(?:in\s+)?(thousands|millions|billions)\b`)

// scales are the multipliers of the scale words.
var scales = map[string]float64{"thousands": 1e3, "millions": 1e6, "billions": 1e9}

// Scale is the multiplier a table's stub or title states for its figures
// (1e6 for "(In Millions, Except Par Value)"); 0 when it states none.
func Scale(text string) float64 {
	m := scaleRE.FindStringSubmatch(text)
	if m == nil {
		return 0
	}
	return scales[strings.ToLower(m[1])]
}

// ScaleName is the word for a multiplier ("million"); "" for others.
func ScaleName(v float64) string {
	for w, s := range scales {
		if s == v {
			return strings.TrimSuffix(w, "s")
		}
	}
	return ""
}
