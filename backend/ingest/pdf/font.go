package pdf

import (
	"strings"

	lp "github.com/ledongthuc/pdf"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	"golang.org/x/text/unicode/norm"
)

// font is what the walker needs from a PDF font: how to split a string
// into codes, the text of each code, and each code's advance.
type font struct {
	composite bool // Type0: multi-byte codes, CIDs

	// Simple fonts.
	enc byteEncoding // code -> text from /Encoding (+ built-in encoding)
	// namedLetters marks codes the /Differences array names as letters
	// ("f_f_i", "eacute"): they win over a ToUnicode entry that maps the
	// code to punctuation (a generic map written for another encoding).
	namedLetters [256]bool
	widths       [256]float64 // advance in text space per unit font size
	hasW         [256]bool

	// Composite fonts.
	encCMap   *cmap             // embedded encoding CMap (codespace, CIDs)
	identity  bool              // Identity-H/V: code == CID, 2 bytes
	ucs2      bool              // predefined Uni*-UCS2/UTF16 CMap: code is UTF-16
	legacy    encoding.Encoding // predefined CJK byte encoding (GBK, Shift-JIS, ...)
	cidW      map[uint32]float64
	cidWRange []cidWidth
	dw        float64 // default width (text space per unit size)
	dw2       float64 // default vertical advance (negative: downwards)
	vertical  bool

	toUnicode  *cmap
	missing    float64 // width for codes without one
	scale      float64 // glyph space -> text space for widths
	emScale    float64 // font size -> em (Type3 fonts differ from 1)
	noUnicode  bool    // composite font whose CIDs cannot be mapped to Unicode
	cidUnicode []rune  // CID -> Unicode of the font's Adobe collection, if installed
	type3      bool
	weight     int // 1 light .. 3 medium .. 5 bold .. 6 black, from the name, FontWeight or ForceBold (2: regular)
	// rupeeGrave: a "Rupee" font (Rupee Foradian and its kin, common in
	// Indian reports) draws the rupee sign at the grave accent's code and
	// maps it to "`".
	rupeeGrave bool
}

// cidWidth gives width w to CIDs first..last.
type cidWidth struct {
	first, last uint32
	w           float64
}

// glyphCode is one decoded character code.
type glyphCode struct {
	code  uint32
	n     int     // bytes
	text  string  // "" if unknown
	ok    bool    // text is trustworthy
	width float64 // horizontal advance (or vertical, negative, for vertical fonts), text space per unit size
	space bool    // single-byte code 32, which gets word spacing
}

// decode splits s into codes with their text and advances.
func (f *font) decode(s string, out []glyphCode) []glyphCode {
	out = out[:0]
	for len(s) > 0 {
		var g glyphCode
		if f.composite {
			g.n = f.codeLen(s)
		} else {
			g.n = 1
		}
		g.code = bytesCode(s[:g.n])
		g.text, g.ok = f.text(g.n, g.code, s[:g.n])
		if f.rupeeGrave && g.text == "`" {
			g.text = "₹"
		}
		g.text = horizontalForms(g.text)
		g.width = f.advance(g.n, g.code)
		g.space = g.n == 1 && g.code == 32
		out = append(out, g)
		s = s[g.n:]
	}
	return out
}

// codeLen returns the byte length of the composite-font code at s.
func (f *font) codeLen(s string) int {
	switch {
	case f.encCMap != nil && len(f.encCMap.spaces) > 0:
		return f.encCMap.split(s, 2)
	case f.legacy != nil && !f.ucs2:
		if s[0] < 0x80 {
			return 1
		}
		return min(2, len(s))
	}
	return min(2, len(s))
}

// text returns the Unicode text for a code.
func (f *font) text(n int, code uint32, raw string) (string, bool) {
	if t, ok := f.toUnicode.lookup(n, code); ok && t != "" && !allNUL(t) {
		if f.composite || !f.namedLetters[code&0xff] || letters(t) > 0 {
			return t, true
		}
	}
	if f.composite {
		switch {
		case f.cidUnicode != nil:
			if cid, ok := f.cid(n, code); ok && int(cid) < len(f.cidUnicode) && f.cidUnicode[cid] != 0 {
				return string(f.cidUnicode[cid]), true
			}
		case f.ucs2:
			return utf16Text(raw), true
		case f.legacy != nil:
			if t, err := f.legacy.NewDecoder().String(raw); err == nil && !strings.ContainsRune(t, 0xFFFD) {
				return t, true
			}
		}
		return "", false
	}
	if t := f.enc[code&0xff]; t != "" {
		return t, true
	}
	if code >= 0x20 && code < 0x7f {
		return string(rune(code)), true // unknown encoding: ASCII is the best guess
	}
	return "", false
}

