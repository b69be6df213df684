package pdf

import (
	"errors"
	"fmt"
	"math"

	lp "github.com/ledongthuc/pdf"
)

// Work caps for one page and one document.
const (
	maxOpsPerPage    = 2_000_000   // operators, including those in forms
	maxOpsPerDoc     = 100_000_000 // operators in all pages
	maxBytesPerDoc   = 2 << 30     // decoded content lexed in all pages
	maxFormDepth     = 8           // nested Form XObjects
	maxFormCalls     = 2000        // Form XObject invocations per page
	maxGStateDepth   = 256         // q nesting
	maxPageBytes     = 64 << 20    // decoded content per page, forms included
	maxStreamBytes   = 64 << 20    // one decoded stream
	streamCacheBytes = 32 << 20    // decoded streams kept for reuse across pages
	fontProgramBytes = 16 << 20    // font-program bytes read per document
)

var (
	errTooManyOps   = errors.New("too many drawing operators on the page")
	errPageTooLarge = errors.New("page content too large")
)

// gstate is the part of the graphics state the text walker needs.
type gstate struct {
	ctm            matrix
	font           *font
	size           float64
	tc, tw, th, tl float64
	rise           float64
	lineWidth      float64    // in user space (w)
	fill           uint32     // non-stroking colour as 0xRRGGBB (black by default)
	space          *fillSpace // the non-stroking colour space when not a device one (colourspace.go)
	render         int        // text rendering mode (Tr)
}

// pageResult is what the walker extracted from one page.
type pageResult struct {
	paras       []para
	rules       []rule  // horizontal and vertical lines drawn on the page
	glyphs      int     // glyphs shown
	undecodable int     // glyphs whose text could not be determined
	unmappedCID int     // of those, glyphs of CJK fonts without any Unicode map
	noFont      int     // text shown with a font that could not be loaded
	imageCover  float64 // fraction of the page covered by images (summed; scans are often tiled in strips)
	err         error   // why the walk stopped early, if it did
}

// text is the page's text, paragraphs separated by blank lines.
func (r *pageResult) text() string {
	return joinParas(r.paras)
}

// walker interprets the content streams of one page.
type walker struct {
	doc      *docState
	lay      layout
	res      pageResult
	ops      int
	forms    int
	bytes    int64
	pageArea float64
	box      [4]float64 // visible page area; glyphs outside it are dropped
	clip     bool
	codes    []glyphCode
	actual   *actualSpan // an open /ActualText span (actualtext.go)
	pathSegs []rule      // the path under construction, as axis-aligned segments
	pathX    float64
	pathY    float64
}

// walkPage extracts the text of one page. It never panics.
func walkPage(doc *docState, p pageRef) (res pageResult) {
	w := &walker{doc: doc, pageArea: p.area(), box: p.box, clip: p.hasBox}
	defer func() {
		if r := recover(); r != nil {
			w.res.err = fmt.Errorf("page walker failed: %v", r)
		}
		w.res.paras = w.lay.paragraphsWithRules(w.res.rules)
		res = w.res
	}()
	var data []byte
	contents := key(p.v, "Contents")
	switch contents.Kind() {
	case lp.Stream:
		b, err := doc.stream(contents)
		if err != nil {
			w.res.err = err
		}
		data = b
	case lp.Array:
		for i, n := 0, contents.Len(); i < n && i < 10000; i++ {
			b, err := doc.stream(index(contents, i))
			if err != nil {
				w.res.err = err
			}
			if int64(len(data)+len(b)) > maxPageBytes {
				w.res.err = errPageTooLarge
				break
			}
			data = append(append(data, b...), '\n')
		}
	}
	w.bytes = int64(len(data))
	defer func() { doc.ops += int64(w.ops); doc.bytes += w.bytes }()
	gs := gstate{ctm: identity, th: 1, lineWidth: 1}
	w.run(data, doc.resources(p.resources), gs, 0)
	return
}

