package pdf

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	lp "github.com/ledongthuc/pdf"
)

// loadSimpleEncoding fills f.enc from /Encoding, the font's built-in
// encoding and /Differences.
func loadSimpleEncoding(f *font, fd lp.Value, budget *int64) {
	base := key(fd, "BaseFont").Name()
	desc := key(fd, "FontDescriptor")
	flags, _ := num(key(desc, "Flags"))
	symbolic := int(flags)&4 != 0 && int(flags)&32 == 0
	enc := key(fd, "Encoding")
	var table *byteEncoding
	var diffs lp.Value
	switch enc.Kind() {
	case lp.Name:
		table = namedEncoding(enc.Name())
	case lp.Dict:
		table = namedEncoding(key(enc, "BaseEncoding").Name())
		diffs = key(enc, "Differences")
	}
	switch {
	case table != nil:
		f.enc = *table
	case isSymbolFont(base):
		f.enc = symbolEncoding
	default:
		if builtin, ok := type1BuiltinEncoding(desc, budget); ok {
			f.enc = builtin
		} else if builtin, ok := cffFontEncoding(desc, budget); ok {
			f.enc = builtin
		} else if symbolic || f.type3 {
			f.enc = asciiBase()
		} else {
			f.enc = standardEncoding
		}
	}
	gidNamed := map[int]string{} // code -> text of a "g<GID>" name, by the standard glyph order
	hexNamed := map[int]string{} // code -> text of a "G6F"-style name, by its hex character code
	hexDigits := false           // some such name has a hex letter among its digits
	for i, code, n := 0, -1, diffs.Len(); i < n && i < 4096; i++ {
		v := index(diffs, i)
		switch v.Kind() {
		case lp.Integer:
			code = int(v.Int64())
		case lp.Name:
			if code >= 0 && code < 256 {
				if t := glyphText(v.Name()); t != "" {
					f.enc[code] = t
					f.namedLetters[code] = allLetters(t)
				} else if !f.type3 {
					f.enc[code] = "" // unknown glyph: don't trust the base
					if t, ok := macOrderText(v.Name()); ok {
						gidNamed[code] = t
					}
					if t, hex, ok := hexCodeText(v.Name()); ok {
						hexNamed[code] = t
						hexDigits = hexDigits || hex
					}
				}
			}
			code++
		}
	}
	if hexDigits && plausibleText(hexNamed) {
		gidNamed = hexNamed
	}
	if plausibleText(gidNamed) {
		for code, t := range gidNamed {
			f.enc[code] = t
			f.namedLetters[code] = allLetters(t)
		}
	}
}

// hexNameRE matches a glyph name made of one or two letters and a
// character code in two hex digits ("G6F"), as PostScript drivers name
// the glyphs of TrueType fonts they convert.
var hexNameRE = regexp.MustCompile(`^[A-Za-z]{1,2}([0-9A-Fa-f]{2})$`)

// hexCodeText reads a name such as "G59" or "Cb3" as the Latin-1
// character of its hex code ("Y", "³"); hex reports whether the digits
// hold a hex letter, which tells such names from decimal ones ("G32"):
// the reading is used only for fonts where some name does.
func hexCodeText(name string) (text string, hex, ok bool) {
	m := hexNameRE.FindStringSubmatch(name)
	if m == nil {
		return "", false, false
	}
	v, err := strconv.ParseUint(m[1], 16, 8)
	if err != nil || v < 0x20 || v >= 0x7f && v < 0xa0 {
		return "", false, false
	}
	return string(rune(v)), strings.IndexAny(m[1], "abcdefABCDEF") >= 0, true
}

// isSymbolFont reports the standard Symbol font (possibly subset-tagged).
func isSymbolFont(base string) bool {
	if i := strings.IndexByte(base, '+'); i == 6 {
		base = base[7:]
	}
	return base == "Symbol" || strings.HasPrefix(base, "Symbol,") || strings.HasPrefix(base, "Symbol-")
}

var dupPut = regexp.MustCompile(`dup\s+(\d+)\s*/([^\s/\[\]{}()<>]+)\s+put`)

