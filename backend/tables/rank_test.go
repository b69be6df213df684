package tables

import "testing"

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
