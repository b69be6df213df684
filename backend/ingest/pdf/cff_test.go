package pdf

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"cairn/backend/ingest/parsed"
)

// cffSpec describes a small CFF font for the tests: its glyph names in
// glyph-index order (after .notdef) and how codes reach them.
type cffSpec struct {
	glyphs     []string     // glyph names; glyph i+1 is glyphs[i]
	codes      []byte       // encoding format 0: glyph i+1 at codes[i]
	ranges     [][2]byte    // encoding format 1 instead: {first code, codes left}
	supplement map[byte]int // extra codes for glyphs, by glyph index
	charsetFmt int          // 0, 1 or 2
	stdEnc     bool         // Encoding offset 0 (StandardEncoding)
	cid        bool         // add a ROS operator (CID-keyed font)
}

// buildCFF writes a CFF font program (Technical Note #5176) whose
// charstrings are empty glyphs: enough for an encoding reader.
func buildCFF(s cffSpec) []byte {
	sidOf := map[string]int{}
	for i, n := range cffStandardStrings {
		sidOf[n] = i
	}
	var custom []string
	sid := func(name string) int {
		if v, ok := sidOf[name]; ok {
			return v
		}
		custom = append(custom, name)
		sidOf[name] = len(cffStandardStrings) + len(custom) - 1
		return sidOf[name]
	}
	sids := make([]int, len(s.glyphs))
	for i, n := range s.glyphs {
		sids[i] = sid(n)
	}
	index := func(items [][]byte) []byte {
		var b bytes.Buffer
		binary.Write(&b, binary.BigEndian, uint16(len(items)))
		if len(items) == 0 {
			return b.Bytes()
		}
		b.WriteByte(4)
		off := uint32(1)
		binary.Write(&b, binary.BigEndian, off)
		for _, it := range items {
			off += uint32(len(it))
			binary.Write(&b, binary.BigEndian, off)
		}
		for _, it := range items {
			b.Write(it)
		}
		return b.Bytes()
	}
	num := func(v int) []byte { // 5-byte integer operand: fixed size
		b := []byte{29, 0, 0, 0, 0}
		binary.BigEndian.PutUint32(b[1:], uint32(int32(v)))
		return b
	}
	var strs [][]byte
	for _, c := range custom {
		strs = append(strs, []byte(c))
	}
	header := []byte{1, 0, 4, 4}
	name := index([][]byte{[]byte("TESTFT+Test")})
	strIdx := index(strs)
	gsubr := index(nil)
	topDict := func(charsetOff, encOff, csOff int) []byte {
		var top []byte
		if s.cid {
			top = append(append(append(top, num(391)...), num(392)...), num(0)...)
			top = append(top, 12, 30)
		}
		top = append(append(top, num(charsetOff)...), 15)
		top = append(append(top, num(encOff)...), 16)
		top = append(append(top, num(csOff)...), 17)
		return append(top, 30, 0x1f, 12, 2) // a real (1.0) as ItalicAngle, to be skipped
	}
	base := len(header) + len(name) + len(index([][]byte{topDict(0, 0, 0)})) + len(strIdx) + len(gsubr)

	var charset bytes.Buffer
	charset.WriteByte(byte(s.charsetFmt))
	switch s.charsetFmt {
	case 0:
		for _, v := range sids {
			binary.Write(&charset, binary.BigEndian, uint16(v))
		}
	default: // one range per glyph, which every format allows
		for _, v := range sids {
			binary.Write(&charset, binary.BigEndian, uint16(v))
			if s.charsetFmt == 1 {
				charset.WriteByte(0)
			} else {
				binary.Write(&charset, binary.BigEndian, uint16(0))
			}
		}
	}
	var enc bytes.Buffer
	format := byte(0)
	if s.ranges != nil {
		format = 1
	}
	if len(s.supplement) > 0 {
		format |= 0x80
	}
	enc.WriteByte(format)
	if s.ranges != nil {
		enc.WriteByte(byte(len(s.ranges)))
		for _, r := range s.ranges {
			enc.Write(r[:])
		}
	} else {
		enc.WriteByte(byte(len(s.codes)))
		enc.Write(s.codes)
	}
	if len(s.supplement) > 0 {
		enc.WriteByte(byte(len(s.supplement)))
		for code, gid := range s.supplement {
			enc.WriteByte(code)
			binary.Write(&enc, binary.BigEndian, uint16(sids[gid-1]))
		}
	}
	glyphs := [][]byte{{14}} // .notdef: endchar
	for range s.glyphs {
		glyphs = append(glyphs, []byte{14})
	}
	charsetOff := base
	encOff := charsetOff + charset.Len()
	csOff := encOff + enc.Len()
	if s.stdEnc {
		encOff = 0
	}
	top := topDict(charsetOff, encOff, csOff)
	var out bytes.Buffer
	out.Write(header)
	out.Write(name)
	out.Write(index([][]byte{top}))
	out.Write(strIdx)
	out.Write(gsubr)
	out.Write(charset.Bytes())
	out.Write(enc.Bytes())
	out.Write(index(glyphs))
	return out.Bytes()
}

