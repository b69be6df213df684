package chunk

import (
	"fmt"
	"strings"
	"testing"
	"unicode"

	"cairn/backend/ingest/parsed"
	"cairn/backend/kb"
)

// checkInvariants asserts what every caller relies on: chunk text is exactly
// its span of the document text, ordinals and pages are in order, no chunk is
// empty, and every non-space character of the document is in some chunk.
func checkInvariants(t testing.TB, doc *parsed.Document, pages []kb.Page, chunks []kb.Chunk) {
	t.Helper()
	var parts []string
	for i, p := range pages {
		if p.Number != i+1 {
			t.Fatalf("page %d numbered %d", i+1, p.Number)
		}
		parts = append(parts, p.Text)
	}
	text := strings.Join(parts, kb.PageSeparator)
	for _, p := range pages {
		if text[p.CharStart:p.CharStart+len(p.Text)] != p.Text {
			t.Fatalf("page %d offset wrong", p.Number)
		}
	}
	covered := make([]bool, len(text))
	for i, c := range chunks {
		if c.Ordinal != i {
			t.Fatalf("chunk %d has ordinal %d", i, c.Ordinal)
		}
		if c.CharStart < 0 || c.CharEnd > len(text) || c.CharStart >= c.CharEnd || text[c.CharStart:c.CharEnd] != c.Text {
			t.Fatalf("chunk %d span %d-%d does not match its text", i, c.CharStart, c.CharEnd)
		}
		if strings.TrimSpace(c.Text) == "" {
			t.Fatalf("chunk %d is empty", i)
		}
		if c.PageStart < 1 || c.PageEnd < c.PageStart || c.PageEnd > len(pages) {
			t.Fatalf("chunk %d pages %d-%d of %d", i, c.PageStart, c.PageEnd, len(pages))
		}
		if i > 0 && (c.PageStart < chunks[i-1].PageStart || c.CharStart < chunks[i-1].CharStart) {
			t.Fatalf("chunk %d goes backwards", i)
		}
		for j := c.CharStart; j < c.CharEnd; j++ {
			covered[j] = true
		}
	}
	for j, r := range text {
		if !unicode.IsSpace(r) && !covered[j] {
			t.Fatalf("text at byte %d (%q) is in no chunk", j, text[j:min(len(text), j+20)])
		}
	}
}

func doc(blocks ...parsed.Block) *parsed.Document {
	d := &parsed.Document{Kind: parsed.KindTXT, Blocks: blocks}
	n := 0
	for _, b := range blocks {
		n = max(n, b.Page)
	}
	for i := 1; i <= n; i++ {
		d.Pages = append(d.Pages, parsed.PageInfo{Number: i})
	}
	return d
}

func para(page int, s string) parsed.Block {
	return parsed.Block{Page: page, Kind: parsed.BlockParagraph, Text: s}
}
func head(page, level int, s string) parsed.Block {
	return parsed.Block{Page: page, Kind: parsed.BlockHeading, Level: level, Text: s}
}

func TestHeadingsStartChunksAndFormPaths(t *testing.T) {
	d := doc(head(1, 1, "Taxes"), para(1, "Intro text."), head(1, 2, "Students"), para(2, "Students may claim treaty benefits."),
		head(2, 2, "Teachers"), para(2, "Teachers too."), head(3, 1, "Appendix"), para(3, "End."))
	pages, chunks := Split(d, Options{})
	checkInvariants(t, d, pages, chunks)
	want := [][]string{{"Taxes"}, {"Taxes", "Students"}, {"Taxes", "Teachers"}, {"Appendix"}}
	if len(chunks) != len(want) {
		t.Fatalf("%d chunks: %+v", len(chunks), chunks)
	}
	for i, w := range want {
		if strings.Join(chunks[i].HeadingPath, "/") != strings.Join(w, "/") {
			t.Errorf("chunk %d path %v, want %v", i, chunks[i].HeadingPath, w)
		}
	}
	if chunks[1].PageStart != 1 || chunks[1].PageEnd != 2 {
		t.Errorf("section spanning pages: %d-%d", chunks[1].PageStart, chunks[1].PageEnd)
	}
}

