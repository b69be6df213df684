package reason

import (
	"testing"

	"cairn/backend/kb"
	"cairn/backend/question"
	"cairn/backend/tables"
)

// A segment table set in two panels and split between two passages, the
// second passage also holding the six months' first panel: a quarter's
// ranking reads both panels of the three months (the total left out), not
// the six months'.
func TestRankedGroupJoinsASplitTable(t *testing.T) {
	first := "Segment results\n" +
		"Three months ended June 30, | Retail Widgets |  |  | Wholesale Widgets |  |\n" +
		"(in millions) | 2025 | 2024 | Change | 2025 | 2024 | Change\n" +
		"Net income | 1,100 | 900 | 22 | 1,380 | 1,200 | 15\n" +
		"Three months ended June 30, | Widget Finance |  |  |  | Total |  |\n" +
		"(in millions) | 2025 | 2024 | Change | 2025 | 2024 | Change\n" +
		"Total net revenue | $ 410 | $ 380 | 8 % | $ 9,620 | $ 9,100 | 6 %"
	second := "Net income | 120 | 95 | 26 | 2,600 | 2,195 | 18\n" +
		"Six months ended June 30, | Retail Widgets |  |  | Wholesale Widgets |  |\n" +
		"(in millions) | 2025 | 2024 | Change | 2025 | 2024 | Change\n" +
		"Net income | 2,050 | 1,700 | 21 | 2,710 | 2,300 | 18"
	header := "Three months ended June 30, | Widget Finance |  |  |  | Total |  |\n(in millions) | 2025 | 2024 | Change | 2025 | 2024 | Change"
	ev := []Evidence{
		{N: 1, Hit: kb.Hit{Chunk: kb.Chunk{ID: 8, DocID: 1, Text: second, TableHeader: header}}},
		{N: 2, Hit: kb.Hit{Chunk: kb.Chunk{ID: 7, DocID: 1, Text: first}}},
	}
	var all []tables.Table
	byPassage := map[int]map[int]int{}
	for i, e := range ev {
		for _, tb := range tables.Parse(e.Hit.Text, e.Hit.TableHeader, "") {
			for ri, r := range tb.Rows {
				if r.Label == "Net income" {
					if byPassage[i] == nil {
						byPassage[i] = map[int]int{}
					}
					byPassage[i][len(all)] = ri
				}
			}
			all = append(all, tb)
		}
	}
	u := &run{q: question.New("In Q2 2025, which Widgetco segment had the highest net income?")}
	group := u.rankedGroup(ev, all, byPassage, 0)
	c, ok := tables.RankColumns(all, group, 2025, true)
	if !ok || c.Item != "Wholesale Widgets" || c.Items != 3 {
		t.Errorf("ranked %+v %v over tables %v", c, ok, group)
	}
}
