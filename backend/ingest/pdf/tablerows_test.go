package pdf

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// A row set with narrow gaps under a head centred across the value
// columns ("(in thousands)"): the head's ink crosses the gap between one
// figure and the currency sign of the next, which is still two cells
// ("$ 512 | $ 196", not "512 $ 196": figuresApart keeps the lines apart,
// moveTrailingSigns mends a sign read into the cell before); and the
// rows of heads above the unit line ("Year Ended" over the years) head
// the table with it.
func TestFiguresUnderASpanningHead(t *testing.T) {
	items := []placedText{
		{190, 712, "Year Ended"}, {400, 712, "Change"},
		figureAt(230, 700, "2015"), figureAt(300, 700, "2014"), figureAt(370, 700, "2013"), figureAt(440, 700, "2015 vs. 2014"),
		{272, 689, "(in thousands, except percentages)"},
		{57, 677, "Making things"}, {57, 665, "As a share of sales"},
	}
	for i, f := range []string{"734,102", "628,940", "512,430", "196,215"} {
		r := float64(230 + 70*i)
		items = append(items, placedText{r - 50, 677, "$"}, figureAt(r, 677, f))
	}
	for i, f := range []string{"10%", "9%", "9%"} {
		items = append(items, figureAt(float64(230+70*i), 665, f))
	}
	rows, header := tableRowsOf(t, items)
	all := strings.Join(rows, "\n")
	if !strings.Contains(all, "$ 512,430 | $ 196,215") {
		t.Errorf("a figure and the next cell's sign read as one cell:\n%s", all)
	}
	if !strings.Contains(all, "2015 | 2014 | 2013") || !strings.Contains(header, "Year Ended") {
		t.Errorf("the head rows above the unit line are not the table's (header %q):\n%s", header, all)
	}
}

// A row of a few wide cells ("$ 4,218,306", its sign well left of the
// figure) lines up with the figures above it but not with the percentages
// after it ("5.9 %", the sign standing past the column's edge), which line
// up with the percentages further up: the table goes on.
func TestRowAlignedWithRowsAbove(t *testing.T) {
	var items []placedText
	cols := []float64{220, 280, 340, 400, 460, 520}
	row := func(y float64, label string, pct bool, cells ...string) {
		items = append(items, placedText{57, y, label})
		for i, c := range cells {
			switch {
			case c == "":
			case pct:
				items = append(items, figureAt(cols[i]+12, y, c+" %"))
			default:
				items = append(items, figureAt(cols[i], y, c))
			}
		}
	}
	row(688, "Capital ratio", true, "12.4", "12.9", "10.2", "14.6", "15.1", "9.8")
	row(676, "Total ratio", false, "16.3", "16.8", "13.6", "18.4", "18.9", "12.7")
	items = append(items, placedText{57, 664, "Average assets"})
	for _, i := range []int{0, 1, 3, 4} {
		items = append(items, placedText{cols[i] - 52, 664, "$"}, figureAt(cols[i], 664, "4,218,306"))
	}
	row(652, "Leverage ratio", true, "5.9", "6.3", "3.5", "6.1", "6.6", "3.2")
	items = append(items, placedText{57, 640, "Total exposure"}, figureAt(cols[0], 640, "NA"), figureAt(cols[1], 640, "NA"))
	for _, i := range []int{3, 4} {
		items = append(items, placedText{cols[i] - 52, 640, "$"}, figureAt(cols[i], 640, "4,190,772"))
	}
	row(628, "Supplementary", true, "4.6", "4.9", "4.4", "5.7", "5.2", "4.1")
	rows, header := tableRowsOf(t, items)
	all := strings.Join(rows, "\n")
	if !strings.Contains(all, "Leverage ratio | 5.9 % | 6.3 % | 3.5 %") || !strings.Contains(all, "Supplementary | 4.6 %") || !strings.HasPrefix(header, "Capital ratio") {
		t.Errorf("the rows after a row of wide cells left the table (last header %q):\n%s", header, all)
	}
}

