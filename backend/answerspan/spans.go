package answerspan

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Type is the type of a candidate span.
type Type string

// Span types.
const (
	TName    Type = "name"   // a capitalised name
	TDate    Type = "date"   // a date or a year
	TNumber  Type = "number" // a count, amount, percentage or quantity
	TPhrase  Type = "phrase" // a defined term or noun phrase
	TDemonym Type = "demonym"
	TQuoted  Type = "quoted"
	TRole    Type = "role" // a common noun describing its subject ("aviator")
)

// Span is a candidate answer inside a sentence (byte offsets in the
// sentence).
type Span struct {
	Start, End int
	Text       string
	Type       Type
}

var (
	reDate = regexp.MustCompile(`\b(?:\d{1,2}\s+` + months + `,?\s+\d{1,4}|` + months + `\s+\d{1,2},?\s+\d{3,4}|` + months + `\s+\d{4}|(?:1[0-9]|20)\d{2}(?:\s*[–-]\s*\d{2,4})?s?|\d{1,4}\s+(?:BC|AD|BCE|CE))\b`)
	reQuot = regexp.MustCompile(`["“]([^"”]{2,80})["”]`)
)

// Spans lists the candidate answer spans of one sentence: names (runs of
// capitalised words, with connectors inside), dates, numbers and amounts,
// quoted titles, and demonyms.
func Spans(s string) []Span {
	var out []Span
	out = append(out, dateSpans(s)...)
	for _, m := range reNum.FindAllStringIndex(s, -1) {
		t := strings.TrimRight(s[m[0]:m[1]], " ,")
		// Keep the unit word only when it is a plain lower-case noun.
		if i := strings.LastIndex(t, " "); i > 0 {
			unit := t[i+1:]
			if analyzeStop(unit) || !isLowerWord(unit) {
				t = t[:i]
			}
		}
		out = append(out, Span{Start: m[0], End: m[0] + len(t), Text: t, Type: TNumber})
	}
	for _, m := range reWord.FindAllStringIndex(s, -1) {
		out = append(out, Span{Start: m[0], End: m[1], Text: s[m[0]:m[1]], Type: TNumber})
	}
	for _, m := range reQuot.FindAllStringSubmatchIndex(s, -1) {
		out = append(out, Span{Start: m[2], End: m[3], Text: s[m[2]:m[3]], Type: TQuoted})
	}
	out = append(out, names(s)...)
	return out
}

// reMonthNext is a month name right after a date match: the match's
// "year – day" is then a year and the start of the next full date.
var reMonthNext = regexp.MustCompile(`^\s+` + months)

// dateSpans are the dates of s. A life span "(1402 – 3 March 1466)" is
// two dates, the year and the full date, not the year range "1402 – 3"
// and "March 1466".
func dateSpans(s string) []Span {
	var out []Span
	for from := 0; from < len(s); {
		m := reDate.FindStringIndex(s[from:])
		if m == nil {
			break
		}
		a, b := from+m[0], from+m[1]
		if dash := strings.IndexAny(s[a:b], "–-"); dash > 0 && reMonthNext.MatchString(s[b:]) {
			y := strings.TrimSpace(s[a : a+dash])
			out = append(out, Span{Start: a, End: a + len(y), Text: y, Type: TDate})
			_, w := utf8.DecodeRuneInString(s[a+dash:])
			from = a + dash + w
			continue
		}
		out = append(out, Span{Start: a, End: b, Text: s[a:b], Type: TDate})
		from = b
	}
	return out
}

func isLowerWord(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if !unicode.IsLower(r) {
			return false
		}
	}
	return true
}

func analyzeStop(w string) bool { return commonStop[w] }

type tok struct {
	start, end int
	text       string
}

