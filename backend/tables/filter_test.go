package tables

import (
	"reflect"
	"testing"

	"cairn/backend/analyze"
	"cairn/backend/embed"
)

// clubText is a made-up club's members table: a category column, a
// count column and a column of words.
const clubText = "Members of the rowing club\n" +
	"Member | Membership | Races rowed | Boat\n" +
	"Ada Lind | Honorary | 9 | Eight\n" +
	"Bo Sten | Ordinary | 12 | Four\n" +
	"Cy Marr | Honorary | 4 | Pair\n" +
	"Di Holm | Honorary, former captain | 15 | Eight\n" +
	"Ed Voss | Ordinary | 2 | Single\n"

func lowerTokens(s string) []string {
	var out []string
	for _, t := range analyze.Tokens(s) {
		out = append(out, t.Text)
	}
	return out
}

func TestFilterRows(t *testing.T) {
	tabs := ParseText(clubText, "", "Club")
	one := func(string) float64 { return 1 }
	cases := []struct {
		name  string
		q     string
		bound *Bound
		ok    bool
		rows  []int
		col   int
		cat   int
	}{
		{"bound on the named column", "Which members rowed more than 8 races?", &Bound{Above: true, Value: 8}, true, []int{0, 1, 3}, 2, -1},
		{"bound and phrase", "Which honorary members rowed more than 8 races?", &Bound{Above: true, Value: 8}, true, []int{0}, 2, 1},
		{"inclusive bound below", "Which members rowed at most 4 races?", &Bound{Value: 4, Inclusive: true}, true, []int{2, 4}, 2, -1},
		{"the longest phrase said", "Who are the honorary members who were a former captain?", nil, true, []int{3}, -1, 1},
		{"a phrase alone", "Who are the ordinary members?", nil, true, []int{1, 4}, -1, 1},
		{"no phrase and no bound", "Who are the members?", nil, false, nil, -1, -1},
		{"a phrase without the keys' head", "Which boats are an eight?", nil, false, nil, -1, -1},
		{"bound on a column not named", "Which members are older than 30?", &Bound{Above: true, Value: 30}, false, nil, -1, -1},
		{"a row's key quoted", "Which boat does Ada Lind, an honorary member, row?", nil, false, nil, -1, -1},
		{"no row within the bound", "Which members rowed more than 20 races?", &Bound{Above: true, Value: 20}, false, nil, -1, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := FilterQuery{Tokens: lowerTokens(c.q), Words: embed.Words(c.q), Weight: one, Bound: c.bound}
			f, ok := FilterRows(q, tabs, lowerTokens, embed.Words)
			if ok != c.ok {
				t.Fatalf("ok %v, want %v (%+v)", ok, c.ok, f)
			}
			if !ok {
				return
			}
			if !reflect.DeepEqual(f.Rows, c.rows) || f.Col != c.col || f.Category != c.cat || f.Read != 5 {
				t.Errorf("got %+v, want rows %v col %d category %d", f, c.rows, c.col, c.cat)
			}
		})
	}
}

func TestBoundHolds(t *testing.T) {
	cases := []struct {
		b    Bound
		v    float64
		want bool
	}{
		{Bound{Above: true, Value: 6}, 6, false},
		{Bound{Above: true, Value: 6}, 7, true},
		{Bound{Above: true, Inclusive: true, Value: 6}, 6, true},
		{Bound{Value: 6}, 6, false},
		{Bound{Value: 6}, 5, true},
		{Bound{Inclusive: true, Value: 6}, 6, true},
		{Bound{Inclusive: true, Value: 6}, 7, false},
	}
	for _, c := range cases {
		if got := c.b.Holds(c.v); got != c.want {
			t.Errorf("%+v holds %v: %v, want %v", c.b, c.v, got, c.want)
		}
	}
}

// FuzzFilterRows: any passage text and question, read as tables and asked
// with or without a bound, picks rows that exist, under columns that
// exist, without panicking.
func FuzzFilterRows(f *testing.F) {
	f.Add(clubText, "Which honorary members rowed more than 8 races?", 8.0, true)
	f.Add("a | b\n1 | 2\n3 | 4\n5 | 6", "Who are the b?", 0.0, false)
	f.Fuzz(func(t *testing.T, text, question string, bound float64, bounded bool) {
		tabs := ParseText(text, "", "")
		q := FilterQuery{Tokens: lowerTokens(question), Words: embed.Words(question), Weight: func(string) float64 { return 1 }}
		if bounded {
			q.Bound = &Bound{Above: true, Value: bound}
		}
		fr, ok := FilterRows(q, tabs, lowerTokens, embed.Words)
		if !ok {
			return
		}
		tb := tabs[fr.Table]
		for _, ri := range fr.Rows {
			r := tb.Rows[ri]
			if fr.Col >= len(r.Cells) || fr.Category >= len(r.Cells) || fr.Col >= len(tb.Head) || fr.Category >= len(tb.Head) {
				t.Fatalf("row %d lacks the condition's cells: %+v", ri, fr)
			}
		}
	})
}
