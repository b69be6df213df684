package docx

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"cairn/backend/ingest/parsed"
	"cairn/backend/testshared"
)

// sharedDir finds the shared test corpus (/work/shared) relative to this
// package, or skips the test.
func sharedDir(t testing.TB) string {
	t.Helper()
	for _, rel := range []string{"../../../shared", "../../../../shared"} {
		if st, err := os.Stat(filepath.Join(rel, "docs")); err == nil && st.IsDir() {
			return rel
		}
	}
	testshared.Missing(t, "shared test corpus not found")
	return ""
}

func readShared(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(sharedDir(t), "docs", name))
	if err != nil {
		testshared.Missing(t, fmt.Sprintf("corpus file: %v", err))
	}
	return data
}

type counts struct{ headings, items, rows, other, paras int }

func countBlocks(doc *parsed.Document) counts {
	var c counts
	for _, b := range doc.Blocks {
		switch b.Kind {
		case parsed.BlockHeading:
			c.headings++
		case parsed.BlockListItem:
			c.items++
		case parsed.BlockTableRow:
			c.rows++
		case parsed.BlockOther:
			c.other++
		case parsed.BlockParagraph:
			c.paras++
		}
	}
	return c
}

func allText(doc *parsed.Document) string {
	var b strings.Builder
	for _, bl := range doc.Blocks {
		b.WriteString(bl.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// checkDoc asserts the reader contract on a successful read.
func checkDoc(t testing.TB, doc *parsed.Document) {
	t.Helper()
	if doc.Kind != parsed.KindDOCX {
		t.Errorf("kind %q", doc.Kind)
	}
	if len(doc.Pages) == 0 {
		t.Fatalf("no pages")
	}
	for i, p := range doc.Pages {
		if p.Number != i+1 {
			t.Errorf("page %d numbered %d", i, p.Number)
		}
	}
	prev := 1
	for i, b := range doc.Blocks {
		if b.Page < 1 || b.Page > len(doc.Pages) {
			t.Errorf("block %d on page %d of %d", i, b.Page, len(doc.Pages))
		}
		if b.Page < prev {
			t.Errorf("block %d page %d after page %d", i, b.Page, prev)
		}
		prev = b.Page
		if strings.TrimSpace(b.Text) == "" {
			t.Errorf("block %d empty", i)
		}
		if b.Kind == parsed.BlockHeading && (b.Level < 1 || b.Level > 9) {
			t.Errorf("heading %q level %d", b.Text, b.Level)
		}
	}
}

func TestRealFiles(t *testing.T) {
	cases := []struct {
		file          string
		want          counts // -1: don't check
		pages         int    // 0: don't check
		contains      []string
		absent        []string
		title         string
		wantOtherOnce string // text that must appear in exactly one block
	}{
		{file: "en-handbook-doj-872p.docx", want: counts{294, 44, 4, -1, -1},
			contains: []string{"CHAPTER 1 – INTRODUCTION", "Standing Trustee Pledge of Excellence", "Handbook for Chapter 13 Standing Trustees"},
			title:    "CHAPTER 1 – INTRODUCTION"},
		{file: "en-office365-document2.docx", want: counts{0, 0, 0, 0, 1}, pages: 1,
			contains: []string{"This is a sample file to test document parsing"}},
		{file: "en-word-headers-footers.docx", want: counts{0, 0, 0, 6, 1}, pages: 1,
			contains: []string{"Main document", "First header para", "Table cell1 | Table cell2"},
			absent:   []string{"I should not be included"}},
		{file: "en-word-lists-nested.docx", want: counts{10, 48, 0, 0, -1}, pages: 3, title: "Test Document"},
		{file: "en-word-sample-images-lists.docx", want: counts{3, 9, 4, -1, -1}, pages: 2,
			contains: []string{"1. Wear sunglasses", "• Paddle about", "Leaves | Ash, Elm, Maple | 50"}},
		{file: "en-word-tables-merged.docx", want: counts{1, 0, 23, 0, -1},
			contains: []string{"Cell 1.0 | Merged Cell 1.1 1.2 | Cell 1.3", "Cell 2.0 |  | Cell 2.2"}},
		{file: "en-word-textbox.docx", want: counts{0, 0, 0, 20, 2},
			contains: []string{"Student falls ill", "Case closed."}, wantOtherOnce: "Student falls ill"},
		{file: "zh-civil-code.docx", want: counts{0, 0, 0, 0, 75},
			contains: []string{"第一编", "民事主体", "民法调整平等主体"}},
		{file: "zh-en-mixed-headings-tables-math.docx", want: counts{37, 44, 52, 3, -1}, pages: 15,
			contains: []string{"1. 有序列表构成的章节标题", "1.2.5 Tables", "a. 最里层列表", "(1) 如有未尽事宜", "Leaves | Ash, Elm, Maple | 50"},
			absent:   []string{"PAGEREF", "TOC \\o", "HYPERLINK", "MERGEFORMAT"},
			title:    "MinerU supports DOCX document parsing now"},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			doc, err := Read(readShared(t, "real/"+tc.file), parsed.Options{})
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			checkDoc(t, doc)
			got := countBlocks(doc)
			for _, c := range []struct {
				name      string
				got, want int
			}{{"headings", got.headings, tc.want.headings}, {"list items", got.items, tc.want.items},
				{"table rows", got.rows, tc.want.rows}, {"other", got.other, tc.want.other}, {"paragraphs", got.paras, tc.want.paras}} {
				if c.want >= 0 && c.got != c.want {
					t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
				}
			}
			if tc.pages > 0 && len(doc.Pages) != tc.pages {
				t.Errorf("pages = %d, want %d", len(doc.Pages), tc.pages)
			}
			text := allText(doc)
			for _, s := range tc.contains {
				if !strings.Contains(text, s) {
					t.Errorf("text lacks %q", s)
				}
			}
			for _, s := range tc.absent {
				if strings.Contains(text, s) {
					t.Errorf("text contains %q", s)
				}
			}
			if tc.title != "" && doc.Title != tc.title {
				t.Errorf("title %q, want %q", doc.Title, tc.title)
			}
			if tc.wantOtherOnce != "" && strings.Count(text, tc.wantOtherOnce) != 1 {
				t.Errorf("%q appears %d times, want once", tc.wantOtherOnce, strings.Count(text, tc.wantOtherOnce))
			}
		})
	}
}

func TestBadFiles(t *testing.T) {
	cases := []struct {
		file string
		code parsed.Code
		msg  string
	}{
		{"empty.docx", parsed.CodeEmpty, "empty"},
		{"legacy-doc-renamed.docx", parsed.CodeLegacyDoc, "legacy Word 97–2003"},
		{"missing-document-xml.docx", parsed.CodeNotDocx, "word/document.xml is missing"},
		{"not-a-zip.docx", parsed.CodeCorrupt, "not a Word (OOXML) document"},
		{"pdf-named-as.docx", parsed.CodeCorrupt, "not a Word (OOXML) document"},
		{"zip-bomb-1GiB.docx", parsed.CodeTooLarge, "document too large or a zip bomb"},
		{"zip-bomb-overlap-4GiB.docx", parsed.CodeTooLarge, "document too large or a zip bomb"},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			_, err := Read(readShared(t, "bad/"+tc.file), parsed.Options{})
			var pe *parsed.Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T), want *parsed.Error", err, err)
			}
			if pe.Code != tc.code || !strings.Contains(pe.Msg, tc.msg) {
				t.Errorf("got %s %q, want %s containing %q", pe.Code, pe.Msg, tc.code, tc.msg)
			}
		})
	}
}

