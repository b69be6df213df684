package search

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"cairn/backend/lexicon"
)

// Named pages: a question that names a page ("what date is on page 2?",
// "the second page", "p. 7", "pages 3-4", "the last slide", "第3页") is
// looked for on that page, however few of its words the page repeats
// (a cover, a form, a slide). A page is named by its printed number (the
// page label the reader found: "page 1" of a report is often its fifth
// sheet) and by its place in the file; passages on a page printed with the
// number come first. English and Chinese wording, from the lexicons'
// page_nouns, ordinal_words, last_words and number_words.

// PageRef is one page a question names.
type PageRef struct {
	// Number is the page's place (1-based); 0 for a printed label that is
	// not a number ("page iv") or for the last page.
	Number int
	// Label is the page number as printed ("12", "iv"); "" for the last
	// page.
	Label string
	// Last is "the last page".
	Last bool
}

// maxPageRange is how many pages a range ("pages 3-40") names at most.
const maxPageRange = 10

var (
	en          = lexicon.English()
	pageNouns   = en.Set("page_nouns")
	ordinals    = en.Words("ordinal_words")
	lastWords   = en.Set("last_words")
	numberWords = en.Words("number_words")
	// A page after 第 and a number, in Chinese.
	zhPageRE = regexp.MustCompile(`第\s*([0-9０-９]+|[一二两三四五六七八九十〇零]+)\s*(?:` + strings.Join(lexicon.Of("zh").Words("page_nouns"), "|") + `)`)
	// An ordinal written with digits: "2nd", "3rd".
	digitOrdinalRE = regexp.MustCompile(`^([0-9]+)(?:st|nd|rd|th)$`)
	romanRE        = regexp.MustCompile(`^[ivxlc]+$`)
	// Words and single marks; a page's number may follow "p." or "page (".
	pageTokenRE = regexp.MustCompile(`[\p{L}\p{N}]+|[^\s\p{L}\p{N}]`)
)

