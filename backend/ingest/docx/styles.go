package docx

import (
	"encoding/xml"
	"io"
	"strconv"
	"strings"

	"cairn/backend/ingest/numerals"
)

// attr returns the value of the attribute with local name local ("val",
// "type", ...), ignoring its namespace.
func attr(se xml.StartElement, local string) string {
	for _, a := range se.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// onOff reads a WordprocessingML on/off property (<w:b/>, <w:b w:val="0"/>).
func onOff(se xml.StartElement) bool {
	switch strings.ToLower(attr(se, "val")) {
	case "0", "false", "off":
		return false
	}
	return true
}

// atoi parses a small non-negative integer; bad values give def.
func atoi(s string, def int) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return def
	}
	return n
}

// numRef is a paragraph's list membership (<w:numPr>).
type numRef struct {
	numID string // "0" removes numbering
	ilvl  int
	set   bool
}

// style is the part of a paragraph style that matters for text structure.
type style struct {
	id, name, basedOn string
	outline           int // -1 unset; 0..8 heading level-1; 9 body text
	num               numRef
	pageBreak         int // -1 unset, 0 off, 1 on
}

// styleSheet is word/styles.xml reduced to what the walker needs.
type styleSheet struct {
	byID        map[string]*style
	defaultPara string
}

func newStyleSheet() *styleSheet { return &styleSheet{byID: map[string]*style{}} }

// parseStyles reads styles.xml. A damaged part keeps the styles read so far.
func parseStyles(r io.Reader) (*styleSheet, error) {
	ss := newStyleSheet()
	d := xml.NewDecoder(r)
	var cur *style
	inPPr := false
	inNumPr := false
	for {
		tok, err := d.Token()
		if err != nil {
			if pe := asParsed(err); pe != nil {
				return ss, pe
			}
			return ss, nil
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "style":
				if cur != nil { // nested <w:style>: malformed, ignore
					continue
				}
				cur = &style{id: attr(t, "styleId"), outline: -1, pageBreak: -1}
				if attr(t, "type") != "" && attr(t, "type") != "paragraph" {
					cur.id = "" // character/table/numbering styles never head a paragraph
				}
				if def := strings.ToLower(attr(t, "default")); (def == "1" || def == "true" || def == "on") && attr(t, "type") == "paragraph" {
					ss.defaultPara = cur.id
				}
			case "name":
				if cur != nil && !inPPr {
					cur.name = attr(t, "val")
				}
			case "basedOn":
				if cur != nil {
					cur.basedOn = attr(t, "val")
				}
			case "pPr":
				inPPr = cur != nil
			case "rPr", "tblPr", "trPr", "tcPr", "tblStylePr":
				if err := d.Skip(); err != nil {
					return ss, nil
				}
			case "outlineLvl":
				if cur != nil && inPPr {
					cur.outline = atoi(attr(t, "val"), -1)
				}
			case "pageBreakBefore":
				if cur != nil && inPPr {
					cur.pageBreak = 0
					if onOff(t) {
						cur.pageBreak = 1
					}
				}
			case "numPr":
				inNumPr = cur != nil && inPPr
				if inNumPr {
					cur.num.set = true
				}
			case "numId":
				if inNumPr {
					cur.num.numID = attr(t, "val")
				}
			case "ilvl":
				if inNumPr {
					cur.num.ilvl = atoi(attr(t, "val"), 0)
				}
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "style":
				if cur != nil && cur.id != "" {
					if _, dup := ss.byID[cur.id]; !dup {
						ss.byID[cur.id] = cur
					}
				}
				cur = nil
				inPPr = false
			case "pPr":
				inPPr = false
			case "numPr":
				inNumPr = false
			}
		}
	}
}

// chain calls fn for style id and then each style it is based on, stopping
// when fn returns true, on a cycle, or after 32 steps.
func (ss *styleSheet) chain(id string, fn func(*style) bool) {
	seen := 0
	for id != "" && seen < 32 {
		s := ss.byID[id]
		if s == nil || fn(s) {
			return
		}
		id = s.basedOn
		seen++
	}
}

// headingLevel returns the outline level (1..9) of paragraphs in style id,
// or 0 when the style is body text. An explicit w:outlineLvl wins; otherwise
// the built-in names "heading N" and "Title" (Word stores built-in style
// names in English whatever the UI language, while style ids are localised:
// "2", "a7", "berschrift1").
func (ss *styleSheet) headingLevel(id string) int {
	level := 0
	ss.chain(id, func(s *style) bool {
		if s.outline >= 0 {
			if s.outline <= 8 {
				level = s.outline + 1
			}
			return true
		}
		if n := nameLevel(s.name); n > 0 {
			level = n
			return true
		}
		return false
	})
	return level
}

