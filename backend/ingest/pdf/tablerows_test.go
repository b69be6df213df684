package pdf

import (
	"strings"
	"testing"
)

// A row set with narrow gaps under a head centred across the value
// columns ("(in thousands)"): the head's ink crosses the gap between one
// figure and the currency sign of the next, which is still two cells
// ("$ 378 | $ 178", not "378 $ 178"); and the rows of heads above the
// unit line ("Year Ended" over the years) head the table with it.
func TestFiguresUnderASpanningHead(t *testing.T) {
	items := []placedText{
		{190, 712, "Year Ended"}, {400, 712, "Change"},
		figureAt(230, 700, "2015"), figureAt(300, 700, "2014"), figureAt(370, 700, "2013"), figureAt(440, 700, "2015 vs. 2014"),
		{272, 689, "(in thousands, except percentages)"},
		{57, 677, "Making things"}, {57, 665, "As a share of sales"},
	}
	for i, f := range []string{"650,788", "472,321", "378,769", "178,467"} {
		r := float64(230 + 70*i)
		items = append(items, placedText{r - 50, 677, "$"}, figureAt(r, 677, f))
	}
	for i, f := range []string{"10%", "9%", "9%"} {
		items = append(items, figureAt(float64(230+70*i), 665, f))
	}
	rows, header := tableRowsOf(t, items)
	all := strings.Join(rows, "\n")
	if !strings.Contains(all, "$ 378,769 | $ 178,467") {
		t.Errorf("a figure and the next cell's sign read as one cell:\n%s", all)
	}
	if !strings.Contains(all, "2015 | 2014 | 2013") || !strings.Contains(header, "Year Ended") {
		t.Errorf("the head rows above the unit line are not the table's (header %q):\n%s", header, all)
	}
}

// A row of a few wide cells ("$ 3,565,545", its sign well left of the
// figure) lines up with the figures above it but not with the percentages
// after it ("6.7 %", the sign standing past the column's edge), which line
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
	row(688, "Capital ratio", true, "13.1", "13.1", "11.3", "13.7", "13.8", "10.5")
	row(676, "Total ratio", false, "17.2", "17.3", "14.8", "17.2", "17.3", "14.0")
	items = append(items, placedText{57, 664, "Average assets"})
	for _, i := range []int{0, 1, 3, 4} {
		items = append(items, placedText{cols[i] - 52, 664, "$"}, figureAt(cols[i], 664, "3,565,545"))
	}
	row(652, "Leverage ratio", true, "6.7", "7.0", "4.0", "6.7", "7.0", "4.0")
	items = append(items, placedText{57, 640, "Total exposure"}, figureAt(cols[0], 640, "NA"), figureAt(cols[1], 640, "NA"))
	for _, i := range []int{3, 4} {
		items = append(items, placedText{cols[i] - 52, 640, "$"}, figureAt(cols[i], 640, "3,522,629"))
	}
	row(628, "Supplementary", true, "5.5", "5.8", "5.0", "6.7", "6.9", "5.0")
	rows, header := tableRowsOf(t, items)
	all := strings.Join(rows, "\n")
	if !strings.Contains(all, "Leverage ratio | 6.7 % | 7.0 % | 4.0 %") || !strings.Contains(all, "Supplementary | 5.5 %") || !strings.HasPrefix(header, "Capital ratio") {
		t.Errorf("the rows after a row of wide cells left the table (last header %q):\n%s", header, all)
	}
}
