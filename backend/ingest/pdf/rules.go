package pdf

import "math"

// Ruled lines. The walker keeps the horizontal and vertical lines a page
// draws (stroked lines, thin filled rectangles, the edges of rectangles),
// in device space; the page analysis uses them to find ruled tables.

// rule is an axis-aligned segment: horizontal (y fixed, from a to b along
// x) or vertical (x fixed, a to b along y).
type rule struct {
	horizontal bool
	at, a, b   float64
}

const (
	maxRulesPerPage = 5000
	thinRule        = 2.5 // a filled rectangle this thin is a line
	minRuleLength   = 4.0
)

// path handles the path-construction and painting operators: segments of
// painted paths become rules; curves are ignored.
func (w *walker) path(op string, args []operand, gs *gstate) {
	num := func(i int) float64 {
		if len(args) < 4 && op == "re" || i >= len(args) || args[i].kind != kNum {
			return math.NaN()
		}
		return args[i].num
	}
	switch op {
	case "m":
		if len(args) >= 2 {
			w.pathX, w.pathY = gs.ctm.apply(num(len(args)-2), num(len(args)-1))
		}
	case "l":
		if len(args) >= 2 {
			x, y := gs.ctm.apply(num(len(args)-2), num(len(args)-1))
			w.addSeg(w.pathX, w.pathY, x, y)
			w.pathX, w.pathY = x, y
		}
	case "re":
		if len(args) >= 4 {
			n := len(args)
			x, y, wd, ht := num(n-4), num(n-3), num(n-2), num(n-1)
			x0, y0 := gs.ctm.apply(x, y)
			x1, y1 := gs.ctm.apply(x+wd, y+ht)
			bw, bh := math.Abs(x1-x0), math.Abs(y1-y0)
			switch {
			case bh <= thinRule && bw >= minRuleLength:
				w.addSeg(x0, (y0+y1)/2, x1, (y0+y1)/2)
			case bw <= thinRule && bh >= minRuleLength:
				w.addSeg((x0+x1)/2, y0, (x0+x1)/2, y1)
			case bw*bh < 0.5*w.pageArea:
				w.addSeg(x0, y0, x1, y0)
				w.addSeg(x0, y1, x1, y1)
				w.addSeg(x0, y0, x0, y1)
				w.addSeg(x1, y0, x1, y1)
			}
		}
	case "h":
	case "n":
		w.pathSegs = w.pathSegs[:0]
	default: // a painting operator
		if stroked(op) {
			w.thickStrokesToBoxes(gs)
		}
		if room := maxRulesPerPage - len(w.res.rules); room > 0 {
			w.res.rules = append(w.res.rules, w.pathSegs[:min(room, len(w.pathSegs))]...)
		}
		w.pathSegs = w.pathSegs[:0]
	}
}

// addSeg records a segment of the current path if it is axis-aligned and
// long enough to be a rule.
func (w *walker) addSeg(x0, y0, x1, y1 float64) {
	if math.IsNaN(x0+y0+x1+y1) || math.IsInf(x0+y0+x1+y1, 0) || len(w.pathSegs) >= maxRulesPerPage {
		return
	}
	switch {
	case math.Abs(y1-y0) < 0.5 && math.Abs(x1-x0) >= minRuleLength:
		w.pathSegs = append(w.pathSegs, rule{true, (y0 + y1) / 2, math.Min(x0, x1), math.Max(x0, x1)})
	case math.Abs(x1-x0) < 0.5 && math.Abs(y1-y0) >= minRuleLength:
		w.pathSegs = append(w.pathSegs, rule{false, (x0 + x1) / 2, math.Min(y0, y1), math.Max(y0, y1)})
	}
}

// stroked reports whether a painting operator strokes the path.
func stroked(op string) bool {
	switch op {
	case "S", "s", "B", "B*", "b", "b*":
		return true
	}
	return false
}

// thickStrokesToBoxes turns the segments of a path stroked with a wide pen
// into the outlines of the bands they paint: some producers draw a table's
// cells as thick strokes, and the lines a reader sees are the edges of
// those bands, not their centre lines.
func (w *walker) thickStrokesToBoxes(gs *gstate) {
	m := gs.ctm
	width := gs.lineWidth * math.Sqrt(math.Abs(m[0]*m[3]-m[1]*m[2]))
	if !(width > thinRule) || math.IsInf(width, 0) {
		return
	}
	segs := append([]rule(nil), w.pathSegs...)
	w.pathSegs = w.pathSegs[:0]
	h := width / 2
	for _, s := range segs {
		if s.horizontal {
			w.addSeg(s.a, s.at-h, s.b, s.at-h)
			w.addSeg(s.a, s.at+h, s.b, s.at+h)
			w.addSeg(s.a, s.at-h, s.a, s.at+h)
			w.addSeg(s.b, s.at-h, s.b, s.at+h)
		} else {
			w.addSeg(s.at-h, s.a, s.at+h, s.a)
			w.addSeg(s.at-h, s.b, s.at+h, s.b)
			w.addSeg(s.at-h, s.a, s.at-h, s.b)
			w.addSeg(s.at+h, s.a, s.at+h, s.b)
		}
	}
}
