package tables

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A made-up cash-flow statement as a passage holds it: a header row of
// years with the unit in its label cell, section rows, rows of figures.
const flows = `Consolidated Statement of Widget Flows
(Thousands) | 2025 | 2024 | 2023
Flows from Making Things
Net earnings | $ 5,363 | $ 4,869 | $ 5,058
Depreciation and amortization | 1,488 | 1,544 | 1,474
Flows from Investing
Purchases of widgets, gadgets and other equipment (W&G) | (1,577) | (1,373) | (1,420)
Proceeds from sale of old widgets | 262 | 49 | —
Net flows from investing | (1,315) | (1,324) | (1,420)
The accompanying notes are an integral part of this statement.`

// Segment figures under column groups: a group row over a row of years.
const segments = `Assets | Depreciation & Amortization | Gadget Spending
(Millions) | 2025 | 2024 | 2025 | 2024 | 2025 | 2024
North | $ 9,855 | $ 9,895 | $ 376 | $ 432 | $ 454 | $ 381
South | 9,657 | 9,874 | 300 | 275 | 210 | 184
Total Company | $ 19,512 | $ 19,769 | $ 676 | $ 707 | $ 664 | $ 565`

func TestParseStatement(t *testing.T) {
	ts := Parse(flows, "", "")
	if len(ts) != 1 {
		t.Fatalf("%d tables, want 1", len(ts))
	}
	tb := ts[0]
	if want := []string{"2025", "2024", "2023"}; !reflect.DeepEqual(tb.Columns, want) {
		t.Errorf("columns %q, want %q", tb.Columns, want)
	}
	if tb.Stub != "(Thousands)" {
		t.Errorf("stub %q", tb.Stub)
	}
	if len(tb.Rows) != 5 {
		t.Fatalf("%d rows, want 5: %+v", len(tb.Rows), tb.Rows)
	}
	r := tb.Rows[2]
	if r.Label != "Purchases of widgets, gadgets and other equipment (W&G)" || r.Section != "Flows from Investing" || r.Cells[0] != "(1,577)" {
		t.Errorf("row %+v", r)
	}
	if got := flows[r.Start:r.End]; !strings.HasPrefix(got, "Purchases of widgets") || !strings.HasSuffix(got, "(1,420)") {
		t.Errorf("row span %q", got)
	}
}

func TestParseColumnGroups(t *testing.T) {
	ts := Parse(segments, "", "")
	if len(ts) != 1 {
		t.Fatalf("%d tables", len(ts))
	}
	want := []string{"Assets 2025", "Assets 2024", "Depreciation & Amortization 2025", "Depreciation & Amortization 2024", "Gadget Spending 2025", "Gadget Spending 2024"}
	if !reflect.DeepEqual(ts[0].Columns, want) {
		t.Errorf("columns %q\nwant %q", ts[0].Columns, want)
	}
}

// A passage that continues a table gets its header row from the chunk.
func TestParseContinuedTable(t *testing.T) {
	ts := Parse("Widget inventories | 5,409 | 5,209\nTotal current assets | 8,870 | 9,829", "June 1, 2025 | June 2, 2024", "")
	if len(ts) != 1 || !reflect.DeepEqual(ts[0].Columns, []string{"June 1, 2025", "June 2, 2024"}) {
		t.Fatalf("%+v", ts)
	}
}

