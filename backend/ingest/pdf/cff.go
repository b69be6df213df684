package pdf

import (
	"encoding/binary"
	"errors"
	"strings"
)

// This file reads the built-in encoding of a Compact Font Format (CFF)
// font program, as embedded in PDF by /FontFile3 with /Subtype /Type1C
// (or inside an OpenType font, /Subtype /OpenType): which glyph name each
// of the 256 codes draws. TeX papers distilled by Ghostscript embed their
// fonts so, with the ligatures ("ff", "fi", "ffi") and accented letters at
// codes StandardEncoding leaves empty, and often without a ToUnicode map;
// the names are then the only way to their text. The layout follows Adobe
// Technical Note #5176 (The Compact Font Format Specification): header,
// Name INDEX, Top DICT INDEX, String INDEX; the Top DICT points at the
// charset (glyph index -> string ID) and the encoding (code -> glyph
// index).

// errCFF is returned for a font program that is not a CFF font this
// reader understands.
var errCFF = errors.New("not a readable CFF font")

// cffIndex is a CFF INDEX: count objects whose bytes lie between
// consecutive offsets.
type cffIndex struct {
	data    []byte
	offsets []int // count+1 offsets into data
}

// item returns the i-th object of the INDEX.
func (x cffIndex) item(i int) []byte {
	if i < 0 || i+1 >= len(x.offsets) {
		return nil
	}
	return x.data[x.offsets[i]:x.offsets[i+1]]
}

// count is the number of objects in the INDEX.
func (x cffIndex) count() int { return max(0, len(x.offsets)-1) }

// readCFFIndex reads the INDEX at pos and returns it with the position
// just after it.
func readCFFIndex(b []byte, pos int) (cffIndex, int, error) {
	if pos < 0 || pos+2 > len(b) {
		return cffIndex{}, 0, errCFF
	}
	count := int(binary.BigEndian.Uint16(b[pos:]))
	if count == 0 {
		return cffIndex{}, pos + 2, nil
	}
	if pos+3 > len(b) {
		return cffIndex{}, 0, errCFF
	}
	offSize := int(b[pos+2])
	if offSize < 1 || offSize > 4 {
		return cffIndex{}, 0, errCFF
	}
	arr := pos + 3
	dataStart := arr + (count+1)*offSize - 1 // offsets count from 1
	if dataStart >= len(b) || (count+1)*offSize > len(b) {
		return cffIndex{}, 0, errCFF
	}
	offs := make([]int, count+1)
	for i := range offs {
		v := 0
		for _, c := range b[arr+i*offSize : arr+(i+1)*offSize] {
			v = v<<8 | int(c)
		}
		if v < 1 || i > 0 && v < offs[i-1]+1 || dataStart+v > len(b) {
			return cffIndex{}, 0, errCFF
		}
		offs[i] = v - 1
	}
	end := dataStart + 1 + offs[count]
	return cffIndex{data: b[dataStart+1 : end], offsets: offs}, end, nil
}

// cffTopDict is what this reader needs from a font's Top DICT.
type cffTopDict struct {
	charset, encoding, charStrings int
	cid                            bool // ROS present: a CID-keyed font, whose charset holds CIDs
}