// nameLevel maps a built-in style name to a heading level.
func nameLevel(name string) int {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "title" {
		return 1
	}
	if rest, ok := strings.CutPrefix(n, "heading"); ok {
		rest = strings.TrimSpace(rest)
		if len(rest) == 1 && rest[0] >= '1' && rest[0] <= '9' {
			return int(rest[0] - '0')
		}
	}
	return 0
}

// numbering returns the list membership a style gives its paragraphs.
func (ss *styleSheet) numbering(id string) numRef {
	var r numRef
	ss.chain(id, func(s *style) bool {
		if s.num.set {
			r = s.num
			return true
		}
		return false
	})
	return r
}

// pageBreakBefore reports whether style id starts paragraphs on a new page.
func (ss *styleSheet) pageBreakBefore(id string) bool {
	on := false
	ss.chain(id, func(s *style) bool {
		if s.pageBreak >= 0 {
			on = s.pageBreak == 1
			return true
		}
		return false
	})
	return on
}

// level is one level of a list definition (<w:lvl>).
type level struct {
	start    int
	hasStart bool
	format   string // numFmt: decimal, lowerLetter, bullet, none, ...
	text     string // lvlText: "%1.", "%1.%2", a bullet glyph
	legal    bool   // isLgl: show all levels as decimal
	defined  bool
}

type abstractNum struct {
	levels       [9]level
	numStyleLink string
}

type numDef struct {
	abstractID string
	override   [9]int // startOverride+1; 0 = none
	levels     [9]level
}

// numbering is word/numbering.xml plus the running counters that turn list
// paragraphs into labels ("1.", "a)", "2.3").
type numbering struct {
	abstracts map[string]*abstractNum
	nums      map[string]*numDef
	counters  map[string]*[9]int // by numId; 0 = level not started
	used      map[string]bool
}

func newNumbering() *numbering {
	return &numbering{abstracts: map[string]*abstractNum{}, nums: map[string]*numDef{}, counters: map[string]*[9]int{}, used: map[string]bool{}}
}

// parseNumbering reads numbering.xml. A damaged part keeps what was read.
func parseNumbering(r io.Reader) (*numbering, error) {
	nb := newNumbering()
	d := xml.NewDecoder(r)
	var abs *abstractNum
	var num *numDef
	var lv *level
	overrideLvl := -1
	for {
		tok, err := d.Token()
		if err != nil {
			if pe := asParsed(err); pe != nil {
				return nb, pe
			}
			return nb, nil
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "abstractNum":
				abs = &abstractNum{}
				if id := attr(t, "abstractNumId"); id != "" {
					if _, dup := nb.abstracts[id]; !dup {
						nb.abstracts[id] = abs
					}
				}
			case "num":
				num = &numDef{}
				if id := attr(t, "numId"); id != "" {
					if _, dup := nb.nums[id]; !dup {
						nb.nums[id] = num
					}
				}
			case "abstractNumId":
				if num != nil {
					num.abstractID = attr(t, "val")
				}
			case "numStyleLink":
				if abs != nil {
					abs.numStyleLink = attr(t, "val")
				}
			case "lvlOverride":
				overrideLvl = atoi(attr(t, "ilvl"), -1)
			case "startOverride":
				if num != nil && overrideLvl >= 0 && overrideLvl < 9 {
					num.override[overrideLvl] = atoi(attr(t, "val"), 0) + 1
				}
			case "lvl":
				i := atoi(attr(t, "ilvl"), -1)
				lv = nil
				if i >= 0 && i < 9 {
					switch {
					case num != nil && overrideLvl >= 0:
						lv = &num.levels[i]
					case abs != nil:
						lv = &abs.levels[i]
					}
				}
				if lv != nil {
					*lv = level{defined: true, format: "decimal"}
				}
			case "start":
				if lv != nil {
					lv.start, lv.hasStart = atoi(attr(t, "val"), 1), true
				}
			case "numFmt":
				if lv != nil {
					lv.format = attr(t, "val")
				}
			case "lvlText":
				if lv != nil {
					lv.text = attr(t, "val")
				}
			case "isLgl":
				if lv != nil {
					lv.legal = onOff(t)
				}
			case "rPr", "pPr":
				if err := d.Skip(); err != nil {
					return nb, nil
				}
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "abstractNum":
				abs = nil
			case "num":
				num = nil
			case "lvlOverride":
				overrideLvl = -1
			case "lvl":
				lv = nil
			}
		}
	}
}

// resolve finds the abstract definition for numID, following one
// numStyleLink hop (lists defined through a numbering style).
func (nb *numbering) resolve(numID string, ss *styleSheet) (*numDef, *abstractNum) {
	n := nb.nums[numID]
	if n == nil {
		return nil, nil
	}
	a := nb.abstracts[n.abstractID]
	if a != nil && a.numStyleLink != "" && ss != nil {
		if s := ss.byID[a.numStyleLink]; s != nil && s.num.set {
			if n2 := nb.nums[s.num.numID]; n2 != nil {
				if a2 := nb.abstracts[n2.abstractID]; a2 != nil {
					a = a2
				}
			}
		}
	}
	return n, a
}

