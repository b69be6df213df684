package answerspan

import (
	"regexp"
	"sort"
	"strings"

	"cairn/backend/lexicon"
)

// The Chinese lexicon (backend/lexicon/zh.json): question cues by kind,
// and the numerals and units of an amount, a period or a date.
var (
	zh        = lexicon.Of("zh")
	zhKinds   = zh.Groups("question_kinds")
	zhNoShort = zh.Words("no_answer_cues")
	// reZhAmount is an amount: digits or Chinese numerals and a unit
	// ("六个月", "30日", "二倍"), or a share ("百分之三十").
	reZhAmount = regexp.MustCompile(`(?:[0-9０-９]+(?:\.[0-9]+)?|[` + strings.Join(zh.Words("numerals"), "") + `]+)(?:` + longestFirst(zh.Words("duration_units"), zh.Words("amount_units")) + `)|百分之[` + strings.Join(zh.Words("numerals"), "") + `0-9]+`)
	// reZhDate is a written date: a year of four digits, perhaps with its
	// month and day ("2020年5月1日").
	reZhDate = regexp.MustCompile(`[0-9０-９]{4}年(?:[0-9０-９]{1,2}月(?:[0-9０-９]{1,2}日)?)?`)
)

// classifyZh reads a Chinese question with the Chinese lexicon's cues. It
// asks for an amount or a period (多久, 多少, 几年: Number) or a date (何时,
// 哪一年: Date), which the Chinese spans (zhSpans) can answer; a question
// of another kind (谁, 哪里, 什么是, 是否) or asking how or why stays
// Unknown: its best supporting sentences answer it.
func classifyZh(text string) Question {
	out := Question{Text: text, Kind: Unknown, Lang: "zh"}
	if containsAny(text, zhNoShort) {
		return out
	}
	for _, k := range []struct {
		cue  string
		kind Kind
	}{{"yes-no", Unknown}, {"what-is", Unknown}, {"when", Date}, {"how many", Number}, {"where", Unknown}, {"who", Unknown}} {
		if containsAny(text, zhKinds[k.cue]) {
			out.Kind = k.kind
			return out
		}
	}
	return out
}

// zhSpans are the amounts and dates of a Chinese sentence; an article's
// number ("第三十条") is no amount.
func zhSpans(s string) []Span {
	var out []Span
	dates := reZhDate.FindAllStringIndex(s, -1)
	for _, m := range dates {
		out = append(out, Span{Start: m[0], End: m[1], Text: s[m[0]:m[1]], Type: TDate})
	}
	for _, m := range reZhAmount.FindAllStringIndex(s, -1) {
		if strings.HasSuffix(s[:m[0]], "第") {
			continue
		}
		inDate := false
		for _, d := range dates {
			if m[0] < d[1] && d[0] < m[1] {
				inDate = true
			}
		}
		if !inDate {
			out = append(out, Span{Start: m[0], End: m[1], Text: s[m[0]:m[1]], Type: TNumber})
		}
	}
	return out
}

// NoShortReason says why a question gets no short answer when its
// language has no lexicon ("" when it has one).
func NoShortReason(q Question) string {
	if !q.NoLexicon {
		return ""
	}
	return "no short answer: Cairn reads questions in English and Chinese, and this one reads as " + lexicon.Name(q.Lang) + "; the answer is the best supporting sentences of the passages"
}

// longestFirst is an alternation of the words of the lists, longer words
// first, so that a unit is read whole ("周岁" before "周").
func longestFirst(lists ...[]string) string {
	var ws []string
	for _, l := range lists {
		ws = append(ws, l...)
	}
	sort.SliceStable(ws, func(i, j int) bool { return len(ws[i]) > len(ws[j]) })
	for i, w := range ws {
		ws[i] = regexp.QuoteMeta(w)
	}
	return strings.Join(ws, "|")
}