func TestLongTextIsCutWithOverlap(t *testing.T) {
	var blocks []parsed.Block
	for i := 0; i < 60; i++ {
		blocks = append(blocks, para(1+i/20, strings.Repeat("Word after word makes a sentence of some length. ", 3)))
	}
	d := doc(blocks...)
	pages, chunks := Split(d, Options{Target: 100})
	checkInvariants(t, d, pages, chunks)
	if len(chunks) < 10 {
		t.Fatalf("only %d chunks", len(chunks))
	}
	for _, c := range chunks {
		if c.Tokens > 150 {
			t.Errorf("chunk of %d tokens over the ceiling", c.Tokens)
		}
	}
	if chunks[1].CharStart >= chunks[0].CharEnd {
		t.Errorf("no overlap between consecutive chunks")
	}
}

func TestCJKAndUnbrokenText(t *testing.T) {
	cjk := strings.Repeat("民事主体从事民事活动，应当遵循诚信原则。", 40)
	long := strings.Repeat("x", 50000) + " " + strings.Repeat("y ", 800)
	d := doc(para(1, cjk), para(2, long))
	pages, chunks := Split(d, Options{})
	checkInvariants(t, d, pages, chunks)
	if len(chunks) < 3 {
		t.Fatalf("%d chunks", len(chunks))
	}
	for _, c := range chunks {
		if len(c.Text) > 20000 {
			t.Fatalf("a %d-byte chunk: unbroken runs must be cut", len(c.Text))
		}
	}
}

