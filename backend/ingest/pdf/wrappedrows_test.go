package pdf

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// A ruled table whose rows each wrap every cell over the same two lines
// reads one row per band; a band holding short rows, and a column of
// figures, keep their rows apart. (A lower-case entry too long to have
// stood after the one above is read as its rest: the page does not tell
// the two apart.)
func TestRuledTableWrappedRows(t *testing.T) {
	const size, charWidth = 9.0, 4.5
	// cell is a run of text starting at u (width by its length).
	cell := func(u, v float64, text string) *run {
		r := &run{u0: u, u1: u + charWidth*float64(utf8.RuneCountInString(text)), v: v, glyphs: 4, sizeSum: 4 * size}
		r.b.WriteString(text)
		return r
	}
	// line is a baseline's cells; "" leaves a column empty. Columns start
	// at 80, 140 and 260; the first is 50 wide, so "Twist and" (9
	// characters, 40.5) fills it.
	starts := []float64{80, 140, 260}
	line := func(v float64, cells ...string) *pline {
		l := &pline{v: v, size: size}
		for i, c := range cells {
			if c == "" {
				continue
			}
			r := cell(starts[i], v, c)
			l.runs = append(l.runs, r)
			if len(l.runs) == 1 {
				l.u0 = r.u0
			}
			l.u1 = r.u1
		}
		return l
	}
	rules := []rule{{at: 135, a: 600, b: 760}, {at: 255, a: 600, b: 760}}
	read := func(ys []float64, lines ...*pline) []string {
		st := ruleStack{ys: ys, x0: 75, x1: 400}
		var rows []string
		for _, b := range st.rows(lines, rules, frame{ux: 1}) {
			rows = append(rows, strings.Join(b.cells, " | "))
		}
		return rows
	}
	for _, tc := range []struct {
		name  string
		ys    []float64
		lines []*pline
		want  []string
	}{
		{
			name: "every cell wrapped over the same lines",
			ys:   []float64{760, 740, 700, 660},
			lines: []*pline{
				line(748, "Action", "Result", "Notes"),
				line(728, "Twist", "The kettle boils by", "Not when empty"),
				line(717, "left", "default.", "or cold."),
				line(706, "", "Then it closes.", ""),
				line(688, "Twist and", "Opens the lid.", "Only on some"),
				line(677, "pull", "", "models."),
			},
			want: []string{
				"Action | Result | Notes",
				"Twist left | The kettle boils by default. Then it closes. | Not when empty or cold.",
				"Twist and pull | Opens the lid. | Only on some models.",
			},
		},
		{
			name: "a two-line column head",
			ys:   []float64{760, 730, 700},
			lines: []*pline{
				line(750, "Fault", "Fault", "Action"),
				line(739, "code", "meaning", ""),
				line(718, "12", "Element too hot", "Call service"),
				line(707, "13", "Pump dry", "Switch off"),
			},
			want: []string{
				"Fault code | Fault meaning | Action",
				"12 | Element too hot | Call service",
				"13 | Pump dry | Switch off",
			},
		},
		{
			name: "short rows in one band stay rows",
			ys:   []float64{760, 700},
			lines: []*pline{
				line(748, "apple", "red", "sweet"),
				line(737, "fig", "purple", "soft"), // "apple fig" would have fitted on one line
				line(726, "Twist and", "Opens the menu", "Always"),
				line(715, "pull", "Closes it", "Sometimes"),
				line(704, "Twist and", "12.5", "3"),
			},
			want: []string{
				"apple | red | sweet",
				"fig | purple | soft",
				"Twist and | Opens the menu | Always",
				"pull | Closes it | Sometimes",
				"Twist and | 12.5 | 3",
			},
		},
		{
			name: "a form's question wrapped under its answer's line",
			ys:   []float64{760, 720, 680},
			lines: []*pline{
				line(748, "Has the mill", "No", ""),
				line(737, "changed?", "", ""),
				line(708, "Is it open", "Yes", ""),
				line(697, "(weekdays)", "", ""),
			},
			want: []string{
				"Has the mill changed? | No",
				"Is it open | Yes",
				"(weekdays) | ",
			},
		},
		{
			name: "figures under figures are rows of their own",
			ys:   []float64{760, 700},
			lines: []*pline{
				line(748, "Twist and", "12.5", "3"),
				line(737, "pull", "14.0", "4"),
			},
			want: []string{
				"Twist and | 12.5 | 3",
				"pull | 14.0 | 4",
			},
		},
	} {
		got := read(tc.ys, tc.lines...)
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// In a table without rules, a row whose cells wrap over the same lines
// is one row (the second line leaves a column short, or a cell above
// breaks off mid-phrase); a list whose short rows fill every column on
// every line keeps its rows, lower case or not.
func TestUnruledWrappedRows(t *testing.T) {
	const size, charWidth = 9.0, 4.5
	starts := []float64{80, 160, 300}
	row := func(v float64, cells ...string) []*pline {
		var out []*pline
		for i, c := range cells {
			if c == "" {
				continue
			}
			u0 := starts[i]
			u1 := u0 + charWidth*float64(utf8.RuneCountInString(c))
			r := &run{u0: u0, u1: u1, v: v, glyphs: 4, sizeSum: 4 * size}
			r.b.WriteString(c)
			out = append(out, &pline{runs: []*run{r}, u0: u0, u1: u1, v: v, size: size, text: c})
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		table [][]*pline
		want  []bool
	}{
		{
			name: "wrapped cells",
			table: [][]*pline{
				row(700, "Symptom", "Cause", "Remedy"),
				row(688, "Dispenser is", "Bar held in", "Release the bar"),
				row(677, "stuck", "too long", ""),
				row(666, "Odd taste", "Old ice", "Discard the ice"),
			},
			want: []bool{false, false, true, false},
		},
		{
			name: "a list of short rows",
			table: [][]*pline{
				row(700, "Oak", "oak", "acorn"),
				row(689, "ash", "ash", "key"),
				row(678, "birch", "birch", "catkin"),
			},
			want: []bool{false, false, false},
		},
	} {
		got := wrappedRows(tc.table, cellColumns(tc.table, columnSlots(tc.table)))
		for k := range tc.want {
			if got[k] != tc.want[k] {
				t.Errorf("%s: row %d goes on = %v, want %v", tc.name, k, got[k], tc.want[k])
			}
		}
	}
}

// TestSpanningHeads: a head centred over the heads of a group of columns
// in a ruled table's first band heads each of them; a head wrapped onto
// the line below it ("Number of" over "shares") heads its own column only.
func TestSpanningHeads(t *testing.T) {
	at := textAt
	// Five columns between vertical rules at 135, 175, 215 and 260.
	var vs []rule
	for _, u := range []float64{135, 175, 215, 260} {
		vs = append(vs, rule{at: u, a: 600, b: 760})
	}
	read := func(lines ...*pline) []string {
		st := ruleStack{ys: []float64{760, 733, 690}, x0: 75, x1: 320}
		var rows []string
		for _, b := range st.rows(lines, vs, frame{ux: 1}) {
			rows = append(rows, strings.Join(b.cells, " | "))
		}
		return rows
	}
	body := func() []*pline {
		return []*pline{at(80, 722, "North"), at(140, 722, "12"), at(180, 722, "14"), at(220, 722, "9"), at(270, 722, "35"),
			at(80, 710, "South"), at(140, 710, "8"), at(180, 710, "11"), at(220, 710, "7"), at(270, 710, "26")}
	}
	got := read(append([]*pline{
		at(180, 752, "Season"),
		at(80, 746, "Site"), at(270, 746, "Total"),
		at(140, 740, "Spring"), at(180, 740, "Summer"), at(220, 740, "Autumn"),
	}, body()...)...)
	if want := "Site | Season Spring | Season Summer | Season Autumn | Total"; len(got) == 0 || got[0] != want {
		t.Errorf("spanning head: got %q, want first row %q", got, want)
	}
	got = read(append([]*pline{
		at(171, 752, "Number of"),
		at(80, 746, "Name"), at(270, 746, "Total"),
		at(140, 740, "Age"), at(180, 740, "shares"), at(220, 740, "Price"),
	}, body()...)...)
	if want := "Name | Age | Number of shares | Price | Total"; len(got) == 0 || got[0] != want {
		t.Errorf("wrapped head: got %q, want first row %q", got, want)
	}
}

// TestFillSpannedLabels: in a drawn grid, a row label whose cell spans
// several rows (the rules between them stop at the first column) names
// each of them when it is set in the middle of its cell; a label set in
// the middle of one row of such a cell names only that row (a rule
// stroked and painted over reads as missing), and without the grid's
// rules nothing is filled.
func TestFillSpannedLabels(t *testing.T) {
	at := textAt
	vs := []rule{{at: 130, a: 673, b: 760}, {at: 200, a: 673, b: 760}}
	full := func(y float64) rule { return rule{horizontal: true, at: y, a: 75, b: 320} }
	part := func(y float64) rule { return rule{horizontal: true, at: y, a: 130, b: 320} }
	ys := []float64{760, 745, 733, 721, 709, 697, 685, 673}
	read := func(spans []rule, lines ...*pline) []string {
		st := ruleStack{ys: ys, x0: 75, x1: 320, spans: spans}
		var rows []string
		for _, b := range st.rows(lines, vs, frame{ux: 1}) {
			rows = append(rows, strings.Join(b.cells, " | "))
		}
		return rows
	}
	spans := []rule{full(760), full(745), part(733), part(721), full(709), part(697), full(685), full(673)}
	lines := func(labelB float64) []*pline {
		return []*pline{
			at(80, 750, "Unit"), at(140, 750, "Speed"), at(210, 750, "Fitted"),
			at(140, 736, "60"), at(210, 736, "yes"),
			at(80, 724, "Alder unit"), at(140, 724, "72"), at(210, 724, "yes"),
			at(140, 712, "75"), at(210, 712, "no"),
			at(140, 700, "30"), at(210, 700, "yes"),
			at(80, labelB, "Birch unit"), at(140, 688, "60"), at(210, 688, "no"),
			at(80, 676, "Cedar unit"), at(140, 676, "60"), at(210, 676, "yes"),
		}
	}
	got := read(spans, lines(694)...)
	want := []string{"Unit | Speed | Fitted", "Alder unit | 60 | yes", "Alder unit | 72 | yes", "Alder unit | 75 | no",
		"Birch unit | 30 | yes", "Birch unit | 60 | no", "Cedar unit | 60 | yes"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("spanning labels:\ngot  %q\nwant %q", got, want)
	}
	// The second cell's label in the middle of its lower row: only that row.
	got = read(spans, lines(688)...)
	if len(got) != 7 || got[4] != " | 30 | yes" || got[5] != "Birch unit | 60 | no" {
		t.Errorf("off-centre label: got %q", got)
	}
	// No rules known (not a drawn grid): no label is repeated.
	got = read(nil, lines(694)...)
	if len(got) != 7 || got[1] != " | 60 | yes" || got[4] != " | 30 | yes" {
		t.Errorf("without the grid: got %q", got)
	}
}

// TestTallRuledBody: a table ruled only above and below its head and at
// its end, its body taller than any row band (a board's attendance list,
// cells wrapped over two lines), is one table of rows; with amounts in
// its cells (a statement, whose sign columns and section rows the white
// space reads better) it is not taken in this way.
func TestTallRuledBody(t *testing.T) {
	at := textAt
	hr := func(y float64) rule { return rule{horizontal: true, at: y, a: 70, b: 420} }
	rules := []rule{hr(760), hr(730), hr(470)}
	names := []string{"Anna Berg", "Ben Cole", "Cara Dunn", "Dan Ebb", "Eva Falk", "Finn Gray", "Gus Hale", "Hana Ives", "Ivo Jung", "Jon Kerr", "Kai Lund"}
	read := func(figure func(i int) string) []string {
		lines := []*pline{at(80, 742, "Director"), at(180, 742, "Category"), at(300, 742, "Meetings"), at(370, 742, "Boards")}
		for i, n := range names {
			v := 715 - 22*float64(i)
			lines = append(lines, at(80, v, n), at(180, v, "Non-Executive"), at(300, v, fmt.Sprint(i%7+1)), at(370, v, figure(i)),
				at(180, v-10, "& Independent"))
		}
		var rows []string
		for _, b := range ruledTables(lines, rules, frame{ux: 1}) {
			rows = append(rows, strings.Join(b.cells, " | "))
		}
		return rows
	}
	got := read(func(i int) string { return fmt.Sprint(i + 2) })
	if len(got) != 1+len(names) || got[0] != "Director | Category | Meetings | Boards" || got[1] != "Anna Berg | Non-Executive & Independent | 1 | 2" {
		t.Errorf("tall body: got %q", got)
	}
	got = read(func(i int) string { return fmt.Sprintf("%d,250", i+2) })
	if len(got) > 2 {
		t.Errorf("a body of amounts read as one ruled table: got %q", got)
	}
}

// textAt is a line of one run of 9 pt text starting at u on baseline v,
// each character 4.5 pt wide: the tests' table cells.
func textAt(u, v float64, text string) *pline {
	const size, charWidth = 9.0, 4.5
	r := &run{u0: u, u1: u + charWidth*float64(utf8.RuneCountInString(text)), v: v, glyphs: 4, sizeSum: 4 * size}
	r.b.WriteString(text)
	return &pline{v: v, size: size, u0: r.u0, u1: r.u1, runs: []*run{r}}
}