// parseCFFTopDict reads the charset, Encoding and CharStrings offsets and
// whether the font is CID-keyed. Operands are integers or reals; reals
// are skipped nibble by nibble.
func parseCFFTopDict(d []byte) (cffTopDict, error) {
	top := cffTopDict{charStrings: -1}
	var operands []int
	for i := 0; i < len(d); {
		b0 := d[i]
		switch {
		case b0 <= 21: // operator
			op := int(b0)
			i++
			if b0 == 12 {
				if i >= len(d) {
					return top, errCFF
				}
				op = 1200 + int(d[i])
				i++
			}
			last := 0
			if len(operands) > 0 {
				last = operands[len(operands)-1]
			}
			switch op {
			case 15:
				top.charset = last
			case 16:
				top.encoding = last
			case 17:
				top.charStrings = last
			case 1230: // ROS
				top.cid = true
			}
			operands = operands[:0]
		case b0 == 28:
			if i+3 > len(d) {
				return top, errCFF
			}
			operands = append(operands, int(int16(binary.BigEndian.Uint16(d[i+1:]))))
			i += 3
		case b0 == 29:
			if i+5 > len(d) {
				return top, errCFF
			}
			operands = append(operands, int(int32(binary.BigEndian.Uint32(d[i+1:]))))
			i += 5
		case b0 == 30: // real: nibbles up to 0xf
			i++
			for i < len(d) && d[i]&0x0f != 0x0f && d[i]>>4 != 0x0f {
				i++
			}
			i++
			operands = append(operands, 0)
		case b0 >= 32 && b0 <= 246:
			operands = append(operands, int(b0)-139)
			i++
		case b0 >= 247 && b0 <= 250:
			if i+2 > len(d) {
				return top, errCFF
			}
			operands = append(operands, (int(b0)-247)*256+int(d[i+1])+108)
			i += 2
		case b0 >= 251 && b0 <= 254:
			if i+2 > len(d) {
				return top, errCFF
			}
			operands = append(operands, -(int(b0)-251)*256-int(d[i+1])-108)
			i += 2
		default: // 22..27, 31, 255: reserved
			return top, errCFF
		}
		if len(operands) > 48 {
			return top, errCFF
		}
	}
	return top, nil
}

// cffBuiltinEncoding returns the glyph name at each code of the first
// font in a CFF font program, "" where the code draws nothing. A
// CID-keyed font has no such encoding and yields errCFF.
func cffBuiltinEncoding(b []byte) ([256]string, error) {
	var names [256]string
	if len(b) < 4 || b[0] != 1 {
		return names, errCFF
	}
	_, pos, err := readCFFIndex(b, int(b[2])) // Name INDEX
	if err != nil {
		return names, err
	}
	topIdx, pos, err := readCFFIndex(b, pos)
	if err != nil || topIdx.count() < 1 {
		return names, errCFF
	}
	strs, _, err := readCFFIndex(b, pos)
	if err != nil {
		return names, err
	}
	top, err := parseCFFTopDict(topIdx.item(0))
	if err != nil || top.cid || top.charStrings <= 0 {
		return names, errCFF
	}
	cs, _, err := readCFFIndex(b, top.charStrings)
	if err != nil || cs.count() < 1 {
		return names, errCFF
	}
	nGlyphs := min(cs.count(), 65535)
	sids, err := cffCharset(b, top.charset, nGlyphs)
	if err != nil {
		return names, err
	}
	name := func(gid int) string {
		if gid <= 0 || gid >= len(sids) {
			return ""
		}
		sid := sids[gid]
		if sid < len(cffStandardStrings) {
			return cffStandardStrings[sid]
		}
		return string(strs.item(sid - len(cffStandardStrings)))
	}
	switch top.encoding {
	case 0: // StandardEncoding: codes name their glyphs directly
		for c, n := range standardEncodingNames() {
			names[c] = n
		}
		return names, nil
	case 1: // ExpertEncoding: small capitals and figures, no text of its own
		return names, errCFF
	}
	p := top.encoding
	if p < 0 || p >= len(b) {
		return names, errCFF
	}
	format := b[p]
	p++
	switch format & 0x7f {
	case 0:
		if p >= len(b) {
			return names, errCFF
		}
		n := int(b[p])
		p++
		if p+n > len(b) {
			return names, errCFF
		}
		for i := 0; i < n; i++ {
			names[b[p+i]] = name(i + 1)
		}
		p += n
	case 1:
		if p >= len(b) {
			return names, errCFF
		}
		nRanges := int(b[p])
		p++
		if p+2*nRanges > len(b) {
			return names, errCFF
		}
		gid := 1
		for r := 0; r < nRanges; r++ {
			first, left := int(b[p]), int(b[p+1])
			p += 2
			for c := first; c <= first+left && c < 256; c++ {
				names[c] = name(gid)
				gid++
			}
		}
	default:
		return names, errCFF
	}
	if format&0x80 != 0 { // supplements: more codes for glyphs already named
		if p >= len(b) {
			return names, errCFF
		}
		n := int(b[p])
		p++
		if p+3*n > len(b) {
			return names, errCFF
		}
		for i := 0; i < n; i++ {
			code := b[p]
			sid := int(binary.BigEndian.Uint16(b[p+1:]))
			p += 3
			if sid < len(cffStandardStrings) {
				names[code] = cffStandardStrings[sid]
			} else {
				names[code] = string(strs.item(sid - len(cffStandardStrings)))
			}
		}
	}
	return names, nil
}

