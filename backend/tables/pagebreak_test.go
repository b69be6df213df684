package tables

import (
	"reflect"
	"strings"
	"testing"
)

// A table going on over a page break, its header row printed again at the
// top of the next page right after the last row of the page before (the
// page break, kb.PageSeparator, is no line end).
func TestParseTextAcrossAPageBreak(t *testing.T) {
	text := "Controls while boiling\n" +
		"Action | Effect\n" +
		"Press the lid button | Open the lid.\n" +
		"Turn the dial right | Raise the temperature.\f" +
		"Action | Effect\n" +
		"Lift the kettle | Stop boiling\n"
	tabs := ParseText(text, "", "Kettle")
	if len(tabs) != 1 {
		t.Fatalf("%d tables, want 1: %+v", len(tabs), tabs)
	}
	var got []string
	for _, r := range tabs[0].Rows {
		got = append(got, strings.Join(r.Cells, " / "))
		if text[r.Start:r.End] != strings.Join(r.Cells, " | ") {
			t.Errorf("row span %q, cells %q", text[r.Start:r.End], r.Cells)
		}
	}
	want := []string{"Press the lid button / Open the lid.", "Turn the dial right / Raise the temperature.", "Lift the kettle / Stop boiling"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
}

func TestParseAcrossAPageBreak(t *testing.T) {
	text := "Net sales by region\n" +
		"Region | 2025 | 2024\n" +
		"North | 120 | 110\n" +
		"South | 80 | 75\fContinued on this page\n" +
		"East | 60 | 58\n"
	tabs := Parse(text, "", "Sales")
	var labels []string
	for _, tb := range tabs {
		for _, r := range tb.Rows {
			labels = append(labels, r.Label)
			if got := text[r.Start:r.End]; !strings.HasPrefix(got, r.Label+" | ") || strings.Contains(got, "\f") {
				t.Errorf("row span %q for %q", got, r.Label)
			}
		}
	}
	if !reflect.DeepEqual(labels, []string{"North", "South", "East"}) {
		t.Errorf("labels %q", labels)
	}
}
