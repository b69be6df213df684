package pdf

import (
	"math"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Headings set like the body. Many documents set their section titles at
// (or near) the body size, neither larger nor bold: in capitals, in
// another face or colour, or plainly, on a line of their own with a
// section number ("2.1. Data sets", "4 MAIN RESULTS"). One such line could
// be anything; the same style seen on several numbered lines of the
// document, each standing alone between paragraphs, is a heading style.
// A run of numbered lines one after another is a list, not headings.

// minTitleStyleUses: a style is a heading style when at least this many
// numbered title lines of the document use it.
const minTitleStyleUses = 3

// numberedTitleRE matches a numbered title: a decimal section number
// ("3", "2.1.", "4.3.1"), a Roman one with a period ("II.") or an
// appendix number ("C.2"), then a capital letter; or a decimal number
// then an ideograph.
var numberedTitleRE = regexp.MustCompile(`^(\d{1,2}(?:\.\d{1,2}){0,4}\.?|[IVX]{1,5}\.|[A-Z](?:\.\d{1,2}){1,3}\.?|[A-Z]\.)\s+\p{Lu}|^(\d{1,2}(?:\.\d{1,2}){0,4}\.?)\s*\p{Han}`)

// labelTitleRE matches a title opened by a label word and its number
// ("Item 1A. Risk Factors", "Note 3 – Leases", "Chapter IV: The Sea"): a
// capitalised word, a number (digits with an optional letter or dotted
// parts, or a Roman numeral), a period, a colon or a dash, then a
// capital. A caption ("Table 2: …") is none.
var labelTitleRE = regexp.MustCompile(`^\p{Lu}\p{Ll}{1,11}\s+(\d{1,3}[A-Z]?(?:\.\d{1,2}){0,3}|[IVX]{1,5})(?:[.:]|\s+[–—-])\s*\p{Lu}`)

// maxLabelledTitleRunes and maxLabelledTitleWords bound a labelled
// title in title case ("Item 12. Security Ownership of Certain Beneficial
// Owners and Management and Related Stockholder Matters."): longer than a
// numbered one may be, still no paragraph.
const (
	maxLabelledTitleRunes = 140
	maxLabelledTitleWords = 20
)

// titleCased reports whether s is written in title case: of its words of
// four letters or more, nine in ten or more open with a capital ("Changes
// in and Disagreements With Accountants", not "Section 2. For this
// purpose and to the extent …").
func titleCased(s string) bool {
	long, capped := 0, 0
	for _, w := range strings.Fields(s) {
		w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) })
		if utf8.RuneCountInString(w) < 4 {
			continue
		}
		long++
		if r, _ := utf8.DecodeRuneInString(w); unicode.IsUpper(r) {
			capped++
		}
	}
	return long > 0 && 10*capped >= 9*long
}

// letterLabelRE matches a lettered subsection number ("B."), one level
// below a Roman section.
var letterLabelRE = regexp.MustCompile(`^[A-HJ-UWYZ]\.$`)

// appendixCapsRE matches an appendix title in capitals ("B DATASET
// STATISTICS"): a lone capital letter as its number.
var appendixCapsRE = regexp.MustCompile(`^[A-Z]\s+\p{Lu}{2}`)

// titleStyle is what tells one heading style from another here: the size
// (half points), the weight and whether the letters are all capitals.
type titleStyle struct {
	size   float64
	bold   bool
	caps   bool
	accent bool
}

// styleOf is a paragraph's title style. Sizes are compared to the
// point: small capitals make a title's mean size vary a little with its
// letters.
func styleOf(q para) titleStyle {
	return titleStyle{size: math.Round(q.size), bold: q.bold, caps: allCaps(q.text), accent: q.accent}
}

// numberedTitle reports whether q looks like a numbered section title on
// its own: short, one or two lines, upright, a section number then a
// capitalised word, no sentence or clause punctuation at the end, and not
// set smaller than the body (small capitals may be). It returns the number's depth (1 for "3",
// 2 for "2.1").
func numberedTitle(q para, body float64) (int, bool) {
	t := strings.TrimSpace(q.text)
	minSize := 0.95 * body
	if allCaps(t) {
		minSize = 0.8 * body
	}
	// A labelled title may run longer: a filing's "Item 7." names its
	// item in full, in up to two lines.
	maxRunes := 90
	if titleLabel(t) != "" && titleCased(t) {
		maxRunes = maxLabelledTitleRunes
	}
	if body <= 0 || !q.upright || q.table || q.untabled || q.furniture || q.lines > 2 || q.runes > maxRunes || q.size < minSize {
		return 0, false
	}
	m := numberedLineMatch(t)
	if m == nil {
		return 0, false
	}
	num := m[1] + m[2]
	depth := strings.Count(strings.TrimSuffix(num, "."), ".") + 1
	if letterLabelRE.MatchString(num) {
		depth++
	}
	return depth, true
}

