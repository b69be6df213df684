package pdf

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"cairn/backend/ingest/parsed"
	"cairn/backend/lexicon"
)

// Words cut before their last letters: some producers place a word's last
// one or two glyphs as a text object of their own, a little further on
// than its letters stand from each other ("Consolidated Balance Shee t",
// "Item 1. Busines s", "Knowled ge"), often as far as the face's narrow
// word space, so no gap threshold tells them from a word break (pdftotext
// reads them the same way). The document itself does: such a fragment
// pair is one word when the joined word is printed whole elsewhere in the
// document and the first part is never a word of its own there. The tail
// is never a function word of any lexicon ("direct or indirect" stays two
// words even in a document that prints "director" and never "direct"
// alone) and the head has three letters or more.

// minJoinedSeen is how often the joined word must be printed whole
// elsewhere in the document.
const minJoinedSeen = 2

// letterSpan is one run of letters of a block's text.
type letterSpan struct {
	block      int
	start, end int // byte offsets in the block's text
}

// joinSplitWords joins, in the blocks' texts, the word fragments a
// producer placed apart (see above).
func joinSplitWords(blocks []parsed.Block) {
	var spans []letterSpan
	seen := map[string]int{} // lower-case word → times printed
	for bi, b := range blocks {
		for _, sp := range letterRuns(b.Text) {
			spans = append(spans, letterSpan{bi, sp[0], sp[1]})
			seen[strings.ToLower(b.Text[sp[0]:sp[1]])]++
		}
	}
	word := func(s letterSpan) string { return blocks[s.block].Text[s.start:s.end] }
	// A head followed by a fragment, and how often each head is so split.
	var pairs []int
	heads := map[string]int{}
	for i := 0; i+1 < len(spans); i++ {
		a, b := spans[i], spans[i+1]
		if a.block != b.block || b.start != a.end+1 || blocks[a.block].Text[a.end] != ' ' {
			continue
		}
		head, tail := word(a), word(b)
		if utf8.RuneCountInString(head) < 3 || utf8.RuneCountInString(tail) > 2 || !allLower(tail) {
			continue
		}
		if last, _ := utf8.DecodeLastRuneInString(head); !unicode.IsLower(last) {
			continue
		}
		pairs = append(pairs, i)
		heads[strings.ToLower(head)]++
	}
	stop := functionWords()
	joinAt := map[int][]int{} // block → byte offsets of the spaces to drop
	for _, i := range pairs {
		head, tail := strings.ToLower(word(spans[i])), strings.ToLower(word(spans[i+1]))
		if stop[tail] || seen[head] != heads[head] || seen[head+tail] < minJoinedSeen {
			continue
		}
		joinAt[spans[i].block] = append(joinAt[spans[i].block], spans[i].end)
	}
	for bi, at := range joinAt {
		t := blocks[bi].Text
		var sb strings.Builder
		last := 0
		for _, p := range at { // in text order: pairs were found in order
			sb.WriteString(t[last:p])
			last = p + 1
		}
		sb.WriteString(t[last:])
		blocks[bi].Text = sb.String()
	}
}

// letterRuns are the byte ranges of the runs of letters in s.
func letterRuns(s string) [][2]int {
	var out [][2]int
	start := -1
	for i, r := range s {
		if unicode.IsLetter(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = append(out, [2]int{start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, [2]int{start, len(s)})
	}
	return out
}

func allLower(s string) bool {
	for _, r := range s {
		if !unicode.IsLower(r) {
			return false
		}
	}
	return true
}

// functionWords are the stopwords and function words of every lexicon,
// lower case (not the index stopwords: they hold contractions' tails,
// "s", "t", "ve", which are fragments here, not words).
var functionWords = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, lang := range lexicon.Languages() {
		l := lexicon.Of(lang)
		for _, cat := range []string{"stopwords", "function_words"} {
			if l.Has(cat) {
				for _, w := range l.Words(cat) {
					out[strings.ToLower(w)] = true
				}
			}
		}
	}
	return out
})