// levelDef returns the effective definition of level i of list numID.
func levelDef(n *numDef, a *abstractNum, i int) level {
	if n != nil && n.levels[i].defined {
		return n.levels[i]
	}
	if a != nil {
		return a.levels[i]
	}
	return level{}
}

// label advances the counters of list numID at level ilvl and returns the
// rendered label ("3.", "b)", "1.2", "•"; "" for numFmt none). ok is false
// when the list is unknown; callers then use a bullet.
func (nb *numbering) label(numID string, ilvl int, ss *styleSheet) (label string, ok bool) {
	if nb == nil {
		return "", false
	}
	n, a := nb.resolve(numID, ss)
	if n == nil || a == nil {
		return "", false
	}
	if ilvl < 0 || ilvl > 8 {
		ilvl = 0
	}
	c := nb.counters[numID]
	if c == nil {
		c = new([9]int)
		nb.counters[numID] = c
	}
	startOf := func(i int) int {
		if n.override[i] > 0 {
			return n.override[i] - 1
		}
		lv := levelDef(n, a, i)
		if lv.hasStart {
			return lv.start
		}
		return 1
	}
	// Counters are stored +1 so that 0 means "not started".
	if c[ilvl] == 0 {
		c[ilvl] = startOf(ilvl) + 1
	} else {
		c[ilvl]++
	}
	for k := ilvl + 1; k < 9; k++ {
		c[k] = 0
	}
	lv := levelDef(n, a, ilvl)
	switch lv.format {
	case "bullet":
		return "•", true
	case "none":
		return strings.TrimSpace(stripPlaceholders(lv.text)), true
	}
	var b strings.Builder
	text := lv.text
	for i := 0; i < len(text); i++ {
		if text[i] == '%' && i+1 < len(text) && text[i+1] >= '1' && text[i+1] <= '9' {
			k := int(text[i+1] - '1')
			v := startOf(k)
			if c[k] > 0 {
				v = c[k] - 1
			}
			f := levelDef(n, a, k).format
			if lv.legal {
				f = "decimal"
			}
			b.WriteString(formatNumber(v, f))
			i++
			continue
		}
		b.WriteByte(text[i])
	}
	return strings.TrimSpace(b.String()), true
}

func stripPlaceholders(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+1 < len(s) && s[i+1] >= '1' && s[i+1] <= '9' {
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// formatNumber renders n in a WordprocessingML number format. Formats not
// handled here fall back to decimal.
func formatNumber(n int, format string) string {
	switch format {
	case "lowerLetter":
		return numerals.Letters(n, 'a')
	case "upperLetter":
		return numerals.Letters(n, 'A')
	case "lowerRoman":
		return strings.ToLower(numerals.Roman(n))
	case "upperRoman":
		return numerals.Roman(n)
	case "decimalZero":
		if n >= 0 && n < 10 {
			return "0" + strconv.Itoa(n)
		}
	case "decimalFullWidth", "decimalFullWidth2":
		var b strings.Builder
		for _, r := range strconv.Itoa(n) {
			if r >= '0' && r <= '9' {
				r = r - '0' + '０'
			}
			b.WriteRune(r)
		}
		return b.String()
	case "decimalEnclosedCircle", "decimalEnclosedCircleChinese":
		if n >= 1 && n <= 20 {
			return string(rune('①' + n - 1))
		}
	case "chineseCounting", "chineseCountingThousand", "japaneseCounting", "taiwaneseCounting", "ideographDigital", "chineseLegalSimplified":
		return hanNumber(n)
	case "ideographTraditional":
		if n >= 1 && n <= 10 {
			return string([]rune("甲乙丙丁戊己庚辛壬癸")[n-1])
		}
	case "ideographZodiac":
		if n >= 1 && n <= 12 {
			return string([]rune("子丑寅卯辰巳午未申酉戌亥")[n-1])
		}
	case "none":
		return ""
	}
	return strconv.Itoa(n)
}

// hanNumber renders 1..9999 in Chinese numerals (一, 十一, 二十, 一百零五);
// larger numbers stay decimal.
func hanNumber(n int) string {
	if n <= 0 || n > 9999 {
		return strconv.Itoa(n)
	}
	digits := []rune("零一二三四五六七八九")
	units := []string{"", "十", "百", "千"}
	var parts []string
	zero := false
	for pos := 3; pos >= 0; pos-- {
		p := 1
		for i := 0; i < pos; i++ {
			p *= 10
		}
		d := (n / p) % 10
		if d == 0 {
			if len(parts) > 0 {
				zero = true
			}
			continue
		}
		if zero {
			parts = append(parts, "零")
			zero = false
		}
		if !(pos == 1 && d == 1 && len(parts) == 0) { // 十一, not 一十一
			parts = append(parts, string(digits[d]))
		}
		parts = append(parts, units[pos])
	}
	return strings.Join(parts, "")
}
