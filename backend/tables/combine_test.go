package tables

import (
	"strings"
	"testing"
)

// TestCombine: the items a question names as rows (in the column it
// names) or as columns (in the row it names) with their figures; nothing
// when it names an item the table lacks, one item only, or no measure.
func TestCombine(t *testing.T) {
	byRows := Parse("Posts in the first day\nAccount | Posts | Followers\nHarbourline | 24 | 1,200\nSkyward | 12 | 3,400\nAerodyne | 5 | 900", "", "")
	byCols := Parse("Table 2: Holdings of the collections\nCollection | Museum-east | Museum-west | Archive-old\n# of objects | 42 | 6,310 | 15,204\n# of visitors | 870 | 2,045 | 512", "", "")
	for _, tc := range []struct {
		name, question string
		tabs           []Table
		want           string // item names and figures, measure
	}{
		{"rows named", "How many posts are by Harbourline, Skyward and Aerodyne", byRows, "Harbourline 24; Skyward 12; Aerodyne 5 in Posts"},
		{"two rows in the other column", "followers of Harbourline and Skyward", byRows, "Harbourline 1,200; Skyward 3,400 in Followers"},
		{"columns named by a word they share", "How many objects of the museum collections", byCols, "Museum-east 42; Museum-west 6,310 in # of objects"},
		{"an item the table lacks", "How many posts are by Harbourline and Northwind", byRows, ""},
		{"one item only", "How many posts are by Harbourline", byRows, ""},
		{"no measure named", "Harbourline and Skyward", byRows, ""},
		{"no item named", "posts of every account", byRows, ""},
		{"every column named", "objects of the museum-east and museum-west and archive collections", byCols, "Museum-east 42; Museum-west 6,310; Archive-old 15,204 in # of objects"},
	} {
		q := query(tc.question)
		for _, w := range []string{"how", "many", "are", "by"} { // asking words: the caller's to drop
			delete(q.Terms, w)
		}
		c, ok := Combine(tc.tabs, simpleWords, q)
		got := ""
		if ok {
			var parts []string
			for _, it := range c.Items {
				parts = append(parts, it.Name+" "+it.Value)
			}
			got = strings.Join(parts, "; ") + " in " + c.Measure
		}
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