// cffCharset returns the string ID of each glyph (index 0 is .notdef).
// The predefined charsets 1 and 2 (Expert, ExpertSubset) hold small
// capitals and figures only and are not read.
func cffCharset(b []byte, off, nGlyphs int) ([]int, error) {
	sids := make([]int, nGlyphs)
	switch off {
	case 0: // ISOAdobe: glyph i is string i
		for i := range sids {
			if i <= 228 {
				sids[i] = i
			}
		}
		return sids, nil
	case 1, 2:
		return nil, errCFF
	}
	if off < 0 || off >= len(b) {
		return nil, errCFF
	}
	format, p := b[off], off+1
	gid := 1
	switch format {
	case 0:
		for ; gid < nGlyphs; gid++ {
			if p+2 > len(b) {
				return nil, errCFF
			}
			sids[gid] = int(binary.BigEndian.Uint16(b[p:]))
			p += 2
		}
	case 1, 2:
		for gid < nGlyphs {
			size := 3
			if format == 2 {
				size = 4
			}
			if p+size > len(b) {
				return nil, errCFF
			}
			first := int(binary.BigEndian.Uint16(b[p:]))
			left := int(b[p+2])
			if format == 2 {
				left = int(binary.BigEndian.Uint16(b[p+2:]))
			}
			p += size
			for k := 0; k <= left && gid < nGlyphs; k++ {
				sids[gid] = first + k
				gid++
			}
		}
	default:
		return nil, errCFF
	}
	return sids, nil
}

// openTypeCFF returns the 'CFF ' table of an OpenType font, or the data
// itself when it is not an OpenType font.
func openTypeCFF(b []byte) []byte {
	if len(b) < 12 || string(b[:4]) != "OTTO" {
		return b
	}
	n := int(binary.BigEndian.Uint16(b[4:]))
	for i := 0; i < n; i++ {
		rec := 12 + 16*i
		if rec+16 > len(b) {
			break
		}
		if string(b[rec:rec+4]) != "CFF " {
			continue
		}
		off := int(binary.BigEndian.Uint32(b[rec+8:]))
		length := int(binary.BigEndian.Uint32(b[rec+12:]))
		if off < 0 || length < 0 || off > len(b) || length > len(b)-off {
			return nil
		}
		return b[off : off+length]
	}
	return nil
}

// standardEncodingNames is Adobe StandardEncoding as glyph names, the
// encoding a CFF font with Encoding offset 0 uses.
func standardEncodingNames() map[int]string {
	out := map[int]string{}
	for c := 0x20; c < 0x7f; c++ {
		out[c] = cffStandardStrings[c-0x1f] // space is string 1
	}
	out[0x27], out[0x60] = "quoteright", "quoteleft"
	for i, n := range strings.Fields(standardHighNames) {
		if n != "-" {
			out[0xa1+i] = n
		}
	}
	return out
}

// standardHighNames are the glyph names of StandardEncoding from 0xA1 on
// ("-" where the code is unused).
const standardHighNames = `exclamdown cent sterling fraction yen florin section currency
quotesingle quotedblleft guillemotleft guilsinglleft guilsinglright fi fl - endash dagger
daggerdbl periodcentered - paragraph bullet quotesinglbase quotedblbase quotedblright
guillemotright ellipsis perthousand - questiondown - grave acute circumflex tilde macron
breve dotaccent dieresis - ring cedilla - hungarumlaut ogonek caron emdash
- - - - - - - - - - - - - - - - AE - ordfeminine - - - - Lslash Oslash OE ordmasculine
- - - - - ae - - - dotlessi - - lslash oslash oe germandbls`

