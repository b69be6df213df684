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
	x, y, dx, dy, ux, uy float64 // origin, pen advance, writing direction
	// ix, iy is the glyph's inked advance: its width without character
	// and word spacing (Tc, Tw), which move the pen but leave white.
	ix, iy float64
	size   float64
	weight int    // font weight rank (fontWeight)
	color  uint32 // fill colour, 0xRRGGBB
}

// Run-building thresholds, as fractions of the font size (em).
const (
	wordGapEm  = 0.15 // a gap wider than this starts a new word
	runGapEm   = 1.0  // a gap wider than this ends a run (a column gutter or table cell gap)
	baselineEm = 0.6  // a baseline shift larger than this starts a new run
	backJumpEm = 1.0  // moving back along the line more than this starts a new run
	dupTolEm   = 0.15 // same glyph closer than this to an earlier one is a duplicate
	// maxParaRunes bounds one paragraph; longer blocks are cut.
	maxParaRunes = 4000
	// maxRunsPerPage bounds the geometric analysis; pages with more runs are
	// laid out in content-stream order (the analysis is quadratic in blocks).
	maxRunsPerPage = 60000
)

// run is a stretch of glyphs on one baseline, in content-stream order,
// without a gap wider than runGapEm: a word group, a line of a column, a
// table cell. Runs are the input of the page analysis (pagelayout.go).
type run struct {
	b                  strings.Builder
	x, y               float64 // origin of the first glyph
	ux, uy             float64
	sizeSum            float64 // sum of glyph sizes, for the mean
	glyphs             int
	weights            [7]int  // glyphs by font weight rank
	color              uint32  // fill colour of the first glyph
	mixed              bool    // glyphs of more than one colour
	u0, u1             float64 // extent along the writing direction (frame coordinates)
	v                  float64 // baseline across the writing direction (frame coordinates)
	lastRune           rune
	firstRune          rune
	order              int // position in the content stream
	endsWithSpaceGlyph bool
	// gl are the run's glyphs along the line, for lines whose runs overlap
	// (right-to-left text drawn in pieces, overprinted corrections).
	gl []placed
}

// placed is a glyph's text and extent along its run.
type placed struct {
	u0, u1 float64
	text   string
}

// size is the mean font size of the run's glyphs.
func (r *run) size() float64 {
	if r.glyphs == 0 {
		return 0
	}
	return r.sizeSum / float64(r.glyphs)
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
	bold    bool // every line is set in a bold face
	// colour is the fill colour of every line when oneColour; accent: that
	// colour is not the page's body colour (set by buildBlocks).
	colour    uint32
	oneColour bool
	accent    bool
	table     bool // a table row: cells joined by " | "
	// untabled: read as a table row of one cell and made a paragraph
	// (untableSingleCells); like a table row, it is no heading.
	untabled bool
	cells    int        // cells of a table row
	box      [4]float64 // device space: x0, y0, x1, y1 (y up); zero for plain-text pages
	hasBox   bool
	// furniture: a running header or footer, page number or printer's
	// mark (set by markFurniture); kept out of the text.
	furniture bool
	// outline is the depth of the document outline entry whose title this
	// paragraph is (0: none); such a paragraph is a heading of that level.
	outline int
	// titled: a numbered title (or a capitals line) in a style the
	// document uses for several numbered titles (markStyledTitles).
	titled bool
	// contents: entries of a contents list (joinContentsRows), no heading.
	contents bool
}

// dupKey is a cell of the duplicate-glyph grid.
type dupKey struct {
	text   string
	cx, cy int32
}

// layout collects the glyphs of a page into runs: it inserts a space where
// the gap between glyphs is wider than wordGapEm, starts a new run where
// the baseline moves or a gap is wider than runGapEm, and drops glyphs
// painted twice at the same place (fake bold, shadows, text drawn by two
// overlapping forms). paragraphs then orders the runs by geometry.
type layout struct {
	runs         []*run
	cur          *run
	penX, penY   float64
	inkX, inkY   float64 // end of the last visible glyph
	lastSize     float64
	lastRune     rune
	pendingSpace bool
	pending      *pendingAccent // a spacing accent waiting for its letter
	seen         map[dupKey][]seenGlyph
	lastSeen     dupKey // where duplicate recorded the last glyph
	lastSeenAt   int
}