// numberedLine reports whether a line reads as a numbered title: a
// section number, then a capitalised word or an ideograph; at least three
// letters (two ideographs: "1 概述"); at most 14 words; no sentence or
// clause punctuation at its end; not open-ended, an amount or a bullet.
func numberedLine(s string) bool { return numberedLineMatch(strings.TrimSpace(s)) != nil }

// numberedLineMatch is numberedLine with the number's submatches of
// numberedTitleRE (t trimmed).
func numberedLineMatch(t string) []string {
	m := numberedTitleRE.FindStringSubmatch(t)
	if m == nil && appendixCapsRE.MatchString(t) && allCaps(t) {
		m = []string{"", "A", ""}
	}
	// A labelled title may end on a period ("Item 4. Controls and
	// Procedures."), one sentence at most after its label.
	endsPeriod := false
	if m == nil && !captionRE.MatchString(t) {
		if ix := labelTitleRE.FindStringSubmatchIndex(t); ix != nil {
			m = []string{t[ix[0]:ix[1]], t[ix[2]:ix[3]], ""}
			// Not after a colon: "Level 1: Quoted prices in active
			// markets." is a term and its definition.
			endsPeriod = !strings.Contains(t[ix[3]:ix[1]], ":") && !strings.Contains(strings.TrimSuffix(t[ix[1]:], "."), ". ")
		}
	}
	n := letters(t)
	if m == nil || n < 2 || n < 3 && m[2] == "" || endsOpen(t) || isFigure(t) || listItemRE.MatchString(t) {
		return nil
	}
	last, _ := utf8.DecodeLastRuneInString(t)
	maxWords := 14
	if titleLabel(t) != "" && titleCased(t) {
		maxWords = maxLabelledTitleWords
	}
	if strings.ContainsRune(".,;:!?。，；：！？", last) && !(endsPeriod && last == '.') || len(strings.Fields(t)) > maxWords {
		return nil
	}
	return m
}

// allCaps reports whether the letters of s (at least three cased ones)
// are all capitals.
func allCaps(s string) bool {
	n := 0
	for _, r := range s {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsUpper(r) {
			n++
		}
	}
	return n >= 3
}

// markStyledTitles sets titled on the paragraphs that are headings by the
// document's own numbered-title style: numbered titles whose style at
// least minTitleStyleUses numbered titles share, none of them next to
// another numbered line of the same depth (a list); and short lines in
// capitals in such a style when it is in capitals too ("REFERENCES" under
// "1 INTRODUCTION").
func markStyledTitles(pages []pageOut, body float64) {
	uses := map[titleStyle]int{}
	type cand struct{ p, i int }
	var cands []cand
	for p := range pages {
		ps := pages[p].paras
		for i, q := range ps {
			d, ok := numberedTitle(q, body)
			if !ok || listNeighbour(ps, i, d, body) {
				continue
			}
			uses[styleOf(q)]++
			cands = append(cands, cand{p, i})
		}
	}
	// A labelled title printed alike on several pages is a running head
	// or footer ("Chapter 3: Objects" on each page of the chapter, taken
	// as furniture there but not on a blank page), not a heading.
	onPages := map[string]map[int]bool{}
	for p := range pages {
		for _, q := range pages[p].paras {
			t := withoutPageNumber(q.text)
			if titleLabel(t) == "" {
				continue
			}
			if onPages[t] == nil {
				onPages[t] = map[int]bool{}
			}
			onPages[t][p] = true
		}
	}
	for _, c := range cands {
		q := &pages[c.p].paras[c.i]
		if titleLabel(q.text) != "" && (len(onPages[withoutPageNumber(q.text)]) > 1 || lastOnPage(pages[c.p].paras, c.i)) {
			continue // nor one below all else on its page: a footer (a blank page's)
		}
		if uses[styleOf(*q)] >= minTitleStyleUses {
			q.titled = true
		}
	}
	markCapsTitles(pages, body)
	for p := range pages {
		for i := range pages[p].paras {
			q := &pages[p].paras[i]
			st := styleOf(*q)
			if q.titled || !st.caps || uses[st] < minTitleStyleUses || q.lines > 1 || q.runes > 60 || !q.upright || q.table || q.untabled || q.furniture {
				continue
			}
			if !endsSentence(q.text) && !endsOpen(q.text) && !isFigure(q.text) && letters(q.text) >= 4 {
				q.titled = true
			}
		}
	}
}

