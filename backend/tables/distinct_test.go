package tables

import (
	"reflect"
	"strings"
	"testing"

	"cairn/backend/embed"
)

// kettleText is a made-up kettle's controls table: what each action does,
// some actions doing the same.
const kettleText = "Controls while boiling\n" +
	"Action | Effect\n" +
	"Press the lid button | Open the lid.\n" +
	"Turn the dial left | Lower the temperature\n" +
	"Turn the dial right | Raise the temperature.\n" +
	"Press and hold the dial | Lower the temperature.\n" +
	"Lift the kettle | Stop boiling\n"

func TestDistinctColumn(t *testing.T) {
	tabs := append(ParseText(clubText, "", "Club"), ParseText(kettleText, "", "Kettle")...)
	one := func(string) float64 { return 1 }
	cases := []struct {
		name string
		q    string
		ok   bool
		want Distinct
	}{
		{"the head named", "How many distinct effects do the controls have while boiling?", true, Distinct{Table: 1, Col: 1}},
		{"the keys' head", "How many different boats are there?", true, Distinct{Table: 0, Col: 3}},
		{"a column of figures is no column of values", "How many distinct races rowed are there?", false, Distinct{}},
		{"no head named", "How many distinct colours are there?", false, Distinct{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := FilterQuery{Tokens: lowerTokens(c.q), Words: embed.Words(c.q), Weight: one}
			got, ok := DistinctColumn(q, tabs, embed.Words)
			if ok != c.ok || got != c.want {
				t.Errorf("got %+v %v, want %+v %v", got, ok, c.want, c.ok)
			}
		})
	}
}

func TestDistinctValues(t *testing.T) {
	tab := ParseText(kettleText, "", "Kettle")[0]
	got := DistinctValues(tab.Rows, 1, lowerTokens)
	want := []ValueRows{
		{"Open the lid.", []int{0}},
		{"Lower the temperature", []int{1, 3}},
		{"Raise the temperature.", []int{2}},
		{"Stop boiling", []int{4}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// FuzzDistinct: any passage text (page breaks included) and question pick
// a column that exists, and its values group every row holding a cell
// there exactly once, each value the cell of its first row.
func FuzzDistinct(f *testing.F) {
	f.Add(kettleText, "How many distinct effects are there while boiling?")
	f.Add("a | b\n1 | x\f a | b\n2 | x.\n3 | y", "How many different b?")
	f.Fuzz(func(t *testing.T, text, question string) {
		tabs := ParseText(text, "", "")
		q := FilterQuery{Tokens: lowerTokens(question), Words: embed.Words(question), Weight: func(string) float64 { return 1 }}
		d, ok := DistinctColumn(q, tabs, embed.Words)
		if !ok {
			return
		}
		if d.Table >= len(tabs) || d.Col >= len(tabs[d.Table].Head) {
			t.Fatalf("column out of the table: %+v", d)
		}
		rows := tabs[d.Table].Rows
		seen := map[int]bool{}
		for _, v := range DistinctValues(rows, d.Col, lowerTokens) {
			if len(v.Rows) == 0 || strings.TrimSpace(rows[v.Rows[0]].Cells[d.Col]) != v.Value {
				t.Fatalf("value %q is not its first row's cell", v.Value)
			}
			for _, ri := range v.Rows {
				if seen[ri] {
					t.Fatalf("row %d counted twice", ri)
				}
				seen[ri] = true
			}
		}
	})
}
