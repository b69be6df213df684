package pdf

import (
	"cairn/backend/lexicon"
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"cairn/backend/ingest/parsed"
)

// joinParas joins paragraph texts with blank lines.
func joinParas(ps []para) string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(p.text)
	}
	return b.String()
}

// parasFromPlain splits plain page text (from PDFium or OCR, which carry
// no font sizes) into paragraphs: at blank lines, and otherwise after a
// line that ends a sentence once the paragraph is long enough.
func parasFromPlain(text string) []para {
	var out []para
	var cur []string
	runes := 0
	flush := func() {
		if len(cur) > 0 {
			out = append(out, para{text: joinLines(cur), lines: len(cur), runes: runes})
		}
		cur, runes = nil, 0
	}
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			flush()
			continue
		}
		cur = append(cur, l)
		runes += utf8.RuneCountInString(l)
		last, _ := utf8.DecodeLastRuneInString(l)
		if runes >= 400 && strings.ContainsRune(".!?。！？:：", last) || runes >= maxParaRunes {
			flush()
		}
	}
	flush()
	return out
}

// Heading detection thresholds.
const (
	headingSizeRatio = 1.2 // at least this much larger than body text
	maxHeadingRunes  = 200 // headings are short
	maxHeadingLines  = 3
	maxHeadingShare  = 0.25 // if "headings" hold more text than this, the sizes mean nothing
	maxHeadingLevels = 4
)

// pageOut is the final content of one page before it becomes blocks.
type pageOut struct {
	info   parsed.PageInfo
	paras  []para
	box    [4]float64 // visible page (CropBox within MediaBox), device space
	hasBox bool
	media  [4]float64 // MediaBox
	label  string     // the page's /PageLabels label, if the document has them
}

// untableSingleCells makes paragraphs of the rows of each table that
// never fills two cells in a row (a piece of a head split off from its
// table, a unit line read apart): a table of one column is no table. A
// table going on from the page before (the first rows of a page whose
// previous page ends in a table) is left alone.
func untableSingleCells(pages []pageOut) {
	lastWasTable := false
	for pi := range pages {
		ps := pages[pi].paras
		first := true
		for i := 0; i < len(ps); {
			if ps[i].furniture {
				i++
				continue
			}
			if !ps[i].table {
				first, lastWasTable = false, false
				i++
				continue
			}
			j, wide := i, false
			var run []int
			for ; j < len(ps) && (ps[j].table || ps[j].furniture); j++ {
				if ps[j].furniture {
					continue
				}
				run = append(run, j)
				if filledCells(ps[j].text) >= 2 {
					wide = true
				}
			}
			if !wide && !(first && lastWasTable) {
				for _, k := range run {
					ps[k].text = strings.Join(strings.Fields(strings.ReplaceAll(" "+ps[k].text+" ", " | ", " ")), " ")
					ps[k].table, ps[k].cells, ps[k].untabled = false, 0, true
				}
			}
			first, lastWasTable = false, true
			i = j
		}
	}
}

// filledCells counts the cells of a table row's text that hold something.
func filledCells(text string) int {
	n := 0
	for _, c := range strings.Split(text, " | ") {
		if strings.Trim(c, " |") != "" {
			n++
		}
	}
	return n
}

// buildBlocks turns pages into blocks: running headers, footers and page
// numbers go to the page's metadata, table rows become table-row blocks,
// and short paragraphs set larger or bolder than the body text, or
// numbered like section titles, become headings with levels.
func buildBlocks(pages []pageOut) []parsed.Block {
	markFurniture(pages)
	for i := range pages {
		if pages[i].label != "" {
			pages[i].info.Label = pages[i].label // the document's own labels win
		}
	}
	untableSingleCells(pages)
	body := bodySize(pages)
	markAccents(pages)
	markStyledTitles(pages, body)
	levels := headingLevels(pages, body)
	var blocks []parsed.Block
	// A table that ends one page and starts the next with rows of as many
	// cells is one table: its first row there is not a header (unless the
	// page repeats the header row).
	endCells, header := 0, ""
	outlined := false // a heading's level came from the document's outline
	for _, p := range pages {
		inTable := false
		first := true
		for _, q := range p.paras {
			if q.furniture {
				continue
			}
			text := cleanText(q.text)
			if strings.TrimSpace(text) == "" {
				continue
			}
			b := parsed.Block{Page: p.info.Number, Kind: parsed.BlockParagraph, Text: text}
			if q.hasBox && p.hasBox {
				top := p.box[3]
				b.Box = &parsed.Box{round1(q.box[0] - p.box[0]), round1(top - q.box[3]), round1(q.box[2] - p.box[0]), round1(top - q.box[1])}
			}
			switch {
			case q.table:
				b.Kind = parsed.BlockTableRow
				b.Header = !inTable
				if first && q.cells == endCells && text != header {
					b.Header = false
				}
				if b.Header {
					header = text
				}
			case q.outline > 0:
				outlined = true
				b.Kind, b.Level = parsed.BlockHeading, min(q.outline, maxHeadingLevels)
				b.Text = strings.Join(strings.Fields(b.Text), " ")
			case levels != nil && isHeading(q, body):
				b.Kind, b.Level = parsed.BlockHeading, headingLevel(q, body, levels)
				b.Text = strings.Join(strings.Fields(b.Text), " ")
			}
			inTable, first = q.table, false
			blocks = append(blocks, b)
		}
		endCells = 0
		if inTable {
			endCells = p.paras[lastContent(p.paras)].cells
		}
	}
	if !outlined {
		nestUnderLabels(blocks)
	}
	return blocks
}

