package pdf

import (
	"math"

	lp "github.com/ledongthuc/pdf"
)

// Colour spaces beyond the device ones, as far as a text's colour matters
// to reading (a title set in a spot colour is a title in a second colour):
// a Separation's tint taken through its exponential (type 2) tint
// transform into its alternate space, and a Lab colour, both as sRGB; an
// ICC-based space by its number of components (grey, RGB, CMYK), as the
// device spaces are. A space read no further (a pattern, a DeviceN, a
// sampled or PostScript tint transform) keeps the colour before.

// fillSpace is a non-device fill colour space set by cs. nil: a device
// space (or one read like it), whose colours fillColour reads by their
// number of components.
type fillSpace struct {
	unknown bool      // colours in it are not read: the fill stays as it was
	tint    bool      // a Separation: one tint through c0 … c1 (exponent n)
	c0, c1  []float64 // the alternate space's colour at tint 0 and 1
	n       float64
	lab     bool // the colours (or the alternate's) are CIE L*a*b*
}

// colourSpaceOf resolves the colour space named by cs in res.
func colourSpaceOf(res *resources, name string) *fillSpace {
	switch name {
	case "DeviceGray", "DeviceRGB", "DeviceCMYK", "G", "RGB", "CMYK":
		return nil
	case "Pattern":
		return &fillSpace{unknown: true}
	}
	if res == nil {
		return &fillSpace{unknown: true}
	}
	return spaceOf(key(key(res.v, "ColorSpace"), name))
}

// spaceOf reads a colour space object.
func spaceOf(v lp.Value) *fillSpace {
	if v.Kind() == lp.Name {
		return colourSpaceOf(nil, v.Name())
	}
	if v.Kind() != lp.Array || v.Len() == 0 {
		return &fillSpace{unknown: true}
	}
	switch index(v, 0).Name() {
	case "ICCBased", "CalRGB", "CalGray", "CalCMYK":
		return nil
	case "Lab":
		return &fillSpace{lab: true}
	case "Separation":
		alt := spaceOf(index(v, 2))
		fn := index(v, 3)
		if ft, _ := num(key(fn, "FunctionType")); ft != 2 || alt != nil && (alt.unknown || alt.tint) {
			return &fillSpace{unknown: true}
		}
		s := &fillSpace{tint: true, c0: numbers(key(fn, "C0"), []float64{0}), c1: numbers(key(fn, "C1"), []float64{1}), n: 1, lab: alt != nil && alt.lab}
		if n, ok := num(key(fn, "N")); ok {
			s.n = n
		}
		if len(s.c0) != len(s.c1) {
			return &fillSpace{unknown: true}
		}
		return s
	}
	return &fillSpace{unknown: true}
}

// numbers reads an array of numbers; def when v is none.
func numbers(v lp.Value, def []float64) []float64 {
	if v.Kind() != lp.Array {
		return def
	}
	var out []float64
	for i := 0; i < v.Len() && i < 8; i++ {
		x, ok := num(index(v, i))
		if !ok {
			return def
		}
		out = append(out, x)
	}
	return out
}

// colour is the fill colour sc or scn sets in space s (0xRRGGBB); prev
// when it cannot be read.
func (s *fillSpace) colour(args []operand, prev uint32) uint32 {
	if s == nil {
		return fillColour(args, prev)
	}
	if s.unknown {
		return prev
	}
	var v []float64
	for _, a := range args {
		if a.kind != kNum {
			return prev
		}
		v = append(v, a.num)
	}
	if s.tint {
		if len(v) != 1 {
			return prev
		}
		t := math.Min(math.Max(v[0], 0), 1)
		c := make([]float64, len(s.c0))
		for i := range c {
			c[i] = s.c0[i] + math.Pow(t, s.n)*(s.c1[i]-s.c0[i])
		}
		v = c
	}
	if s.lab {
		if len(v) != 3 {
			return prev
		}
		return labRGB(v[0], v[1], v[2])
	}
	ops := make([]operand, len(v))
	for i, x := range v {
		ops[i] = operand{kind: kNum, num: x}
	}
	return fillColour(ops, prev)
}

// labRGB converts a CIE L*a*b* colour (white point D65) to sRGB.
func labRGB(l, a, b float64) uint32 {
	finv := func(t float64) float64 {
		if t > 6.0/29 {
			return t * t * t
		}
		return 3 * (6.0 / 29) * (6.0 / 29) * (t - 4.0/29)
	}
	fy := (l + 16) / 116
	x, y, z := 0.9505*finv(fy+a/500), finv(fy), 1.089*finv(fy-b/200)
	lin := [3]float64{3.2406*x - 1.5372*y - 0.4986*z, -0.9689*x + 1.8758*y + 0.0415*z, 0.0557*x - 0.2040*y + 1.0570*z}
	var out uint32
	for _, c := range lin {
		c = math.Min(math.Max(c, 0), 1)
		if c <= 0.0031308 {
			c *= 12.92
		} else {
			c = 1.055*math.Pow(c, 1/2.4) - 0.055
		}
		out = out<<8 | uint32(math.Round(c*255))
	}
	return out
}
