package pdf

import "golang.org/x/text/encoding/charmap"

// byteEncoding maps the 256 codes of a simple font to text ("" = unmapped).
type byteEncoding [256]string

// asciiBase fills the printable ASCII range with itself.
func asciiBase() byteEncoding {
	var e byteEncoding
	for c := 0x20; c < 0x7f; c++ {
		e[c] = string(rune(c))
	}
	return e
}

// fromCharmap builds an encoding from a single-byte code page.
func fromCharmap(cm *charmap.Charmap) byteEncoding {
	var e byteEncoding
	for c := 0x20; c < 256; c++ {
		r := cm.DecodeByte(byte(c))
		if r != 0xFFFD && r != 0x7f {
			e[c] = string(r)
		}
	}
	return e
}

var (
	winAnsiEncoding  = winAnsi()
	macRomanEncoding = fromCharmap(charmap.Macintosh)
	standardEncoding = standard()
	symbolEncoding   = symbol()
)

// winAnsi is Windows-1252 plus the PDF convention that the undefined codes
// 0x7F-0x9F print as a bullet (PDF 32000-1, Annex D, note 3) and 0xA0 and
// 0xAD are a plain space and hyphen.
func winAnsi() byteEncoding {
	e := fromCharmap(charmap.Windows1252)
	for _, c := range []int{0x7f, 0x81, 0x8d, 0x8f, 0x90, 0x9d} {
		e[c] = "•"
	}
	e[0xa0] = " "
	e[0xad] = "-"
	return e
}

// standard is Adobe StandardEncoding, the default of Type 1 fonts.
func standard() byteEncoding {
	e := asciiBase()
	e[0x27] = "’"
	e[0x60] = "‘"
	high := map[int]string{
		0xa1: "¡", 0xa2: "¢", 0xa3: "£", 0xa4: "⁄", 0xa5: "¥", 0xa6: "ƒ", 0xa7: "§",
		0xa8: "¤", 0xa9: "'", 0xaa: "“", 0xab: "«", 0xac: "‹", 0xad: "›", 0xae: "ﬁ",
		0xaf: "ﬂ", 0xb1: "–", 0xb2: "†", 0xb3: "‡", 0xb4: "·", 0xb6: "¶", 0xb7: "•",
		0xb8: "‚", 0xb9: "„", 0xba: "”", 0xbb: "»", 0xbc: "…", 0xbd: "‰", 0xbf: "¿",
		0xc1: "`", 0xc2: "´", 0xc3: "ˆ", 0xc4: "˜", 0xc5: "¯", 0xc6: "˘", 0xc7: "˙",
		0xc8: "¨", 0xca: "˚", 0xcb: "¸", 0xcd: "˝", 0xce: "˛", 0xcf: "ˇ", 0xd0: "—",
		0xe1: "Æ", 0xe3: "ª", 0xe8: "Ł", 0xe9: "Ø", 0xea: "Œ", 0xeb: "º", 0xf1: "æ",
		0xf5: "ı", 0xf8: "ł", 0xf9: "ø", 0xfa: "œ", 0xfb: "ß",
	}
	for c, s := range high {
		e[c] = s
	}
	return e
}

// symbol is the built-in encoding of the standard Symbol font (Greek
// letters and mathematical signs).
func symbol() byteEncoding {
	e := asciiBase()
	const upper = "ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ"
	const lower = "αβχδεφγηιϕκλμνοπθρστυϖωξψζ"
	for i, r := range []rune(upper) {
		e['A'+i] = string(r)
	}
	for i, r := range []rune(lower) {
		e['a'+i] = string(r)
	}
	other := map[int]string{
		0x22: "∀", 0x24: "∃", 0x27: "∋", 0x2a: "∗", 0x2d: "−", 0x40: "≅", 0x5c: "∴",
		0x5e: "⊥", 0x60: "‾", 0x7e: "∼", 0xa1: "ϒ", 0xa2: "′", 0xa3: "≤", 0xa4: "⁄",
		0xa5: "∞", 0xa6: "ƒ", 0xa7: "♣", 0xa8: "♦", 0xa9: "♥", 0xaa: "♠", 0xab: "↔",
		0xac: "←", 0xad: "↑", 0xae: "→", 0xaf: "↓", 0xb0: "°", 0xb1: "±", 0xb2: "″",
		0xb3: "≥", 0xb4: "×", 0xb5: "∝", 0xb6: "∂", 0xb7: "•", 0xb8: "÷", 0xb9: "≠",
		0xba: "≡", 0xbb: "≈", 0xbc: "…", 0xc4: "⊗", 0xc5: "⊕", 0xc6: "∅", 0xc7: "∩",
		0xc8: "∪", 0xc9: "⊃", 0xca: "⊇", 0xcb: "⊄", 0xcc: "⊂", 0xcd: "⊆", 0xce: "∈",
		0xcf: "∉", 0xd0: "∠", 0xd1: "∇", 0xd5: "∏", 0xd6: "√", 0xd7: "⋅", 0xd8: "¬",
		0xd9: "∧", 0xda: "∨", 0xdb: "⇔", 0xdc: "⇐", 0xdd: "⇑", 0xde: "⇒", 0xdf: "⇓",
		0xe0: "◊", 0xe1: "〈", 0xe5: "∑", 0xf1: "〉", 0xf2: "∫",
	}
	for c, s := range other {
		e[c] = s
	}
	return e
}

// namedEncoding returns the predefined simple-font encoding with the given
// name, or nil.
func namedEncoding(name string) *byteEncoding {
	switch name {
	case "WinAnsiEncoding":
		return &winAnsiEncoding
	case "MacRomanEncoding", "MacExpertEncoding":
		return &macRomanEncoding
	case "StandardEncoding":
		return &standardEncoding
	}
	return nil
}
