package tables

import (
	"math"
	"testing"
)

func TestRank(t *testing.T) {
	tabs := Parse("Notional amounts\nAt June 30, | 2025 | 2024\nRate swaps | $ 19,779 | $ 17,768\nCurrency swaps | 32,502 | 26,288\nForwards | 932 | 1,405\nTotal | 53,213 | 45,461", "", "")
	r, ok := Rank(tabs, 0, []int{2025}, true, nil)
	if !ok || tabs[0].Rows[r.Row].Label != "Currency swaps" || r.Value != "32,502" || r.Rows != 3 {
		t.Fatalf("most: %+v %v", r, ok)
	}
	r, ok = Rank(tabs, 0, []int{2024}, false, nil)
	if !ok || tabs[0].Rows[r.Row].Label != "Forwards" || r.Value != "1,405" {
		t.Fatalf("least: %+v %v", r, ok)
	}
	r, ok = Rank(tabs, 0, []int{2025}, true, map[int]bool{0: true, 2: true})
	if !ok || tabs[0].Rows[r.Row].Label != "Rate swaps" {
		t.Fatalf("most of the rows named: %+v %v", r, ok)
	}
	if _, ok := Rank(tabs, 0, []int{2019}, true, nil); ok {
		t.Error("ranked in a year the table has no column for")
	}
	one := Parse("Rates\nAt June 30, | 2025\nRate swaps | 5", "", "")
	if _, ok := Rank(one, 0, nil, true, nil); ok {
		t.Error("ranked one row")
	}
}

// TestRankChange: the row that fell most by percent, by amount, the row
// that rose most, the later year's first column group (three months
// before six), the total left out, the earlier year found before the later
// one too, and no ranking without the year before.
func TestRankChange(t *testing.T) {
	tabs := Parse("Revenues by region\n(MILLIONS) | 2025 | 2024 | Change | 2025 | 2024 | Change\n"+
		"Northmark | $ 6,185 | $ 11,222 | (45) $ | 14,692 | $ 20,140 | (27)\n"+
		"Eastvale | 2,415 | 5,480 | (56) | 5,236 | 11,569 | (55)\n"+
		"Southfen | 1,305 | 5,034 | (74) | 3,778 | 8,320 | (55)\n"+
		"Westreach | 2,828 | 2,006 | 41 | 7,308 | 3,373 | 117\n"+
		"Revenues | $ 12,733 | $ 23,742 | (46) $ | 31,014 | $ 43,402 | (29)", "", "")
	for _, tc := range []struct {
		name        string
		year        int
		up, percent bool
		want        string
		moved       float64
	}{
		{"fell most by percent", 2025, false, true, "Southfen", -74.08},
		{"fell most by amount", 2025, false, false, "Northmark", -5037},
		{"rose most", 2025, true, true, "Westreach", 40.98},
		{"latest year when none asked", 0, false, true, "Southfen", -74.08},
	} {
		c, ok := RankChange(tabs, 0, tc.year, tc.up, tc.percent)
		if !ok || tabs[0].Rows[c.Row].Label != tc.want || math.Abs(c.Moved-tc.moved) > 0.01 || c.Rows != 4 || c.Col != 0 || c.OldCol != 1 {
			t.Errorf("%s: %+v %v, want %s moved %.2f among 4 rows, value columns 0 and 1", tc.name, c, ok, tc.want, tc.moved)
		}
	}
	first := Parse("Units sold\nYear | 2024 | 2025\nNorthmark | 10 | 30\nEastvale | 20 | 25", "", "")
	if c, ok := RankChange(first, 0, 2025, true, false); !ok || first[0].Rows[c.Row].Label != "Northmark" || c.OldValue != "10" {
		t.Errorf("earlier year before the later: %+v %v", c, ok)
	}
	if _, ok := RankChange(first, 0, 2024, true, false); ok {
		t.Error("ranked a change without the year before")
	}
}

// TestRankColumns: a statement by segment set out over two tables under
// one another; the row named ranks the segments of the year asked, the
// "Total" column left out, the latest year when none is asked.
func TestRankColumns(t *testing.T) {
	tabs := Parse("Results by segment\n"+
		"Three months ended March 31, | Retail Banking |  |  | Wholesale Bank |  |\n"+
		"(in millions) | 2025 | 2024 | Change | 2025 | 2024 | Change\n"+
		"Total net revenue | $ 12,517 | $ 13,287 | (6) % | $ 14,605 | $ 10,003 | 46 %\n"+
		"Net income | 6,728 | 197 | NM | 5,740 | 1,985 | 189\n"+
		"Three months ended March 31, | Treasury |  |  |  | Total |  |\n"+
		"(in millions) | 2025 | 2024 | Change | 2025 | 2024 | Change\n"+
		"Total net revenue | $ (473) | $ 166 | NM | $ 26,649 | $ 23,456 | 14 %\n"+
		"Net income | 12 | 40 | NM | 12,480 | 2,222 | NM", "", "")
	if len(tabs) != 2 {
		t.Fatalf("%d tables", len(tabs))
	}
	rev := map[int]int{0: 0, 1: 0}
	c, ok := RankColumns(tabs, rev, 2025, false)
	if !ok || c.Item != "Treasury" || c.Value != "$ (473)" || c.Items != 3 {
		t.Errorf("lowest revenue: %+v %v", c, ok)
	}
	c, ok = RankColumns(tabs, map[int]int{0: 1, 1: 1}, 0, true)
	if !ok || c.Item != "Retail Banking" || c.Year != 2025 || c.Items != 3 {
		t.Errorf("highest net income, latest year: %+v %v", c, ok)
	}
	c, ok = RankColumns(tabs, rev, 2024, true)
	if !ok || c.Item != "Retail Banking" || c.Number != 13287 {
		t.Errorf("highest revenue in 2024: %+v %v", c, ok)
	}
	// The panels ranked in the other order (a table split between two
	// passages, the later passage's panel read first): of four figures or
	// more, the total is left out wherever it stands.
	swapped := []Table{tabs[1], tabs[0]}
	c, ok = RankColumns(swapped, map[int]int{0: 1, 1: 1}, 2025, true)
	if !ok || c.Item != "Retail Banking" || c.Items != 3 {
		t.Errorf("highest net income, the total's panel first: %+v %v", c, ok)
	}
}

func TestTotalOfRows(t *testing.T) {
	tab := Parse("Takings by branch\n"+
		"(Thousands) | 2025 | 2024\n"+
		"Harbour branch | 1,540 | 1,610\n"+
		"Market branch | 930 | 1,240\n"+
		"Station branch | 2,205 | 2,180\n"+
		"Takings | 4,676 | 5,030\n"+
		"Staff | 41 | 44", "", "Shops")[0]
	for ri, want := range []bool{false, false, false, false, false} {
		if got := TotalOfRows(tab, ri); got != want {
			t.Errorf("row %d (%s): %v, want %v", ri, tab.Rows[ri].Label, got, want)
		}
	}
	tab.Rows = tab.Rows[:4] // the staff row gone, takings add up (to a rounding)
	if !TotalOfRows(tab, 3) || TotalOfRows(tab, 0) {
		t.Errorf("the takings row is the branches' total: %v", TotalOfRows(tab, 3))
	}
}