// allNUL reports whether s consists of NUL bytes only (a ToUnicode
// entry that maps to nothing).
func allNUL(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != 0 {
			return false
		}
	}
	return true
}

// cid returns the CID of a composite-font code, if known.
func (f *font) cid(n int, code uint32) (uint32, bool) {
	if f.identity {
		return code, true
	}
	return f.encCMap.cid(n, code)
}

// advance returns the width of a code in text space per unit font size.
func (f *font) advance(n int, code uint32) float64 {
	if !f.composite {
		c := code & 0xff
		if f.hasW[c] {
			return f.widths[c]
		}
		return f.missing
	}
	cid := code
	if !f.identity {
		if c, ok := f.encCMap.cid(n, code); ok {
			cid = c
		} else if f.encCMap != nil || f.ucs2 || f.legacy != nil {
			return f.dwFor()
		}
	}
	if w, ok := f.cidW[cid]; ok {
		return w
	}
	for _, r := range f.cidWRange {
		if cid >= r.first && cid <= r.last {
			return r.w
		}
	}
	return f.dwFor()
}

// dwFor is the default advance in the font's writing direction.
func (f *font) dwFor() float64 {
	if f.vertical {
		return f.dw2
	}
	return f.dw
}

// loadFont builds a font from its dictionary. It never fails: missing or
// damaged parts fall back to defaults, and the judge decides later whether
// the text is usable.
func loadFont(fd lp.Value, budget *int64) *font {
	f := &font{scale: 0.001, emScale: 1, dw: 1, dw2: -1}
	f.weight = fontWeight(fd)
	f.rupeeGrave = strings.Contains(strings.ToLower(key(fd, "BaseFont").Name()), "rupee")
	subtype := key(fd, "Subtype").Name()
	if tu := key(fd, "ToUnicode"); tu.Kind() == lp.Stream {
		f.toUnicode = parseCMap(tu)
		if f.toUnicode.empty() {
			f.toUnicode = nil
		}
	}
	if subtype == "Type0" {
		loadComposite(f, fd)
		return f
	}
	f.type3 = subtype == "Type3"
	if f.type3 {
		fm := key(fd, "FontMatrix")
		if a, ok := num(index(fm, 0)); ok && a != 0 {
			f.scale = abs(a)
		}
		if d, ok := num(index(fm, 3)); ok && d != 0 {
			f.emScale = abs(d) * 1000
		}
	}
	loadSimpleEncoding(f, fd, budget)
	loadSimpleWidths(f, fd)
	return f
}

// loadComposite reads a Type0 font's encoding CMap and descendant CIDFont.
func loadComposite(f *font, fd lp.Value) {
	f.composite = true
	enc := key(fd, "Encoding")
	desc := index(key(fd, "DescendantFonts"), 0)
	switch enc.Kind() {
	case lp.Name:
		name := enc.Name()
		f.vertical = strings.HasSuffix(name, "-V")
		switch {
		case name == "Identity-H" || name == "Identity-V":
			f.identity = true
		case strings.Contains(name, "UCS2") || strings.Contains(name, "UTF16"):
			f.ucs2 = true
		default:
			f.legacy = legacyEncoding(name)
		}
	case lp.Stream:
		f.encCMap = parseCMap(enc)
		if wm, ok := num(key(enc, "WMode")); ok && wm == 1 || f.encCMap.wmode == 1 {
			f.vertical = true
		}
		if len(f.encCMap.cids) == 0 && len(f.encCMap.cidRngs) == 0 {
			f.identity = true
		}
	default:
		f.identity = true
	}
	if f.toUnicode == nil && !f.ucs2 && f.legacy == nil {
		// CIDs of Adobe-GB1/CNS1/Japan1/Korea1 fonts need the collection's
		// CID->Unicode table; Identity fonts' CIDs mean nothing.
		info := key(desc, "CIDSystemInfo")
		f.cidUnicode = cidTable(key(info, "Registry").RawString() + "-" + key(info, "Ordering").RawString())
		f.noUnicode = f.cidUnicode == nil
	}
	if dw, ok := num(key(desc, "DW")); ok {
		f.dw = dw / 1000
	}
	if dw2 := key(desc, "DW2"); dw2.Len() == 2 {
		if v, ok := num(index(dw2, 1)); ok {
			f.dw2 = v / 1000
		}
	}
	w := key(desc, "W")
	if f.vertical {
		w = key(desc, "W2")
	}
	f.cidW = map[uint32]float64{}
	step := 1
	if f.vertical {
		step = 3 // W2 entries are [w1y vx vy]
	}
	for i, n := 0, w.Len(); i < n && i < 1<<20; {
		first, ok := num(index(w, i))
		if !ok {
			break
		}
		next := index(w, i+1)
		if next.Kind() == lp.Array {
			for j, k := 0, next.Len(); j+step-1 < k && j < 1<<20; j += step {
				if v, ok := num(index(next, j)); ok {
					f.cidW[uint32(first)+uint32(j/step)] = v / 1000
				}
			}
			i += 2
			continue
		}
		last, ok1 := num(next)
		v, ok2 := num(index(w, i+2))
		if !ok1 || !ok2 {
			break
		}
		f.cidWRange = append(f.cidWRange, cidWidth{uint32(first), uint32(last), v / 1000})
		i += 2 + step
	}
}

