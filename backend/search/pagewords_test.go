package search

import (
	"slices"
	"strings"
	"testing"

	"cairn/backend/kb"
	"cairn/backend/question"
	"cairn/backend/store"
)

func TestPageWordsList(t *testing.T) {
	// Page 1 holds the question's words between two passages: its heading
	// and introduction, then the table under them. Page 2 is one passage
	// of its own; page 3 repeats one word in a passage of a longer page.
	page1 := "Warehouse sites\nAt the year end the cooperative ran these sites:\n| North | 12 |\n| South | 9 |"
	page2 := "The cooperative sites, the cooperative sites, the cooperative sites."
	page3 := "Sites are inspected each spring.\nOther matters of the year follow here at length."
	pages := map[store.PageRef]kb.Page{
		{Doc: 1, Number: 1}: {DocID: 1, Number: 1, CharStart: 0, Text: page1},
		{Doc: 1, Number: 2}: {DocID: 1, Number: 2, CharStart: len(page1) + 1, Text: page2},
		{Doc: 1, Number: 3}: {DocID: 1, Number: 3, CharStart: len(page1) + len(page2) + 2, Text: page3},
	}
	passage := func(id int64, page int, text string) kb.Hit {
		p := pages[store.PageRef{Doc: 1, Number: page}]
		at := p.CharStart + strings.Index(p.Text, text)
		return kb.Hit{Chunk: kb.Chunk{ID: id, DocID: 1, PageStart: page, PageEnd: page, CharStart: at, CharEnd: at + len(text), Text: text}}
	}
	hits := []kb.Hit{
		passage(30, 3, "Sites are inspected each spring."),
		passage(20, 2, page2),
		passage(11, 1, "Warehouse sites\nAt the year end the cooperative ran these sites:"),
		passage(12, 1, "| North | 12 |\n| South | 9 |"),
	}
	idf := func(w string) float64 {
		switch w {
		case "warehous", "cooper":
			return 2
		case "site", "run", "ran":
			return 1
		}
		return 0
	}
	q := question.New("How many warehouse sites did the cooperative run?")
	got := pageWordsList(q, hits, pages, idf)
	if want := []int64{11, 12, 30}; !slices.Equal(got, want) {
		t.Errorf("pageWordsList = %v, want %v (the page holding the words first, both its passages; not the passage that is its whole page)", got, want)
	}
	if refs := pageRefs(hits); len(refs) != 3 {
		t.Errorf("pageRefs = %v, want the three pages once each", refs)
	}
}