// PageRefs returns the pages question names, in the order named, each
// once.
func PageRefs(question string) []PageRef {
	var out []PageRef
	seen := map[PageRef]bool{}
	add := func(r PageRef) {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	for _, m := range zhPageRE.FindAllStringSubmatch(question, -1) {
		if n := zhNumber(m[1]); n > 0 {
			add(PageRef{Number: n, Label: strconv.Itoa(n)})
		}
	}
	toks := pageTokenRE.FindAllString(strings.ToLower(question), -1)
	for i, w := range toks {
		if pageNouns[w] {
			for _, r := range pagesAfter(w, toks[i+1:]) {
				add(r)
			}
			continue
		}
		// "the second page", "the 2nd slide", "the last page".
		if i+1 < len(toks) && (toks[i+1] == "page" || toks[i+1] == "slide") {
			if lastWords[w] {
				add(PageRef{Last: true})
			} else if n := ordinalValue(w); n > 0 {
				add(PageRef{Number: n, Label: strconv.Itoa(n)})
			}
		}
	}
	return out
}

// pagesAfter reads the page numbers that follow a page noun: one ("page
// 12", "page two", "p. 7", "page (1)", "page iv"), or a range or pair
// ("pages 3-4", "pages 3 to 5", "pages 3 and 7").
func pagesAfter(noun string, toks []string) []PageRef {
	j := 0
	for j < len(toks) && j < 2 && (toks[j] == "." || toks[j] == "(" || toks[j] == "#") {
		j++
	}
	if j == len(toks) {
		return nil
	}
	first, ok := numberValue(toks[j])
	if !ok {
		// A printed roman number ("page iv"), never after "p" (a letter
		// alone is too often something else) or a slide.
		if (noun == "page" || noun == "pages") && romanRE.MatchString(toks[j]) && len(toks[j]) <= 5 {
			return []PageRef{{Label: toks[j]}}
		}
		return nil
	}
	if (noun == "p" || noun == "pp") && !isDigits(toks[j]) {
		return nil
	}
	refs := []PageRef{{Number: first, Label: strconv.Itoa(first)}}
	k := j + 1
	if k+1 < len(toks) && (toks[k] == "-" || toks[k] == "–" || toks[k] == "to" || toks[k] == "and" || toks[k] == ",") {
		next := toks[k+1]
		// "from page 3 to page 10".
		if pageNouns[next] && k+2 < len(toks) {
			next = toks[k+2]
		}
		if last, ok := numberValue(next); ok && last > first {
			if toks[k] == "and" || toks[k] == "," {
				return append(refs, PageRef{Number: last, Label: strconv.Itoa(last)})
			}
			for n := first + 1; n <= last && n < first+maxPageRange; n++ {
				refs = append(refs, PageRef{Number: n, Label: strconv.Itoa(n)})
			}
		}
	}
	return refs
}

// numberValue is the value of a page number written with digits or as an
// English number word up to twenty.
func numberValue(w string) (int, bool) {
	if isDigits(w) {
		n, err := strconv.Atoi(w)
		return n, err == nil && n > 0 && n < 100000
	}
	for i, nw := range numberWords[:min(20, len(numberWords))] {
		if w == nw {
			return i + 1, true
		}
	}
	return 0, false
}

// ordinalValue is the place an ordinal names ("second" 2, "3rd" 3), 0 when
// w is none.
func ordinalValue(w string) int {
	if m := digitOrdinalRE.FindStringSubmatch(w); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	for i, o := range ordinals {
		if w == o {
			return i + 1
		}
	}
	return 0
}

func isDigits(w string) bool {
	for _, r := range w {
		if r < '0' || r > '9' {
			return false
		}
	}
	return w != ""
}

// zhNumber is the value of a page number in digits (ASCII or full width) or
// Chinese numerals up to 99 ("三" 3, "十二" 12, "二十" 20); 0 when it is
// none.
func zhNumber(s string) int {
	var digits strings.Builder
	for _, r := range s {
		if r >= '０' && r <= '９' {
			r = '0' + (r - '０')
		}
		if !unicode.IsDigit(r) {
			digits.Reset()
			break
		}
		digits.WriteRune(r)
	}
	if digits.Len() > 0 {
		n, _ := strconv.Atoi(digits.String())
		return n
	}
	val := map[rune]int{'〇': 0, '零': 0, '一': 1, '二': 2, '两': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}
	rs := []rune(s)
	switch {
	case len(rs) == 1 && rs[0] == '十':
		return 10
	case len(rs) == 1:
		return val[rs[0]]
	case len(rs) == 2 && rs[0] == '十':
		return 10 + val[rs[1]]
	case len(rs) == 2 && rs[1] == '十':
		return 10 * val[rs[0]]
	case len(rs) == 3 && rs[1] == '十':
		return 10*val[rs[0]] + val[rs[2]]
	}
	return 0
}

// pageList ranks the passages on the pages query names: those on a page
// printed with the number first, then those at that place in the file;
// each group in its fused order, then in reading order. Nil when the
// query names no page.
func (s *Searcher) pageList(ctx context.Context, query string, fused []int64, depth int) ([]int64, error) {
	refs := PageRefs(query)
	if len(refs) == 0 {
		return nil, nil
	}
	var numbers []int
	var labels []string
	last := false
	for _, r := range refs {
		if r.Number > 0 {
			numbers = append(numbers, r.Number)
		}
		if r.Label != "" {
			labels = append(labels, r.Label)
		}
		last = last || r.Last
	}
	byLabel, byPlace, err := s.Store.ChunksOnPages(ctx, s.Docs, numbers, labels, last)
	if err != nil {
		return nil, err
	}
	at := map[int64]int{}
	for i, id := range fused {
		at[id] = i
	}
	var out []int64
	seen := map[int64]bool{}
	for _, group := range [][]int64{byLabel, byPlace} {
		var ranked, rest []int64
		for _, id := range group {
			if seen[id] {
				continue
			}
			seen[id] = true
			if _, ok := at[id]; ok {
				ranked = append(ranked, id)
			} else {
				rest = append(rest, id)
			}
		}
		slices.SortStableFunc(ranked, func(a, b int64) int { return at[a] - at[b] })
		out = append(append(out, ranked...), rest...)
	}
	if len(out) > depth {
		out = out[:depth]
	}
	return out, nil
}
