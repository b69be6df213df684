package answerspan

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"cairn/backend/analyze"
	"cairn/backend/tables"
)

// LongForms finds where text writes out the short form short: the words
// whose initials spell it (function words passed over, see tables.Spell),
// set just before it in parentheses ("Quiet River Test Laboratory
// (QRTL)"), in parentheses just after it ("QRTL (Quiet River Test
// Laboratory)"), or after it at the start of a line of a list of
// abbreviations ("QRTL – Quiet River Test Laboratory", "QRTL | Quiet …").
// Each span is the long form alone (byte offsets in text), in the order
// found.
func LongForms(short, text string) []Span {
	var out []Span
	for from := 0; from < len(text); {
		i := strings.Index(text[from:], short)
		if i < 0 {
			break
		}
		at := from + i
		end := at + len(short)
		from = end
		if !wordEdge(text, at, end) {
			continue
		}
		if sp, ok := longBefore(short, text, at, end); ok {
			out = append(out, sp)
		} else if sp, ok := longAfter(short, text, at, end); ok {
			out = append(out, sp)
		}
	}
	return out
}

// wordEdge reports whether text[a:b] stands as a word of its own.
func wordEdge(text string, a, b int) bool {
	if a > 0 {
		r, _ := utf8.DecodeLastRuneInString(text[:a])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	if b < len(text) {
		r, _ := utf8.DecodeRuneInString(text[b:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// longBefore reads "Long Form (SF)": the run of words spelling short that
// ends just before the parenthesis around it.
func longBefore(short, text string, at, end int) (Span, bool) {
	open := strings.LastIndexFunc(text[:at], func(r rune) bool { return !unicode.IsSpace(r) && !strings.ContainsRune(`"“'‘`, r) })
	if open < 0 || text[open] != '(' {
		return Span{}, false
	}
	if close := strings.IndexFunc(text[end:], func(r rune) bool { return !unicode.IsSpace(r) && !strings.ContainsRune(`"”'’`, r) }); close < 0 || !strings.ContainsRune("),;", rune(text[end+close])) {
		return Span{}, false
	}
	// The words before it on its line and in its clause.
	start := strings.LastIndexAny(text[:open], "\n.;:()[]|") + 1
	before := text[start:open]
	trimmed := strings.TrimRightFunc(before, func(r rune) bool { return unicode.IsSpace(r) || r == ',' || r == '-' || r == '–' })
	if trimmed == "" {
		return Span{}, false
	}
	// The shortest run at its end that spells it: try each word start
	// from the right.
	for s := len(trimmed) - 1; s >= 0; s-- {
		if s > 0 && !unicode.IsSpace(rune(trimmed[s-1])) {
			continue
		}
		run := tables.Spell(short, trimmed[s:], analyze.IsStop)
		if run != "" && strings.HasSuffix(trimmed, run) && strings.HasPrefix(trimmed[s:], run) {
			a := start + s
			return Span{Start: a, End: a + len(run), Text: run, Type: TPhrase}, true
		}
	}
	return Span{}, false
}

// longAfter reads "SF (Long Form)" and a line of a list of abbreviations
// that opens with the short form ("SF – Long Form", "SF: Long Form",
// "SF | Long Form"): the run of words spelling short that starts right
// after it.
func longAfter(short, text string, at, end int) (Span, bool) {
	rest := text[end:]
	lineEnd := strings.IndexByte(rest, '\n')
	if lineEnd < 0 {
		lineEnd = len(rest)
	}
	rest = rest[:lineEnd]
	lead := len(rest) - len(strings.TrimLeft(rest, " \t"))
	var body string
	var off int
	switch {
	case strings.HasPrefix(rest[lead:], "("):
		closeAt := strings.IndexByte(rest, ')')
		if closeAt < 0 {
			return Span{}, false
		}
		off = lead + 1
		body = rest[off:closeAt]
	case lineStart(text, at):
		sep := strings.TrimLeft(rest, " \t:–—-|=")
		off = len(rest) - len(sep)
		if off == 0 {
			return Span{}, false
		}
		body = sep
	default:
		return Span{}, false
	}
	body = strings.TrimRight(body, " \t.,;")
	lb := len(body) - len(strings.TrimLeft(body, " \t\"“'‘"))
	off += lb
	body = body[lb:]
	run := tables.Spell(short, body, analyze.IsStop)
	if run == "" || !strings.HasPrefix(body, run) {
		return Span{}, false
	}
	a := end + off
	return Span{Start: a, End: a + len(run), Text: run, Type: TPhrase}, true
}

// lineStart reports whether only spaces stand between the line's start
// and at.
func lineStart(text string, at int) bool {
	ls := strings.LastIndexByte(text[:at], '\n') + 1
	return strings.TrimSpace(text[ls:at]) == ""
}