func words(s string) []tok {
	var out []tok
	start := -1
	for i, r := range s {
		word := unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '’' || r == '-' || r == '.' && start >= 0 || r == '&'
		if word {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = append(out, tok{start, i, s[start:i]})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, tok{start, len(s), s[start:]})
	}
	// A trailing period ends a sentence, not an initial (keep "Jr." "J.").
	for i := range out {
		t := &out[i]
		if strings.HasSuffix(t.text, ".") && len([]rune(t.text)) > 3 && !strings.Contains(t.text[:len(t.text)-1], ".") {
			t.end--
			t.text = t.text[:len(t.text)-1]
		}
	}
	return out
}

func capWord(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

// names finds runs of capitalised words (plus connectors inside a run, and
// Roman numerals), dropping a sentence's capitalised function word.
func names(s string) []Span {
	ws := words(s)
	var out []Span
	for i := 0; i < len(ws); {
		if !capWord(ws[i].text) || leadStop[ws[i].text] && (i == 0 || sentenceStartBefore(s, ws[i].start)) {
			i++
			continue
		}
		j := i + 1
		last := i
		for j < len(ws) {
			// Only a space (or a hyphen) may separate the words of one name.
			gap := s[ws[j-1].end:ws[j].start]
			if gap != " " && gap != "-" && gap != " & " {
				break
			}
			w := ws[j].text
			if capWord(w) || isRoman(w) {
				last = j
				j++
				continue
			}
			if connector[strings.ToLower(w)] && w == strings.ToLower(w) && j+1 < len(ws) && capWord(ws[j+1].text) && s[ws[j].end:ws[j+1].start] == " " {
				j++
				continue
			}
			// "Department of the Treasury", "Battle of the Varn" (after
			// one word: "Ada Brook of the Velvet Larks" is two names).
			if j == i+1 && (w == "of" || w == "for" || w == "on" || w == "in") && j+2 < len(ws) && ws[j+1].text == "the" && capWord(ws[j+2].text) && s[ws[j].end:ws[j+1].start] == " " && s[ws[j+1].end:ws[j+2].start] == " " {
				j += 2
				continue
			}
			break
		}
		start, end := ws[i].start, ws[last].end
		if last == i && calendar[ws[i].text] {
			i++
			continue
		}
		// "The" starts a name only inside the sentence ("The Velvet Larks").
		out = append(out, Span{Start: start, End: end, Text: s[start:end], Type: TName})
		if isDemonym(ws[i].text) {
			out = append(out, Span{Start: ws[i].start, End: ws[i].end, Text: ws[i].text, Type: TDemonym})
		}
		// The parts of a long run joined by "of"/"and" are candidates too.
		if last > i {
			sub := i
			for k := i + 1; k <= last; k++ {
				lw := ws[k].text
				if connector[lw] && lw != "of" && lw != "the" || lw == "and" {
					if k-1 >= sub {
						out = append(out, Span{Start: ws[sub].start, End: ws[k-1].end, Text: s[ws[sub].start:ws[k-1].end], Type: TName})
					}
					sub = k + 1
				}
			}
			if sub > i && sub <= last {
				out = append(out, Span{Start: ws[sub].start, End: ws[last].end, Text: s[ws[sub].start:ws[last].end], Type: TName})
			}
		}
		i = last + 1
	}
	return out
}

func sentenceStartBefore(s string, at int) bool {
	pre := strings.TrimRight(s[:at], " ")
	if pre == "" {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(pre)
	return strings.ContainsRune(".!?:;\"“(", r)
}

func isRoman(w string) bool {
	if w == "" || len(w) > 5 {
		return false
	}
	for _, r := range w {
		if !strings.ContainsRune("IVXL", r) {
			return false
		}
	}
	return true
}

func isDemonym(w string) bool {
	if demonymExact[w] {
		return true
	}
	if len(w) < 5 || !unicode.IsUpper([]rune(w)[0]) {
		return false
	}
	return strings.HasSuffix(w, "ian") || strings.HasSuffix(w, "ean") || strings.HasSuffix(w, "can") || strings.HasSuffix(w, "ese") || strings.HasSuffix(w, "ish") || w == "German" || w == "Korean" || w == "Mexican" || w == "American"
}
