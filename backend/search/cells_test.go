package search

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"cairn/backend/kb"
	"cairn/backend/question"
)

func TestPeriodStems(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"What goodwill does Kestrel have for the fiscal year ending January 28, 2023?", []string{"end", "fiscal", "januari", "year"}},
		{"Net sales in the quarter ended June 30?", []string{"end", "june", "quarter"}},
		{"Revenue in fiscal 2023", nil},
		{"What was the backlog in Sept. 2022?", []string{"sept"}},
		{"What may the mill sell?", nil},
		{"How many years did the plan run?", nil},
	} {
		got := slices.Sorted(maps.Keys(periodStems(tc.text)))
		if !slices.Equal(got, tc.want) {
			t.Errorf("periodStems(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// flatIDF weighs every stem alike: the tests below turn on which words
// a label or a column holds, not on their rarity.
func flatIDF(string) float64 { return 1 }

// A row label the question names whole outranks a sentence read as a row
// that holds one of the question's words among many, and the question's
// period names no row: a table headed "Fiscal Years Ended January 28,
// 2023" is not the goodwill row for it.
func TestRowListWeighsLabelsByTheirShareNamed(t *testing.T) {
	q := question.New("What goodwill did Kestrel carry for the fiscal year ending January 28, 2023?")
	hits := []kb.Hit{
		{Chunk: kb.Chunk{ID: 1, Text: "Our ratings as of March 15, | 2023, | remained as disclosed for the fiscal year ended |\nJanuary 29, 2022, and below, goodwill aside. | |\nAgency | Rating"}},
		{Chunk: kb.Chunk{ID: 2, Text: "Fiscal Years Ended | January 28, 2023 | January 29, 2022\nRevenue | 46,298 | 51,761\nCost of sales | 36,386 | 40,121"}},
		{Chunk: kb.Chunk{ID: 3, Text: "$ in millions | January 28, 2023 | January 29, 2022\nTotal current assets | 12,129 | 14,185\nGoodwill | 1,383 | 1,384\nTotal assets | 15,803 | 17,504"}},
	}
	if got := rowList(q, hits, flatIDF); len(got) == 0 || got[0] != 3 {
		t.Errorf("rowList = %v, want passage 3 (the goodwill row) first", got)
	}
	if got := rowList(q, hits[1:2], flatIDF); len(got) != 0 {
		t.Errorf("rowList = %v: a table matched on the question's period alone", got)
	}
}

// A table holding the row the question names in the column of the year
// it asks ranks above one that holds the row only for other years; a
// question naming no year, or asking whether, gets no cell list.
func TestCellList(t *testing.T) {
	table := func(id int64, years [2]int, goodwill string) kb.Hit {
		return kb.Hit{Chunk: kb.Chunk{ID: id, Text: fmt.Sprintf("$ in millions | %d | %d\nInventories | 5,140 | 5,965\nGoodwill | %s | 1,450\nTotal assets | 15,803 | 17,504", years[0], years[1], goodwill)}}
	}
	hits := []kb.Hit{
		{Chunk: kb.Chunk{ID: 1, Text: "Goodwill is tested for impairment each year in the fourth quarter of 2023."}},
		table(2, [2]int{2021, 2020}, "1,384"),
		{Chunk: kb.Chunk{ID: 3, Text: "$ in millions | 2023 | 2022\nRevenue | 46,298 | 51,761\nCost of sales | 36,386 | 40,121"}},
		table(4, [2]int{2023, 2022}, "1,383"),
	}
	if got := cellList(question.New("What goodwill did Kestrel carry at the end of fiscal 2023?"), hits, flatIDF); !slices.Equal(got, []int64{4}) {
		t.Errorf("cellList = %v, want [4]: the goodwill row in a 2023 column", got)
	}
	for _, q := range []string{
		"What goodwill did Kestrel carry?",
		"Did Kestrel write down goodwill in 2023?",
	} {
		if got := cellList(question.New(q), hits, flatIDF); got != nil {
			t.Errorf("cellList(%q) = %v, want none", q, got)
		}
	}
}