// type1BuiltinEncoding reads the encoding vector from the clear-text part
// of an embedded Type 1 font program ("dup 65 /A put" lines).
func type1BuiltinEncoding(desc lp.Value, budget *int64) (byteEncoding, bool) {
	ff := key(desc, "FontFile")
	if ff.Kind() != lp.Stream {
		return byteEncoding{}, false
	}
	n, _ := num(key(ff, "Length1"))
	limit := int64(n)
	if limit <= 0 || limit > 256<<10 {
		limit = 256 << 10
	}
	if *budget < limit {
		return byteEncoding{}, false
	}
	data, _ := readStream(ff, limit)
	*budget -= int64(len(data))
	if i := bytes.Index(data, []byte("eexec")); i >= 0 {
		data = data[:i]
	}
	if bytes.Contains(data, []byte("/Encoding StandardEncoding")) {
		return standardEncoding, true
	}
	var e byteEncoding
	found := false
	for _, m := range dupPut.FindAllSubmatch(data, 512) {
		c, err := strconv.Atoi(string(m[1]))
		if err != nil || c < 0 || c > 255 {
			continue
		}
		if t := glyphText(string(m[2])); t != "" {
			e[c] = t
			found = true
		}
	}
	return e, found
}

// cffFontEncoding reads the built-in encoding of an embedded CFF font
// program (/FontFile3 of /Subtype Type1C or OpenType): the glyph names of
// its charset at the codes its encoding gives them. Codes the program
// leaves empty keep their StandardEncoding text, as pdftotext has them.
func cffFontEncoding(desc lp.Value, budget *int64) (byteEncoding, bool) {
	ff := key(desc, "FontFile3")
	if ff.Kind() != lp.Stream {
		return byteEncoding{}, false
	}
	if st := key(ff, "Subtype").Name(); st != "Type1C" && st != "OpenType" {
		return byteEncoding{}, false
	}
	limit := min(*budget, 4<<20)
	if limit <= 0 {
		return byteEncoding{}, false
	}
	data, _ := readStream(ff, limit)
	*budget -= int64(len(data))
	names, err := cffBuiltinEncoding(openTypeCFF(data))
	if err != nil {
		return byteEncoding{}, false
	}
	e := standardEncoding
	found := false
	for c, n := range names {
		if t := glyphText(n); t != "" {
			e[c] = t
			found = true
		}
	}
	return e, found
}

// loadSimpleWidths reads /Widths (or standard-font metrics).
func loadSimpleWidths(f *font, fd lp.Value) {
	desc := key(fd, "FontDescriptor")
	if mw, ok := num(key(desc, "MissingWidth")); ok && mw > 0 {
		f.missing = mw * f.scale
	}
	w := key(fd, "Widths")
	first, _ := num(key(fd, "FirstChar"))
	if w.Kind() == lp.Array && w.Len() > 0 {
		for i, n := 0, w.Len(); i < n && i < 256; i++ {
			c := int(first) + i
			if c < 0 || c > 255 {
				continue
			}
			if v, ok := num(index(w, i)); ok {
				f.widths[c] = v * f.scale
				f.hasW[c] = true
			}
		}
		if f.missing == 0 {
			f.missing = 0.5
		}
		return
	}
	std := standardWidths(key(fd, "BaseFont").Name())
	for c := 0; c < 256; c++ {
		if w := std(f.enc[c]); w > 0 {
			f.widths[c] = w / 1000
			f.hasW[c] = true
		}
	}
	f.missing = 0.5
}

// allLetters reports whether s is made of letters only.
func allLetters(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return s != ""
}

// macOrderText reads a glyph name made of a glyph index ("g40"), as
// converters write for TrueType glyphs that had no name, through the
// standard Macintosh glyph order that most Latin TrueType fonts keep for
// their first glyphs: index 3 is the space and indexes 3..97 are ASCII
// 0x20..0x7E (g40 "E", g81 "n").
func macOrderText(name string) (string, bool) {
	if len(name) < 2 || len(name) > 3 || name[0] != 'g' {
		return "", false
	}
	gid, err := strconv.Atoi(name[1:])
	if err != nil || gid < 3 || gid > 97 {
		return "", false
	}
	return string(rune(gid + 29)), true
}

// plausibleText reports whether characters read through the standard
// glyph order look like a font's text rather than a renumbered subset
// read wrongly: they hold at least three of the lowercase vowels.
func plausibleText(byCode map[int]string) bool {
	vowels := map[string]bool{}
	for _, t := range byCode {
		if strings.Contains("aeiou", t) && t != "" {
			vowels[t] = true
		}
	}
	return len(vowels) >= 3
}