// round1 rounds to a tenth of a point.
func round1(x float64) float64 { return math.Round(x*10) / 10 }

// ligatures spells out the Latin ligature characters (U+FB00-U+FB06).
var ligatures = strings.NewReplacer("ﬀ", "ff", "ﬁ", "fi", "ﬂ", "fl", "ﬃ", "ffi", "ﬄ", "ffl", "ﬅ", "st", "ﬆ", "st")

// cleanText prepares extracted text for the index: it drops replacement
// characters (glyphs no engine could map), byte-order and non-character
// marks and control characters other than tab and newline, spells out
// ligatures, drops spaces opening a line and turns CJK radicals into
// ordinary ideographs.
func cleanText(s string) string {
	s = ligatures.Replace(s)
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case r < 0x20 || r >= 0x7f && r < 0xa0, r == 0xFFFD, r == 0xFFFE, r == 0xFFFF, r == 0xFEFF:
			return -1
		}
		return r
	}, s)
	if strings.Contains(s, "\n ") || strings.HasPrefix(s, " ") {
		// A glyph dropped at a line's start (an unmapped bullet) leaves
		// the space that followed it.
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimLeft(l, " ")
		}
		s = strings.Join(lines, "\n")
	}
	return normalizeRadicals(s)
}

// sizeBucket rounds a font size to half points.
func sizeBucket(s float64) float64 { return math.Round(s*2) / 2 }

// bodySize is the font size of the body text: the size carrying the most
// letters of running text (paragraphs of two lines or more whose lines
// are as long as a sentence's: a guidebook's dozens of map pages set
// hundreds of street names smaller than its prose, and a datasheet's
// tables and notes its own sizes) when there is enough of it, else the
// size carrying the most letters outside tables (table text is often set
// smaller than the prose, and a chart's axis numbers are no body text);
// of all text when the document is only tables.
func bodySize(pages []pageOut) float64 {
	if s, n := commonestSize(pages, isRunningText); n >= minRunningTextLetters {
		return s
	}
	if s, n := commonestSize(pages, func(q para) bool { return !q.table }); n > 0 {
		return s
	}
	s, _ := commonestSize(pages, func(para) bool { return true })
	return s
}

// minRunningTextLetters is the least running text (letters) that tells
// the body size by itself.
const minRunningTextLetters = 2000

// minRunningLineRunes is the least mean line length (characters) of a
// paragraph of running text.
const minRunningLineRunes = 30

// isRunningText reports whether a paragraph is running text: outside
// tables, two lines or more, its lines as long as a sentence's, and no
// dot leaders (a map's key or an index: "Pier 39 ........ C2").
func isRunningText(q para) bool {
	return !q.table && q.lines >= 2 && q.runes >= minRunningLineRunes*q.lines && !dotLeaderRE.MatchString(q.text)
}

// dotLeaderRE matches a dot leader: four dots or more, close or spaced.
var dotLeaderRE = regexp.MustCompile(`(?:\.\s?){4,}`)

// commonestSize is the font size (to half a point) carrying the most
// letters of the paragraphs keep takes, and how many letters those
// paragraphs have.
func commonestSize(pages []pageOut, keep func(para) bool) (float64, int) {
	hist := map[float64]int{}
	total := 0
	for _, p := range pages {
		for _, q := range p.paras {
			if n := letters(q.text); q.size > 0 && n > 0 && keep(q) {
				hist[sizeBucket(q.size)] += n
				total += n
			}
		}
	}
	best, bestN := 0.0, 0
	for s, n := range hist {
		if n > bestN || n == bestN && s < best {
			best, bestN = s, n
		}
	}
	return best, total
}