// TestZipBombsFlat: both bombs fail fast and without inflating anything
// big (HeapAlloc stays flat).
func TestZipBombsFlat(t *testing.T) {
	for _, name := range []string{"zip-bomb-1GiB.docx", "zip-bomb-overlap-4GiB.docx"} {
		data := readShared(t, "bad/"+name)
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		_, err := Read(data, parsed.Options{})
		elapsed := time.Since(start)
		runtime.ReadMemStats(&after)
		if parsed.CodeOf(err) != parsed.CodeTooLarge {
			t.Errorf("%s: %v", name, err)
		}
		if elapsed > 2*time.Second {
			t.Errorf("%s: took %v", name, elapsed)
		}
		// TotalAlloc counts every allocation, freed or not.
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 32<<20 {
			t.Errorf("%s: allocated %d MiB", name, grew>>20)
		}
	}
}

// --- synthetic packages ---

const wNS = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"`

const pkgRels = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
	`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>` +
	`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>`

const docRels = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
	`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>` +
	`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/>` +
	`<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/>` +
	`<Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/>` +
	`<Relationship Id="rId5" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header2.xml"/></Relationships>`

const testStyles = `<w:styles ` + wNS + `>` +
	`<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>` +
	`<w:style w:type="paragraph" w:styleId="1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/></w:style>` +
	`<w:style w:type="paragraph" w:styleId="Mine"><w:name w:val="My Chapter"/><w:basedOn w:val="1"/></w:style>` +
	`<w:style w:type="paragraph" w:styleId="Deep"><w:name w:val="Deep"/><w:pPr><w:outlineLvl w:val="3"/></w:pPr></w:style>` +
	`<w:style w:type="paragraph" w:styleId="NotH"><w:name w:val="heading 2"/><w:pPr><w:outlineLvl w:val="9"/></w:pPr></w:style>` +
	`<w:style w:type="paragraph" w:styleId="Bul"><w:name w:val="List Bullet"/><w:pPr><w:numPr><w:numId w:val="2"/></w:numPr></w:pPr></w:style>` +
	`<w:style w:type="paragraph" w:styleId="Loop1"><w:name w:val="Loop1"/><w:basedOn w:val="Loop2"/></w:style>` +
	`<w:style w:type="paragraph" w:styleId="Loop2"><w:name w:val="Loop2"/><w:basedOn w:val="Loop1"/></w:style>` +
	`<w:style w:type="character" w:styleId="Heading1Char"><w:name w:val="heading 1"/></w:style>` +
	`</w:styles>`

