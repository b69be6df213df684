package extract

import "strings"

// nounType is the type a class noun (singular or plural) describes, or ""
// when the word says nothing about a name's kind.
func nounType(w string) string {
	w = strings.ToLower(strings.Trim(w, ".,;:'’\""))
	if w == "" {
		return ""
	}
	if t, ok := classNouns[w]; ok {
		return t
	}
	if t, ok := classNouns[irregularPlurals[w]]; ok {
		return t
	}
	for _, suf := range pluralSuffixes {
		if strings.HasSuffix(w, suf) && len(w) > len(suf)+2 {
			stem := strings.TrimSuffix(w, suf)
			if suf == "ies" {
				stem += "y"
			}
			if t, ok := classNouns[stem]; ok {
				return t
			}
		}
	}
	if personNoun(w) {
		return "person"
	}
	return ""
}

// personNoun reads a noun of a person by its ending: "racer", "sculptor",
// "cellist", "comedian", "spokesman".
func personNoun(w string) bool {
	if notPersonNouns[w] || len(w) < 5 {
		return false
	}
	for _, suf := range personSuffixes {
		if strings.HasSuffix(w, suf) {
			return !strings.HasSuffix(w, "eer") || personEerNouns[w]
		}
	}
	return false
}
