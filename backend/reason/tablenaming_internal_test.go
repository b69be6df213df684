package reason

import (
	"reflect"
	"sort"
	"strings"
	"testing"
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
		row, table := tableNaming(c.q)
		if got := keys(row); !reflect.DeepEqual(got, c.row) {
			t.Errorf("%q row words %q, want %q", c.q, got, c.row)
		}
		if got := keys(table); !reflect.DeepEqual(got, c.table) {
			t.Errorf("%q table words %q, want %q", c.q, got, c.table)
		}
	}
}
