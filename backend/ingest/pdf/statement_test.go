package pdf

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"cairn/backend/ingest/parsed"
)

// placedStream is a content stream showing each text at its own position
// (x, y in points) in Helvetica of the given size.
func placedStream(size float64, items ...placedText) string {
	var s bytes.Buffer
	for _, it := range items {
		fmt.Fprintf(&s, "BT /F1 %g Tf 1 0 0 1 %g %g Tm (%s) Tj ET\n", size, it.x, it.y, it.text)
	}
	return fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", s.Len(), s.String())
}

type placedText struct {
	x, y float64
	text string
}

// tableRowsOf reads a one-page PDF showing items in 8 pt Helvetica and
// returns its table rows and the header row.
func tableRowsOf(t *testing.T, items []placedText) (rows []string, header string) {
	t.Helper()
	return tableRowsOfStream(t, placedStream(8, items...))
}

// ruledRowsOf reads a one-page PDF showing items in 8 pt Helvetica with a
// horizontal rule at each of ys, from x to x+width, and returns its table
// rows and the header row.
func ruledRowsOf(t *testing.T, items []placedText, x, width float64, ys ...float64) (rows []string, header string) {
	t.Helper()
	text := placedStream(8, items...)
	body := text[strings.Index(text, "stream\n")+len("stream\n") : strings.LastIndex(text, "endstream")]
	for _, y := range ys {
		body += fmt.Sprintf("%g %g %g 0.5 re f\n", x, y, width)
	}
	return tableRowsOfStream(t, fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(body), body))
}

// tableRowsOfStream reads a one-page PDF with the content stream given
// (Helvetica as /F1) and returns its table rows and the header row.
func tableRowsOfStream(t *testing.T, stream string) (rows []string, header string) {
	t.Helper()
	for _, b := range blocksOfStream(t, stream) {
		if b.Kind == parsed.BlockTableRow {
			rows = append(rows, b.Text)
			if b.Header {
				header = b.Text
			}
		}
	}
	return rows, header
}