// seenGlyph is a glyph painted on the page, for finding it painted again.
type seenGlyph struct {
	x, y   float64
	r      *run
	weight int
}

// boldWeight is the weight rank of a bold face (fontWeight).
const boldWeight = 5

const dupCell = 2.0

// addGlyph places one glyph.
func (lo *layout) addGlyph(g glyph) {
	if g.text == "" {
		return
	}
	if strings.TrimSpace(g.text) == "" {
		if c := lo.cur; c != nil && lo.awayFromRun(g) {
			// A space shown at the start of another line or column:
			// the run ends here, so the pen's jump is not taken for
			// a continuation of this line.
			lo.cur = nil
			return
		}
		if c := lo.cur; c != nil {
			lo.pendingSpace = true
			lo.penX, lo.penY = g.x+g.dx, g.y+g.dy
			u := g.x*c.ux + g.y*c.uy
			adv := g.dx*c.ux + g.dy*c.uy
			c.gl = append(c.gl, placed{math.Min(u, u+adv), math.Max(u, u+adv), " "})
		}
		return
	}
	if lo.duplicate(g) {
		return
	}
	first, _ := utf8.DecodeRuneInString(g.text)
	if lo.cur == nil {
		lo.newRun(g)
	} else {
		c := lo.cur
		em := math.Max(g.size, lo.lastSize)
		if em <= 0 {
			em = 1
		}
		dx, dy := g.x-lo.penX, g.y-lo.penY
		along := dx*c.ux + dy*c.uy
		across := -dx*c.uy + dy*c.ux
		// The visible gap is measured from the last inked glyph: space
		// glyphs move the pen but leave white.
		ix, iy := g.x-lo.inkX, g.y-lo.inkY
		inkGap := ix*c.ux + iy*c.uy
		sameDir := g.ux*c.ux+g.uy*c.uy > 0.9
		switch {
		case !sameDir || math.Abs(across) > baselineEm*em || along < -backJumpEm*em || inkGap > runGapEm*minEm(g.size, lo.lastSize):
			lo.newRun(g)
		case (lo.pendingSpace || along > wordGapEm*em) && signAfterFigure(lo.lastRune, first):
			// "3,482.1 $ 2,911.7" drawn as one string: the sign opens
			// the next cell's amount.
			lo.newRun(g)
		case (lo.pendingSpace || along > wordGapEm*em) && !(noSpaceScript(lo.lastRune) && noSpaceScript(first)):
			c.b.WriteByte(' ')
		}
	}
	c := lo.cur
	lo.seen[lo.lastSeen][lo.lastSeenAt].r = c
	if c.glyphs == 0 {
		c.color = g.color
	} else if g.color != c.color {
		c.mixed = true
	}
	c.b.WriteString(g.text)
	c.sizeSum += g.size
	c.glyphs++
	c.weights[min(max(g.weight, 0), 6)]++
	lo.penX, lo.penY = g.x+g.dx, g.y+g.dy
	lo.inkX, lo.inkY = g.x+g.ix, g.y+g.iy
	lo.lastSize = g.size
	lo.lastRune, _ = utf8.DecodeLastRuneInString(g.text)
	c.lastRune = lo.lastRune
	lo.pendingSpace = false
	// Extent in the run's frame: the ink, not the spacing after it.
	u := g.x*c.ux + g.y*c.uy
	adv := g.ix*c.ux + g.iy*c.uy
	c.u0 = math.Min(c.u0, math.Min(u, u+adv))
	c.u1 = math.Max(c.u1, math.Max(u, u+adv))
	c.gl = append(c.gl, placed{math.Min(u, u+adv), math.Max(u, u+adv), g.text})
}

// signAfterFigure reports whether a currency sign set before its figure
// follows the end of a figure ("…226.8", "100.0%", "(4.8)"): across a
// space, the two are amounts of two cells, never one.
func signAfterFigure(last, next rune) bool {
	return strings.ContainsRune(signsBeforeFigures, next) && endsFigure(last)
}

