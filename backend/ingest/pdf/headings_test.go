package pdf

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"cairn/backend/ingest/parsed"
)

// Heading fixtures: small PDFs made here, one per kind of heading that is
// set like the body (bold or coloured at body size with a section number,
// CJK numbered titles, a one-page paper), each with the lines that look
// like headings but are not (a bold sentence in a paragraph, numbered list
// items, a bold table cell, a figure set large).

// hline is one line of a fixture page: text at (x, y) in font f (F1
// Helvetica, F2 Helvetica-Bold, F3 a CJK font, F4 its bold face) at size
// pt, filled with rgb colour (nil: black). tr is the text rendering mode.
type hline struct {
	f    string
	size float64
	x, y float64
	rgb  []float64
	tr   int
	text string
	// cs, when set, names the page's colour space (Spot: a separation
	// whose full tint is red, through an exponential tint transform) to
	// fill the line with at tint.
	cs   string
	tint float64
}

// headPDF writes a PDF with one page per element of pages.
func headPDF(pages [][]hline) []byte {
	n := len(pages)
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", ""}
	var kids []string
	fonts := "/Font << /F1 3 0 R /F2 4 0 R /F3 5 0 R /F4 6 0 R >> " +
		"/ColorSpace << /Spot [/Separation /Ink /DeviceCMYK << /FunctionType 2 /Domain [0 1] /C0 [0 0 0 0] /C1 [0 1 1 0] /N 1 >>] >>"
	objs = append(objs,
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>",
		cjkFont("CJKSans-Regular"), cjkFont("CJKSans-Bold"),
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(identityToUnicode), identityToUnicode))
	for i, ls := range pages {
		page := len(objs) + 1
		kids = append(kids, fmt.Sprintf("%d 0 R", page))
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << %s >> /Contents %d 0 R >>", fonts, page+1),
			contentStream(ls))
		_ = i
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n)
	return pdfWithObjects(objs)
}

// cjkFont is a Type0 font whose codes are Unicode code points (Identity-H
// with a ToUnicode map of identity, object 7), every glyph 1 em wide.
func cjkFont(name string) string {
	return fmt.Sprintf("<< /Type /Font /Subtype /Type0 /BaseFont /%s /Encoding /Identity-H /ToUnicode 7 0 R "+
		"/DescendantFonts [<< /Type /Font /Subtype /CIDFontType2 /BaseFont /%s /DW 1000 "+
		"/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> "+
		"/FontDescriptor << /Type /FontDescriptor /FontName /%s /Flags 4 /FontBBox [0 -120 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >> >>] >>",
		name, name, name)
}

const identityToUnicode = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n" +
	"/CMapName /Identity-UCS def /CMapType 2 def\n1 begincodespacerange <0000> <FFFF> endcodespacerange\n" +
	"1 beginbfrange <0000> <FFFF> <0000> endbfrange\nendcmap CMapName currentdict /CMap defineresource pop end end"

