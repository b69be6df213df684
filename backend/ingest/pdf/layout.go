package pdf

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// glyph is one shown character in device space: origin (x, y), advance
// (dx, dy), unit writing direction (ux, uy) and em size.
type glyph struct {
	text                 string
	x, y, dx, dy, ux, uy float64
	size                 float64
}

// Line-building thresholds, as fractions of the font size (em).
const (
	wordGapEm     = 0.15 // a gap wider than this starts a new word
	baselineEm    = 0.6  // a baseline shift larger than this starts a new line
	backJumpEm    = 1.0  // moving back along the line more than this starts a new line
	dupTolEm      = 0.15 // same glyph closer than this to an earlier one is a duplicate
	paraGapEm     = 1.8  // a baseline gap larger than this starts a new paragraph
	paraSizeRatio = 1.25 // a font-size change larger than this starts a new paragraph
	maxParaRunes  = 4000
)

// line is a run of glyphs on one baseline, in content-stream order.
type line struct {
	b       strings.Builder
	x, y    float64 // origin of the first glyph
	ux, uy  float64
	sizeSum float64 // sum of glyph sizes, for the mean
	glyphs  int
}

// size is the mean font size of the line's glyphs.
func (l *line) size() float64 {
	if l.glyphs == 0 {
		return 0
	}
	return l.sizeSum / float64(l.glyphs)
}

// para is a group of consecutive lines: the unit that becomes a Block.
type para struct {
	text  string
	size  float64 // mean font size
	lines int
	runes int
	// upright: the text runs left to right on the page (not rotated or
	// vertical); only upright paragraphs can be headings.
	upright bool
}

// dupKey is a cell of the duplicate-glyph grid.
type dupKey struct {
	text   string
	cx, cy int32
}

// layout turns a stream of glyphs into lines: it inserts a space where the
// gap between glyphs is wider than wordGapEm, starts a new line where the
// baseline moves, and drops glyphs painted twice at the same place (fake
// bold, shadows, text drawn by two overlapping forms).
type layout struct {
	lines        []*line
	cur          *line
	penX, penY   float64
	lastSize     float64
	lastRune     rune
	pendingSpace bool
	seen         map[dupKey][]float64 // flattened x, y pairs
}

const dupCell = 2.0

// add places one glyph.
func (lo *layout) add(g glyph) {
	if g.text == "" {
		return
	}
	if strings.TrimSpace(g.text) == "" {
		if lo.cur != nil {
			lo.pendingSpace = true
			lo.penX, lo.penY = g.x+g.dx, g.y+g.dy
		}
		return
	}
	if lo.duplicate(g) {
		return
	}
	first, _ := utf8.DecodeRuneInString(g.text)
	if lo.cur == nil {
		lo.newLine(g)
	} else {
		dx, dy := g.x-lo.penX, g.y-lo.penY
		c := lo.cur
		along := dx*c.ux + dy*c.uy
		across := -dx*c.uy + dy*c.ux
		em := math.Max(g.size, lo.lastSize)
		if em <= 0 {
			em = 1
		}
		sameDir := g.ux*c.ux+g.uy*c.uy > 0.9
		switch {
		case !sameDir || math.Abs(across) > baselineEm*em || along < -backJumpEm*em:
			lo.newLine(g)
		case (lo.pendingSpace || along > wordGapEm*em) && !(IsCJK(lo.lastRune) && IsCJK(first)):
			c.b.WriteByte(' ')
		}
	}
	c := lo.cur
	c.b.WriteString(g.text)
	c.sizeSum += g.size
	c.glyphs++
	lo.penX, lo.penY = g.x+g.dx, g.y+g.dy
	lo.lastSize = g.size
	lo.lastRune, _ = utf8.DecodeLastRuneInString(g.text)
	lo.pendingSpace = false
}

// newLine starts a line at glyph g.
func (lo *layout) newLine(g glyph) {
	lo.cur = &line{x: g.x, y: g.y, ux: g.ux, uy: g.uy}
	lo.lines = append(lo.lines, lo.cur)
	lo.pendingSpace = false
}