// TestMoveTrailingSigns: a currency sign read at the end of a cell goes
// to the figure of the next cell; a sign after a label, or before an
// empty cell or a word, stays.
func TestMoveTrailingSigns(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{[]string{"Fees", "$ 2,406", "(5) % $", "4,871", "(12) %"}, []string{"Fees", "$ 2,406", "(5) %", "$ 4,871", "(12) %"}},
		{[]string{"Retail", "61 % £", "(250)"}, []string{"Retail", "61 %", "£ (250)"}},
		{[]string{"Net earnings $", "2,210.8"}, []string{"Net earnings $", "2,210.8"}},
		{[]string{"Sales", "38% $", ""}, []string{"Sales", "38% $", ""}},
		{[]string{"Sales", "38% $", "n/a"}, []string{"Sales", "38% $", "n/a"}},
	} {
		got := slices.Clone(c.in)
		moveTrailingSigns(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
}

// TestFiguresApart: two lines on a baseline are two cells when one ends
// in a figure and the other opens with a figure or a currency sign, and
// neither side holds letters; a date before a time, or words, may be one
// line.
func TestFiguresApart(t *testing.T) {
	line := func(text string) *pline {
		r := &run{}
		r.b.WriteString(text)
		first, _ := utf8.DecodeRuneInString(text)
		last, _ := utf8.DecodeLastRuneInString(text)
		r.firstRune, r.lastRune = first, last
		return &pline{runs: []*run{r}, text: text}
	}
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"512,430", "$", true},
		{"38%", "(5)", true},
		{"1,862", "761", true},
		{"(16)", "£", true},
		{"Sep<11>2014", "16:21", false},
		{"2014", "Aug", false},
		{"Total", "512", false},
		{"512,430", "per share", false},
	} {
		if got := figuresApart(line(c.a), line(c.b)); got != c.want {
			t.Errorf("figuresApart(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// A statement whose rows are each drawn as one string ("$ 3,482.1 $
// 2,911.7 $ 2,406.3", the figures a space apart): a currency sign after a
// figure opens the next cell, so every figure is a cell of its column.
func TestSignAfterFigureOpensACell(t *testing.T) {
	items := []placedText{
		figureAt(262, 712, "2025"), figureAt(306, 712, "2024"), figureAt(350, 712, "2023"),
		{57, 700, "Widget sales"}, {218, 700, "$ 3,482.1 $ 2,911.7 $ 2,406.3"},
		{57, 688, "Gadget sales"}, {218, 688, "$ 1,204.6 $ 1,187.2 $ 1,093.5"},
		{57, 676, "Total sales"}, {218, 676, "$ 4,686.7 $ 4,098.9 $ 3,499.8"},
	}
	rows, _ := tableRowsOf(t, items)
	all := strings.Join(rows, "\n")
	if !strings.Contains(all, "Widget sales | $ 3,482.1 | $ 2,911.7 | $ 2,406.3") || !strings.Contains(all, "Total sales | $ 4,686.7 | $ 4,098.9 | $ 3,499.8") {
		t.Errorf("figures drawn as one string are not cells of their columns:\n%s", all)
	}
}

// A change column of one row only ("38%" of an amount's change, no other
// row has one) stands between cells that line up with the heads: it is
// the row's. A figure after its currency sign lines up by its digits with
// a head over it ("2024 vs. 2023" over "81,204", the "$" further left).
func TestCellBetweenAlignedCellsIsTheRows(t *testing.T) {
	items := []placedText{
		{150, 712, "Year Ended"}, {400, 712, "Change"},
		figureAt(200, 700, "2025"), figureAt(260, 700, "2024"), {330, 700, "2025 vs. 2024"}, {420, 700, "2024 vs. 2023"},
		{57, 688, "Widget research"}, {150, 688, "$"}, figureAt(200, 688, "650,123"), {210, 688, "$"}, figureAt(260, 688, "472,456"),
		{312, 688, "$"}, figureAt(360, 688, "177,667"), figureAt(388, 688, "38%"), {396, 688, "$"}, figureAt(445, 688, "81,204"),
		{57, 676, "As a share of sales"}, figureAt(200, 676, "10%"), figureAt(260, 676, "9%"),
	}
	rows, _ := tableRowsOf(t, items)
	all := strings.Join(rows, "\n")
	if !strings.Contains(all, "Widget research | $ 650,123 | $ 472,456 | $ 177,667 | 38% | $ 81,204") {
		t.Errorf("a change column's cells left the row:\n%s", all)
	}
}

// A list of short rows boxed by rules round its head and its foot only,
// with a rule down each column gap (a committee's attendance, members one
// per line; the rules across reach past the box's left rule, an empty
// column): each baseline is a row. Heads wrapped over two lines in the
// head band stay one row.
func TestRuledListRowsAreRows(t *testing.T) {
	items := []placedText{
		{64, 700, "No."}, {100, 700, "Member"}, {220, 700, "Membership"}, {330, 700, "Races"},
		{330, 691, "rowed"},
	}
	members := [][4]string{{"1", "Ada Lind", "Honorary", "9"}, {"2", "Bo Sten", "Ordinary", "12"}, {"3", "Cy Marr", "Honorary", "4"}}
	for i, m := range members {
		y := float64(674 - 12*i)
		items = append(items, placedText{64, y, m[0]}, placedText{100, y, m[1]}, placedText{220, y, m[2]}, placedText{330, y, m[3]})
	}
	text := placedStream(8, items...)
	inner := text[strings.Index(text, "stream\n")+len("stream\n") : strings.LastIndex(text, "endstream")]
	for _, y := range []float64{710, 686, 640} {
		inner += fmt.Sprintf("48 %g 332 0.5 re f\n", y) // reaching past the box's left rule
	}
	for _, x := range []float64{60, 90, 210, 320, 380} {
		inner += fmt.Sprintf("%g 640 0.5 70 re f\n", x)
	}
	rows, header := tableRowsOfStream(t, fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(inner), inner))
	all := strings.Join(rows, "\n")
	if !strings.Contains(all, "1 | Ada Lind | Honorary | 9\n2 | Bo Sten | Ordinary | 12\n3 | Cy Marr | Honorary | 4") || header != "No. | Member | Membership | Races rowed" {
		t.Errorf("a ruled list's rows (header %q):\n%s", header, all)
	}
}