func TestSentences(t *testing.T) {
	cases := map[string][]string{
		"Dr. Smith went home. He slept.":        {"Dr. Smith went home.", "He slept."},
		"It costs 3.5 dollars, e.g. cheap. Yes": {"It costs 3.5 dollars, e.g. cheap.", "Yes"},
		"J. R. R. Tolkien wrote it. Fine.":      {"J. R. R. Tolkien wrote it.", "Fine."},
		"第一句。第二句！第三句":                           {"第一句。", "第二句！", "第三句"},
		"line one\nline two":                    {"line one", "line two"},
		"Is it? \"Yes.\" Done":                  {"Is it?", "\"Yes.\"", "Done"},
	}
	for in, want := range cases {
		var got []string
		for _, s := range Sentences(in) {
			got = append(got, in[s[0]:s[1]])
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("Sentences(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCountTokens(t *testing.T) {
	for in, want := range map[string]int{"": 0, "hello world": 2, "知识图谱": 4, "a, b, c.": 4, strings.Repeat("x", 120): 11} {
		if got := CountTokens(in); got != want {
			t.Errorf("CountTokens(%q) = %d, want %d", in, got, want)
		}
	}
}

func FuzzSplit(f *testing.F) {
	f.Add("Title", "Some text. More text.\nNew line", 1, 2, 50)
	f.Add("标题", "中文句子。另一个句子！", 3, 1, 10)
	f.Add("", "\f\x00 weird \f text", 0, 0, 1)
	f.Fuzz(func(t *testing.T, h, body string, page, level, target int) {
		page = 1 + abs(page)%5
		d := doc(head(1, 1+abs(level)%4, h), para(page, body), para(page, body+" tail."), head(page, 2, h+h), para(page, body))
		pages, chunks := Split(d, Options{Target: 1 + abs(target)%400})
		checkInvariants(t, d, pages, chunks)
	})
}

func abs(x int) int {
	if x < 0 {
		if x == -x {
			return 0
		}
		return -x
	}
	return x
}

// TestTableRowsStayWhole: a table row is one piece (never cut at a period
// inside a cell; only a row longer than Max is cut) and every block's span and box reach the page layout.
func TestTableRowsStayWhole(t *testing.T) {
	box := parsed.Box{10, 20, 300, 32}
	doc := &parsed.Document{Pages: []parsed.PageInfo{{Number: 1, Label: "7", Furniture: []string{"Page 7 of 9"}}}, Blocks: []parsed.Block{
		{Page: 1, Kind: parsed.BlockHeading, Level: 1, Text: "Rates"},
		{Page: 1, Kind: parsed.BlockTableRow, Header: true, Text: "Item | Rate. Notes | Amount", Box: &box},
		{Page: 1, Kind: parsed.BlockTableRow, Text: "Wages | 30%. Withheld at source. | $1,200.00"},
	}}
	pages, chunks := Split(doc, Options{Target: 4, Max: 20})
	if len(pages) != 1 {
		t.Fatalf("%d pages", len(pages))
	}
	pg := pages[0]
	if pg.Label != "7" || len(pg.Furniture) != 1 || len(pg.Blocks) != 3 {
		t.Fatalf("page layout lost: %+v", pg.PageLayout)
	}
	for i, b := range pg.Blocks {
		if got, want := pg.Text[b.Start:b.End], doc.Blocks[i].Text; got != want {
			t.Errorf("block %d spans %q, want %q", i, got, want)
		}
	}
	if pg.Blocks[1].Box == nil || *pg.Blocks[1].Box != [4]float64(box) || !pg.Blocks[1].Header {
		t.Errorf("table header block: %+v", pg.Blocks[1])
	}
	for _, c := range chunks {
		for _, row := range doc.Blocks[1:] {
			if strings.Contains(row.Text, c.Text) && c.Text != row.Text && !strings.Contains(c.Text, row.Text) {
				t.Errorf("chunk %q cuts table row %q", c.Text, row.Text)
			}
		}
	}
}

// A table cut into several passages, and carried over a page, gives each
// passage that starts below the header row that row as its TableHeader;
// a passage holding the header row, and text after the table, get none.
func TestTableHeaderCarriedToLaterPassages(t *testing.T) {
	row := func(page int, text string, header bool) parsed.Block {
		return parsed.Block{Page: page, Kind: parsed.BlockTableRow, Header: header, Text: text}
	}
	blocks := []parsed.Block{{Page: 1, Kind: parsed.BlockHeading, Level: 1, Text: "Tax rates"}, row(1, "Year | Rate | Ceiling", true)}
	for y := 2000; y < 2012; y++ {
		blocks = append(blocks, row(1+(y-2000)/6, fmt.Sprintf("%d | %d%% | %d dollars of taxable income", y, 20+y%7, 1000*y), false))
	}
	blocks = append(blocks, parsed.Block{Page: 2, Kind: parsed.BlockParagraph, Text: "After the table comes a sentence of plain running text that ends here."})
	_, chunks := Split(&parsed.Document{Blocks: blocks}, Options{Target: 20, Max: 30, Overlap: -1})
	if len(chunks) < 3 {
		t.Fatalf("want the table cut into several chunks, got %d", len(chunks))
	}
	continued := 0
	for _, c := range chunks {
		startsInTable := strings.HasPrefix(c.Text, "20") && !strings.Contains(c.Text, "Year | Rate")
		if startsInTable {
			continued++
		}
		switch {
		case startsInTable && c.TableHeader != "Year | Rate | Ceiling":
			t.Errorf("chunk %q: TableHeader %q", c.Text, c.TableHeader)
		case !startsInTable && c.TableHeader != "":
			t.Errorf("chunk %q has TableHeader %q", c.Text, c.TableHeader)
		}
	}
	if continued < 2 {
		t.Errorf("%d chunks start inside the table, want 2 or more (one on page 2)", continued)
	}
}

// A chunk that opens with a run of headings (a title and its subtitle)
// belongs under the last of them, not under the title alone.
func TestLeadingHeadingsGiveThePath(t *testing.T) {
	doc := &parsed.Document{Blocks: []parsed.Block{
		{Page: 1, Kind: parsed.BlockHeading, Level: 1, Text: "Instructions"},
		{Page: 1, Kind: parsed.BlockHeading, Level: 3, Text: "Income Tax Return"},
		{Page: 1, Kind: parsed.BlockParagraph, Text: "Section references are to the Code."},
		{Page: 1, Kind: parsed.BlockHeading, Level: 2, Text: "General"},
		{Page: 1, Kind: parsed.BlockParagraph, Text: "General text."},
		{Page: 1, Kind: parsed.BlockHeading, Level: 3, Text: "New for 2007"},
		{Page: 1, Kind: parsed.BlockParagraph, Text: "New text."},
	}}
	_, chunks := Split(doc, Options{Target: 300})
	want := [][]string{{"Instructions", "Income Tax Return"}, {"Instructions", "General"}, {"Instructions", "General", "New for 2007"}}
	if len(chunks) != len(want) {
		t.Fatalf("%d chunks: %+v", len(chunks), chunks)
	}
	for i, c := range chunks {
		if strings.Join(c.HeadingPath, " > ") != strings.Join(want[i], " > ") {
			t.Errorf("chunk %d %q: path %v, want %v", i, c.Text, c.HeadingPath, want[i])
		}
	}
}

func TestCaption(t *testing.T) {
	for _, tc := range []struct{ par, want string }{
		{"Northwind Holdings, Inc.\nConsolidated Statements of Cash Flows\n(In millions)", "Northwind Holdings, Inc. — Consolidated Statements of Cash Flows — (In millions)"},
		{"Table 3: Results by region", "Table 3: Results by region"},
		{"The table below shows the results by region for the year.", ""},
		{"Figures in millions. See note 4", "Figures in millions. See note 4"}, // a full stop inside a line is not a final one
		{"one\ntwo\nthree\nfour\nfive", ""},
		{"$ 692 $", ""},
		{"2024 | 1,200 | 1,150 | 980", ""},
		{"Revenue", ""},
		{"Revenue grew in every region this year, led by the northern stores and the new online shop", ""},
		{"", ""},
	} {
		got := Caption(tc.par)
		if got != tc.want {
			t.Errorf("Caption(%q) = %q, want %q", tc.par, got, tc.want)
		}
	}
}

// A table's caption (the short lines just above it) ends the heading path
// of the table's passages, on the page that opens it and on the next page
// it continues onto, and not of the text after the table.
func TestTableCaptionEndsTheTablesPath(t *testing.T) {
	row := func(page int, text string, header bool) parsed.Block {
		return parsed.Block{Page: page, Kind: parsed.BlockTableRow, Header: header, Text: text}
	}
	blocks := []parsed.Block{
		{Page: 1, Kind: parsed.BlockHeading, Level: 1, Text: "Report of the auditors"},
		{Page: 1, Kind: parsed.BlockParagraph, Text: "We have audited the statements that follow, and we report on them here in full."},
		{Page: 2, Kind: parsed.BlockParagraph, Text: "Northwind Holdings\nConsolidated Statements of Cash Flows"},
		row(2, "(Millions) | 2024 | 2023", true),
	}
	for i := 0; i < 12; i++ {
		blocks = append(blocks, row(2+i/6, fmt.Sprintf("Line item number %d of the statement | %d | %d", i, 100+i, 90+i), false))
	}
	blocks = append(blocks, parsed.Block{Page: 3, Kind: parsed.BlockParagraph, Text: "The notes that follow are part of these statements and are read with them."})
	_, chunks := Split(&parsed.Document{Blocks: blocks}, Options{Target: 25, Max: 40, Overlap: -1})
	const caption = "Northwind Holdings — Consolidated Statements of Cash Flows"
	sawPage3 := false
	for _, c := range chunks {
		inTable := strings.Contains(c.Text, "Line item")
		got := c.HeadingPath[len(c.HeadingPath)-1]
		switch {
		case inTable && got != caption:
			t.Errorf("table chunk %q: path %q, want it to end with the caption", c.Text, c.HeadingPath)
		case !inTable && got == caption:
			t.Errorf("chunk %q outside the table has the caption in its path", c.Text)
		}
		if inTable && c.PageStart == 3 {
			sawPage3 = true
		}
		if c.HeadingPath[0] != "Report of the auditors" {
			t.Errorf("chunk %q: path %q lost its heading", c.Text, c.HeadingPath)
		}
	}
	if !sawPage3 {
		t.Error("no table chunk on page 3: the test does not test a table carried over")
	}
}

// A statement whose years stand as lines of their own above its first row
// carries them as its header row, and the first row under them (which the
// reader may mark as a header) stays a row of figures.
func TestYearLinesAreTheTablesHeader(t *testing.T) {
	blocks := []parsed.Block{
		{Page: 1, Kind: parsed.BlockHeading, Level: 1, Text: "Statement of cash flows"},
		{Page: 1, Kind: parsed.BlockParagraph, Text: "2025\n2024"},
		{Page: 1, Kind: parsed.BlockParagraph, Text: "2023"}, // the years may be paragraphs of their own
		{Page: 1, Kind: parsed.BlockTableRow, Header: true, Text: "Net income | 5,120 | 4,870 | 4,400"},
	}
	for i := range 14 {
		blocks = append(blocks, parsed.Block{Page: 1, Kind: parsed.BlockTableRow, Text: fmt.Sprintf("Line item number %d | %d | %d | %d", i, 100+i, 90+i, 80+i)})
	}
	_, chunks := Split(&parsed.Document{Blocks: blocks}, Options{Target: 25, Max: 40, Overlap: -1})
	continued := 0
	for _, c := range chunks {
		if strings.HasPrefix(c.Text, "Line item") {
			continued++
			if c.TableHeader != " | 2025 | 2024 | 2023" {
				t.Errorf("chunk %q: TableHeader %q, want the years", c.Text, c.TableHeader)
			}
		}
	}
	if continued == 0 {
		t.Fatal("no chunk starts inside the table: the test does not test the carried header")
	}
}

// A second table set right under the first ("Assets | Spending" heads
// under a sales table) starts heads of its own, and a passage that
// continues it carries all of its header rows, not the first table's.
func TestStackedTableHeadsCarried(t *testing.T) {
	row := func(text string, header bool) parsed.Block {
		return parsed.Block{Page: 1, Kind: parsed.BlockTableRow, Header: header, Text: text}
	}
	blocks := []parsed.Block{{Page: 1, Kind: parsed.BlockHeading, Level: 1, Text: "Segments"},
		row("Sales | Profit", true), row("(Millions) | 2025 | 2024 | 2025 | 2024", false)}
	for i := 0; i < 6; i++ {
		blocks = append(blocks, row(fmt.Sprintf("Division %c | %d | %d | %d | %d", 'A'+i, 100+i, 90+i, 10+i, 9+i), false))
	}
	blocks = append(blocks, row("Assets | Spending", false), row("(Millions) | 2025 | 2024 | 2025 | 2024", false))
	for i := 0; i < 12; i++ {
		blocks = append(blocks, row(fmt.Sprintf("Division %c | %d | %d | %d | %d", 'A'+i%6, 500+i, 480+i, 30+i, 20+i), false))
	}
	_, chunks := Split(&parsed.Document{Blocks: blocks}, Options{Target: 40, Max: 60, Overlap: -1})
	want := "Assets | Spending\n(Millions) | 2025 | 2024 | 2025 | 2024"
	last := chunks[len(chunks)-1]
	if strings.Contains(last.Text, "Spending") {
		t.Fatalf("want the second table cut into passages; last chunk %q", last.Text)
	}
	if last.TableHeader != want {
		t.Errorf("TableHeader %q\nwant %q", last.TableHeader, want)
	}
}