// legacyEncoding maps a predefined CJK CMap name to the byte encoding its
// codes use, so such fonts can be read without a ToUnicode map.
func legacyEncoding(name string) encoding.Encoding {
	switch {
	case strings.HasPrefix(name, "GBK2K") || strings.HasPrefix(name, "GBKp"):
		return simplifiedchinese.GB18030
	case strings.HasPrefix(name, "GB"):
		return simplifiedchinese.GBK
	case strings.Contains(name, "RKSJ"):
		return japanese.ShiftJIS
	case name == "EUC-H" || name == "EUC-V":
		return japanese.EUCJP
	case strings.HasPrefix(name, "KSC"):
		return korean.EUCKR
	case strings.HasPrefix(name, "B5") || strings.HasPrefix(name, "ETen") || strings.HasPrefix(name, "HKscs"):
		return traditionalchinese.Big5
	}
	return nil
}

// abs is the absolute value of x.
func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// fontWeight ranks a font's weight: 1 thin or light, 2 regular, 3 medium,
// 4 semibold, 5 bold, 6 black; from its name ("Helvetica-Bold",
// "ABCDEF+KoPubDotumMedium", "NimbusRomNo9L-Medi"), its descriptor's
// FontWeight, or the ForceBold flag.
func fontWeight(fd lp.Value) int {
	name := strings.ToLower(key(fd, "BaseFont").Name())
	desc := key(fd, "FontDescriptor")
	if d := index(key(fd, "DescendantFonts"), 0); d.Kind() == lp.Dict {
		if name == "" {
			name = strings.ToLower(key(d, "BaseFont").Name())
		}
		if desc.Kind() != lp.Dict {
			desc = key(d, "FontDescriptor")
		}
	}
	if i := strings.IndexByte(name, '+'); i >= 0 {
		name = name[i+1:]
	}
	for _, k := range weightNames {
		if strings.Contains(name, k.s) {
			return k.w
		}
	}
	if w, ok := num(key(desc, "FontWeight")); ok && w > 0 {
		switch {
		case w >= 800:
			return 6
		case w >= 700:
			return 5
		case w >= 600:
			return 4
		case w >= 500:
			return 3
		case w < 400:
			return 1
		}
		return 2
	}
	if fl, ok := num(key(desc, "Flags")); ok && int64(fl)&(1<<18) != 0 {
		return 5
	}
	return 2
}

// weightNames are weight words of font names, the more specific first.
var weightNames = []struct {
	s string
	w int
}{
	{"extrabold", 6}, {"ultrabold", 6}, {"black", 6}, {"heavy", 6},
	{"semibold", 4}, {"demibold", 4}, {"semibd", 4}, {"demi", 4},
	{"extralight", 1}, {"ultralight", 1}, {"light", 1}, {"thin", 1},
	{"bold", 5}, {"-bd", 5}, {",bd", 5}, {"cmbx", 5}, {"cmb10", 5}, {"simhei", 5}, {"heiti", 5},
	{"-w9", 6}, {"-w8", 6}, {"-w7", 5}, {"-w6", 5}, {"-w5", 3},
	{"medium", 3}, {"-medi", 5}, {"-med", 3},
}

// horizontalForms replaces the vertical presentation forms that vertical
// CJK text is set with ("︵", "︑", "︽") by the punctuation they stand for
// ("（", "、", "《"), so the text searches and quotes like any other.
func horizontalForms(t string) string {
	for _, r := range t {
		if r >= 0xFE10 && r <= 0xFE19 || r >= 0xFE30 && r <= 0xFE4F {
			return norm.NFKC.String(t)
		}
	}
	return t
}