// run interprets one content stream with the given resources.
func (w *walker) run(data []byte, res *resources, gs gstate, depth int) {
	lx := lexer{data: data}
	var stack []gstate
	marked := 0 // marked-content depth (BDC/BMC … EMC)
	defer func() {
		if w.actual != nil && w.actual.formAt == depth {
			w.closeActual() // not closed by its EMC
		}
	}()
	tm, tlm := identity, identity
	for {
		op, args, ok, err := lx.next()
		if err != nil {
			w.fail(err)
			return
		}
		if !ok {
			return
		}
		w.ops++
		if w.ops > maxOpsPerPage {
			w.fail(errTooManyOps)
			return
		}
		switch op {
		case "q":
			if len(stack) < maxGStateDepth {
				stack = append(stack, gs)
			}
		case "Q":
			if n := len(stack); n > 0 {
				gs = stack[n-1]
				stack = stack[:n-1]
			}
		case "cm":
			if m, ok := matrixFrom(args); ok {
				gs.ctm = m.mul(gs.ctm)
			}
		case "BT":
			tm, tlm = identity, identity
		case "Tf":
			if len(args) >= 2 {
				gs.font = w.font(res, args[len(args)-2].str)
				gs.size = args[len(args)-1].num
			}
		case "g", "rg", "k":
			gs.space = nil
			gs.fill = fillColour(args, gs.fill)
		case "sc", "scn":
			gs.fill = gs.space.colour(args, gs.fill)
		case "cs":
			// A new colour space starts at its initial colour: black, or
			// a separation's full tint.
			gs.space, gs.fill = nil, 0
			if len(args) > 0 && args[0].kind == kName {
				gs.space = colourSpaceOf(res, args[0].str)
				if gs.space != nil && gs.space.tint {
					gs.fill = gs.space.colour([]operand{{kind: kNum, num: 1}}, 0)
				}
			}
		case "Tr":
			gs.render = int(lastNum(args, float64(gs.render)))
		case "w":
			gs.lineWidth = math.Abs(lastNum(args, gs.lineWidth))
		case "Tc":
			gs.tc = lastNum(args, gs.tc)
		case "Tw":
			gs.tw = lastNum(args, gs.tw)
		case "Tz":
			gs.th = lastNum(args, gs.th*100) / 100
		case "TL":
			gs.tl = lastNum(args, gs.tl)
		case "Ts":
			gs.rise = lastNum(args, gs.rise)
		case "Td", "TD":
			if len(args) >= 2 {
				tx, ty := args[len(args)-2].num, args[len(args)-1].num
				if op == "TD" {
					gs.tl = -ty
				}
				tlm = translate(tx, ty).mul(tlm)
				tm = tlm
			}
		case "Tm":
			if m, ok := matrixFrom(args); ok {
				tm, tlm = m, m
			}
		case "T*":
			tlm = translate(0, -gs.tl).mul(tlm)
			tm = tlm
		case "Tj", "'", "\"":
			if op != "Tj" {
				if op == "\"" && len(args) >= 3 {
					gs.tw, gs.tc = args[len(args)-3].num, args[len(args)-2].num
				}
				tlm = translate(0, -gs.tl).mul(tlm)
				tm = tlm
			}
			if len(args) > 0 && args[len(args)-1].kind == kStr {
				w.show(&gs, &tm, args[len(args)-1].str)
			}
		case "TJ":
			if len(args) > 0 && args[len(args)-1].kind == kArray {
				for _, e := range args[len(args)-1].arr {
					switch e.kind {
					case kStr:
						w.show(&gs, &tm, e.str)
					case kNum:
						w.kern(&gs, &tm, e.num)
					}
				}
			}
		case "BDC", "BMC":
			marked++
			if op == "BDC" && w.actual == nil {
				if t, ok := actualText(args, res); ok {
					w.actual = &actualSpan{text: t, formAt: depth, depth: marked}
				}
			}
		case "EMC":
			if w.actual != nil && w.actual.formAt == depth && w.actual.depth == marked {
				w.closeActual()
			}
			marked = max(marked-1, 0)
		case "m", "l", "re", "h", "S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n":
			w.path(op, args, &gs)
		case "Do":
			if len(args) > 0 && args[len(args)-1].kind == kName {
				w.xobject(res, args[len(args)-1].str, gs, depth)
				if w.res.err == errTooManyOps || w.res.err == errPageTooLarge {
					return
				}
			}
		}
	}
}