func TestNumber(t *testing.T) {
	for in, want := range map[string]float64{
		"(1,577)": -1577, "$ 5,363": 5363, "1,488": 1488, "-12.5": -12.5, "12.5%": 12.5, "$(3)": -3, "€ 1.234": 1.234, "0.54": 0.54,
		// a footnote mark after the figure
		"4,210 (a)": 4210, "(1,870) (a)": -1870, "1,306*": 1306, "23 % (b)": 23,
	} {
		got, ok := Number(in)
		if !ok || got != want {
			t.Errorf("Number(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
	for _, in := range []string{"—", "", "n/a", "Total", "12 widgets", "June 1, 2025", "(a)", "*", "Note (a)"} {
		if _, ok := Number(in); ok {
			t.Errorf("Number(%q) read a number", in)
		}
	}
}

// simpleWords cuts lower-cased words and strips a plural s: enough of an
// analyzer for the tests.
func simpleWords(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
		switch f {
		case "the", "of", "and", "what", "is", "was", "for", "in", "fy", "from":
			continue
		}
		out = append(out, strings.TrimSuffix(f, "s"))
	}
	return out
}

func query(q string, years ...int) Query {
	terms := map[string]bool{}
	for _, w := range simpleWords(q) {
		terms[w] = true
	}
	return Query{Terms: terms, Weight: func(string) float64 { return 1 }, Years: years}
}

func TestLookup(t *testing.T) {
	ts := append(Parse(flows, "", ""), Parse(segments, "", "")...)
	cases := []struct {
		q     string
		years []int
		want  string // label, column, value of the best cell ("" for none)
	}{
		{"What were the purchases of widgets, gadgets and other equipment in FY2024?", []int{2024}, "Purchases of widgets, gadgets and other equipment (W&G) / 2024 / (1,373)"},
		{"Depreciation and amortization in 2023", []int{2023}, "Depreciation and amortization / 2023 / 1,474"},
		// No year named: the first (latest) column.
		{"What are the net earnings?", nil, "Net earnings / 2025 / $ 5,363"},
		// The column group names the figure; the total row closes the table.
		{"How much was the gadget spending in 2025?", []int{2025}, "Total Company / Gadget Spending 2025 / $ 664"},
		// A row of the question in a year no column holds: nothing.
		{"Net earnings in 2019", []int{2019}, ""},
		// Words the tables do not hold: nothing.
		{"Who chairs the board?", nil, ""},
	}
	for _, c := range cases {
		cells := Lookup(query(c.q, c.years...), ts, simpleWords)
		got := ""
		if len(cells) > 0 {
			got = cells[0].Label + " / " + cells[0].Column + " / " + cells[0].Value
		}
		if got != c.want {
			t.Errorf("%q: got %q, want %q", c.q, got, c.want)
		}
	}
}

// Each year the question names gets its cell of the best row.
func TestLookupSeveralYears(t *testing.T) {
	cells := Lookup(query("net earnings 2024 and 2025", 2024, 2025), Parse(flows, "", ""), simpleWords)
	var got []string
	for _, c := range cells {
		if c.Label == "Net earnings" {
			got = append(got, c.Column+"="+c.Value)
		}
	}
	if want := []string{"2024=$ 4,869", "2025=$ 5,363"}; !reflect.DeepEqual(got, want) {
		t.Errorf("cells %q, want %q", got, want)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(flows, "")
	f.Add(segments, "a | b")
	f.Add("x | (1,2 | —\n | | \n|", "| |")
	f.Fuzz(func(t *testing.T, text, header string) {
		for _, tb := range Parse(text, header, "") {
			for _, r := range tb.Rows {
				if r.Start < 0 || r.End > len(text) || r.Start > r.End {
					t.Fatalf("row span %d..%d outside %d bytes", r.Start, r.End, len(text))
				}
			}
			Lookup(query(text, 2024), []Table{tb}, simpleWords)
			Bridge(query(text, 2024), []Table{tb, tb}, simpleWords)
			for _, most := range []bool{true, false} {
				if r, ok := Rank([]Table{tb}, 0, []int{2024}, most, nil); ok && (r.Row < 0 || r.Row >= len(tb.Rows)) {
					t.Fatalf("ranked row %d of %d", r.Row, len(tb.Rows))
				}
			}
		}
		for _, label := range strings.Split(text, "\n") {
			Unclip(header, label)
		}
	})
}

// Words that name the table ("the statement of widget flows") choose the
// table; they do not make a row whose label holds them the answer.
func TestLookupTitleWordsNameTheTable(t *testing.T) {
	text := "Statement of Earnings\n(Thousands) | 2025 | 2024\nRevenue | 900 | 800\nNet earnings | 90 | 80\n\nStatement of Widget Flows\n(Thousands) | 2025 | 2024\nPurchases of widgets | (15) | (13)\nNet flows | 75 | 67"
	ts := Parse(text, "", "")
	if len(ts) != 2 || ts[0].Title != "Statement of Earnings" || ts[1].Title != "Statement of Widget Flows" {
		t.Fatalf("titles: %+v", ts)
	}
	cells := Lookup(query("What were the 2025 purchases of widgets in the statement of widget flows?", 2025), ts, simpleWords)
	if len(cells) == 0 || cells[0].Label != "Purchases of widgets" {
		t.Fatalf("got %+v", cells)
	}
	// "earnings" names the first table, so no row of it is asked for.
	for _, c := range Lookup(query("What was revenue in 2025, in the statement of earnings?", 2025), ts, simpleWords) {
		if c.Label == "Net earnings" {
			t.Errorf("a word of the table's title chose the row %q", c.Label)
		}
	}
}

// A ruled statement's currency signs in columns of their own are no
// columns of figures.
func TestParseSignColumns(t *testing.T) {
	ts := Parse("(Millions) | 2025 | 2024\nCash and cash equivalents | $ | 11,258 | $ | 12,277\nWidget inventories |  | 14,215 |  | 12,242", "", "")
	if len(ts) != 1 || !reflect.DeepEqual(ts[0].Rows[0].Cells, []string{"11,258", "12,277"}) || !reflect.DeepEqual(ts[0].Columns, []string{"2025", "2024"}) {
		t.Fatalf("%+v", ts)
	}
}

func TestScale(t *testing.T) {
	for text, want := range map[string]float64{
		"(Millions)": 1e6, "(In Millions, Except Par Value)": 1e6, "in thousands, except per share data": 1e3,
		"$ in billions": 1e9, "Consolidated Balance Sheets": 0, "Millionsofwidgets": 0, "": 0,
	} {
		if got := Scale(text); got != want {
			t.Errorf("Scale(%q) = %v, want %v", text, got, want)
		}
	}
	if ScaleName(1e9) != "billion" || ScaleName(7) != "" {
		t.Error("ScaleName")
	}
}

// A statement whose years are set as lines of their own above its first
// row (and under a first label row) has them as its column heads; the
// year lines are neither its sections nor part of its title.
func TestParseYearLinesAboveFigures(t *testing.T) {
	text := "Consolidated Statement of Cash Flows\nOperating Activities |  |  |  |  |  |\n2025\n2024\n2023\n" +
		"Net income | $ | 5,120 | $ | 4,870 | $ | 4,400\nInvesting Activities\nCapital spending |  | (1,625) |  | (1,240) |  | (1,232)\n"
	tabs := Parse(text, "", "")
	if len(tabs) != 1 {
		t.Fatalf("got %d tables, want 1: %+v", len(tabs), tabs)
	}
	tb := tabs[0]
	if got := strings.Join(tb.Columns, "/"); got != "2025/2024/2023" {
		t.Errorf("columns %q, want the years", got)
	}
	if tb.Rows[0].Section != "Operating Activities" || tb.Rows[1].Section != "Investing Activities" {
		t.Errorf("sections %q, %q", tb.Rows[0].Section, tb.Rows[1].Section)
	}
	cells := Lookup(Query{Terms: map[string]bool{"capital": true, "spending": true}, Weight: func(string) float64 { return 1 }, Years: []int{2024}},
		tabs, strings.Fields)
	if len(cells) == 0 || cells[0].Value != "(1,240)" {
		t.Errorf("lookup of capital spending 2024: %+v", cells)
	}
	// Years alone under a prose line are no heads of the table after them.
	tabs = Parse("The years we report on are these.\n2025\n2024\nSomething said in full here.\nNet income | 5 | 4\n", "", "")
	if len(tabs) != 1 || len(tabs[0].Heads) != 0 {
		t.Errorf("years before prose became heads: %+v", tabs)
	}
}

// Years set as lines over a row of quarter ends without their year each
// head their group of columns, so a year's quarters are all that year's
// and a question naming the year alone can tell the table splits it.
func TestParseYearLinesOverQuarters(t *testing.T) {
	text := "Quarterly results (unaudited)\n2025\n(In thousands)\n2024\n" +
		"| Dec. 27 | Sep. 27 | Jun. 28 | Mar. 29 | Dec. 28 | Sep. 28 | Jun. 29 | Mar. 30\n" +
		"Net sales | $ 410 | $ 395 | $ 388 | $ 402 | $ 377 | $ 360 | $ 351 | $ 366\n" +
		"Gross profit | 120 | 111 | 108 | 117 | 101 | 96 | 94 | 99\n"
	tabs := Parse(text, "", "")
	if len(tabs) != 1 {
		t.Fatalf("got %d tables, want 1: %+v", len(tabs), tabs)
	}
	want := "Dec. 27 2025/Sep. 27 2025/Jun. 28 2025/Mar. 29 2025/Dec. 28 2024/Sep. 28 2024/Jun. 29 2024/Mar. 30 2024"
	if got := strings.Join(tabs[0].Columns, "/"); got != want {
		t.Errorf("columns %q\nwant    %q", got, want)
	}
	if n := tabs[0].YearColumns(2025); n != 4 {
		t.Errorf("2025 stands over %d columns, want 4", n)
	}
}

func TestYearsOnly(t *testing.T) {
	if got := YearsOnly("2025 2024\n2023"); len(got) != 3 {
		t.Errorf("YearsOnly = %q", got)
	}
	if got := YearsOnly("In 2025 and 2024"); got != nil {
		t.Errorf("YearsOnly of prose = %q", got)
	}
	// A footnote mark after a year is no column of its own.
	if got := strings.Join(YearsOnly("2023 (1)\n2024* 2025"), " "); got != "2023 2024 2025" {
		t.Errorf("YearsOnly of marked years = %q", got)
	}
	for _, l := range []string{"(1) 2023", "2023 (note 4)", "2023 (12345)"} {
		if got := YearsOnly(l); got != nil {
			t.Errorf("YearsOnly(%q) = %q, want nil", l, got)
		}
	}
}

// A year whose footnote mark stands beside it ("2017 (1)") still heads
// its column: the years after it keep theirs.
func TestParseYearLinesWithFootnoteMark(t *testing.T) {
	text := "Selected Data\n2015\n2016\nYear Ended December 31,\n2017 (1)\n2018\n2019\n(in millions)\n" +
		"Net sales | $ 107 | $ 135 | $ 177 | $ 232 | $ 280\nNet income (loss) | $ 596 | $ 2,371 | $ 3,033 | $ 10,073 | $ 11,588\n"
	tabs := Parse(text, "", "")
	if len(tabs) != 1 || strings.Join(tabs[0].Columns, "/") != "2015/2016/2017/2018/2019" {
		t.Fatalf("columns: %+v", tabs)
	}
	cells := Lookup(Query{Terms: map[string]bool{"net": true, "income": true}, Weight: func(string) float64 { return 1 }, Years: []int{2019}},
		tabs, func(s string) []string { return strings.Fields(strings.ToLower(s)) })
	if len(cells) == 0 || cells[0].Value != "$ 11,588" {
		t.Errorf("net income 2019: %+v", cells)
	}
}

// Empty cells written with one space either side of their bar ("| |")
// are cells all the same: the heads stand over their figures.
func TestSplitCellsEmptyCells(t *testing.T) {
	for _, c := range []struct {
		row  string
		want []string
	}{
		{"| | May 2, 2021 | | May 3, 2020", []string{"", "", "May 2, 2021", "", "May 3, 2020"}},
		{"|  | 2023", []string{"", "", "2023"}},
		{"| 2024 | 2023", []string{"", "2024", "2023"}},
		{"Label |  |", []string{"Label", "", ""}},
		{"Label |", []string{"Label", ""}},
		{"a |  |  | b", []string{"a", "", "", "b"}},
		{"a | | b", []string{"a", "", "b"}},
		{"a | b", []string{"a", "b"}},
		{"a", []string{"a"}},
	} {
		if got := splitCells(c.row); !slices.Equal(got, c.want) {
			t.Errorf("splitCells(%q) = %q, want %q", c.row, got, c.want)
		}
	}
	// Cells joined as the readers join them come back as they were.
	for _, cells := range [][]string{{"", "", "x"}, {"a", "", ""}, {"", "x"}, {"a", "", "", "b", ""}} {
		row := strings.TrimSpace(strings.Join(cells, " | "))
		if got := splitCells(row); !slices.Equal(got, cells) {
			t.Errorf("splitCells(%q) = %q, want %q", row, got, cells)
		}
	}
	// Heads over a sign's column head its figure.
	tabs := Parse("| July 26, 2025 |  | January 25, 2025 |  | July 27, 2024 |\nCash | $ | 2,150 | $ | 2,760 | $ | 1,905\nReceivables |  | 712 |  | 1,020 |  | 1,905\n", "", "")
	if len(tabs) != 1 || strings.Join(tabs[0].Columns, "/") != "July 26, 2025/January 25, 2025/July 27, 2024" || tabs[0].Rows[0].Cells[0] != "2,150" {
		t.Fatalf("heads over sign columns: %+v", tabs)
	}
	tabs = Parse("Cash |  | 799 |  | 95\nTotal liabilities |  | 41,190 |  | 36,851\n", "| | May 2, 2021 | | May 3, 2020", "Balance sheet")
	if len(tabs) != 1 || strings.Join(tabs[0].Columns, "/") != "May 2, 2021/May 3, 2020" {
		t.Fatalf("columns: %+v", tabs)
	}
}

// A passage continuing a table with two header rows reads its columns by
// both: the group over the years.
func TestParseContinuedTableTwoHeads(t *testing.T) {
	ts := Parse("North | 5,551 | 6,464 | 503 | 410\nTotal | $ 36,500 | $ 37,987 | $ 1,577 | $ 1,373", "Assets | Spending\n(Millions) | 2025 | 2024 | 2025 | 2024", "")
	if len(ts) != 1 {
		t.Fatalf("%+v", ts)
	}
	want := []string{"Assets 2025", "Assets 2024", "Spending 2025", "Spending 2024"}
	if !reflect.DeepEqual(ts[0].Columns, want) || ts[0].Stub != "(Millions)" {
		t.Errorf("columns %q stub %q, want %q", ts[0].Columns, ts[0].Stub, want)
	}
}

func TestIsHeadRow(t *testing.T) {
	for _, c := range []struct {
		row  string
		want bool
	}{
		{"Assets | Depreciation | Spending", true},
		{"(Millions) | 2025 | 2024", true},
		{"Widgets | 5,409 | 5,209", false},
		{"Operating activities |  |  ", false},
		{"A heading line", false},
		{"Share | 12 % | (3)", false},
	} {
		if got := IsHeadRow(c.row); got != c.want {
			t.Errorf("IsHeadRow(%q) = %v", c.row, got)
		}
	}
}

// When the caller tells the words that name the table apart (Context), a
// word of the title the question also says of the row names the row: the
// net earnings asked "as shown in the statement of earnings".
func TestLookupContextKeepsRowWords(t *testing.T) {
	ts := Parse("Statement of Earnings\n(Thousands) | 2025 | 2024\nRevenue | 900 | 800\nNet earnings | 90 | 80", "", "")
	q := query("net earnings", 2025)
	q.Context = map[string]bool{"statement": true}
	cells := Lookup(q, ts, simpleWords)
	if len(cells) == 0 || cells[0].Label != "Net earnings" || cells[0].Value != "90" {
		t.Fatalf("got %+v", cells)
	}
	q.Context = nil
	if cells := Lookup(q, ts, simpleWords); len(cells) > 0 && cells[0].Label == "Net earnings" && cells[0].Share == 1 {
		t.Errorf("without Context the title's word should name the table only: %+v", cells[0])
	}
}

// A passage that opens on the first line of a wrapped row label still
// reads its rows by the header carried to it.
func TestParseContinuedTableWrappedLabel(t *testing.T) {
	ts := Parse("Changes in widget stocks, excluding the effects\nof transfers | 79.9 | (7.5)\nNet widgets from operations | 367.2 | 280.7", "2025 | 2024", "")
	if len(ts) != 1 || !reflect.DeepEqual(ts[0].Columns, []string{"2025", "2024"}) {
		t.Fatalf("%+v", ts)
	}
	// Prose above the first row ends the carried header.
	ts = Parse("This paragraph talks about widgets at some length and ends here.\nWidgets | 5 | 6", "2025 | 2024", "")
	if len(ts) != 1 || reflect.DeepEqual(ts[0].Columns, []string{"2025", "2024"}) {
		t.Fatalf("prose kept the header: %+v", ts)
	}
}

// A header row whose label cell is empty starts on " | ": its columns
// are still the figures' (ruled statements with currency-sign columns).
func TestParseHeadWithEmptyLabel(t *testing.T) {
	text := "Balance Sheets\nAssets |  |  |  |\n|  | June 1, 2025 |  | June 2, 2024\nCash | $ | 1,874 | $ | 2,936\nTotal current assets |  | 8,802 |  | 10,539"
	ts := Parse(text, "", "")
	if len(ts) != 1 || !reflect.DeepEqual(ts[0].Columns, []string{"June 1, 2025", "June 2, 2024"}) {
		t.Fatalf("%+v", ts)
	}
}

// A header row whose only empty cell is its label ("| June 1, 2025 |
// June 2, 2024", as a passage holds it once trimmed) names the columns,
// and a sparse row's empty cells keep its figures under their heads.
func TestParseHeadWithOneEmptyLabel(t *testing.T) {
	text := "Widget Equity\n| Shares | Capital | Total\nBalance | 329 | 6,384 | 9,812\nNet income |  |  | 4,029"
	ts := Parse(text, "", "")
	if len(ts) != 1 || !reflect.DeepEqual(ts[0].Columns, []string{"Shares", "Capital", "Total"}) {
		t.Fatalf("%+v", ts)
	}
	r := ts[0].Rows[len(ts[0].Rows)-1]
	if r.Label != "Net income" || len(r.Cells) != 3 || r.Cells[2] != "4,029" || r.Cells[0] != "" {
		t.Errorf("sparse row %+v", r)
	}
}

// A statement whose rows keep an empty cell where a sign would stand
// ("Depreciation |  | 167 |  | 203 |  | 236"), under one narrower row that
// sets its signs with its figures ("Net loss | $ (660) | …"): the empty
// columns go, and every row's figures stand under the years.
func TestParseEmptySignColumnsWithNarrowRow(t *testing.T) {
	text := "Statements of Widget Flows\nDecember 26, | December 27, | December 28,\n2025 | 2024 | 2023\n" +
		"Net loss | $ (660) | $ (403) | $ (83)\nDepreciation and amortization |  | 167 |  | 203 |  | 236\nOther |  | (3) |  | (13) |  | (1)"
	ts := Parse(text, "", "")
	if len(ts) != 1 || len(ts[0].Columns) != 3 || ts[0].Columns[0] != "December 26, 2025" {
		t.Fatalf("%+v", ts)
	}
	for _, r := range ts[0].Rows {
		if len(r.Cells) != 3 {
			t.Errorf("row %q: cells %q", r.Label, r.Cells)
		}
	}
	if c := ts[0].Rows[1].Cells; c[0] != "167" || c[2] != "236" {
		t.Errorf("depreciation %q", c)
	}
}

// Rows that set the currency sign in a cell of its own, among rows that do
// not, are read by their figures: every row's figures line up under the
// years.
func TestParseMixedSignCells(t *testing.T) {
	text := "(Millions)\n2025\n2024\nWidget assets | $ | 88 | $ | 37\nOther | 158 | 158\nTotal widgets | $ 8,738 | $ 8,866"
	ts := Parse(text, "", "")
	if len(ts) != 1 || !reflect.DeepEqual(ts[0].Columns, []string{"2025", "2024"}) {
		t.Fatalf("%+v", ts)
	}
	want := [][]string{{"88", "37"}, {"158", "158"}, {"$ 8,738", "$ 8,866"}}
	for i, r := range ts[0].Rows {
		if !reflect.DeepEqual(r.Cells, want[i]) {
			t.Errorf("row %q cells %q, want %q", r.Label, r.Cells, want[i])
		}
	}
}

// Years set as lines over a table, a label line among them, head its first
// columns; a change column after them stays unnamed by a year.
func TestParseYearLinesWithLabelBetween(t *testing.T) {
	text := "Highlights\n2025\nAs of December 31,\n2024\n2023\nChange\n(in thousands)\nMembers | 74,762 | 57,391 | 44,350 | 30 % | 29%\nRevenue | $ 6,779 | $ 5,504 | $ 4,374 | 23 % | 26%"
	ts := Parse(text, "", "")
	if len(ts) != 1 || len(ts[0].Columns) != 5 || ts[0].Columns[0] != "2025" || ts[0].Columns[1] != "2024" || ts[0].Columns[2] != "2023" || ts[0].Columns[3] != "" {
		t.Fatalf("%+v", ts)
	}
}

func TestFiscalYear(t *testing.T) {
	jan25 := FiscalEnd{Month: time.January, Day: 25}
	jun30 := FiscalEnd{Month: time.June, Day: 30}
	dec31 := FiscalEnd{Month: time.December, Day: 31}
	for _, c := range []struct {
		d    string
		end  FiscalEnd
		want int
	}{
		{"2025-01-25", jan25, 2025}, {"2025-07-26", jan25, 2026}, {"2024-07-27", jan25, 2025},
		{"2020-02-01", jan25, 2020}, // a 53-week year ends a few days late
		{"2023-06-30", jun30, 2023}, {"2022-12-31", jun30, 2023}, {"2022-09-30", jun30, 2023},
		{"2022-01-01", dec31, 2021}, {"2022-12-31", dec31, 2022},
	} {
		d, _ := time.Parse("2006-01-02", c.d)
		if got := FiscalYear(d, c.end); got != c.want {
			t.Errorf("FiscalYear(%s, %v) = %d, want %d", c.d, c.end, got, c.want)
		}
	}
}

// A quarterly statement's date columns stand for the fiscal years they
// fall in when the document's fiscal year end is known: the year ending
// in late January makes July 26, 2025 fiscal 2026.
func TestLookupFiscalColumns(t *testing.T) {
	tabs := Parse("| July 26, 2025 |  | January 25, 2025 |  | July 27, 2024 |\nCash and cash equivalents | $ | 2,150 | $ | 2,760 | $ | 1,905\n", "", "Balance sheets")
	words := func(s string) []string { return strings.Fields(strings.ToLower(s)) }
	q := Query{Terms: map[string]bool{"cash": true, "equivalents": true}, Weight: func(string) float64 { return 1 }, Years: []int{2025, 2026}}
	got := func() string {
		var out []string
		for _, c := range Lookup(q, tabs, words) {
			out = append(out, strconv.Itoa(c.Year)+"="+c.Value)
		}
		return strings.Join(out, " ")
	}
	if g := got(); g != "2025=2,150" {
		t.Errorf("calendar years: %q", g)
	}
	tabs[0].FiscalEnd = FiscalEnd{Month: time.January, Day: 25}
	if g := got(); g != "2025=2,760 2026=2,150" {
		t.Errorf("fiscal years: %q", g)
	}
}

// A row's cover is the same number every time: summed in map order,
// weights such as 0.1, 0.2 and 0.3 add up to 0.6 or 0.6000000000000001,
// and two rows that tie would fall either way from run to run.
func TestCoverIsDeterministic(t *testing.T) {
	w := map[string]float64{"alpha": 0.1, "beta": 0.2, "gamma": 0.3, "delta": 0.7, "eps": 1.1}
	q := Query{Terms: map[string]bool{}, Weight: func(s string) float64 { return w[s] }}
	for s := range w {
		q.Terms[s] = true
	}
	first := cover(q, []string{"alpha", "beta", "gamma"})
	for range 200 {
		if got := cover(q, []string{"alpha", "beta", "gamma"}); got != first {
			t.Fatalf("cover %v, then %v", first, got)
		}
	}
}

// A table that goes on in the next passage has no total in its part here:
// a question that names only the column group takes no row of it.
func TestLookupTableGoingOn(t *testing.T) {
	part := Parse("Segments\n(Millions) | Gadget Spending 2025 | Gadget Spending 2024\nRetail | 120 | 110\nWholesale | 95 | 90", "", "")
	q := query("How much was the gadget spending in 2025?", 2025)
	if cells := Lookup(q, part, simpleWords); len(cells) != 1 || cells[0].Label != "Wholesale" {
		t.Fatalf("the part alone: %+v, want its last row", cells)
	}
	part[0].GoesOn = true
	if cells := Lookup(q, part, simpleWords); len(cells) != 0 {
		t.Errorf("a part that goes on: %+v, want no cell", cells)
	}
}

// A table's title is read from the lines above it on its own page: what
// the page before ends with names nothing on this one.
func TestParseTitleStopsAtPageBreak(t *testing.T) {
	text := "Notes to the statements\nThe gain on the sale is included in the consolidated statements of cash flows.\fThe results of the sold stores were as follows ($ in millions):\n| 2017 | 2016\nRevenue | 12 | 217\nNet earnings | 21 | 90"
	ts := Parse(text, "", "Sold stores")
	if len(ts) != 1 {
		t.Fatalf("%d tables", len(ts))
	}
	if want := "Sold stores The results of the sold stores were as follows ($ in millions):"; ts[0].Title != want {
		t.Errorf("title %q, want %q", ts[0].Title, want)
	}
}

func TestSums(t *testing.T) {
	ts := Parse("(Millions) | 2017 | 2016 | 2015\nNet earnings from continuing operations | 1,207 | 807 | 1,246\nGain (loss) from discontinued operations | 21 | 90 | (11)\nNet earnings including noncontrolling interests | 1,228 | 897 | 1,235\nNet earnings attributable to noncontrolling interests | — | — | (2)\nShares | 318 | 333 | 350", "", "")
	if len(ts) != 1 {
		t.Fatalf("%d tables", len(ts))
	}
	for r, want := range []bool{false, false, true, false, false} {
		if got := ts[0].Sums(r); got != want {
			t.Errorf("row %d (%s): Sums %v, want %v", r, ts[0].Rows[r].Label, got, want)
		}
	}
}

// Of rows that name the same words of the question, the one whose label
// the question names entirely comes first, though in its own table those
// words are common (every label of an earnings statement says
// "earnings") and a longer label's table holds them once.
func TestLookupFullyNamedLabelFirst(t *testing.T) {
	ts := append(
		Parse("Statement of Comprehensive Earnings\n(Thousands) | 2025 | 2024\nNet earnings | 90 | 80\nOther comprehensive earnings, net | 5 | 4\nComprehensive earnings | 95 | 84", "", ""),
		Parse("Statement of Operations\n(Thousands) | 2025 | 2024\nRevenue | 900 | 800\nTaxes on earnings, net | 30 | 20", "", "")...)
	q := query("net earnings", 2025)
	cells := Lookup(q, ts, simpleWords)
	if len(cells) == 0 || cells[0].Label != "Net earnings" {
		t.Fatalf("first cell %+v, want the net earnings row", cells)
	}
}

// Years centred over groups of columns head every column of their group,
// not only the one under them; a sparse row over a row that leaves the
// same columns empty (a sign column's) spreads nothing.
func TestParseHeadsCentredOverGroups(t *testing.T) {
	tabs := Parse("Kestrel mills open at the end of each of the last three years:\n"+
		"| 2021 |  | 2022 |  |  | 2023 |\n"+
		"| Total Mills at End of Year | Mills Opened | Mills Closed | Total Mills at End of Year | Mills Opened | Mills Closed | Total Mills at End of Year\n"+
		"Grain mills | 956 | 2 | (20) | 938 | 1 | (14) | 925\n"+
		"Total mills | 991 | 13 | (20) | 984 | 9 | (15) | 978", "", "")
	if len(tabs) != 1 {
		t.Fatalf("%d tables", len(tabs))
	}
	want := []string{"2021 Total Mills at End of Year", "2022 Mills Opened", "2022 Mills Closed", "2022 Total Mills at End of Year",
		"2023 Mills Opened", "2023 Mills Closed", "2023 Total Mills at End of Year"}
	if !slices.Equal(tabs[0].Columns, want) {
		t.Errorf("columns %q, want %q", tabs[0].Columns, want)
	}
	words := func(s string) []string { return strings.Fields(strings.ToLower(s)) }
	q := Query{Terms: map[string]bool{"total": true, "mills": true, "end": true}, Weight: func(string) float64 { return 1 }, Years: []int{2023}}
	if cells := Lookup(q, tabs, words); len(cells) == 0 || cells[0].Value != "978" {
		t.Errorf("total mills at the end of 2023: %+v", cells)
	}

	for _, tc := range []struct {
		row, below, want []string
		n                int
	}{
		// An empty head over an empty cell: a sign column's, no group's.
		{[]string{"2023", "", "2022", ""}, []string{"Amount", "", "Amount", ""}, []string{"2023", "", "2022", ""}, 4},
		{[]string{"", "Mills", ""}, []string{"Opened", "Closed", "Total"}, []string{"Mills", "Mills", "Mills"}, 3},
		// The row's stub stays its own.
		{[]string{"(in millions)", "", "Mills", ""}, []string{"", "Opened", "Closed", "Total"}, []string{"(in millions)", "Mills", "Mills", "Mills"}, 3},
		// A cell two heads reach is neither's.
		{[]string{"", "Grain", "", "Feed", ""}, []string{"a", "b", "c", "d", "e"}, []string{"Grain", "Grain", "", "Feed", "Feed"}, 5},
	} {
		if got := centredOver(tc.row, tc.below, tc.n); !slices.Equal(got, tc.want) {
			t.Errorf("centredOver(%q, %q) = %q, want %q", tc.row, tc.below, got, tc.want)
		}
	}
}
