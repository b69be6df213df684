package search

import (
	"strings"
	"unicode/utf8"

	"cairn/backend/analyze"
)

// snippetTerms are the terms a snippet is centred on: the query's content
// words of two letters or more and its CJK bigrams.
func snippetTerms(toks []analyze.Token) []string {
	var terms []string
	for _, t := range toks {
		if t.CJK {
			terms = append(terms, analyze.Bigrams(t.Text)...)
		} else if !analyze.IsStop(t.Text) && len(t.Text) > 1 {
			terms = append(terms, t.Text)
		}
	}
	return terms
}

// snippet is Snippet around terms.
func snippet(text string, terms []string, width int) string {
	text = strings.Join(strings.Fields(strings.ReplaceAll(text, "\f", " ")), " ")
	if len(text) <= width {
		return text
	}
	lower := strings.ToLower(text)
	best, bestScore := 0, -1
	for start := 0; start < len(lower); start += width / 4 {
		end := min(len(lower), start+width)
		sc := 0
		for _, t := range terms {
			sc += strings.Count(lower[start:end], t)
		}
		if sc > bestScore {
			best, bestScore = start, sc
		}
	}
	start, end := best, min(len(text), best+width)
	for start > 0 && !utf8.RuneStart(text[start]) {
		start--
	}
	for end < len(text) && !utf8.RuneStart(text[end]) {
		end++
	}
	if start > 0 {
		if i := strings.IndexByte(text[start:end], ' '); i >= 0 && i < 20 {
			start += i + 1
		}
	}
	if end < len(text) {
		if i := strings.LastIndexByte(text[start:end], ' '); i > len(text[start:end])-20 {
			end = start + i
		}
	}
	out := text[start:end]
	if start > 0 {
		out = "…" + out
	}
	if end < len(text) {
		out += "…"
	}
	return out
}
