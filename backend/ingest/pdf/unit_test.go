package pdf

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"cairn/backend/ingest/parsed"
)

func TestLexer(t *testing.T) {
	lx := lexer{data: []byte(`BT /F1 12 Tf [(Hel\)lo) -250 <576f> 3.5] TJ % comment
	(a\
b\101) ' /N#20x BI /W 1 /H 1 ID ` + "\x00EI\xffEI" + ` EI Q --5 true null ET`)}
	var got []string
	for {
		op, args, ok, err := lx.next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		var parts []string
		for _, a := range args {
			switch a.kind {
			case kNum:
				parts = append(parts, strconv.FormatFloat(a.num, 'f', -1, 64))
			case kStr:
				parts = append(parts, "("+a.str+")")
			case kName:
				parts = append(parts, "/"+a.str)
			case kArray:
				parts = append(parts, "[", "]")
			case kBool:
				parts = append(parts, "bool")
			case kNull:
				parts = append(parts, "null")
			}
		}
		got = append(got, op+":"+strings.Join(parts, ","))
	}
	want := []string{"BT:", "Tf:/F1,12", "TJ:[,]", "':(abA)", "Q:/N x", "ET:-5,bool,null"}
	if strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestLexerNesting(t *testing.T) {
	lx := lexer{data: []byte("BT (before) Tj ET " + strings.Repeat("[", 100000))}
	ops := 0
	for {
		_, _, ok, err := lx.next()
		if err != nil {
			if err != errNesting {
				t.Fatal(err)
			}
			break
		}
		if !ok {
			t.Fatal("nesting bomb not detected")
		}
		ops++
	}
	if ops != 3 {
		t.Errorf("want 3 operators before the bomb, got %d", ops)
	}
}

func TestGlyphText(t *testing.T) {
	for name, want := range map[string]string{
		"A": "A", "eacute": "é", "Scaron": "Š", "uni0041": "A", "uni00410042": "AB",
		"u1F600": "😀", "f_i": "fi", "a.sc": "a", "quoteright": "’", "g123": "",
		"cid42": "", "ugrave": "ù", "zero": "0", "germandbls": "ß", "union": "∪",
	} {
		if got := glyphText(name); got != want {
			t.Errorf("glyphText(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestEncodings(t *testing.T) {
	if winAnsiEncoding[0x93] != "“" || winAnsiEncoding['A'] != "A" || winAnsiEncoding[0xe9] != "é" {
		t.Error("WinAnsi")
	}
	if macRomanEncoding[0x8e] != "é" {
		t.Errorf("MacRoman 0x8e = %q", macRomanEncoding[0x8e])
	}
	if standardEncoding[0x27] != "’" || standardEncoding[0xae] != "ﬁ" {
		t.Error("Standard")
	}
	if symbolEncoding['a'] != "α" || symbolEncoding['W'] != "Ω" {
		t.Error("Symbol")
	}
}

func TestCMapHelpers(t *testing.T) {
	if got := utf16Text("\x00A\xd8\x3d\xde\x00"); got != "A😀" {
		t.Errorf("utf16Text = %q", got)
	}
	if got := utf16Text(addToLast("\x00A", 2)); got != "C" {
		t.Errorf("addToLast = %q", got)
	}
	m := &cmap{spaces: []codeRange{{n: 1, lo: [4]byte{0x00}, hi: [4]byte{0x80}}, {n: 2, lo: [4]byte{0x81, 0x40}, hi: [4]byte{0xfe, 0xfe}}}}
	if n := m.split("\x41\x81\x50", 2); n != 1 {
		t.Errorf("split 1-byte = %d", n)
	}
	if n := m.split("\x81\x50", 2); n != 2 {
		t.Errorf("split 2-byte = %d", n)
	}
	m.ranges = []rangeMap{{n: 2, lo: 0x0010, hi: 0x0020, dst: "\x4e\x00"}}
	m.chars = map[uint64]string{codeKey(1, 0x41): "\x00Z"}
	if s, ok := m.lookup(2, 0x0012); !ok || s != "\u4e02" {
		t.Errorf("range lookup = %q %v", s, ok)
	}
	if s, ok := m.lookup(1, 0x41); !ok || s != "Z" {
		t.Errorf("char lookup = %q %v", s, ok)
	}
	if _, ok := m.lookup(2, 0x0030); ok {
		t.Error("lookup outside ranges")
	}
}

func TestJudge(t *testing.T) {
	ok := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 20)
	cases := map[string]struct {
		text string
		bad  bool
	}{
		"english":   {ok, false},
		"chinese":   {strings.Repeat("知识图谱是较为典型的多学科交叉领域。", 10), false},
		"glued":     {strings.Repeat("Thequickbrownfoxjumpsoverthelazydog. ", 20), true},
		"mojibake":  {strings.Repeat("Ã¤Â¸Â­Ã¦Â–Â‡ ", 30), true},
		"fffd":      {strings.Repeat("ab\uFFFD\uFFFD ", 30), true},
		"symbols":   {strings.Repeat("#$%&*+ ", 30), true},
		"numbers":   {strings.Repeat("12,345.67 8.90 ", 30), false},
		"short-odd": {"\uFFFD", false},
	}
	for name, c := range cases {
		v := judge(&pageResult{}, c.text)
		if (v != "") != c.bad {
			t.Errorf("%s: verdict %q", name, v)
		}
	}
	if v := judge(&pageResult{glyphs: 100, undecodable: 10, unmappedCID: 10}, ok); v == "" {
		t.Error("undecodable glyphs not flagged")
	}
	if v := judge(&pageResult{glyphs: 1000, undecodable: 1, unmappedCID: 1}, ok); v != minorUnmapped {
		t.Errorf("one unmapped glyph: %q", v)
	}
}

func TestLayoutSpacesAndLines(t *testing.T) {
	var lo layout
	x := 0.0
	put := func(s string, gap float64) {
		x += gap
		for _, r := range s {
			lo.add(glyph{text: string(r), x: x, y: 700, dx: 5, ix: 5, ux: 1, size: 10})
			x += 5
		}
	}
	put("Hello", 0)
	put("world", 3) // 0.3 em gap: a space
	put("s", 0.5)   // 0.05 em: kerning, no space
	lo.add(glyph{text: "N", x: 0, y: 688, dx: 5, ix: 5, ux: 1, size: 10})
	lo.add(glyph{text: "N", x: 0.2, y: 688, dx: 5, ix: 5, ux: 1, size: 10}) // fake bold duplicate
	ps := lo.paragraphs()
	if len(ps) != 1 || ps[0].text != "Hello worlds\nN" {
		t.Errorf("paragraphs = %+v", ps)
	}
}

// A title set large with a shadow (every letter painted again a few
// points off) reads once, as two letters of a word set close do not merge.
func TestLayoutShadowedTitle(t *testing.T) {
	var lo layout
	x := 0.0
	for _, r := range "HILL" {
		lo.add(glyph{text: string(r), x: x, y: 700, dx: 36, ix: 36, ux: 1, size: 60})
		lo.add(glyph{text: string(r), x: x + 4, y: 697, dx: 36, ix: 36, ux: 1, size: 60}) // the shadow, 0.07 em off
		x += 36
	}
	ps := lo.paragraphs()
	if len(ps) != 1 || ps[0].text != "HILL" {
		t.Errorf("paragraphs = %+v", ps)
	}
}

func TestJoinLines(t *testing.T) {
	for in, want := range map[string]string{
		"dense re-|trieval": "dense retrieval",
		"open-|Domain":      "open-\nDomain",
		"pages 3-|4":        "pages 3-\n4",
		"plain|line":        "plain\nline",
		"使用说明|钥匙功能":         "使用说明\n钥匙功能",
	} {
		if got := joinLines(strings.Split(in, "|")); got != want {
			t.Errorf("joinLines(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNormalise(t *testing.T) {
	pdf := "%PDF-1.4\n1 0 obj\n...\n%%EOF\n"
	if got := string(normalise([]byte(pdf))); got != pdf {
		t.Errorf("clean file changed: %q", got)
	}
	if got := string(normalise([]byte("junk\x00\x01" + pdf))); got != pdf {
		t.Errorf("junk before header kept: %q", got)
	}
	if got := string(normalise([]byte(pdf + "trailing garbage"))); got != strings.TrimSuffix(pdf, "\n") {
		t.Errorf("trailing garbage kept: %q", got)
	}
	if got := string(normalise([]byte("%PDF-2.0\n%%EOF"))); got != "%PDF-1.7\n%%EOF" {
		t.Errorf("PDF 2.0 header: %q", got)
	}
	if !looksTruncated([]byte("%PDF-1.4\n1 0 obj")) || looksTruncated([]byte(pdf)) {
		t.Error("looksTruncated")
	}
}

func TestCleanText(t *testing.T) {
	if got := cleanIumText("ef\uFFFE\r\nficient\x00 x\x02 ef\uFFFEficient"); got != "ef-\nficient x- efficient" {
		t.Errorf("cleanIumText = %q", got)
	}
	if got := cleanText("a\uFFFDb\x07c \u2f64\u2ecb ﬂow"); got != "abc 用车 flow" {
		t.Errorf("cleanText = %q", got)
	}
	if got := cleanText("\uFFFD Database\n\uFFFD DB2 Web Query"); got != "Database\nDB2 Web Query" {
		t.Errorf("cleanText = %q", got)
	}
	if got := cleanOCR("中 文 ， 或 text\f"); got != "中文，或 text\n" {
		t.Errorf("cleanOCR = %q", got)
	}
}

func TestOCRLangs(t *testing.T) {
	langs := parseLangList("List of available languages in \"/usr/share/tessdata/\" (4):\nchi_sim\neng\njpn\nosd\n")
	if strings.Join(langs, "+") != "chi_sim+eng+jpn" {
		t.Errorf("parseLangList = %q", langs)
	}
	many := []string{"afr", "ara", "chi_sim", "deu", "eng", "fra", "jpn", "kor", "rus"}
	if got := chooseLangs(many); got != "eng+chi_sim+jpn+kor+deu+fra" {
		t.Errorf("chooseLangs = %q", got)
	}
}

func TestTesseractOutput(t *testing.T) {
	tsv := "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n" +
		"1\t1\t0\t0\t0\t0\t0\t0\t100\t100\t-1\t\n" +
		"5\t1\t1\t1\t1\t1\t0\t0\t1\t1\t90\tHello\n" +
		"5\t1\t1\t1\t1\t2\t0\t0\t1\t1\t80\tworld\n" +
		"5\t1\t1\t1\t2\t1\t0\t0\t1\t1\t70\tagain\n" +
		"5\t1\t2\t1\t1\t1\t0\t0\t1\t1\t10\tx\n"
	r := parseTSV(tsv)
	if r.text != "Hello world\nagain\n\nx" {
		t.Errorf("parseTSV text %q", r.text)
	}
	if want := (90*5 + 80*5 + 70*5 + 10) / 16.0; r.conf < want-0.01 || r.conf > want+0.01 {
		t.Errorf("parseTSV conf %v, want %v", r.conf, want)
	}
	script, conf := parseOSD("Page number: 0\nOrientation in degrees: 0\nScript: Han\nScript confidence: 1.43\n")
	if script != "Han" || conf != 1.43 {
		t.Errorf("parseOSD = %q %v", script, conf)
	}
}

func TestRefsOf(t *testing.T) {
	for in, want := range map[string]map[string]uint64{
		`<</F1 5 0 R /F2 12 3 R>>`:                   {"F1": 5 << 16, "F2": 12<<16 | 3},
		`<</A <</X 7 0 R>> /B [1 2 3 R] /C 9 0 R>>`:  {"C": 9 << 16},
		`<</S "a \"<<\" b" /T 4 0 R>>`:               {"T": 4 << 16},
		`<</Font <</F1 <</Type /Font>>>> /G 1 0 R>>`: {"G": 1 << 16},
	} {
		got := refsFromString(in)
		if len(got) != len(want) {
			t.Errorf("%s: got %v, want %v", in, got, want)
			continue
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: %s = %d, want %d", in, k, got[k], v)
			}
		}
	}
}

func TestXMPTitle(t *testing.T) {
	x := `<x:xmpmeta><rdf:RDF><rdf:Description><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Caf&amp;é  report</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta>`
	if got := xmpTitle(x); got != "Caf&é report" {
		t.Errorf("xmpTitle = %q", got)
	}
	if cleanTitle("  Untitled ") != "" || !plausibleTitle("Annual Report 2022") || plausibleTitle("i (` k Bt ! H~ P F") {
		t.Error("title checks")
	}
}

func TestRadicals(t *testing.T) {
	if got := normalizeRadicals("使⽤说明 ⻋⻔"); got != "使用说明 车门" {
		t.Errorf("normalizeRadicals = %q", got)
	}
}

func TestHeadings(t *testing.T) {
	body := para{text: strings.Repeat("body text ", 30), size: 10, lines: 4, runes: 300, upright: true}
	pages := []pageOut{{info: parsed.PageInfo{Number: 1}, paras: []para{
		{text: "Big Title", size: 20, lines: 1, runes: 9, upright: true},
		body,
		{text: "Section", size: 14, lines: 1, runes: 7, upright: true},
		body, body,
		{text: "arXiv stamp 2020", size: 20, lines: 1, runes: 16, upright: false},
	}}}
	bs := buildBlocks(pages)
	kinds := ""
	for _, b := range bs {
		kinds += string(b.Kind[0]) + strconv.Itoa(b.Level)
	}
	if kinds != "h1p0h2p0p0p0" {
		t.Errorf("blocks %s", kinds)
	}
}

func TestFormatLabel(t *testing.T) {
	for _, c := range []struct {
		style string
		k     int
		want  string
	}{{"D", 7, "7"}, {"r", 4, "iv"}, {"R", 1994, "MCMXCIV"}, {"A", 1, "A"}, {"a", 28, "bb"}, {"", 3, ""}} {
		if got := formatLabel(c.style, c.k); got != c.want {
			t.Errorf("formatLabel(%q, %d) = %q, want %q", c.style, c.k, got, c.want)
		}
	}
}

// A simple font whose /Differences names code 0x21 "f_f_i" while its
// ToUnicode map (written for another encoding) says "!": the glyph name
// wins; a ToUnicode entry with letters, or a code not named as letters,
// keeps the map's text.
func TestDifferencesLigatureBeatsPunctuationMap(t *testing.T) {
	f := &font{toUnicode: &cmap{chars: map[uint64]string{
		codeKey(1, 0x21): "\x00!",
		codeKey(1, 0x22): "\x00f\x00i",
		codeKey(1, 0x23): "\x00#",
	}}}
	f.enc[0x21], f.namedLetters[0x21] = "ffi", true
	f.enc[0x22], f.namedLetters[0x22] = "fl", true
	f.enc[0x23] = "#"
	for code, want := range map[uint32]string{0x21: "ffi", 0x22: "fi", 0x23: "#"} {
		if got, _ := f.text(1, code, string(rune(code))); got != want {
			t.Errorf("code %#x: %q, want %q", code, got, want)
		}
	}
}

// A space glyph shown at the start of the next line (some producers begin
// each line with one) must not carry the run over to that line: the two
// lines stay two lines.
func TestLayoutSpaceOnNextLine(t *testing.T) {
	var lo layout
	put := func(s string, x, y float64) {
		for _, r := range s {
			lo.add(glyph{text: string(r), x: x, y: y, dx: 5, ix: 5, ux: 1, size: 10})
			x += 5
		}
	}
	put("first line", 100, 700)
	put(" next", 20, 680)
	var lines []string
	for _, p := range lo.paragraphs() {
		lines = append(lines, strings.Split(p.text, "\n")...)
	}
	sort.Strings(lines)
	if got := strings.Join(lines, "|"); got != "first line|next" {
		t.Errorf("lines = %q", got)
	}
}

// A table that runs on to the next page is one table: the next page's
// first row is not a header, unless it repeats the header row.
func TestTableContinuedOnNextPage(t *testing.T) {
	y := 600.0
	mid := func(p para) para { // placed down the middle of the page, away from the furniture bands
		y -= 20
		p.box, p.hasBox = [4]float64{72, y, 540, y + 12}, true
		return p
	}
	row := func(text string) para {
		return mid(para{text: text, size: 9, lines: 1, runes: len(text), upright: true, table: true, cells: 3})
	}
	body := func() para {
		return mid(para{text: strings.Repeat("body text ", 30), size: 10, lines: 4, runes: 300, upright: true})
	}
	page := func(n int, ps ...para) pageOut {
		return pageOut{info: parsed.PageInfo{Number: n}, box: [4]float64{0, 0, 612, 792}, hasBox: true, paras: ps}
	}
	pages := []pageOut{
		page(1, body(), row("Year | Rate | Tax"), row("2007 | 28% | 10")),
		page(2, row("2008 | 33% | 11"), row("2009 | 35% | 12"), body()),
		page(3, row("Year | Rate | Tax"), row("2010 | 35% | 13")),
		page(4, body(), row("Name | Value | Note")),
	}
	var got []string
	for _, b := range buildBlocks(pages) {
		if b.Kind == parsed.BlockTableRow {
			got = append(got, fmt.Sprintf("%d:%v", b.Page, b.Header))
		}
	}
	if want := "1:true 1:false 2:false 2:false 3:true 3:false 4:true"; strings.Join(got, " ") != want {
		t.Errorf("headers %v, want %s", got, want)
	}
}

// Printed page numbers follow the page order: a chart's axis "0" or a
// stray number in the bands is not a page's label; roman front matter is,
// and so is a number opening a running footer where it follows the order.
func TestPrintedLabels(t *testing.T) {
	furn := [][]string{
		{"iii"},
		{"Annual report 2020", "2"},
		{"0", "3"},
		{"4", "2019"},
		{"17"},
		{},
		{"Page 7 of 9"},
		{"8 Row and Column Access Control"},
		{"Annual report 2020"},
	}
	pages := make([]pageOut, len(furn))
	for i, f := range furn {
		pages[i].info.Furniture = f
	}
	printedLabels(pages)
	var got []string
	for _, p := range pages {
		got = append(got, p.info.Label)
	}
	if want := "iii 2 3 4   7 8 "; strings.Join(got, " ") != want {
		t.Errorf("labels %q, want %q", strings.Join(got, " "), want)
	}
}

// A ruled grid full of data markers is a chart, not a table; a table with
// a few check boxes is still a table.
func TestChartIsNoTable(t *testing.T) {
	grid := ruleStack{ys: []float64{500, 400, 300}, x0: 100, x1: 500}
	var lines []*pline
	for i := 0; i < 6; i++ {
		lines = append(lines, &pline{u0: 120, u1: 300, v: 480 - float64(i)*30})
	}
	var rules []rule
	for i := 0; i < 200; i++ { // a '+' at each of 100 data points
		x, y := 110+float64(i%50)*7, 310+float64(i/50)*40
		rules = append(rules, rule{true, y, x - 2.5, x + 2.5}, rule{false, x, y - 2.5, y + 2.5})
	}
	if !grid.isChart(tinyMarks(rules, false), lines) {
		t.Error("a grid with 400 marker strokes and 6 lines of text read as a table")
	}
	boxes := rules[:24] // six check boxes' worth of small strokes
	if grid.isChart(tinyMarks(boxes, false), lines) {
		t.Error("a table with check boxes read as a chart")
	}
	// A table whose rules are drawn in pieces of five points, cell by
	// cell, each meeting the next, draws rules, not marks.
	var pieces []rule
	for _, y := range grid.ys {
		for x := 100.0; x < 500; x += 5.3 {
			pieces = append(pieces, rule{true, y, x, x + 5})
		}
	}
	if grid.isChart(tinyMarks(pieces, true), lines) {
		t.Error("a table ruled in short pieces read as a chart")
	}
}

// A line ending on a word that needs more after it is the first line of a
// run-in heading, not a heading; titles end on their last noun.
func TestEndsOpen(t *testing.T) {
	for text, want := range map[string]bool{
		"Unreported social security and": true,
		"Simplified Procedure for":       true,
		"Name, Address,":                 true,
		"Who Must File":                  false,
		"What and Where to File":         false,
		"Section 5":                      false,
		"and":                            false,
	} {
		if got := endsOpen(text); got != want {
			t.Errorf("endsOpen(%q) = %v", text, got)
		}
	}
}

func TestSideLists(t *testing.T) {
	row := func(cells ...string) []*pline {
		var r []*pline
		for _, c := range cells {
			r = append(r, &pline{text: c})
		}
		return r
	}
	cases := []struct {
		name string
		rows [][]*pline
		want bool
	}{
		{"lists side by side", [][]*pline{row("1. List item4", "• I1", "Some info:"), row("2. List item5", "• I2", "• Item A"), row("3. List item6", "• I3", "• Item B")}, true},
		{"a table of names and numbers", [][]*pline{row("Name", "Rows", "Share"), row("Storm", "8/16", "50%"), row("Boxer", "3/3", "100%")}, false},
		{"numbered rows with plain cells", [][]*pline{row("1.", "Alpha", "12"), row("2.", "Beta", "7")}, false},
		{"a year is no item number", [][]*pline{row("2023 AA+", "stable"), row("2022 AA+", "stable")}, false},
	}
	for _, c := range cases {
		if got := sideLists(c.rows); got != c.want {
			t.Errorf("%s: sideLists = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestIsFigure(t *testing.T) {
	for text, want := range map[string]bool{
		"₹17,81,841 crore": true,
		"$67,845 million":  true,
		"45.2%":            true,
		"2022 Highlights":  false,
		"`1,186 crore":     true,
		"2007 Tax Table":   false,
		"1.2.3 Scope":      false,
		"Table 7-1":        false,
		"2023年度第四期超短期融资券募集说明书": false,
		"Q3 2022 Results": false,
	} {
		if got := isFigure(text); got != want {
			t.Errorf("isFigure(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestHorizontalForms(t *testing.T) {
	for in, want := range map[string]string{"︵": "(", "︶": ")", "︑": "、", "︽": "《", "照明": "照明", "（": "（", "ﬁ": "ﬁ"} {
		if got := horizontalForms(in); got != want {
			t.Errorf("horizontalForms(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAttachNumbers(t *testing.T) {
	line := func(text string, u0, u1, v float64) *pline {
		return &pline{text: text, u0: u0, u1: u1, v: v, size: 15}
	}
	cases := []struct {
		name  string
		lines []*pline
		want  []string
	}{
		{"boxed section number", []*pline{line("1", 73, 81, 430), line("들어가며", 98, 144, 430)}, []string{"1 들어가며"}},
		{"hanging list number", []*pline{line("2.", 72, 80, 500), line("Keep the receipt.", 100, 300, 500)}, []string{"2. Keep the receipt."}},
		{"number far from the next column", []*pline{line("12", 72, 86, 500), line("Results differ", 320, 420, 500)}, []string{"12", "Results differ"}},
		{"a number before a number", []*pline{line("3", 72, 80, 500), line("4,250", 100, 140, 500)}, []string{"3", "4,250"}},
		{"different baselines", []*pline{line("1", 72, 80, 500), line("Scope", 100, 140, 470)}, []string{"1", "Scope"}},
	}
	for _, c := range cases {
		var got []string
		for _, l := range attachNumbers(c.lines) {
			got = append(got, l.text)
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestMacOrderText(t *testing.T) {
	for name, want := range map[string]string{"g3": " ", "g40": "E", "g81": "n", "g18": "/", "g115": "", "g2": "", "gx1": "", "glyph40": ""} {
		got, ok := macOrderText(name)
		if got != want || ok != (want != "") {
			t.Errorf("macOrderText(%q) = %q, %v", name, got, ok)
		}
	}
	if !plausibleText(map[int]string{1: "a", 2: "e", 3: "o", 4: "Q"}) || plausibleText(map[int]string{1: "#", 2: "$", 3: "A", 4: "a"}) {
		t.Error("plausibleText")
	}
}

// TestReadingOrderCuts: a centred title block with nothing beside it is
// read before a left-aligned heading below it (Breuel's left-of rule
// alone put the heading first), while two columns under a full-width
// title are still read column by column.
func TestReadingOrderCuts(t *testing.T) {
	blk := func(u0, v0, u1, v1 float64) *pblock { return &pblock{u0: u0, v0: v0, u1: u1, v1: v1} }
	for _, tc := range []struct {
		name   string
		blocks []*pblock
		want   []int
	}{
		{"centred title lines above a left heading", []*pblock{
			blk(138, 704, 474, 717), // 0 title
			blk(72, 579, 165, 591),  // 1 "Introduction", left-aligned
			blk(219, 688, 394, 702), // 2 subtitle, centred
			blk(268, 608, 344, 620), // 3 date, centred
			blk(72, 480, 540, 570),  // 4 body, full width
		}, []int{0, 2, 3, 1, 4}},
		{"two columns under a title", []*pblock{
			blk(72, 700, 540, 720),  // 0 title across
			blk(320, 500, 540, 690), // 1 right column, top
			blk(72, 520, 290, 690),  // 2 left column, top
			blk(72, 300, 290, 510),  // 3 left column, bottom
			blk(320, 280, 540, 490), // 4 right column, bottom
		}, []int{0, 2, 3, 1, 4}},
	} {
		if got := readingOrder(tc.blocks, false); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: order %v, want %v", tc.name, got, tc.want)
		}
	}
}