// fillColour is the colour set by g, rg, k, sc or scn as 0xRRGGBB: one
// operand is a grey, three RGB, four CMYK; anything else (a pattern, a
// separation's tint) keeps the colour before.
func fillColour(args []operand, prev uint32) uint32 {
	var v []float64
	for _, a := range args {
		if a.kind != kNum {
			return prev
		}
		v = append(v, math.Min(math.Max(a.num, 0), 1))
	}
	switch len(v) {
	case 1:
		v = []float64{v[0], v[0], v[0]}
	case 3:
	case 4:
		k := v[3]
		v = []float64{(1 - v[0]) * (1 - k), (1 - v[1]) * (1 - k), (1 - v[2]) * (1 - k)}
	default:
		return prev
	}
	return uint32(math.Round(v[0]*255))<<16 | uint32(math.Round(v[1]*255))<<8 | uint32(math.Round(v[2]*255))
}

// fail records the first reason the walk stopped early.
func (w *walker) fail(err error) {
	if w.res.err == nil {
		w.res.err = err
	}
}

// lastNum returns the last operand as a finite number, or def.
func lastNum(args []operand, def float64) float64 {
	if len(args) == 0 || args[len(args)-1].kind != kNum {
		return def
	}
	v := args[len(args)-1].num
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return def
	}
	return v
}

// font returns the font named in the resources. Fonts referenced
// indirectly are loaded once per document, by object identity (never by
// name: producers reuse names for different fonts on different pages).
func (w *walker) font(res *resources, name string) *font {
	if f, ok := res.fc[name]; ok {
		return f
	}
	id := res.fontRef[name]
	f := w.doc.fonts[id]
	if f == nil || id == 0 {
		if fd := key(res.fonts, name); fd.Kind() == lp.Dict {
			f = loadFont(fd, &w.doc.fontBudget)
			if id != 0 {
				w.doc.fonts[id] = f
			}
		}
	}
	res.fc[name] = f
	return f
}

// show places the glyphs of one string.
func (w *walker) show(gs *gstate, tm *matrix, s string) {
	f := gs.font
	if f == nil {
		w.res.noFont += len(s)
		return
	}
	w.codes = f.decode(s, w.codes)
	for _, c := range w.codes {
		m := tm.mul(gs.ctm)
		x, y := m.apply(0, gs.rise)
		em := abs(gs.size) * f.emScale * hypot(m.vec(0, 1))
		var g glyph
		if f.vertical {
			ty := c.width*gs.size + gs.tc
			if c.space {
				ty += gs.tw
			}
			g.dx, g.dy = m.vec(0, ty)
			g.ix, g.iy = m.vec(0, c.width*gs.size)
			g.ux, g.uy = unit(m.vec(0, -1))
			*tm = translate(0, ty).mul(*tm)
		} else {
			tx := (c.width*gs.size + gs.tc) * gs.th
			if c.space {
				tx += gs.tw * gs.th
			}
			g.dx, g.dy = m.vec(tx, 0)
			g.ix, g.iy = m.vec(c.width*gs.size*gs.th, 0)
			g.ux, g.uy = unit(m.vec(1, 0))
			*tm = translate(tx, 0).mul(*tm)
		}
		w.res.glyphs++
		code := codeRead
		switch {
		case c.ok:
			g.text = c.text
		case f.noUnicode:
			g.text = "\uFFFD"
			code = codeUnmapped
		default:
			code = codeUnread
		}
		g.x, g.y, g.size, g.weight, g.color = x, y, em, f.weight, gs.fill
		if gs.render == 2 && g.weight < boldWeight {
			g.weight = boldWeight // filled and stroked: set bold by the pen
		}
		if w.actual != nil {
			// inside a replacement span: its text may stand for the glyph
			if !w.clip || w.visible(x, y, em) {
				w.actual.glyphs = append(w.actual.glyphs, g)
				w.actual.codes = append(w.actual.codes, code)
			}
			continue
		}
		w.place(g, code, w.clip && !w.visible(x, y, em))
	}
}

