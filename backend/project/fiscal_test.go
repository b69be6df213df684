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
		{ID: 1, Organisation: "Brightwell Stores", Period: "FY ended Jan 28, 2023"},
		{ID: 2, Organisation: "Brightwell Stores", Period: "FY ended Feb 2, 2019"},
		{ID: 3, Organisation: "Brightwell Stores", Period: "FY ended Jan 28, 2017"},
		{ID: 4, Organisation: "Brightwell Stores", Period: "quarter ended Jul 29, 2023"},
		{ID: 5, Organisation: "Orrin Mills", Period: "FY2019"},
		{ID: 6, Organisation: "Velden Kettle", Period: "Q2 2023"},
		{ID: 7, Period: "FY ended Jun 30, 2020"},
	}
	got := FiscalEndsOf(docs)
	jan28 := tables.FiscalEnd{Month: time.January, Day: 28}
	want := map[int64]tables.FiscalEnd{1: jan28, 2: jan28, 3: jan28, 4: jan28, 5: {Month: time.December, Day: 31}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("document %d: %v, want %v", id, got[id], w)
		}
	}
}
