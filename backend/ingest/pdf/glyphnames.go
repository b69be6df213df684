package pdf

import (
	"strconv"
	"strings"
	"unicode/utf16"

	"golang.org/x/text/unicode/norm"
)

// glyphText returns the text for a PostScript glyph name as used in font
// /Differences arrays, or "" when the name carries no reliable meaning
// (e.g. "g123" or "cid42"). It understands uniXXXX and uXXXX[XX] names,
// ligature and variant suffixes ("f_i", "a.sc"), a table of common
// names, and accented letters composed from a base letter and an accent
// name ("eacute", "Ccedilla").
func glyphText(name string) string {
	if name == "" {
		return ""
	}
	if s, ok := glyphTable[name]; ok {
		return s
	}
	if len(name) == 1 {
		c := name[0]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			return name
		}
		return ""
	}
	if i := strings.IndexByte(name, '.'); i > 0 {
		return glyphText(name[:i])
	}
	if strings.Contains(name, "_") {
		var b strings.Builder
		for _, part := range strings.Split(name, "_") {
			s := glyphText(part)
			if s == "" {
				return ""
			}
			b.WriteString(s)
		}
		return b.String()
	}
	if s, ok := uniName(name); ok {
		return s
	}
	return accented(name)
}

// uniName decodes "uniXXXX..." (UTF-16 code units) and "uXXXX" .. "uXXXXXX".
func uniName(name string) (string, bool) {
	switch {
	case strings.HasPrefix(name, "uni") && len(name) >= 7 && (len(name)-3)%4 == 0:
		var units []uint16
		for i := 3; i < len(name); i += 4 {
			v, err := strconv.ParseUint(name[i:i+4], 16, 16)
			if err != nil {
				return "", false
			}
			units = append(units, uint16(v))
		}
		return string(utf16.Decode(units)), true
	case name[0] == 'u' && len(name) >= 5 && len(name) <= 7:
		v, err := strconv.ParseUint(name[1:], 16, 32)
		if err != nil || v > 0x10FFFF {
			return "", false
		}
		return string(rune(v)), true
	}
	return "", false
}

// accents maps accent-name suffixes to combining marks.
var accents = []struct{ name, mark string }{
	{"acute", "\u0301"}, {"grave", "\u0300"}, {"circumflex", "\u0302"},
	{"dieresis", "\u0308"}, {"tilde", "\u0303"}, {"ring", "\u030a"},
	{"cedilla", "\u0327"}, {"caron", "\u030c"}, {"macron", "\u0304"},
	{"breve", "\u0306"}, {"ogonek", "\u0328"}, {"dotaccent", "\u0307"},
	{"hungarumlaut", "\u030b"}, {"commaaccent", "\u0326"},
}

// accented composes names such as "eacute" or "Scaron".
func accented(name string) string {
	for _, a := range accents {
		if !strings.HasSuffix(name, a.name) {
			continue
		}
		base := name[:len(name)-len(a.name)]
		b := glyphText(base)
		if b == "" || len([]rune(b)) != 1 {
			return ""
		}
		return norm.NFC.String(b + a.mark)
	}
	return ""
}