// How a glyph's code was read: to its text, to no text in a font without
// any Unicode map (shown as U+FFFD), or to nothing.
const (
	codeRead = iota
	codeUnmapped
	codeUnread
)

// place adds a glyph to the page as its code was read, counting the
// codes not read; a glyph off the page (hidden) is counted, not placed.
func (w *walker) place(g glyph, code int, hidden bool) {
	switch code {
	case codeUnmapped:
		w.res.undecodable++
		w.res.unmappedCID++
	case codeUnread:
		w.res.undecodable++
		return
	}
	if !hidden {
		w.lay.add(g)
	}
}

// visible reports whether a glyph origin lies on the page (with half an
// em of tolerance), as poppler decides: producers draw two-page spreads
// on each page and move the unwanted half off the page.
func (w *walker) visible(x, y, em float64) bool {
	m := em / 2
	return x >= w.box[0]-m && x <= w.box[2]+m && y >= w.box[1]-m && y <= w.box[3]+m
}

// kern applies a TJ number: a move against the writing direction in
// thousandths of the font size.
func (w *walker) kern(gs *gstate, tm *matrix, n float64) {
	if math.IsNaN(n) || math.IsInf(n, 0) {
		return
	}
	d := -n / 1000 * gs.size
	if gs.font != nil && gs.font.vertical {
		*tm = translate(0, d).mul(*tm)
		return
	}
	*tm = translate(d*gs.th, 0).mul(*tm)
}

// xobject handles "Do": images are measured (to spot scanned pages) and
// forms are interpreted with their own matrix and resources.
func (w *walker) xobject(res *resources, name string, gs gstate, depth int) {
	x, ok := res.xc[name]
	if !ok {
		x = key(res.xobjs, name)
		res.xc[name] = x
	}
	switch key(x, "Subtype").Name() {
	case "Image":
		if w.pageArea > 0 {
			c := abs(gs.ctm[0]*gs.ctm[3]-gs.ctm[1]*gs.ctm[2]) / w.pageArea
			w.res.imageCover = min(1, w.res.imageCover+min(c, 1))
		}
	case "Form":
		if depth >= maxFormDepth || w.forms >= maxFormCalls {
			return
		}
		w.forms++
		data, err := w.doc.stream(x)
		if err != nil {
			w.fail(fmt.Errorf("form %s: %w", name, err))
		}
		w.bytes += int64(len(data))
		if w.bytes > maxPageBytes {
			w.fail(errPageTooLarge)
			return
		}
		if m, ok := matrixFrom(formMatrix(key(x, "Matrix"))); ok {
			gs.ctm = m.mul(gs.ctm)
		}
		sub := res
		if r := key(x, "Resources"); r.Kind() == lp.Dict {
			sub = w.doc.resources(r)
		}
		w.run(data, sub, gs, depth+1)
	}
}

// formMatrix converts a /Matrix array to operands for matrixFrom.
func formMatrix(v lp.Value) []operand {
	if v.Len() != 6 {
		return nil
	}
	out := make([]operand, 6)
	for i := range out {
		x, ok := num(index(v, i))
		if !ok {
			return nil
		}
		out[i] = operand{kind: kNum, num: x}
	}
	return out
}

// unit normalises a vector; a zero vector becomes (1, 0).
func unit(x, y float64) (float64, float64) {
	l := hypot(x, y)
	if l == 0 || math.IsNaN(l) || math.IsInf(l, 0) {
		return 1, 0
	}
	return x / l, y / l
}
