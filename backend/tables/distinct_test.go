package tables

import (
	"reflect"
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