// glyphTable holds glyph names that are not single letters and cannot be
// derived mechanically.
var glyphTable = map[string]string{
	"space": " ", "exclam": "!", "quotedbl": "\"", "numbersign": "#", "dollar": "$",
	"percent": "%", "ampersand": "&", "quotesingle": "'", "quoteright": "’",
	"parenleft": "(", "parenright": ")", "asterisk": "*", "plus": "+", "comma": ",",
	"hyphen": "-", "period": ".", "slash": "/", "zero": "0", "one": "1", "two": "2",
	"three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
	"nine": "9", "colon": ":", "semicolon": ";", "less": "<", "equal": "=",
	"greater": ">", "question": "?", "at": "@", "bracketleft": "[", "backslash": "\\",
	"bracketright": "]", "asciicircum": "^", "underscore": "_", "quoteleft": "‘",
	"grave": "`", "braceleft": "{", "bar": "|", "braceright": "}", "asciitilde": "~",
	"exclamdown": "¡", "cent": "¢", "sterling": "£", "fraction": "⁄", "yen": "¥",
	"florin": "ƒ", "section": "§", "currency": "¤", "quotedblleft": "“",
	"guillemotleft": "«", "guilsinglleft": "‹", "guilsinglright": "›", "fi": "fi",
	"fl": "fl", "ff": "ff", "ffi": "ffi", "ffl": "ffl", "endash": "–", "dagger": "†",
	"daggerdbl": "‡", "periodcentered": "·", "paragraph": "¶", "bullet": "•",
	"quotesinglbase": "‚", "quotedblbase": "„", "quotedblright": "”",
	"guillemotright": "»", "ellipsis": "…", "perthousand": "‰", "questiondown": "¿",
	"acute": "´", "circumflex": "ˆ", "tilde": "˜", "macron": "¯", "breve": "˘",
	"dotaccent": "˙", "dieresis": "¨", "ring": "˚", "cedilla": "¸",
	"hungarumlaut": "˝", "ogonek": "˛", "caron": "ˇ", "emdash": "—", "AE": "Æ",
	"ordfeminine": "ª", "Lslash": "Ł", "Oslash": "Ø", "OE": "Œ", "ordmasculine": "º",
	"ae": "æ", "dotlessi": "ı", "dotlessj": "ȷ", "lslash": "ł", "oslash": "ø",
	"oe": "œ", "germandbls": "ß", "minus": "−", "multiply": "×", "divide": "÷",
	"degree": "°", "plusminus": "±", "copyright": "©", "registered": "®",
	"trademark": "™", "onehalf": "½", "onequarter": "¼", "threequarters": "¾",
	"onesuperior": "¹", "twosuperior": "²", "threesuperior": "³", "mu": "μ",
	"logicalnot": "¬", "brokenbar": "¦", "eth": "ð", "Eth": "Ð", "thorn": "þ",
	"Thorn": "Þ", "nbspace": " ", "nonbreakingspace": " ", "sfthyphen": "-",
	"softhyphen": "-", "Euro": "€", "quotereversed": "‛", "afii61352": "№",
	"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε",
	"zeta": "ζ", "eta": "η", "theta": "θ", "iota": "ι", "kappa": "κ", "lambda": "λ",
	"nu": "ν", "xi": "ξ", "omicron": "ο", "pi": "π", "rho": "ρ", "sigma": "σ",
	"sigma1": "ς", "tau": "τ", "upsilon": "υ", "phi": "φ", "phi1": "ϕ", "chi": "χ",
	"psi": "ψ", "omega": "ω", "omega1": "ϖ", "theta1": "ϑ", "Upsilon1": "ϒ",
	"Alpha": "Α", "Beta": "Β", "Gamma": "Γ", "Delta": "Δ", "Epsilon": "Ε",
	"Zeta": "Ζ", "Eta": "Η", "Theta": "Θ", "Iota": "Ι", "Kappa": "Κ", "Lambda": "Λ",
	"Mu": "Μ", "Nu": "Ν", "Xi": "Ξ", "Omicron": "Ο", "Pi": "Π", "Rho": "Ρ",
	"Sigma": "Σ", "Tau": "Τ", "Upsilon": "Υ", "Phi": "Φ", "Chi": "Χ", "Psi": "Ψ",
	"Omega": "Ω", "infinity": "∞", "partialdiff": "∂", "summation": "∑",
	"product": "∏", "radical": "√", "integral": "∫", "approxequal": "≈",
	"notequal": "≠", "lessequal": "≤", "greaterequal": "≥", "element": "∈",
	"notelement": "∉", "arrowright": "→", "arrowleft": "←", "arrowup": "↑",
	"arrowdown": "↓", "arrowboth": "↔", "arrowdblright": "⇒", "arrowdblleft": "⇐",
	"arrowdblboth": "⇔", "universal": "∀", "existential": "∃", "emptyset": "∅",
	"gradient": "∇", "nabla": "∇", "similar": "∼", "proportional": "∝",
	"angle": "∠", "logicaland": "∧", "logicalor": "∨", "intersection": "∩",
	"union": "∪", "propersubset": "⊂", "propersuperset": "⊃", "reflexsubset": "⊆",
	"reflexsuperset": "⊇", "therefore": "∴", "perpendicular": "⊥",
	"equivalence": "≡", "dotmath": "⋅", "lozenge": "◊", "heart": "♥", "club": "♣",
	"spade": "♠", "diamond": "♦", "prime": "′", "minute": "′", "second": "″",
	"circlemultiply": "⊗", "circleplus": "⊕", "angleleft": "〈", "angleright": "〉",
	"congruent": "≅", "suchthat": "∋", "asteriskmath": "∗", "openbullet": "◦",
	"visiblespace": "␣", "compwordmark": "", "mathparenleft": "(",
	"mathparenright": ")",
}
