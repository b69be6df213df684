package reason

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"cairn/backend/answerspan"
	"cairn/backend/question"
	"cairn/backend/tables"
)

func keys(m map[string]bool) []string {
	out := []string{}
	for k := range m {
		out = append(out, strings.TrimPrefix(k, "w:"))
	}
	sort.Strings(out)
	return out
}

// The words of a phrase that names a document part name the table; the
// others, and a word said in both places, name the row.
func TestTableNaming(t *testing.T) {
	for _, c := range []struct {
		q          string
		row, table []string
	}{
		{"Using the statement of widget flows, what were the 2025 purchases of gears?", []string{"2025", "gear", "purchas", "use"}, []string{"flow", "statement", "widget"}},
		{"What is the net margin shown in the margin statement?", []string{"margin", "net", "shown"}, []string{"statement"}},
		{"What were the total reserves on the balance sheet of Ferro?", []string{"ferro", "reserv", "total"}, []string{"balanc", "sheet"}},
		{"How many tonnes were shipped in 2024?", []string{"2024", "mani", "ship", "tonn"}, []string{}},
	} {
		row, table := tableNaming(question.New(c.q).Tokens)
		if got := keys(row); !reflect.DeepEqual(got, c.row) {
			t.Errorf("%q row words %q, want %q", c.q, got, c.row)
		}
		if got := keys(table); !reflect.DeepEqual(got, c.table) {
			t.Errorf("%q table words %q, want %q", c.q, got, c.table)
		}
	}
}

// A yes/no question about a figure's direction is answered by its cells'
// change: the verdict that agrees goes first.
func TestByCellsDirection(t *testing.T) {
	yes := answerspan.Candidate{Text: "yes", Score: 0.5}
	no := answerspan.Candidate{Text: "no", Score: 0.45}
	cell := func(year int, v float64) foundCell {
		return foundCell{Cell: tables.Cell{Year: year, Number: v}}
	}
	falling := []foundCell{cell(2024, 470), cell(2025, 419)}
	for _, c := range []struct {
		q     string
		cells []foundCell
		want  string
	}{
		{"Has the debt increased between 2024 and 2025?", falling, "no"},
		{"Has the debt decreased between 2024 and 2025?", falling, "yes"},
		{"Has the debt changed between 2024 and 2025?", falling, "yes"}, // no direction asked: left as it was
		{"Has the debt increased in 2025?", falling[1:], "yes"},         // one year: left as it was
	} {
		got := byCellsDirection(question.New(c.q).Moved, []answerspan.Candidate{yes, no}, c.cells)
		if got[0].Text != c.want {
			t.Errorf("%q: first %q, want %q", c.q, got[0].Text, c.want)
		}
	}
}