// listNeighbour reports whether the paragraph before or after ps[i] (page
// furniture aside) is a numbered title of the same depth: then both are
// items of a list.
func listNeighbour(ps []para, i, depth int, body float64) bool {
	for _, step := range []int{-1, 1} {
		for j := i + step; j >= 0 && j < len(ps); j += step {
			if ps[j].furniture {
				continue
			}
			if d, ok := numberedTitle(ps[j], body); ok && d == depth && titleLabel(ps[j].text) == titleLabel(ps[i].text) {
				return true
			}
			break
		}
	}
	return false
}

// lastOnPage reports whether no paragraph but furniture follows ps[i].
func lastOnPage(ps []para, i int) bool {
	for _, q := range ps[i+1:] {
		if !q.furniture && strings.TrimSpace(q.text) != "" {
			return false
		}
	}
	return true
}

// withoutPageNumber is a line without the page number a running head or
// footer sets beside it.
func withoutPageNumber(s string) string {
	t := strings.TrimSpace(s)
	m := edgeNumberRE.FindStringSubmatchIndex(t)
	switch {
	case m == nil:
		return t
	case m[2] >= 0:
		return strings.TrimSpace(t[m[3]:])
	default:
		return strings.TrimSpace(t[:m[4]])
	}
}

// titleLabel is the label word of a labelled title ("item" of "Item 3.
// Controls"), "" for any other: "Part II – …" over "Item 1. …" is no
// list, "Step 1. …" over "Step 2. …" is.
func titleLabel(s string) string {
	t := strings.TrimSpace(s)
	if numberedTitleRE.MatchString(t) || !labelTitleRE.MatchString(t) {
		return ""
	}
	return strings.ToLower(strings.Fields(t)[0])
}

// titleLine reports whether a line is a numbered title in capitals
// ("II. OVERVIEW OF THE METHOD", "4 MAIN RESULTS"): a paragraph ends
// before and after it even when it is set as close as a line of text.
func titleLine(s string) bool {
	t := strings.TrimSpace(s)
	if !allCaps(t) || len(strings.Fields(t)) > 12 || !numberedTitleRE.MatchString(t) && !appendixCapsRE.MatchString(t) {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(t)
	return !strings.ContainsRune(".,;:!?", last)
}

// capsTitle reports whether a line reads like a title in capitals:
// one to ten words, at least four letters, all capitals, no sentence or
// clause punctuation at its end, no amount.
func capsTitle(s string) bool {
	t := strings.TrimSpace(s)
	n := len(strings.Fields(t))
	if n == 0 || n > 10 || letters(t) < 4 || !allCaps(t) || isFigure(t) || endsOpen(t) {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(t)
	return !strings.ContainsRune(".,;:!?", last)
}

// markCapsTitles sets titled on one-line paragraphs in capitals whose
// style at least minTitleStyleUses such lines share on two pages or
// more (or on the one page of a one-page document), none of them next to
// another capitals line (a list, a table's labels), unless they would be
// more than a tenth of the paragraphs (a quarter in a document of one or
// two pages).
func markCapsTitles(pages []pageOut, body float64) {
	uses := map[titleStyle]int{}
	onPages := map[titleStyle]map[int]bool{}
	type cand struct{ p, i int }
	var cands []cand
	total := 0
	isCand := func(q para) bool {
		return q.lines == 1 && q.upright && !q.table && !q.untabled && !q.furniture && q.size >= 0.95*body && capsTitle(q.text)
	}
	for p := range pages {
		ps := pages[p].paras
		for i, q := range ps {
			if q.furniture {
				continue
			}
			total++
			if !isCand(q) || i > 0 && isCand(ps[i-1]) || i+1 < len(ps) && isCand(ps[i+1]) {
				continue
			}
			st := styleOf(q)
			uses[st]++
			if onPages[st] == nil {
				onPages[st] = map[int]bool{}
			}
			onPages[st][p] = true
			cands = append(cands, cand{p, i})
		}
	}
	share := 10 // at most a tenth of the paragraphs; a quarter on one or two pages, where a section holds fewer
	if len(pages) <= 2 {
		share = 4
	}
	if share*len(cands) > total {
		return
	}
	for _, c := range cands {
		q := &pages[c.p].paras[c.i]
		if st := styleOf(*q); uses[st] >= minTitleStyleUses && len(onPages[st]) >= min(2, len(pages)) {
			q.titled = true
		}
	}
}