// contentStream shows each line with its own font, colour and position.
func contentStream(ls []hline) string {
	var s bytes.Buffer
	for _, l := range ls {
		rgb := l.rgb
		if rgb == nil {
			rgb = []float64{0, 0, 0}
		}
		fill := fmt.Sprintf("%g %g %g rg", rgb[0], rgb[1], rgb[2])
		if l.cs != "" {
			fill = fmt.Sprintf("/%s cs %g scn", l.cs, l.tint)
		}
		fmt.Fprintf(&s, "BT %s %d Tr /%s %g Tf 1 0 0 1 %g %g Tm ", fill, l.tr, l.f, l.size, l.x, l.y)
		if l.f == "F3" || l.f == "F4" {
			var h strings.Builder
			for _, u := range utf16.Encode([]rune(l.text)) {
				fmt.Fprintf(&h, "%04X", u)
			}
			fmt.Fprintf(&s, "<%s> Tj ET\n", h.String())
			continue
		}
		t := strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`).Replace(l.text)
		fmt.Fprintf(&s, "(%s) Tj ET\n", t)
	}
	return fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", s.Len(), s.String())
}

// column sets lines top down from y, each line's leading 1.2 em; a nil
// line (gap) adds a blank line's space.
type column struct {
	x, y  float64
	lines []hline
}

func (c *column) add(f string, size float64, rgb []float64, texts ...string) {
	for _, t := range texts {
		c.lines = append(c.lines, hline{f: f, size: size, x: c.x, y: c.y, rgb: rgb, text: t})
		c.y -= 1.2 * size
	}
}

func (c *column) gap(pt float64) { c.y -= pt }

// bodyLines is body text: lines of about 90 characters in the body face.
var bodyLines = []string{
	"The measurements were taken over three weeks at each of the sites described above, and",
	"every reading was checked against the reference instrument before it was recorded in the",
	"log. Readings that differed from the reference by more than the stated tolerance were kept",
	"apart and repeated on the following day under the same conditions of light and heat.",
}

// headingsOf reads data and returns the heading blocks' texts with their
// levels, and all blocks.
func headingsOf(t *testing.T, data []byte) (map[string]int, []parsed.Block) {
	t.Helper()
	t.Setenv("CAIRN_PDF_OUTLINE", "0")
	doc, err := Read(data, parsed.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hs := map[string]int{}
	for _, b := range doc.Blocks {
		if b.Kind == parsed.BlockHeading {
			hs[b.Text] = b.Level
		}
	}
	return hs, doc.Blocks
}

// checkHeadings fails when a wanted heading is missing (or has another
// level, when the level is not 0) or when a line of not is a heading.
func checkHeadings(t *testing.T, data []byte, want map[string]int, not []string) {
	t.Helper()
	hs, blocks := headingsOf(t, data)
	for h, lv := range want {
		got, ok := hs[h]
		if !ok || lv != 0 && got != lv {
			var all []string
			for _, b := range blocks {
				all = append(all, fmt.Sprintf("%s%d %q", b.Kind[:1], b.Level, b.Text))
			}
			t.Errorf("%q: heading %v level %d, want level %d; blocks:\n%s", h, ok, got, lv, strings.Join(all, "\n"))
		}
	}
	for _, n := range not {
		for h := range hs {
			if strings.Contains(h, n) {
				t.Errorf("%q is a heading", h)
			}
		}
	}
}

// TestBoldBodySizeHeadings: "3.2 Results" in bold at the body size is a
// heading at level 2 though the document sets only two such titles; a
// bold sentence opening a paragraph, numbered list items, a bold table
// caption and a bold table cell are not.
func TestBoldBodySizeHeadings(t *testing.T) {
	c := column{x: 72, y: 720}
	c.add("F2", 10, nil, "3 Method")
	c.add("F1", 10, nil, bodyLines...)
	c.gap(8)
	c.add("F2", 10, nil, "Keep the probes dry at all times.")
	c.add("F1", 10, nil, bodyLines[1:]...)
	c.gap(8)
	c.add("F1", 10, nil, "1. Clean the probe with the cloth supplied.", "2. Dry the probe in open air for an hour.", "3. Store the probe in its case.")
	c.gap(8)
	c.add("F2", 10, nil, "3.2 Results")
	c.add("F1", 10, nil, bodyLines...)
	c.gap(8)
	c.add("F2", 10, nil, "Table 2: Readings by site")
	y := c.y
	for i, row := range [][]string{{"Site", "Readings", "Repeated"}, {"North", "412", "9"}, {"South", "388", "14"}} {
		f := "F1"
		if i == 0 {
			f = "F2"
		}
		for j, cell := range row {
			c.lines = append(c.lines, hline{f: f, size: 10, x: 72 + float64(j)*120, y: y, text: cell})
		}
		y -= 14
	}
	c.y = y - 8
	c.add("F1", 10, nil, bodyLines...)
	checkHeadings(t, headPDF([][]hline{c.lines}), map[string]int{"3 Method": 1, "3.2 Results": 2},
		[]string{"Keep the probes", "Clean the probe", "Dry the probe", "Site", "North", "Table 2"})
}

// TestColouredHeadings: numbered titles set at the body size and weight
// but in a second colour are headings; a coloured sentence and a
// coloured word inside a line of text are not.
func TestColouredHeadings(t *testing.T) {
	blue := []float64{0.1, 0.2, 0.7}
	c := column{x: 72, y: 720}
	c.add("F1", 10, blue, "4 Method")
	c.add("F1", 10, nil, bodyLines...)
	c.gap(8)
	c.add("F1", 10, blue, "See the appendix for the full table of readings.")
	c.add("F1", 10, nil, bodyLines...)
	c.gap(8)
	c.add("F1", 10, blue, "4.1 Sites")
	c.add("F1", 10, nil, bodyLines[:2]...)
	c.lines = append(c.lines, hline{f: "F1", size: 10, x: 72, y: c.y, text: "The sites are listed in"},
		hline{f: "F1", size: 10, x: 178, y: c.y, rgb: blue, text: "Table 2"},
		hline{f: "F1", size: 10, x: 214, y: c.y, text: "with their heights and the dates of each visit."})
	c.y -= 12
	c.add("F1", 10, nil, bodyLines[2:]...)
	checkHeadings(t, headPDF([][]hline{c.lines}), map[string]int{"4 Method": 1, "4.1 Sites": 2},
		[]string{"See the appendix", "Table 2", "The sites"})
}

// TestCJKNumberedHeadings: a datasheet's numbered titles ("1 概述", "2.1
// 电气特性") are headings with levels from their numbers, whether set in
// a bold face (two of them are enough) or like the body and close above
// their text (the document uses the style for six); numbered notes that
// end a sentence and a run of numbered lines are not.
func TestCJKNumberedHeadings(t *testing.T) {
	body := []string{
		"本器件是一款低功耗的温度传感器，工作电压范围宽，适用于多种工业和消费类应用场合。",
		"器件内部集成了基准电压源和模数转换器，可以直接输出数字信号，无需外部校准电路。",
		"在整个工作温度范围内，器件的测量精度保持稳定，典型误差小于正负零点五摄氏度。",
	}
	datasheet := func(titleFont string, heads [][]string) []byte {
		var pages [][]hline
		for p, hs := range heads {
			c := column{x: 72, y: 720}
			for i, h := range hs {
				c.add(titleFont, 10.5, nil, h)
				c.gap(2)
				c.add("F3", 10.5, nil, body...)
				c.gap(10)
				if p == 0 && i == 0 {
					c.add("F3", 10.5, nil, "1 电源电压不得超过最大额定值。", "2 输入引脚不得悬空。")
					c.gap(10)
					c.add("F3", 10.5, nil, "1 电源", "2 接地", "3 输出")
					c.gap(10)
				}
			}
			pages = append(pages, c.lines)
		}
		return headPDF(pages)
	}
	not := []string{"电源", "输入引脚", "接地", "输出"}
	// Bold made by the pen: the regular face filled and stroked (Tr 2),
	// or painted twice a little apart.
	for _, fake := range []func(c *column){
		func(c *column) { c.lines[len(c.lines)-1].tr = 2 },
		func(c *column) { l := c.lines[len(c.lines)-1]; l.x += 0.4; c.lines = append(c.lines, l) },
	} {
		var pages [][]hline
		for _, h := range []string{"1 概述", "2.1 电气特性"} {
			c := column{x: 72, y: 720}
			c.add("F3", 10.5, nil, h)
			fake(&c)
			c.gap(2)
			c.add("F3", 10.5, nil, body...)
			pages = append(pages, c.lines)
		}
		checkHeadings(t, headPDF(pages), map[string]int{"1 概述": 1, "2.1 电气特性": 2}, nil)
	}
	checkHeadings(t, datasheet("F4", [][]string{{"1 概述"}, {"2.1 电气特性"}}), map[string]int{"1 概述": 1, "2.1 电气特性": 2}, not)
	checkHeadings(t, datasheet("F3", [][]string{{"1 概述", "2 功能特性"}, {"2.1 电气特性", "2.2 封装信息"}, {"3 应用电路", "4 订购信息"}}),
		map[string]int{"1 概述": 1, "2 功能特性": 1, "2.1 电气特性": 2, "2.2 封装信息": 2, "3 应用电路": 1, "4 订购信息": 1}, not)
}

// TestOnePagePaper: a one-page paper's title (set large) and its section
// heads (bold, at the body size, one unnumbered) are headings; its
// authors line, a figure set large and a bold label inside a paragraph are
// not.
func TestOnePagePaper(t *testing.T) {
	c := column{x: 72, y: 740}
	c.add("F2", 16, nil, "Measuring Soil Moisture with Cheap Probes")
	c.gap(4)
	c.add("F1", 10, nil, "A. Author and B. Author, Field Station")
	c.gap(10)
	c.add("F2", 10, nil, "Abstract")
	c.add("F1", 10, nil, bodyLines...)
	c.gap(8)
	c.add("F2", 10, nil, "1 Introduction")
	c.add("F1", 10, nil, bodyLines...)
	c.gap(8)
	c.add("F2", 24, nil, "87%")
	c.add("F1", 10, nil, "of the readings fell within the tolerance of the reference instrument.")
	c.gap(8)
	c.add("F2", 10, nil, "2 Results")
	c.add("F1", 10, nil, bodyLines...)
	c.gap(8)
	c.add("F2", 10, nil, "References")
	c.add("F1", 10, nil, "[1] C. Author. Probes and their errors. Journal of Fields, 2019.")
	checkHeadings(t, headPDF([][]hline{c.lines}),
		map[string]int{"Measuring Soil Moisture with Cheap Probes": 1, "Abstract": 0, "1 Introduction": 0, "2 Results": 0, "References": 0},
		[]string{"87%", "Author and", "of the readings", "[1]"})
}

// TestOnePageCapsHeads: a one-page handbook page whose section heads are
// capitals at the body size in the body face: the document's only page
// sets three of them apart, so their style is a heading style; a
// capitals line that ends a sentence and two capitals lines one after
// another (labels) are not.
func TestOnePageCapsHeads(t *testing.T) {
	c := column{x: 72, y: 740}
	c.add("F2", 14, nil, "Field Handbook: Probes")
	c.gap(10)
	for _, h := range []string{"BEFORE YOU START", "TAKING A READING", "AFTER THE VISIT"} {
		c.add("F1", 10, nil, h)
		c.add("F1", 10, nil, bodyLines...)
		c.gap(10)
		c.add("F1", 10, nil, bodyLines[1:]...)
		c.gap(10)
	}
	c.add("F1", 10, nil, "DO NOT OPEN THE CASE IN RAIN.")
	c.add("F1", 10, nil, bodyLines...)
	c.gap(10)
	c.add("F1", 10, nil, "NORTH", "SOUTH")
	c.gap(10)
	c.add("F1", 10, nil, bodyLines...)
	checkHeadings(t, headPDF([][]hline{c.lines}),
		map[string]int{"Field Handbook: Probes": 1, "BEFORE YOU START": 0, "TAKING A READING": 0, "AFTER THE VISIT": 0},
		[]string{"DO NOT OPEN", "NORTH", "SOUTH"})
}

// TestLabelledTitles: titles opened by a label word and its number and
// set like the body ("Item 1A. Risk Factors.", ending on a period) are
// headings when the document sets several alike; "Part II – …" above
// "Item 1. …" is no list. A term and its definition after a colon
// ("Level 1: …."), a caption numbered in Roman ("Table II: …") and a
// labelled line printed over two pages (a running head) are not.
func TestLabelledTitles(t *testing.T) {
	var pages [][]hline
	page := func(head string, items ...string) {
		c := column{x: 72, y: 720}
		if head != "" {
			c.add("F1", 10, nil, head)
			c.gap(10)
		}
		for _, it := range items {
			c.add("F1", 10, nil, it)
			c.add("F1", 10, nil, bodyLines...)
			c.gap(10)
		}
		pages = append(pages, c.lines)
	}
	page("Chapter 3: Field instruments", "Part II – Other Information", "Item 1. Legal Proceedings.", "Item 1A. Risk Factors.")
	page("Chapter 3: Field instruments", "Item 2. Properties and Sites.", "Level 1: Quoted prices in active markets for identical instruments.")
	page("", "Item 3. Controls and Procedures.", "Table II: Readings by site and season")
	// A blank page's footer: a labelled line below all else on its page.
	pages = append(pages, []hline{{f: "F1", size: 10, x: 72, y: 60, text: "Chapter 4. Field Notes"}})
	checkHeadings(t, headPDF(pages), map[string]int{"Item 1. Legal Proceedings.": 0, "Item 1A. Risk Factors.": 0, "Item 2. Properties and Sites.": 0, "Item 3. Controls and Procedures.": 0},
		[]string{"Level 1", "Table II", "Chapter 3", "Chapter 4"})
}

// TestSpotColourTitles: a bold title in white (on a band) over a bold
// subtitle in a spot colour (a separation's full tint, read through its
// tint transform: red, not the white a grey "1" would be) are two
// headings, not one.
func TestSpotColourTitles(t *testing.T) {
	c := column{x: 72, y: 720}
	c.add("F1", 10, nil, bodyLines...)
	c.gap(10)
	c.add("F2", 10, []float64{1, 1, 1}, "Note 3. Mills and Water Rights")
	c.lines = append(c.lines, hline{f: "F2", size: 10, x: 72, y: c.y, cs: "Spot", tint: 1, text: "Licences Bought"})
	c.y -= 12
	c.add("F1", 10, nil, bodyLines...)
	checkHeadings(t, headPDF([][]hline{c.lines}), map[string]int{"Note 3. Mills and Water Rights": 0, "Licences Bought": 0}, nil)
}

func TestFillSpaceColours(t *testing.T) {
	spot := &fillSpace{tint: true, c0: []float64{0, 0, 0, 0}, c1: []float64{0, 1, 1, 0}, n: 1}
	lab := &fillSpace{tint: true, c0: []float64{100, 0, 0}, c1: []float64{50, 70, 50}, n: 1, lab: true}
	for _, tc := range []struct {
		s    *fillSpace
		v    float64
		want uint32
	}{
		{spot, 1, 0xff0000}, {spot, 0, 0xffffff}, {lab, 0, 0xffffff}, {&fillSpace{unknown: true}, 1, 0x123456},
	} {
		if got := tc.s.colour([]operand{{kind: kNum, num: tc.v}}, 0x123456); got != tc.want {
			t.Errorf("%+v at %g: %06x, want %06x", tc.s, tc.v, got, tc.want)
		}
	}
	if got := lab.colour([]operand{{kind: kNum, num: 1}}, 0); got>>16 < 0xc0 || got&0xff > 0x60 {
		t.Errorf("a Lab red reads %06x", got)
	}
}

// TestContentsEntriesAreNoHeadings: a contents page set large and bold,
// each entry's dot leader ending on its page number (in digits, Roman
// numerals, spaced dots), has no headings but its own title; the
// chapter's title on its page is one.
func TestContentsEntriesAreNoHeadings(t *testing.T) {
	c := column{x: 72, y: 720}
	c.add("F2", 16, nil, "Contents")
	c.gap(8)
	for _, entry := range []string{
		"Preface . . . . . . . . . . . . . . . . . . . . . . . . ix",
		"1. Brewing at Home.......................................... 3",
		"2. Water and Grain ..........................................27",
		"Index ........................................ 151",
		"Appendix 1: Tables of Readings Taken at Every Site over Three Weeks ..287",
	} {
		c.add("F2", 14, nil, entry)
		c.gap(10)
	}
	c.gap(20)
	c.add("F2", 16, nil, "1. Brewing at Home")
	for range 4 {
		c.add("F1", 10, nil, bodyLines...)
		c.gap(6)
	}
	checkHeadings(t, headPDF([][]hline{c.lines}), map[string]int{"Contents": 1, "1. Brewing at Home": 1},
		[]string{"Preface", "1. Brewing at Home....", "2. Water and Grain", "Index", "Appendix 1"})
}

// TestBodySizeFromRunningText: the body size is that of the running text,
// though a guidebook's map pages set more letters smaller (street names
// alone, map keys with dot leaders); without enough running text, the
// commonest size outside tables.
func TestBodySizeFromRunningText(t *testing.T) {
	para1 := func(text string, size float64, lines int) para {
		return para{text: text, size: size, lines: lines, runes: utf8.RuneCountInString(text)}
	}
	prose := "The tram climbs the hill past the old houses of the quarter\n" +
		"and stops at the square, where the market opens every morning at six\n" +
		"and the cafés put their tables out under the plane trees by the church."
	var maps, text []para
	for range 200 {
		maps = append(maps, para1("Quay", 6, 1), para1("Mill Lane", 6, 1), para1("Linden Place", 6, 1), para1("Harbourfront", 6, 1),
			para1("12 Gull Café ..................... B2\n13 Ropewalk ..................... C3", 6.5, 2))
	}
	for range 20 {
		text = append(text, para1(prose, 8, 3))
	}
	if got := bodySize([]pageOut{{paras: maps}, {paras: text}}); got != 8 {
		t.Errorf("guidebook: body size %v, want 8 (the running text's)", got)
	}
	if got := bodySize([]pageOut{{paras: maps}, {paras: text[:1]}}); got != 6 {
		t.Errorf("little running text: body size %v, want 6 (the commonest outside tables)", got)
	}
}