const testNumbering = `<w:numbering ` + wNS + `>` +
	`<w:abstractNum w:abstractNumId="0">` +
	`<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>` +
	`<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%2)"/></w:lvl>` +
	`<w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="lowerRoman"/><w:lvlText w:val="%1.%2.%3"/><w:isLgl/></w:lvl>` +
	`</w:abstractNum>` +
	`<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val=""/></w:lvl></w:abstractNum>` +
	`<w:abstractNum w:abstractNumId="2"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="chineseCounting"/><w:lvlText w:val="第%1条"/></w:lvl></w:abstractNum>` +
	`<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>` +
	`<w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>` +
	`<w:num w:numId="3"><w:abstractNumId w:val="0"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="7"/></w:lvlOverride></w:num>` +
	`<w:num w:numId="4"><w:abstractNumId w:val="2"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="11"/></w:lvlOverride></w:num>` +
	`</w:numbering>`

// makeDocx builds a package from a document body (inner XML of w:body) and
// optional extra parts.
func makeDocx(t testing.TB, body string, extra map[string]string) []byte {
	t.Helper()
	parts := map[string]string{
		"[Content_Types].xml":          `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
		"_rels/.rels":                  pkgRels,
		"word/_rels/document.xml.rels": docRels,
		"word/styles.xml":              testStyles,
		"word/numbering.xml":           testNumbering,
		"word/document.xml":            `<?xml version="1.0" encoding="UTF-8"?><w:document ` + wNS + `><w:body>` + body + `</w:body></w:document>`,
	}
	for k, v := range extra {
		if v == "" {
			delete(parts, k)
		} else {
			parts[k] = v
		}
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range []string{"[Content_Types].xml", "_rels/.rels", "word/_rels/document.xml.rels", "word/styles.xml", "word/numbering.xml", "word/document.xml"} {
		if v, ok := parts[name]; ok {
			writePart(t, zw, name, v)
			delete(parts, name)
		}
	}
	for name, v := range parts {
		writePart(t, zw, name, v)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func writePart(t testing.TB, zw *zip.Writer, name, content string) {
	w, err := zw.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte(content)); err != nil {
		t.Fatal(err)
	}
}

func p(props, runs string) string {
	if props != "" {
		props = "<w:pPr>" + props + "</w:pPr>"
	}
	return "<w:p>" + props + runs + "</w:p>"
}

func r(text string) string { return `<w:r><w:t xml:space="preserve">` + text + `</w:t></w:r>` }

func pstyle(id string) string { return `<w:pStyle w:val="` + id + `"/>` }

func numPr(numID, ilvl string) string {
	return `<w:numPr><w:ilvl w:val="` + ilvl + `"/><w:numId w:val="` + numID + `"/></w:numPr>`
}

func readSynthetic(t *testing.T, body string, extra map[string]string) *parsed.Document {
	t.Helper()
	doc, err := Read(makeDocx(t, body, extra), parsed.Options{})
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	checkDoc(t, doc)
	return doc
}

func blockStrings(doc *parsed.Document) []string {
	var out []string
	for _, b := range doc.Blocks {
		s := string(b.Kind)
		if b.Level > 0 {
			s += string(rune('0' + b.Level))
		}
		out = append(out, s+":"+b.Text)
	}
	return out
}

func TestStructure(t *testing.T) {
	body := p(pstyle("1"), r("Intro")) +
		p(pstyle("Mine"), r("Derived chapter")) +
		p(pstyle("Deep"), r("Level four")) +
		p(pstyle("NotH"), r("Body despite name")) +
		p(`<w:outlineLvl w:val="1"/>`, r("Direct outline")) +
		p(pstyle("Loop1"), r("Cyclic style")) +
		p(numPr("1", "0"), r("one")) +
		p(numPr("1", "1"), r("sub a")) +
		p(numPr("1", "1"), r("sub b")) +
		p(numPr("1", "2"), r("legal")) +
		p(numPr("1", "0"), r("two")) +
		p(numPr("1", "1"), r("sub restarts")) +
		p(pstyle("Bul"), r("styled bullet")) +
		p(numPr("3", "0"), r("override seven")) +
		p(numPr("4", "0"), r("中文编号")) +
		p(numPr("99", "0"), r("unknown list")) +
		p(numPr("0", "0"), r("numbering removed")) +
		p(pstyle("1")+numPr("1", "0"), r("Numbered heading"))
	doc := readSynthetic(t, body, nil)
	want := []string{
		"heading1:Intro",
		"heading1:Derived chapter",
		"heading4:Level four",
		"paragraph:Body despite name",
		"heading2:Direct outline",
		"paragraph:Cyclic style",
		"list_item1:1. one",
		"list_item2:a) sub a",
		"list_item2:b) sub b",
		"list_item3:1.2.1 legal",
		"list_item1:2. two",
		"list_item2:a) sub restarts",
		"list_item1:• styled bullet",
		"list_item1:7. override seven",
		"list_item1:第十一条 中文编号",
		"list_item1:• unknown list",
		"paragraph:numbering removed",
		"heading1:3. Numbered heading",
	}
	got := blockStrings(doc)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("blocks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if doc.Title != "Intro" {
		t.Errorf("title %q", doc.Title)
	}
}

func TestRunContent(t *testing.T) {
	body := p("", `<w:r><w:t>a</w:t><w:tab/><w:t>b</w:t><w:br/><w:t>c</w:t><w:noBreakHyphen/><w:t>d</w:t></w:r>`) +
		// Complex field: instruction skipped, result kept.
		p("", `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGEREF _Toc1 \h </w:instrText></w:r>`+
			`<w:r><w:t>FIELDCODE</w:t></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>42</w:t></w:r>`+
			`<w:r><w:fldChar w:fldCharType="end"/></w:r>`+r(" after")) +
		// Tracked changes: deletion and move-from dropped, insertion kept.
		p("", `<w:del><w:r><w:delText>gone</w:delText></w:r></w:del><w:ins><w:r><w:t>kept</w:t></w:r></w:ins><w:moveFrom><w:r><w:t>moved</w:t></w:r></w:moveFrom>`) +
		// A field left open (broken file) must not swallow the next paragraph.
		p("", `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:t>lost</w:t></w:r>`) +
		p("", r("still here")) +
		// Simple field and hyperlink keep their text.
		p("", `<w:fldSimple w:instr="DATE"><w:r><w:t>today</w:t></w:r></w:fldSimple><w:r><w:t xml:space="preserve"> </w:t></w:r><w:hyperlink><w:r><w:t>link</w:t></w:r></w:hyperlink>`) +
		// Math text.
		p("", `<m:oMath><m:r><m:t>E=mc</m:t></m:r><m:sSup><m:e/><m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSup></m:oMath>`) +
		// Text box: Choice kept once, Fallback skipped; emitted after its anchor paragraph.
		p("", r("anchor")+`<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><w:txbxContent>`+p("", r("in the box"))+
			`</w:txbxContent></w:drawing></mc:Choice><mc:Fallback><w:pict><w:txbxContent>`+p("", r("in the box"))+
			`</w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent></w:r>`) +
		p("", r("  ")) +
		p("", `<w:r><w:t>ruby</w:t></w:r><w:ruby><w:rt><w:r><w:t>guide</w:t></w:r></w:rt><w:rubyBase><w:r><w:t>漢字</w:t></w:r></w:rubyBase></w:ruby>`)
	doc := readSynthetic(t, body, nil)
	want := []string{
		"paragraph:a\tb\nc-d",
		"paragraph:42 after",
		"paragraph:kept",
		"paragraph:still here",
		"paragraph:today link",
		"paragraph:E=mc2",
		"paragraph:anchor",
		"other:in the box",
		"paragraph:ruby漢字",
	}
	got := blockStrings(doc)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("blocks:\n%q\nwant:\n%q", got, want)
	}
}

func TestTables(t *testing.T) {
	cell := func(props, text string) string {
		if props != "" {
			props = "<w:tcPr>" + props + "</w:tcPr>"
		}
		return "<w:tc>" + props + p("", r(text)) + "</w:tc>"
	}
	nested := `<w:tbl><w:tr>` + cell("", "x") + cell("", "y") + `</w:tr><w:tr>` + cell("", "z") + `</w:tr></w:tbl>`
	body := `<w:tbl><w:tblPr/><w:tblGrid/>` +
		`<w:tr>` + cell("", "A") + cell(`<w:gridSpan w:val="2"/>`, "B") + `</w:tr>` +
		`<w:tr>` + cell(`<w:vMerge w:val="restart"/>`, "merged") + cell("", "") + cell("", "C") + `</w:tr>` +
		`<w:tr>` + cell(`<w:vMerge/>`, "hidden") + cell("", "D") + cell("", "") + `</w:tr>` +
		`<w:tr>` + cell("", "") + cell("", "") + `</w:tr>` +
		`<w:tr><w:tc>` + p("", r("outer")) + nested + `</w:tc>` + cell("", "E") + `</w:tr>` +
		`</w:tbl>` + p("", r("after"))
	doc := readSynthetic(t, body, nil)
	want := []string{
		"table_row:A | B",
		"table_row:merged |  | C",
		"table_row:| D",
		"table_row:outer x | y z | E",
		"paragraph:after",
	}
	got := blockStrings(doc)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("blocks:\n%q\nwant:\n%q", got, want)
	}
}

func TestPages(t *testing.T) {
	lrpb := `<w:r><w:lastRenderedPageBreak/></w:r>`
	pageBr := `<w:r><w:br w:type="page"/></w:r>`
	body := p("", `<w:r><w:lastRenderedPageBreak/></w:r>`+r("one")) + // break before any text: ignored
		p("", r("still one")+pageBr) +
		p("", lrpb+r("two")) + // explicit break + rendered break = one page turn
		p(`<w:sectPr><w:type w:val="nextPage"/></w:sectPr>`, r("two, section ends")) +
		p("", r("three")) +
		p(`<w:sectPr><w:type w:val="continuous"/></w:sectPr>`, r("three, continuous")) +
		p(`<w:pageBreakBefore/>`, r("four")) +
		`<w:tbl><w:tr><w:tc>` + p("", r("cell a")) + p("", lrpb+r("cell a more")) + `</w:tc><w:tc>` +
		p("", r("cell b")) + p("", lrpb+r("cell b more")) + `</w:tc></w:tr></w:tbl>` +
		p("", r("five"))
	doc := readSynthetic(t, body, nil)
	var got []string
	for _, b := range doc.Blocks {
		got = append(got, string(rune('0'+b.Page))+" "+b.Text)
	}
	want := []string{"1 one", "1 still one", "2 two", "2 two, section ends", "3 three", "3 three, continuous", "4 four",
		"4 cell a cell a more | cell b cell b more", "5 five"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("pages:\n%q\nwant:\n%q", got, want)
	}
	if len(doc.Pages) != 5 {
		t.Errorf("%d pages", len(doc.Pages))
	}
}

func TestAsideParts(t *testing.T) {
	hdr := `<w:hdr ` + wNS + `>` + p("", r("Running head")) + p("", `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>PAGE</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>7</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`) + `</w:hdr>`
	notes := `<w:footnotes ` + wNS + `><w:footnote w:type="separator" w:id="-1">` + p("", `<w:r><w:separator/></w:r>`) + `</w:footnote>` +
		`<w:footnote w:id="1">` + p("", `<w:r><w:footnoteRef/></w:r>`+r(" A footnote.")) + `</w:footnote></w:footnotes>`
	core := `<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>  Meta   title </dc:title></cp:coreProperties>`
	body := p("", r("Body")+`<w:r><w:footnoteReference w:id="1"/></w:r>`) + p("", `<w:r><w:br w:type="page"/></w:r>`) + p("", r("Page two"))
	doc := readSynthetic(t, body, map[string]string{
		"word/header1.xml": hdr, "word/header2.xml": hdr, "word/footnotes.xml": notes, "docProps/core.xml": core,
	})
	want := []string{"paragraph:Body", "paragraph:Page two", "other:Running head", "other:A footnote."}
	got := blockStrings(doc)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("blocks:\n%q\nwant:\n%q", got, want)
	}
	for _, b := range doc.Blocks[2:] {
		if b.Page != len(doc.Pages) {
			t.Errorf("aside %q on page %d", b.Text, b.Page)
		}
	}
	if doc.Title != "Meta title" {
		t.Errorf("title %q", doc.Title)
	}
}

func TestPackageErrors(t *testing.T) {
	t.Run("document2 via rels", func(t *testing.T) {
		rels := strings.Replace(pkgRels, "word/document.xml", "/word/document2.xml", 1)
		data := makeDocx(t, "", map[string]string{
			"_rels/.rels":                   rels,
			"word/document.xml":             "",
			"word/document2.xml":            `<w:document ` + wNS + `><w:body>` + p("", r("second")) + `</w:body></w:document>`,
			"word/_rels/document2.xml.rels": docRels,
		})
		doc, err := Read(data, parsed.Options{})
		if err != nil || len(doc.Blocks) != 1 || doc.Blocks[0].Text != "second" {
			t.Fatalf("got %v %v", doc, err)
		}
	})
	t.Run("no rels falls back", func(t *testing.T) {
		data := makeDocx(t, p("", r("plain")), map[string]string{"_rels/.rels": ""})
		if doc, err := Read(data, parsed.Options{}); err != nil || doc.Blocks[0].Text != "plain" {
			t.Fatalf("got %v %v", doc, err)
		}
	})
	codeCases := []struct {
		name  string
		data  func() []byte
		code  parsed.Code
		inMsg string
	}{
		{"xlsx", func() []byte {
			return makeDocx(t, "", map[string]string{"_rels/.rels": strings.Replace(pkgRels, "word/document.xml", "xl/workbook.xml", 1), "xl/workbook.xml": "<workbook/>"})
		}, parsed.CodeNotDocx, "Excel"},
		{"odt", func() []byte {
			return makeDocx(t, "", map[string]string{"mimetype": "application/vnd.oasis.opendocument.text", "_rels/.rels": "", "word/document.xml": ""})
		}, parsed.CodeNotDocx, "OpenDocument"},
		{"plain zip", func() []byte {
			var buf bytes.Buffer
			zw := zip.NewWriter(&buf)
			writePart(t, zw, "notes.txt", "hello")
			zw.Close()
			return buf.Bytes()
		}, parsed.CodeNotDocx, "zip archive"},
		{"wrong root", func() []byte {
			return makeDocx(t, "", map[string]string{"word/document.xml": "<foo/>"})
		}, parsed.CodeNotDocx, "not a Word document"},
		{"no text", func() []byte { return makeDocx(t, p("", ""), nil) }, parsed.CodeNoText, "no text"},
		{"broken xml", func() []byte {
			return makeDocx(t, "", map[string]string{"word/document.xml": `<w:document ` + wNS + `><w:body><w:p><w:r><w:t></w:r>`})
		}, parsed.CodeCorrupt, "damaged"},
		{"encrypted", func() []byte {
			return append(append([]byte{}, oleMagic...), utf16le("EncryptedPackage")...)
		}, parsed.CodePasswordRequired, "password"},
		{"truncated zip", func() []byte { d := makeDocx(t, p("", r("x")), nil); return d[:len(d)/2] }, parsed.CodeCorrupt, "not a Word"},
		{"ratio bomb", func() []byte {
			return makeDocx(t, p("", r(strings.Repeat("A", 12<<20))), nil)
		}, parsed.CodeTooLarge, "zip bomb"},
	}
	for _, tc := range codeCases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(tc.data(), parsed.Options{})
			var pe *parsed.Error
			if !errors.As(err, &pe) || pe.Code != tc.code || !strings.Contains(pe.Msg, tc.inMsg) {
				t.Errorf("got %v, want %s containing %q", err, tc.code, tc.inMsg)
			}
		})
	}
	t.Run("damaged after text keeps text", func(t *testing.T) {
		data := makeDocx(t, "", map[string]string{"word/document.xml": `<w:document ` + wNS + `><w:body>` + p("", r("good")) + `<w:p><w:r><w:t>x</w:r>`})
		doc, err := Read(data, parsed.Options{})
		if err != nil || len(doc.Blocks) == 0 || doc.Blocks[0].Text != "good" || len(doc.Warnings) == 0 {
			t.Fatalf("got %+v %v", doc, err)
		}
	})
}

// TestLyingSizes: a part whose header understates its size must not be
// inflated past the declared size.
func TestLyingSizes(t *testing.T) {
	content := []byte(`<w:document ` + wNS + `><w:body>` + p("", r(strings.Repeat("word ", 50000))) + `</w:body></w:document>`)
	var comp bytes.Buffer
	{
		var tmp bytes.Buffer
		zw := zip.NewWriter(&tmp)
		w, _ := zw.Create("x")
		w.Write(content)
		zw.Close()
		zr, _ := zip.NewReader(bytes.NewReader(tmp.Bytes()), int64(tmp.Len()))
		rc, _ := zr.File[0].OpenRaw()
		comp.ReadFrom(rc)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	writePart(t, zw, "_rels/.rels", pkgRels)
	hw, err := zw.CreateRaw(&zip.FileHeader{Name: "word/document.xml", Method: zip.Deflate,
		CompressedSize64: uint64(comp.Len()), UncompressedSize64: 1000, CRC32: 0})
	if err != nil {
		t.Fatal(err)
	}
	hw.Write(comp.Bytes())
	zw.Close()
	_, err = Read(buf.Bytes(), parsed.Options{})
	if c := parsed.CodeOf(err); c != parsed.CodeTooLarge && c != parsed.CodeCorrupt {
		t.Errorf("got %v", err)
	}
}

func TestNumberFormats(t *testing.T) {
	cases := []struct {
		n      int
		format string
		want   string
	}{
		{1, "decimal", "1"}, {27, "lowerLetter", "aa"}, {3, "upperLetter", "C"}, {14, "lowerRoman", "xiv"},
		{1994, "upperRoman", "MCMXCIV"}, {5, "decimalZero", "05"}, {12, "decimalFullWidth", "１２"},
		{3, "decimalEnclosedCircle", "③"}, {11, "chineseCounting", "十一"}, {20, "chineseCounting", "二十"},
		{105, "chineseCountingThousand", "一百零五"}, {2, "ideographTraditional", "乙"}, {7, "ordinalText", "7"},
	}
	for _, c := range cases {
		if got := formatNumber(c.n, c.format); got != c.want {
			t.Errorf("formatNumber(%d, %s) = %q, want %q", c.n, c.format, got, c.want)
		}
	}
}

// TestDeepNesting: a hostile nesting depth is skipped, not recursed into.
func TestDeepNesting(t *testing.T) {
	const depth = 200000
	body := p("", r("before")) + strings.Repeat("<w:sdt><w:sdtContent>", depth) + p("", r("deep")) +
		strings.Repeat("</w:sdtContent></w:sdt>", depth) + p("", r("after"))
	start := time.Now()
	doc := readSynthetic(t, body, nil)
	// Linear work takes a second or two; quadratic work on 200,000 levels
	// would take hours. The bound is loose so a busy machine passes it.
	if time.Since(start) > time.Minute {
		t.Errorf("took %v", time.Since(start))
	}
	got := blockStrings(doc)
	if len(got) != 2 || got[0] != "paragraph:before" || got[1] != "paragraph:after" {
		t.Errorf("blocks %q", got)
	}
}
