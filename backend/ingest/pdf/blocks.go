package pdf

import (
	"math"
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
	maxHeadingLevels = 3
)

// pageOut is the final content of one page before it becomes blocks.
type pageOut struct {
	info  parsed.PageInfo
	paras []para
}

// buildBlocks turns pages into blocks, marking as headings the short
// paragraphs set clearly larger than the document's body text.
func buildBlocks(pages []pageOut) []parsed.Block {
	body := bodySize(pages)
	levels := headingLevels(pages, body)
	var blocks []parsed.Block
	for _, p := range pages {
		for _, q := range p.paras {
			text := cleanText(q.text)
			if strings.TrimSpace(text) == "" {
				continue
			}
			b := parsed.Block{Page: p.info.Number, Kind: parsed.BlockParagraph, Text: text}
			if lv, ok := levels[sizeBucket(q.size)]; ok && isHeading(q, body) {
				b.Kind, b.Level = parsed.BlockHeading, lv
				b.Text = strings.Join(strings.Fields(b.Text), " ")
			}
			blocks = append(blocks, b)
		}
	}
	return blocks
}

// ligatures spells out the Latin ligature characters (U+FB00-U+FB06).
var ligatures = strings.NewReplacer("ﬀ", "ff", "ﬁ", "fi", "ﬂ", "fl", "ﬃ", "ffi", "ﬄ", "ffl", "ﬅ", "st", "ﬆ", "st")

// cleanText prepares extracted text for the index: it drops replacement
// characters (glyphs no engine could map), byte-order and non-character
// marks and control characters other than tab and newline, spells out
// ligatures and turns CJK radicals into ordinary ideographs.
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
	return normalizeRadicals(s)
}

// sizeBucket rounds a font size to half points.
func sizeBucket(s float64) float64 { return math.Round(s*2) / 2 }

// bodySize is the font size carrying the most characters.
func bodySize(pages []pageOut) float64 {
	hist := map[float64]int{}
	for _, p := range pages {
		for _, q := range p.paras {
			if q.size > 0 {
				hist[sizeBucket(q.size)] += q.runes
			}
		}
	}
	best, bestN := 0.0, 0
	for s, n := range hist {
		if n > bestN || n == bestN && s < best {
			best, bestN = s, n
		}
	}
	return best
}

// isHeading reports whether a paragraph looks like a heading: upright,
// short, clearly larger than the body text and made of words.
func isHeading(q para, body float64) bool {
	if body <= 0 || !q.upright || q.size < body*headingSizeRatio || q.runes > maxHeadingRunes || q.lines > maxHeadingLines {
		return false
	}
	letters := 0
	for _, r := range q.text {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return letters >= 2
}

// headingLevels maps heading font sizes (largest first) to levels 1..3,
// or returns nothing when headings would cover too much of the text.
func headingLevels(pages []pageOut, body float64) map[float64]int {
	total, inHeadings := 0, 0
	sizes := map[float64]bool{}
	for _, p := range pages {
		for _, q := range p.paras {
			total += q.runes
			if isHeading(q, body) {
				inHeadings += q.runes
				sizes[sizeBucket(q.size)] = true
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
		levels[s] = min(i+1, maxHeadingLevels)
	}
	return levels
}
