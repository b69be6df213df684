package analyze

import (
	"strings"
	"unicode/utf16"
)

// Mark is a [Start, End) range of a text in UTF-16 offsets (a JavaScript
// string's indices).
type Mark struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Marks finds, in text, what query matches the way search does, for the UI
// to highlight: every word whose stem is the stem of one of the query's
// content words (stop words and one-letter words match nothing), and every
// occurrence of one of the query's CJK bigrams; ascending, overlapping marks
// merged, none when nothing matches.
func Marks(query, text string) []Mark {
	stems := map[string]bool{}
	var grams []string
	for _, t := range Tokens(query) {
		switch {
		case t.CJK:
			grams = append(grams, Bigrams(t.Text)...)
		case len(t.Text) > 1 && !IsStop(t.Text):
			stems[Stem(t.Text)] = true
		}
	}
	if len(stems) == 0 && len(grams) == 0 {
		return nil
	}
	var byteMarks [][2]int
	scanWords(text, true, func(start, end int, cjk bool) {
		run := text[start:end]
		if cjk {
			for _, g := range grams {
				for at := 0; ; {
					i := strings.Index(run[at:], g)
					if i < 0 {
						break
					}
					byteMarks = append(byteMarks, [2]int{start + at + i, start + at + i + len(g)})
					at += i + len(g)
				}
			}
		} else if ts := Tokens(run); len(ts) == 1 && stems[Stem(ts[0].Text)] {
			byteMarks = append(byteMarks, [2]int{start, end})
		}
	})
	return utf16Marks(text, mergeMarks(byteMarks))
}

// mergeMarks sorts byte ranges and merges the overlapping ones.
func mergeMarks(ms [][2]int) [][2]int {
	for i := 1; i < len(ms); i++ { // insertion sort: few marks, mostly in order
		for j := i; j > 0 && ms[j][0] < ms[j-1][0]; j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
	var out [][2]int
	for _, m := range ms {
		if n := len(out); n > 0 && m[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], m[1])
			continue
		}
		out = append(out, m)
	}
	return out
}

// utf16Marks turns sorted byte ranges of text into UTF-16 offsets.
func utf16Marks(text string, ms [][2]int) []Mark {
	if len(ms) == 0 {
		return nil
	}
	pos := make([][2]int, len(ms))
	k, u := 0, 0 // next boundary to convert (2k: a start, 2k+1: an end), UTF-16 offset
	at := func(b int) bool { return ms[k/2][k%2] == b }
	for i, r := range text {
		for k < 2*len(ms) && at(i) {
			pos[k/2][k%2] = u
			k++
		}
		u += utf16.RuneLen(r)
	}
	for k < 2*len(ms) {
		pos[k/2][k%2] = u
		k++
	}
	out := make([]Mark, len(pos))
	for i, p := range pos {
		out[i] = Mark{Start: p[0], End: p[1]}
	}
	return out
}