// blocksOfStream reads a one-page PDF with the content stream given
// (Helvetica as /F1) and returns its blocks.
func blocksOfStream(t *testing.T, stream string) []parsed.Block {
	t.Helper()
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
		stream,
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	doc, err := Read(pdfWithObjects(objs), parsed.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return doc.Blocks
}

// figureAt places a figure right-aligned at right (Helvetica digits are 0.556
// em at 8 pt).
func figureAt(right, y float64, text string) placedText {
	return placedText{right - 4.45*float64(len(text)), y, text}
}

// A financial statement set without rules: long row labels at the left,
// figures right-aligned in year columns with the currency sign set apart,
// a header row of years, section labels and a wrapped label alone on their
// lines, and a label set a little above its figures. Every row reads as
// one table row with its label, a wrapped label as one; the header row
// heads the table. (A
// made-up statement; the layout is that of a typical annual report.)
func TestStatementTable(t *testing.T) {
	items := []placedText{
		{57, 720, "Consolidated Statement of Widget Flows"},
		{57, 700, "(Thousands)"}, figureAt(400, 700, "2025"), figureAt(470, 700, "2024"),
		{57, 690, "Flows from Making Things"},
		{57, 680, "Net earnings of the fictional concern"}, {340, 680, "$"}, figureAt(400, 680, "5,363"), {410, 680, "$"}, figureAt(470, 680, "4,869"),
		{57, 670, "Adjustments to bring net earnings of the fictional concern to the flows"},
		{62, 661, "from making things"},
		{66, 652, "Purchases of widgets, gadgets and other equipment (W&G)"}, figureAt(400, 652, "(1,577)"), figureAt(470, 652, "(1,373)"),
		{66, 646.6, "Proceeds from the sale of old widgets, net of fees paid"}, figureAt(400, 643, "846"), figureAt(470, 643, "1,065"),
		{66, 634, "Other - net"}, figureAt(400, 634, "9"), figureAt(470, 634, "(6)"),
		{57, 625, "Net flows from making things"}, figureAt(400, 625, "6,439"), figureAt(470, 625, "6,240"),
		{57, 590, "The accompanying notes are an integral part of this statement and should be read with it in full."},
	}
	rows, header := tableRowsOf(t, items)
	want := []string{
		"(Thousands) | 2025 | 2024",
		"Flows from Making Things",
		"Net earnings of the fictional concern | $ 5,363 | $ 4,869",
		"Adjustments to bring net earnings of the fictional concern to the flows from making things",
		"Purchases of widgets, gadgets and other equipment (W&G) | (1,577) | (1,373)",
		"Proceeds from the sale of old widgets, net of fees paid | 846 | 1,065",
		"Other - net | 9 | (6)",
		"Net flows from making things | 6,439 | 6,240",
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("table rows:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	if header != want[0] {
		t.Errorf("header row %q, want %q", header, want[0])
	}
}

// A loss set as "$ (63.0)" (the currency sign apart from the
// parenthesis) is a figure: the long label on its line stays the row's
// label, not a paragraph of its own.
func TestStatementNegativeFigureAfterSign(t *testing.T) {
	items := []placedText{
		{57, 700, "In Millions"}, figureAt(400, 700, "2025"), figureAt(470, 700, "2024"),
		{57, 690, "Net gain (loss) on the valuation of certain open positions"}, {340, 690, "$"}, figureAt(400, 690, "303.3"), {410, 690, "$"}, figureAt(470, 690, "(63.0)"),
		{57, 680, "Net loss on positions moved to other items"}, figureAt(400, 680, "(188.0)"), figureAt(470, 680, "35.6"),
		{57, 670, "Net revaluation of certain stocks"}, figureAt(400, 670, "17.8"), figureAt(470, 670, "2.7"),
	}
	rows, _ := tableRowsOf(t, items)
	want := "Net gain (loss) on the valuation of certain open positions | $ 303.3 | $ (63.0)"
	if len(rows) < 2 || rows[1] != want {
		t.Errorf("table rows:\n%s\nwant the second:\n%s", strings.Join(rows, "\n"), want)
	}
}

// A row label wrapped onto the line of its figures is one row with them:
// a first line with a parenthesis left open, one ending in a hyphen (the
// word mended), one whose next line starts in lower case. A section label
// over its first row, and a label ending with a colon, stay rows of their
// own.
func TestStatementTableWrappedLabels(t *testing.T) {
	items := []placedText{
		figureAt(400, 700, "2025"), figureAt(470, 700, "2024"),
		{57, 690, "Equity:"},
		{66, 681, `Widget stock \(0.10 par value; 6,250 shares authorized in each`}, // \( : a PDF string's lone parenthesis
		{66, 672, `period; 4,291 shares issued in each period\)`}, figureAt(400, 672, "429"), figureAt(470, 672, "428"),
		{66, 663, "Additional paid in capital"}, figureAt(400, 663, "13,420"), figureAt(470, 663, "13,861"),
		{57, 650, "Current liabilities"},
		{66, 641, "Purchases of widgets, gadgets and other equip-"},
		{66, 632, "ment under leases"}, figureAt(400, 632, "1,577"), figureAt(470, 632, "1,373"),
		{66, 623, "Debt maturing within one year and other"},
		{66, 614, "short-term obligations"}, figureAt(400, 614, "9,963"), figureAt(470, 614, "7,443"),
		{66, 605, "Total current liabilities"}, figureAt(400, 605, "50,171"), figureAt(470, 605, "47,160"),
	}
	rows, _ := tableRowsOf(t, items)
	want := []string{
		"| 2025 | 2024",
		"Equity:",
		"Widget stock (0.10 par value; 6,250 shares authorized in each period; 4,291 shares issued in each period) | 429 | 428",
		"Additional paid in capital | 13,420 | 13,861",
		"Current liabilities",
		"Purchases of widgets, gadgets and other equipment under leases | 1,577 | 1,373",
		"Debt maturing within one year and other short-term obligations | 9,963 | 7,443",
		"Total current liabilities | 50,171 | 47,160",
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("table rows:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}

// Column heads over the figures only (no label cell), with section labels
// between them and the first full row, head the table too; the rows keep
// their order although the labels stand left of the heads.
func TestStatementTableHeadsOverFigures(t *testing.T) {
	items := []placedText{
		{57, 700, "Balance of Widgets"},
		{360, 680, "June 1, 2025"}, {430, 680, "June 2, 2024"},
		{57, 670, "Assets"},
		{57, 661, "Current assets"},
		{66, 652, "Cash and cash equivalents"}, {350, 652, "$"}, figureAt(400, 652, "1,980"), {420, 652, "$"}, figureAt(470, 652, "1,101"),
		{66, 643, "Widget inventories"}, figureAt(400, 643, "5,409"), figureAt(470, 643, "5,209"),
		{66, 634, "Total current assets"}, figureAt(400, 634, "7,389"), figureAt(470, 634, "6,310"),
	}
	rows, _ := tableRowsOf(t, items)
	want := []string{
		"| June 1, 2025 | June 2, 2024",
		"Assets",
		"Current assets",
		"Cash and cash equivalents | $ 1,980 | $ 1,101",
		"Widget inventories | 5,409 | 5,209",
		"Total current assets | 7,389 | 6,310",
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("table rows:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}

// The same statement with rules under its figure columns only (under the
// heads, above and under a total), as statements rule their subtotals:
// the rules do not make the figures a table of their own apart from the
// labels; every row still reads with its label.
func TestStatementTableRuledUnderFiguresOnly(t *testing.T) {
	items := []placedText{
		{57, 700, "Balance of Widgets"},
		{360, 680, "June 1, 2025"}, {430, 680, "June 2, 2024"},
		{57, 670, "Assets"},
		{57, 661, "Current assets"},
		{66, 652, "Cash and cash equivalents"}, {350, 652, "$"}, figureAt(400, 652, "1,980"), {420, 652, "$"}, figureAt(470, 652, "1,101"),
		{66, 643, "Widget inventories"}, figureAt(400, 643, "5,409"), figureAt(470, 643, "5,209"),
		{66, 634, "Total current assets"}, figureAt(400, 634, "7,389"), figureAt(470, 634, "6,310"),
		{66, 625, "Gizmo tooling"}, figureAt(400, 625, "3,580"), figureAt(470, 625, "3,787"),
		{66, 616, "Total assets"}, figureAt(400, 616, "10,969"), figureAt(470, 616, "10,097"),
	}
	rows, _ := ruledRowsOf(t, items, 340, 135, 676, 640.5, 631.5, 622.5, 613.5, 611.5)
	want := []string{
		"| June 1, 2025 | June 2, 2024",
		"Assets",
		"Current assets",
		"Cash and cash equivalents | $ 1,980 | $ 1,101",
		"Widget inventories | 5,409 | 5,209",
		"Total current assets | 7,389 | 6,310",
		"Gizmo tooling | 3,580 | 3,787",
		"Total assets | 10,969 | 10,097",
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("table rows:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}

// A statement ruled into bands, every row between two full-width rules,
// with its column heads (a date over a year) standing above the top rule
// over the figure columns only and a section label in the first band: the
// heads are the table's header row, each read as one ("May 1, 2025"),
// and come first.
func TestRuledStatementHeadsAboveTopRule(t *testing.T) {
	items := []placedText{
		{57, 720, "Balance of Widgets"},
		figureAt(400, 700, "May 1,"), figureAt(470, 700, "May 2,"),
		figureAt(403.8, 692, "2025"), figureAt(468, 692, "2024"),
		{150, 680, "ASSETS"},
		{57, 671, "Cash and cash equivalents"}, figureAt(400, 671, "1,980"), figureAt(470, 671, "1,101"),
		{57, 662, "Widget inventories"}, figureAt(400, 662, "5,409"), figureAt(470, 662, "5,209"),
		{57, 653, "Total assets"}, figureAt(400, 653, "7,389"), figureAt(470, 653, "6,310"),
	}
	rows, header := ruledRowsOf(t, items, 50, 430, 688, 677, 668, 659, 650)
	want := []string{
		"| May 1, 2025 | May 2, 2024",
		"ASSETS |  | ",
		"Cash and cash equivalents | 1,980 | 1,101",
		"Widget inventories | 5,409 | 5,209",
		"Total assets | 7,389 | 6,310",
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") || header != want[0] {
		t.Errorf("table rows:\n%s\nheader %q; want:\n%s", strings.Join(rows, "\n"), header, strings.Join(want, "\n"))
	}
}

// A banded statement whose year heads stand above the top rule under a
// unit line in the labels' column ("(in millions)"), each year set a
// little past the right edge of the figures below it, a "$" column
// between: the unit line ends the heads above without undoing them, and
// the overhang keeps each year in its column.
func TestRuledStatementHeadsUnderUnitLine(t *testing.T) {
	items := []placedText{
		{57, 720, "Statement of Widget Flows"},
		{57, 702, "(in millions)"},
		figureAt(403.8, 692, "2025"), figureAt(471.8, 692, "2024"),
		{57, 680, "Operating Activities"},
		{57, 671, "Net income"}, figureAt(400, 671, "7,679"), {409, 671, "$"}, figureAt(470, 671, "7,175"),
		{57, 662, "Widget spending"}, figureAt(400, 662, "(4,625)"), {409, 662, "$"}, figureAt(470, 662, "(4,240)"),
		{57, 653, "Net cash used"}, figureAt(400, 653, "(3,269)"), {409, 653, "$"}, figureAt(470, 653, "(11,619)"),
	}
	rows, header := ruledRowsOf(t, items, 50, 430, 688, 677, 668, 659, 650)
	if len(rows) == 0 || header != rows[0] || !strings.Contains(header, "| 2025 |") || !strings.HasSuffix(header, "| 2024") {
		t.Fatalf("header %q; rows:\n%s", header, strings.Join(rows, "\n"))
	}
	if got := strings.Join(rows, "\n"); strings.Contains(got, "(in millions)") || !strings.Contains(got, "Widget spending | (4,625) | $ | (4,240)") {
		t.Errorf("rows:\n%s", got)
	}
}

// A statement of equity without rules: five value columns under their
// heads, and rows that fill only some of them. Each figure stays in its
// column, the columns a row leaves empty are empty cells ("Net income"
// has figures in the last two columns only), and a head row over the
// value columns leaves the label column empty.
func TestSparseRowsKeepTheirColumns(t *testing.T) {
	items := []placedText{
		{57, 700, "Statement of Widget Equity"},
		figureAt(250, 680, "SHARES"), figureAt(310, 680, "AMOUNT"), figureAt(370, 680, "CAPITAL"), figureAt(430, 680, "EARNINGS"), figureAt(490, 680, "TOTAL"),
		{57, 670, "Balance at May 31, 2024"}, figureAt(250, 670, "329"), figureAt(310, 670, "3"), figureAt(370, 670, "6,384"), figureAt(430, 670, "3,517"), figureAt(490, 670, "9,812"),
		{57, 661, "Options exercised"}, figureAt(250, 661, "18"), figureAt(370, 661, "539"), figureAt(490, 661, "539"),
		{57, 652, "Net income"}, figureAt(430, 652, "4,029"), figureAt(490, 652, "4,029"),
		{57, 643, "Dividends"}, figureAt(430, 643, "(1,360)"), figureAt(490, 643, "(1,360)"),
		{57, 634, "Balance at May 31, 2025"}, figureAt(250, 634, "315"), figureAt(310, 634, "3"), figureAt(370, 634, "6,923"), figureAt(430, 634, "6,186"), figureAt(490, 634, "13,020"),
	}
	rows, header := tableRowsOf(t, items)
	want := []string{
		"| SHARES | AMOUNT | CAPITAL | EARNINGS | TOTAL",
		"Balance at May 31, 2024 | 329 | 3 | 6,384 | 3,517 | 9,812",
		"Options exercised | 18 |  | 539 |  | 539",
		"Net income |  |  |  | 4,029 | 4,029",
		"Dividends |  |  |  | (1,360) | (1,360)",
		"Balance at May 31, 2025 | 315 | 3 | 6,923 | 6,186 | 13,020",
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") || header != want[0] {
		t.Errorf("table rows:\n%s\nheader %q; want:\n%s", strings.Join(rows, "\n"), header, strings.Join(want, "\n"))
	}
}

// A banded statement whose section label is centred in its own band
// ("ASSETS") over a band whose label starts at the left edge ("CURRENT
// ASSETS"): the rows are read in their order, the centred label first.
func TestRuledStatementCentredSectionBand(t *testing.T) {
	items := []placedText{
		{57, 720, "Balance of Widgets"},
		figureAt(400, 692, "2025"), figureAt(470, 692, "2024"),
		{150, 680, "ASSETS"},
		{57, 671, "CURRENT ASSETS"},
		{66, 662, "Cash and cash equivalents"}, figureAt(400, 662, "1,980"), figureAt(470, 662, "1,101"),
		{66, 653, "Widget inventories"}, figureAt(400, 653, "5,409"), figureAt(470, 653, "5,209"),
	}
	rows, _ := ruledRowsOf(t, items, 50, 430, 688, 677, 668, 659, 650)
	got := strings.Join(rows, "\n")
	if lines := strings.Split(got, "\n"); len(lines) < 3 || !strings.HasPrefix(lines[1], "ASSETS") || !strings.HasPrefix(lines[2], "CURRENT ASSETS") {
		t.Errorf("rows out of order:\n%s", got)
	}
}

// A footnote mark set small and raised after a figure ("4,210 ⁽ᵃ⁾"), a
// little further from it than a word gap of its own small size, stays
// with the figure: the row keeps every cell in its column (before, the
// marks made a line of their own over the row and the row lost the cells
// beside them).
func TestStatementRowFootnoteMarks(t *testing.T) {
	var s bytes.Buffer
	show := func(size, x, y float64, text string) {
		fmt.Fprintf(&s, "BT /F1 %g Tf 1 0 0 1 %g %g Tm (%s) Tj ET\n", size, x, y, text)
	}
	row := func(y float64, label string, cells ...string) {
		show(8, 52, y, label)
		for i, c := range cells {
			right := 190 + 45*float64(i)
			if c == "" {
				continue
			}
			show(8, right-4.45*float64(len(c)), y, c)
			if i%3 == 1 && label == "Net income" {
				show(5.2, right+12.8, y+3, "(a)") // 1.6 em of the figure away
			}
		}
	}
	row(700, "(in millions)", "2025", "2024", "Change", "2025", "2024", "Change")
	row(688, "Total revenue", "10,420", "10,615", "(2)", "9,830", "11,060", "(11)")
	row(676, "Total expense", "6,310", "5,920", "7", "5,540", "5,410", "2")
	row(664, "Net income", "2,580", "4,210", "(39)", "3,140", "4,360", "(28)")
	row(652, "Return on equity", "21 %", "38 %", "", "12 %", "19 %", "")
	rows, _ := tableRowsOfStream(t, fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", s.Len(), s.String()))
	want := "Net income | 2,580 | 4,210 (a) | (39) | 3,140 | 4,360 (a) | (28)"
	found := false
	for _, r := range rows {
		found = found || r == want
	}
	if !found {
		t.Errorf("rows %q\nwant one %q", rows, want)
	}
}