// cffStandardStrings are the 391 predefined string IDs of CFF (Technical
// Note #5176, Appendix A): glyph names a font refers to without storing
// them.
var cffStandardStrings = strings.Fields(`.notdef space exclam quotedbl numbersign dollar
percent ampersand quoteright parenleft parenright asterisk plus comma hyphen period slash
zero one two three four five six seven eight nine colon semicolon less equal greater
question at A B C D E F G H I J K L M N O P Q R S T U V W X Y Z bracketleft backslash
bracketright asciicircum underscore quoteleft a b c d e f g h i j k l m n o p q r s t u v
w x y z braceleft bar braceright asciitilde exclamdown cent sterling fraction yen florin
section currency quotesingle quotedblleft guillemotleft guilsinglleft guilsinglright fi
fl endash dagger daggerdbl periodcentered paragraph bullet quotesinglbase quotedblbase
quotedblright guillemotright ellipsis perthousand questiondown grave acute circumflex
tilde macron breve dotaccent dieresis ring cedilla hungarumlaut ogonek caron emdash AE
ordfeminine Lslash Oslash OE ordmasculine ae dotlessi lslash oslash oe germandbls
onesuperior logicalnot mu trademark Eth onehalf plusminus Thorn onequarter divide
brokenbar degree thorn threequarters twosuperior registered minus eth multiply
threesuperior copyright Aacute Acircumflex Adieresis Agrave Aring Atilde Ccedilla Eacute
Ecircumflex Edieresis Egrave Iacute Icircumflex Idieresis Igrave Ntilde Oacute
Ocircumflex Odieresis Ograve Otilde Scaron Uacute Ucircumflex Udieresis Ugrave Yacute
Ydieresis Zcaron aacute acircumflex adieresis agrave aring atilde ccedilla eacute
ecircumflex edieresis egrave iacute icircumflex idieresis igrave ntilde oacute
ocircumflex odieresis ograve otilde scaron uacute ucircumflex udieresis ugrave yacute
ydieresis zcaron exclamsmall Hungarumlautsmall dollaroldstyle dollarsuperior
ampersandsmall Acutesmall parenleftsuperior parenrightsuperior twodotenleader
onedotenleader zerooldstyle oneoldstyle twooldstyle threeoldstyle fouroldstyle
fiveoldstyle sixoldstyle sevenoldstyle eightoldstyle nineoldstyle commasuperior
threequartersemdash periodsuperior questionsmall asuperior bsuperior centsuperior
dsuperior esuperior isuperior lsuperior msuperior nsuperior osuperior rsuperior
ssuperior tsuperior ff ffi ffl parenleftinferior parenrightinferior Circumflexsmall
hyphensuperior Gravesmall Asmall Bsmall Csmall Dsmall Esmall Fsmall Gsmall Hsmall Ismall
Jsmall Ksmall Lsmall Msmall Nsmall Osmall Psmall Qsmall Rsmall Ssmall Tsmall Usmall
Vsmall Wsmall Xsmall Ysmall Zsmall colonmonetary onefitted rupiah Tildesmall
exclamdownsmall centoldstyle Lslashsmall Scaronsmall Zcaronsmall Dieresissmall
Brevesmall Caronsmall Dotaccentsmall Macronsmall figuredash hypheninferior Ogoneksmall
Ringsmall Cedillasmall questiondownsmall oneeighth threeeighths fiveeighths
seveneighths onethird twothirds zerosuperior foursuperior fivesuperior sixsuperior
sevensuperior eightsuperior ninesuperior zeroinferior oneinferior twoinferior
threeinferior fourinferior fiveinferior sixinferior seveninferior eightinferior
nineinferior centinferior dollarinferior periodinferior commainferior Agravesmall
Aacutesmall Acircumflexsmall Atildesmall Adieresissmall Aringsmall AEsmall
Ccedillasmall Egravesmall Eacutesmall Ecircumflexsmall Edieresissmall Igravesmall
Iacutesmall Icircumflexsmall Idieresissmall Ethsmall Ntildesmall Ogravesmall
Oacutesmall Ocircumflexsmall Otildesmall Odieresissmall OEsmall Oslashsmall
Ugravesmall Uacutesmall Ucircumflexsmall Udieresissmall Yacutesmall Thornsmall
Ydieresissmall 001.000 001.001 001.002 001.003 Black Bold Book Light Medium Regular
Roman Semibold`)