// duplicate reports whether the same text was already painted within
// dupTolEm of g's position, and records g otherwise.
func (lo *layout) duplicate(g glyph) bool {
	if lo.seen == nil {
		lo.seen = map[dupKey][]float64{}
	}
	tol := math.Min(dupTolEm*g.size, dupCell)
	cx, cy := int32(math.Floor(g.x/dupCell)), int32(math.Floor(g.y/dupCell))
	for i := int32(-1); i <= 1; i++ {
		for j := int32(-1); j <= 1; j++ {
			pts := lo.seen[dupKey{g.text, cx + i, cy + j}]
			for k := 0; k+1 < len(pts); k += 2 {
				if math.Abs(pts[k]-g.x) <= tol && math.Abs(pts[k+1]-g.y) <= tol {
					return true
				}
			}
		}
	}
	k := dupKey{g.text, cx, cy}
	lo.seen[k] = append(lo.seen[k], g.x, g.y)
	return false
}

// paragraphs groups the lines into paragraphs: a new one starts when the
// baseline moves up (a new column or block), jumps down by more than
// paraGapEm, or the font size changes by more than paraSizeRatio.
func (lo *layout) paragraphs() []para {
	var out []para
	var lines []string
	var cur para
	var sizeSum float64
	var glyphs int
	flush := func() {
		if cur.lines > 0 {
			cur.text = joinLines(lines)
			if glyphs > 0 {
				cur.size = sizeSum / float64(glyphs)
			}
			out = append(out, cur)
		}
		lines = lines[:0]
		cur = para{}
		sizeSum, glyphs = 0, 0
	}
	var prev *line
	for _, l := range lo.lines {
		text := strings.TrimSpace(l.b.String())
		if text == "" {
			continue
		}
		if prev != nil && lo.breaksParagraph(prev, l, cur.runes) {
			flush()
		}
		if cur.lines == 0 {
			cur.upright = l.ux > 0.99
		}
		lines = append(lines, text)
		cur.lines++
		cur.runes += utf8.RuneCountInString(text)
		sizeSum += l.sizeSum
		glyphs += l.glyphs
		prev = l
	}
	flush()
	return out
}

// joinLines joins the lines of a paragraph with newlines, undoing
// end-of-line hyphenation ("re-" + "trieval" -> "retrieval") where a
// hyphen follows a letter and the next line starts with a lower-case
// letter, as pdftotext does.
func joinLines(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			prev := lines[i-1]
			next, _ := utf8.DecodeRuneInString(l)
			if hyphenated(prev) && unicode.IsLower(next) {
				s := b.String()
				_, size := utf8.DecodeLastRuneInString(s)
				b.Reset()
				b.WriteString(s[:len(s)-size])
			} else {
				b.WriteByte('\n')
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

// hyphenated reports whether a line ends with a hyphen (or soft hyphen)
// right after a letter.
func hyphenated(l string) bool {
	last, size := utf8.DecodeLastRuneInString(l)
	if last != '-' && last != 0xAD && last != '\u2010' {
		return false
	}
	before, _ := utf8.DecodeLastRuneInString(l[:len(l)-size])
	return unicode.IsLetter(before)
}

// breaksParagraph reports whether line l starts a new paragraph after prev.
func (lo *layout) breaksParagraph(prev, l *line, runes int) bool {
	if runes > maxParaRunes {
		return true
	}
	if prev.ux*l.ux+prev.uy*l.uy < 0.9 {
		return true
	}
	ps, ls := prev.size(), l.size()
	size := math.Max(ps, ls)
	if size <= 0 {
		size = 1
	}
	if ps > 0 && ls > 0 && math.Max(ps, ls)/math.Min(ps, ls) > paraSizeRatio {
		return true
	}
	dx, dy := l.x-prev.x, l.y-prev.y
	across := -dx*prev.uy + dy*prev.ux // > 0: the new line is above
	return across > 0.5*size || -across > paraGapEm*size
}