// texGlyphs are the glyphs of a TeX text font in the order of its old
// 7-bit layout: the ligatures at codes 11..15, the letters at their ASCII
// codes, and one accented letter reached through a supplement.
func texGlyphs() cffSpec {
	s := cffSpec{glyphs: []string{"ff", "fi", "fl", "ffi", "ffl"}, codes: []byte{11, 12, 13, 14, 15}}
	for c := byte('a'); c <= 'z'; c++ {
		s.glyphs = append(s.glyphs, string(c))
		s.codes = append(s.codes, c)
	}
	s.glyphs = append(s.glyphs, "E", "eacute", "f_t")
	s.codes = append(s.codes, 'E', 0x82, 0x83)
	return s
}

func TestCFFBuiltinEncoding(t *testing.T) {
	tex := texGlyphs()
	ranged := texGlyphs()
	ranged.codes = nil
	ranged.ranges = [][2]byte{{11, 4}}
	for c := byte('a'); c <= 'z'; c++ {
		ranged.ranges = append(ranged.ranges, [2]byte{c, 0})
	}
	ranged.ranges = append(ranged.ranges, [2]byte{'E', 0}, [2]byte{0x82, 1})
	supp := texGlyphs()
	supp.supplement = map[byte]int{0xe9: 33} // eacute again, at its Latin-1 code
	fmt1, fmt2 := texGlyphs(), texGlyphs()
	fmt1.charsetFmt, fmt2.charsetFmt = 1, 2
	std := texGlyphs()
	std.stdEnc = true
	cid := texGlyphs()
	cid.cid = true
	cases := []struct {
		name string
		spec cffSpec
		want map[int]string
		err  bool
	}{
		{"format 0", tex, map[int]string{11: "ff", 12: "fi", 14: "ffi", 15: "ffl", 'a': "a", 'E': "E", 0x82: "eacute", 0x83: "f_t", 0x20: ""}, false},
		{"format 1", ranged, map[int]string{11: "ff", 13: "fl", 14: "ffi", 15: "ffl", 16: "", 'z': "z", 0x82: "eacute", 0x83: "f_t"}, false},
		{"supplement", supp, map[int]string{12: "fi", 0x82: "eacute", 0xe9: "eacute"}, false},
		{"charset format 1", fmt1, map[int]string{12: "fi", 'q': "q", 0x83: "f_t"}, false},
		{"charset format 2", fmt2, map[int]string{12: "fi", 'q': "q", 0x83: "f_t"}, false},
		{"standard encoding", std, map[int]string{12: "", 'q': "q", 0xae: "fi", 0x27: "quoteright"}, false},
		{"CID-keyed", cid, nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			names, err := cffBuiltinEncoding(buildCFF(c.spec))
			if (err != nil) != c.err {
				t.Fatalf("err = %v, want error %v", err, c.err)
			}
			for code, want := range c.want {
				if names[code] != want {
					t.Errorf("code %#x: %q, want %q", code, names[code], want)
				}
			}
		})
	}
}

func TestCFFStandardStrings(t *testing.T) {
	if n := len(cffStandardStrings); n != 391 {
		t.Fatalf("%d standard strings, want 391", n)
	}
	for sid, want := range map[int]string{0: ".notdef", 1: "space", 109: "fi", 110: "fl", 207: "eacute", 228: "zcaron", 266: "ff", 267: "ffi", 268: "ffl", 390: "Semibold"} {
		if got := cffStandardStrings[sid]; got != want {
			t.Errorf("SID %d = %q, want %q", sid, got, want)
		}
	}
	std := standardEncodingNames()
	for code, want := range map[int]string{' ': "space", 'A': "A", '~': "asciitilde", 0xae: "fi", 0xd0: "emdash", 0xe1: "AE", 0xf5: "dotlessi", 0xfb: "germandbls"} {
		if std[code] != want {
			t.Errorf("StandardEncoding %#x = %q, want %q", code, std[code], want)
		}
	}
}

// TestCFFBadInput: truncated and damaged programs give an error, never a
// panic.
func TestCFFBadInput(t *testing.T) {
	good := buildCFF(texGlyphs())
	for n := 0; n < len(good); n += 7 {
		if _, err := cffBuiltinEncoding(good[:n]); err == nil && n < len(good)-len(texGlyphs().glyphs)-5 {
			t.Errorf("truncated at %d of %d: no error", n, len(good))
		}
	}
	for _, b := range [][]byte{nil, {1}, {2, 0, 4, 1}, {1, 0, 200, 1}, []byte("OTTO"), []byte("OTTO\x00\x01\x00\x00\x00\x00\x00\x00CFF \x00\x00\x00\x00\xff\xff\xff\xff\x00\x00\x00\x10")} {
		if _, err := cffBuiltinEncoding(openTypeCFF(b)); err == nil {
			t.Errorf("%q: no error", b)
		}
	}
}

