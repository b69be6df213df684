package project

import (
	"testing"
	"time"

	"cairn/backend/kb"
	"cairn/backend/tables"
)

// An organisation's annual reports give the day its fiscal years end on to
// every one of its documents; most of them decide; an organisation without
// an annual report gives none.
func TestFiscalEndsOf(t *testing.T) {
	docs := []kb.Document{
		{ID: 1, Organisation: "Brightwell Stores", Period: "FY ended Jan 25, 2025"},
		{ID: 2, Organisation: "Brightwell Stores", Period: "FY ended Feb 1, 2020"},
		{ID: 3, Organisation: "Brightwell Stores", Period: "FY ended Jan 25, 2019"},
		{ID: 4, Organisation: "Brightwell Stores", Period: "quarter ended Jul 26, 2025"},
		{ID: 5, Organisation: "Orrin Mills", Period: "FY2019"},
		{ID: 6, Organisation: "Velden Kettle", Period: "Q2 2023"},
		{ID: 7, Period: "FY ended Jun 30, 2020"},
	}
	got := FiscalEndsOf(docs)
	jan25 := tables.FiscalEnd{Month: time.January, Day: 25}
	want := map[int64]tables.FiscalEnd{1: jan25, 2: jan25, 3: jan25, 4: jan25, 5: {Month: time.December, Day: 31}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("document %d: %v, want %v", id, got[id], w)
		}
	}
}