// isHeading reports whether a paragraph looks like a heading: upright,
// short, made of words, and clearly larger than the body text, or bold at
// body size without ending like a sentence, or numbered like a section
// ("2.3 Scope", "Section 5", "第一章") and bold or larger.
func isHeading(q para, body float64) bool {
	if body <= 0 || !q.upright || q.table || q.untabled || q.furniture || q.contents || q.runes > maxHeadingRunes || q.lines > maxHeadingLines {
		return false
	}
	if letters(q.text) < 2 || endsOpen(q.text) || isFigure(q.text) || contentsEntry(q.text) || readsAsProse(q.text) {
		return false
	}
	if q.titled || q.size >= body*headingSizeRatio {
		return true
	}
	if q.size < body*0.9 || q.runes > 120 || q.lines > 2 || endsSentence(q.text) || listItemRE.MatchString(q.text) || captionRE.MatchString(q.text) {
		return false
	}
	if q.bold {
		return true
	}
	// A numbered title in a second colour ("4 Method" in blue).
	_, numbered := numberedTitle(q, body)
	return q.accent && numbered
}

// readsAsProse reports whether text is running text rather than a title,
// however large or bold it is set: more than maxTitleWords words, ending
// like a sentence, more of its longer words (minTitleWordLetters letters
// or more) in lower case than capitalised, and one of: more than
// maxSentenceTitleWords words (a clause of an agreement), a second
// sentence inside it ("1. Vesting. The units vest …"), a lower-case
// start (a sentence's end) or a list mark before it ("• Failure to
// follow …"). A title in title case ("Item 7. Management's Discussion and
// Analysis of …") is none, nor a headline written as one sentence ("Most
// adults see the change as good for the country.").
func readsAsProse(text string) bool {
	f := strings.Fields(text)
	if len(f) <= maxTitleWords || !strings.HasSuffix(strings.TrimRight(text, " ”\")'"), ".") {
		return false
	}
	lower, upper := 0, 0
	for _, w := range f {
		w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) })
		if utf8.RuneCountInString(w) < minTitleWordLetters {
			continue
		}
		if r, _ := utf8.DecodeRuneInString(w); unicode.IsLower(r) {
			lower++
		} else if unicode.IsUpper(r) {
			upper++
		}
	}
	if lower <= upper {
		return false
	}
	rest := leadMarkRE.ReplaceAllString(text, "")
	return len(f) > maxSentenceTitleWords || lowerStart(text) || listItemRE.MatchString(text) || strings.HasPrefix(text, ">") || innerSentenceRE.MatchString(rest)
}

// maxTitleWords, maxSentenceTitleWords and minTitleWordLetters: see
// readsAsProse.
const (
	maxTitleWords         = 12
	maxSentenceTitleWords = 20
	minTitleWordLetters   = 4
)

// leadMarkRE matches a section or item mark opening a text ("1.", "(b)",
// "Item 7.", "5.2"), whose dot ends no sentence.
var leadMarkRE = regexp.MustCompile(`^\s*(?:(?i:item|section|article)\s+)?\(?[0-9A-Za-z]{1,4}(?:\.[0-9]{1,3})*[.)]\s`)

// innerSentenceRE matches a sentence's end followed by another sentence.
var innerSentenceRE = regexp.MustCompile(`[a-z)]\. [A-Z]`)

// contentsEntryRE matches the end of a contents or index entry: a dot
// leader (dots, spaced dots or middle dots; two or three dots after a
// space, close or spaced, when the title left little room: "… Every Site
// over Three Weeks ..90", "… and vectors . . 8") and the page number it leads to, in digits or Roman numerals
// ("Water and Grain........27", "Preface . . . . xi").
var contentsEntryRE = regexp.MustCompile(`(?:(?:\.\s?){4,}|\s\.{2,3}|(?:\s\.){2,3}|(?:·\s?){3,}|…{2,})\s*(?:\d{1,4}|[ivxlc]{1,6}|[IVXLC]{1,6})\s*$`)

// contentsEntry reports whether text is an entry of a contents page or an
// index, its dot leader ending on a page number: however large or bold it
// is set, it points at a heading, it is none.
func contentsEntry(text string) bool { return contentsEntryRE.MatchString(text) }

// captionRE matches a numbered caption ("Table 3: Sites", "Figure 2",
// "表7-1：…", "图 3"): set in bold at the body size, it names a table or a
// figure, not a section.
var captionRE = regexp.MustCompile(`^\s*(?i:table|figure|fig\.)\s*(?:\d+|[IVX]{1,5}\b)|^\s*[表图圖표그림]\s*\d+`)

// markAccents sets accent on the paragraphs set in one colour that is not
// the page's body colour (the colour of most letters outside tables).
func markAccents(pages []pageOut) {
	for p := range pages {
		ps := pages[p].paras
		hist := map[uint32]int{}
		for _, q := range ps {
			if q.oneColour && !q.table && !q.furniture {
				hist[q.colour] += letters(q.text)
			}
		}
		body, n := uint32(0), -1
		for c, k := range hist {
			if k > n || k == n && c < body {
				body, n = c, k
			}
		}
		for i := range ps {
			ps[i].accent = n > 0 && ps[i].oneColour && colourDistance(ps[i].colour, body) > minColourDistance
		}
	}
}

