package pdf

import (
	"reflect"
	"testing"
)

// TestUntableSingleCells: a table whose rows never fill two cells (a
// piece of a head read apart) becomes paragraphs; a table with a row of
// two cells stays, its one-cell rows too; the first rows of a page that
// go on with the table the page before ends in stay table rows. A cell
// made a paragraph is no heading.
func TestUntableSingleCells(t *testing.T) {
	tr := func(text string) para { return para{text: text, table: true, cells: 2} }
	pages := []pageOut{
		{paras: []para{
			{text: "Results by year"},
			tr("Change"), tr(" | (in thousands)"),
			{text: "The table below."},
			tr("Label | 2025"), tr("Widgets | 12"), tr("Section"),
		}},
		{paras: []para{
			{text: "7", furniture: true},
			tr("Gadgets"), tr("Total | 40"),
		}},
		{paras: []para{
			{text: "Prose."}, tr("Alone"),
		}},
	}
	untableSingleCells(pages)
	var got [][]string
	for _, p := range pages {
		var row []string
		for _, q := range p.paras {
			if q.table {
				row = append(row, "T:"+q.text)
			} else {
				row = append(row, q.text)
			}
		}
		got = append(got, row)
	}
	want := [][]string{
		{"Results by year", "Change", "(in thousands)", "The table below.", "T:Label | 2025", "T:Widgets | 12", "T:Section"},
		{"7", "T:Gadgets", "T:Total | 40"},
		{"Prose.", "Alone"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// A cell made a paragraph is still no heading, however it is set.
	if q := pages[0].paras[1]; !q.untabled || isHeading(para{text: q.text, size: 20, lines: 1, runes: 6, upright: true, untabled: true}, 10) {
		t.Errorf("%q untabled %v, or read as a heading", q.text, q.untabled)
	}
}
