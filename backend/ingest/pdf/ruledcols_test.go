package pdf

import (
	"strings"
	"testing"
)

// A table ruled off after its label column only takes its other columns
// from the white space below its heads, though a head spans a group of
// them; a table that rules its columns keeps only its rules.
func TestRuledTableWhiteColumns(t *testing.T) {
	line := func(v float64, cells ...[2]float64) *pline {
		l := &pline{v: v, size: 9}
		for _, c := range cells {
			r := &run{u0: c[0], u1: c[1], v: v, glyphs: 4, sizeSum: 36}
			l.runs = append(l.runs, r)
		}
		l.u0, l.u1 = cells[0][0], cells[len(cells)-1][1]
		return l
	}
	label := [2]float64{80, 130}
	a, b, c, d := [2]float64{142, 163}, [2]float64{174, 194}, [2]float64{205, 226}, [2]float64{250, 270}
	in := []*pline{
		line(758, [2]float64{168, 200}),                      // a head over columns b..c ("Group")
		line(752, [2]float64{80, 105}, [2]float64{236, 284}), // "Model", a head over d
		line(746, a, b, c),                                   // the group's own heads
		line(728, label, a, b, c, d),
		line(716, label, a, b, c, d),
		line(704, label, a, b, c, d),
	}
	st := ruleStack{ys: []float64{765, 740, 700}, x0: 75, x1: 290}
	labelRule := []rule{{at: 136, a: 700, b: 765}}
	seps := st.columns(in, labelRule)
	if len(seps) != 4 {
		t.Fatalf("separators %v, want the label rule and three white gaps", seps)
	}
	for i, want := range []float64{136, 168.5, 200, 231} {
		if d := seps[i] - want; d < -6 || d > 6 {
			t.Errorf("separator %d at %.1f, want near %.0f", i, seps[i], want)
		}
	}
	// Ruled columns: the rules only.
	ruled := []rule{{at: 136, a: 700, b: 765}, {at: 168.5, a: 700, b: 765}, {at: 200, a: 700, b: 765}}
	if got := st.columns(in, ruled); len(got) != 3 {
		t.Errorf("ruled columns: separators %v, want the three rules", got)
	}
}

// Running text in a box with a double frame (each side drawn twice, a
// few points apart) is no table: the inner frame lines divide no columns.
func TestDoubleFramedTextIsNoTable(t *testing.T) {
	var in []*pline
	for i, text := range []string{"Claim = the mill and the barn are both made of stone.", "We already know the following about the mill:", "Question 1 = Is the mill made of stone at all?"} {
		v := 690 - float64(i)*14
		in = append(in, &pline{v: v, size: 9, u0: 80, u1: 280, text: text, runs: []*run{{u0: 80, u1: 280, v: v, glyphs: 40, sizeSum: 360}}})
	}
	st := ruleStack{ys: []float64{700, 640}, x0: 70, x1: 290}
	frame := []rule{{at: 70, a: 640, b: 700}, {at: 73, a: 640, b: 700}, {at: 287, a: 640, b: 700}, {at: 290, a: 640, b: 700}}
	if seps := st.columns(in, frame); seps != nil {
		t.Errorf("separators %v in framed running text, want none", seps)
	}
}

// A ruled statement that gives a negative figure's closing parenthesis
// or a percent sign a cell of its own reads "(332)" and "15.5%".
func TestClosingMarksJoinTheirFigures(t *testing.T) {
	rows := []*pblock{
		{cells: []string{"Barley contracts", "(332", ")", "249", "", "15.5", "%"}},
		{cells: []string{"Oat contracts", "(400", ")", "(5", ")", "8.0", "%"}},
		{cells: []string{"Total", "165", "", "(95", ")", "", ""}},
	}
	joinClosingColumns(rows)
	want := [][]string{{"Barley contracts", "(332)", "249", "15.5%"}, {"Oat contracts", "(400)", "(5)", "8.0%"}, {"Total", "165", "(95)", ""}}
	for i, b := range rows {
		if strings.Join(b.cells, "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d: %q, want %q", i, b.cells, want[i])
		}
	}
}