// isFigure reports whether text is a figure set large rather than a title:
// an amount ("₹17,81,841 crore", "$4.5 billion", "45.2%") and at most one
// word beside it. A year alone is no amount ("2022 Highlights" stays), nor
// is a section number ("5.1 Arrays").
func isFigure(text string) bool {
	amounts, words := 0, 0
	for _, f := range strings.Fields(text) {
		if amountRE.MatchString(f) {
			amounts++
		} else {
			words++
		}
	}
	return amounts > 0 && words <= 1 && !sectionNumRE.MatchString(text)
}

// amountRE matches a number written as an amount: digit groups or a
// decimal part, or a currency or percent sign beside it.
var amountRE = regexp.MustCompile(`^[(\p{Sc}` + "`" + `]*(?:\d{1,3}(?:,\d{2,3})+(?:\.\d+)?|\d+\.\d+|[\p{Sc}` + "`" + `]\d+|\d+%)[)%]*$`)

// endsOpen reports whether text ends on a word that needs more after it
// ("Unreported social security and"): the first line of a run-in heading
// whose end is set with the paragraph, not a heading of its own.
func endsOpen(text string) bool {
	f := strings.Fields(strings.ToLower(text))
	if len(f) < 2 {
		return false
	}
	return openEnders[strings.TrimRight(f[len(f)-1], ",;:")] || strings.HasSuffix(text, ",")
}

// openEnders are English words a title does not end on (the lexicon's
// title_open_enders).
var openEnders = lexicon.English().Set("title_open_enders")

// endsSentence reports whether text ends like a sentence or a clause
// rather than a title.
func endsSentence(text string) bool {
	t := strings.TrimSpace(text)
	last, _ := utf8.DecodeLastRuneInString(t)
	return strings.ContainsRune(".,;!?。，；！？", last) && !sectionNumRE.MatchString(t)
}

// listItemRE matches a bullet or note mark opening a list item, which a
// bold line at body size is rather than a heading.
var listItemRE = regexp.MustCompile(`^\s*[*•◦·▪■□●○◆◇※‐–—-]\s`)

// sectionNumRE matches a section number at the start of a heading.
var sectionNumRE = regexp.MustCompile(`^(?:(\d{1,2}(?:\.\d{1,2}){0,4})\.?|[IVX]{1,5}\.|[A-Z]\.|(?i:chapter|section|part|article|title|appendix|annex)\s+[0-9IVXA-Z]+\.?|第[一二三四五六七八九十百零〇0-9]+[章节編编部篇])(?:\s|$)`)

// headingLevel is a heading's level: the depth of its section number
// ("2.3.1" is 3) when it has one, else its size rank (larger first), with
// bold body-size headings one level below the smallest sized heading.
func headingLevel(q para, body float64, levels map[float64]int) int {
	if m := sectionNumRE.FindStringSubmatch(strings.TrimSpace(q.text)); m != nil && m[1] != "" {
		return min(strings.Count(m[1], ".")+1, maxHeadingLevels)
	}
	if lv, ok := levels[sizeBucket(q.size)]; ok {
		return lv
	}
	return min(len(levels)+1, maxHeadingLevels)
}

// headingLevels maps the sizes of headings larger than the body text
// (largest first) to levels 1..3, or returns nil when headings would cover
// too much of the text (then sizes and weights mean nothing).
func headingLevels(pages []pageOut, body float64) map[float64]int {
	total, inHeadings := 0, 0
	sizes := map[float64]bool{}
	for _, p := range pages {
		for _, q := range p.paras {
			if q.furniture {
				continue
			}
			total += q.runes
			if isHeading(q, body) {
				inHeadings += q.runes
				if q.size >= body*headingSizeRatio {
					sizes[sizeBucket(q.size)] = true
				}
			}
		}
	}
	if total == 0 || float64(inHeadings) > maxHeadingShare*float64(total) {
		return nil
	}
	var list []float64
	for s := range sizes {
		list = append(list, s)
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(list)))
	levels := map[float64]int{}
	for i, s := range list {
		levels[s] = min(i+1, maxHeadingLevels-1)
	}
	return levels
}

// lastContent is the index of the last paragraph that is not furniture
// (there is one when a table row was seen on the page).
func lastContent(ps []para) int {
	for i := len(ps) - 1; i > 0; i-- {
		if !ps[i].furniture && strings.TrimSpace(ps[i].text) != "" {
			return i
		}
	}
	return 0
}

// letters counts the letters of s.
func letters(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}