// endsFigure reports whether r may end a figure: a digit, a percent sign
// or the parenthesis closing a negative amount.
func endsFigure(r rune) bool { return unicode.IsDigit(r) || r == '%' || r == ')' }

// awayFromRun reports whether glyph g sits off the current run's line:
// on another baseline, or further along than a column gap from its ink.
func (lo *layout) awayFromRun(g glyph) bool {
	c := lo.cur
	em := math.Max(g.size, lo.lastSize)
	if em <= 0 {
		em = 1
	}
	dx, dy := g.x-lo.inkX, g.y-lo.inkY
	along := dx*c.ux + dy*c.uy
	across := -dx*c.uy + dy*c.ux
	return math.Abs(across) > baselineEm*em || along < -backJumpEm*em-(c.u1-c.u0) || along > runGapEm*em+math.Abs(g.dx*c.ux+g.dy*c.uy)
}

// minEm is the smaller of two font sizes, at least a point: gaps between
// faces of different sizes are judged by the smaller one (a heading beside
// the next column's body text is a column away, not a word away).
func minEm(a, b float64) float64 {
	if b <= 0 {
		b = a
	}
	return math.Max(math.Min(a, b), 1)
}

// newRun starts a run at glyph g.
func (lo *layout) newRun(g glyph) {
	u := g.x*g.ux + g.y*g.uy
	v := -g.x*g.uy + g.y*g.ux
	first, _ := utf8.DecodeRuneInString(g.text)
	lo.cur = &run{x: g.x, y: g.y, ux: g.ux, uy: g.uy, u0: u, u1: u, v: v, firstRune: first, order: len(lo.runs)}
	lo.runs = append(lo.runs, lo.cur)
	lo.pendingSpace = false
}

// duplicate reports whether the same text was already painted within
// dupTolEm of g's position, and records g otherwise. A glyph painted again
// a little off its place is fake bold (a face without a bold weight,
// emboldened by overprinting): the first one counts as bold.
func (lo *layout) duplicate(g glyph) bool {
	if lo.seen == nil {
		lo.seen = map[dupKey][]seenGlyph{}
	}
	tol := dupTolEm * g.size
	reach := int32(min(math.Ceil(tol/dupCell), 8))
	cx, cy := int32(math.Floor(g.x/dupCell)), int32(math.Floor(g.y/dupCell))
	for i := -reach; i <= reach; i++ {
		for j := -reach; j <= reach; j++ {
			pts := lo.seen[dupKey{g.text, cx + i, cy + j}]
			for k := range pts {
				p := &pts[k]
				dx, dy := math.Abs(p.x-g.x), math.Abs(p.y-g.y)
				if dx > tol || dy > tol {
					continue
				}
				if off := math.Max(dx, dy); off > 0.02*g.size && p.weight < boldWeight && p.r != nil && p.r.weights[p.weight] > 0 {
					p.r.weights[p.weight]--
					p.r.weights[boldWeight]++
					p.weight = boldWeight
				}
				return true
			}
		}
	}
	k := dupKey{g.text, cx, cy}
	lo.seen[k] = append(lo.seen[k], seenGlyph{x: g.x, y: g.y, weight: min(max(g.weight, 0), 6)})
	lo.lastSeen, lo.lastSeenAt = k, len(lo.seen[k])-1
	return false
}

// paragraphs lays the page's runs out (pagelayout.go) and returns its
// paragraphs in reading order.
func (lo *layout) paragraphs() []para {
	lo.flushAccent()
	return layoutPage(lo.runs, nil)
}

// paragraphsWithRules is paragraphs with the page's ruled lines, which
// outline tables.
func (lo *layout) paragraphsWithRules(rules []rule) []para {
	lo.flushAccent()
	return layoutPage(lo.runs, rules)
}

// noSpaceScript reports whether r belongs to a script written without
// spaces between words (Han, kana); Korean Hangul is written with them.
func noSpaceScript(r rune) bool {
	return IsCJK(r) && !unicode.Is(unicode.Hangul, r)
}