func FuzzCFFBuiltinEncoding(f *testing.F) {
	f.Add(buildCFF(texGlyphs()))
	s := texGlyphs()
	s.ranges, s.supplement, s.charsetFmt = [][2]byte{{11, 40}}, map[byte]int{1: 1}, 2
	f.Add(buildCFF(s))
	f.Fuzz(func(t *testing.T, b []byte) {
		cffBuiltinEncoding(openTypeCFF(b))
	})
}

// texFontPDF writes a one-page PDF set in a TeX-like font with no
// /Encoding and no ToUnicode map, whose program is the stream fontFile
// under the descriptor key fileKey (FontFile or FontFile3): words are
// separated by TJ offsets, as TeX does, and ligatures are drawn from their
// own glyphs.
func texFontPDF(fileKey, fontFile string) []byte {
	content := `BT /F1 10 Tf 72 700 Td [(A) -333 (\014nite) -333 (\014eld) -333 (and) -333 (E\016cient) -333 (caf\202) -333 (e\013ort,) -333 (so\203ware) -333 (\015ows.)] TJ ET`
	var widths strings.Builder
	for c := 0; c < 256; c++ {
		widths.WriteString(" 500")
	}
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /TESTFT+Test /FirstChar 0 /LastChar 255 /Widths [" + widths.String() + "] /FontDescriptor 6 0 R >>",
		"<< /Type /FontDescriptor /FontName /TESTFT+Test /Flags 4 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 700 /Descent -200 /CapHeight 700 /StemV 80 /" + fileKey + " 7 0 R >>",
		fontFile,
	}
	return pdfWithObjects(objs)
}

// TestTeXFontsWithoutToUnicode: a font program's own encoding gives the
// text of ligature and accented glyphs when the PDF has no ToUnicode map
// and no /Encoding, for a CFF program (FontFile3, Type1C) and a Type 1
// program (FontFile); without it "finite" reads "nite".
func TestTeXFontsWithoutToUnicode(t *testing.T) {
	spec := texGlyphs()
	cff := buildCFF(spec)
	var t1 bytes.Buffer
	t1.WriteString("%!PS-AdobeFont-1.0: Test\n/Encoding 256 array\n0 1 255 {1 index exch /.notdef put} for\n")
	for i, n := range spec.glyphs {
		fmt.Fprintf(&t1, "dup %d /%s put\n", spec.codes[i], n)
	}
	t1.WriteString("readonly def\ncurrentfile eexec\n")
	cases := []struct{ name, key, stream string }{
		{"Type1C", "FontFile3", fmt.Sprintf("<< /Subtype /Type1C /Length %d >>\nstream\n%s\nendstream", len(cff), cff)},
		{"Type1", "FontFile", fmt.Sprintf("<< /Length1 %d /Length2 0 /Length3 0 /Length %d >>\nstream\n%s\nendstream", t1.Len(), t1.Len(), t1.String())},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc, err := Read(texFontPDF(c.key, c.stream), parsed.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var all []string
			for _, b := range doc.Blocks {
				all = append(all, b.Text)
			}
			text := strings.Join(all, "\n")
			for _, want := range []string{"finite field", "Efficient", "café", "effort", "software", "flows"} {
				if !strings.Contains(text, want) {
					t.Errorf("%q missing from %q", want, text)
				}
			}
		})
	}
}

func TestHexCodeText(t *testing.T) {
	for name, want := range map[string][3]any{
		"G59": {"Y", false, true}, "G6F": {"o", true, true}, "Cb3": {"³", true, true},
		"G1F": {"", false, false}, "G123": {"", false, false}, "eacute": {"", false, false}, "g": {"", false, false},
	} {
		text, hex, ok := hexCodeText(name)
		if text != want[0] || hex != want[1] || ok != want[2] {
			t.Errorf("%s: %q %v %v, want %v", name, text, hex, ok, want)
		}
	}
}

// TestHexGlyphNames: a font whose /Differences name its glyphs by hex
// character code ("/G59" for "Y") reads as that text; one whose names are
// all decimal digits is not read so (it could be either).
func TestHexGlyphNames(t *testing.T) {
	for _, c := range []struct{ diffs, want string }{
		{"/G59 /G6F /G75 /G72 /G20 /G69 /G64 /G65 /G61", "Your idea"},
		{"/G59 /G30 /G35 /G32 /G20 /G31 /G34 /G33 /G38", ""},
	} {
		content := `BT /F1 10 Tf 72 700 Td (\001\002\003\004\005\006\007\010\011) Tj ET`
		objs := []string{
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
			"<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+MSTT31c20b /FirstChar 1 /LastChar 9 /Widths [500 500 500 500 250 500 500 500 500] /Encoding << /Type /Encoding /Differences [1 " + c.diffs + "] >> >>",
		}
		doc, err := read(pdfWithObjects(objs), parsed.Options{}, false)
		if err != nil {
			t.Fatal(err)
		}
		var all []string
		for _, b := range doc.Blocks {
			all = append(all, b.Text)
		}
		text := strings.Join(all, "\n")
		if c.want != "" && text != c.want || c.want == "" && strings.Contains(text, "Y0") {
			t.Errorf("%s: %q, want %q", c.diffs, text, c.want)
		}
	}
}
