package main

import (
	"strings"
	"testing"

	"cairn/backend/ingest/parsed"
	"cairn/backend/ingest/pdf"
)

func TestPagewiseTokens(t *testing.T) {
	got := strings.Join(pagewiseTokens("Naïve Q3-2024 résumé 知识图谱 データ"), " ")
	if want := "na ve q3 2024 r sum 知 识 图 谱 デ ー タ"; got != want {
		t.Errorf("tokens %q, want %q", got, want)
	}
}

func TestHeadingRecall(t *testing.T) {
	doc := &parsed.Document{Blocks: []parsed.Block{
		{Page: 1, Kind: parsed.BlockHeading, Text: "1 Introduction"},
		{Page: 1, Kind: parsed.BlockParagraph, Text: "Some words about scope and aims."},
		{Page: 3, Kind: parsed.BlockParagraph, Text: "2.1 Related work"},
		{Page: 4, Kind: parsed.BlockHeading, Text: "Results"},
	}}
	pages := []string{"1 Introduction\n\nSome words about scope and aims.", "", "2.1 Related work", "Results"}
	bms := []pdf.Bookmark{
		{Title: "Introduction", Depth: 1, Page: 1},     // found: the section number aside
		{Title: "Cover", Depth: 1, Page: 1},            // not printed: not findable
		{Title: "2.1 Related work", Depth: 2, Page: 3}, // printed, not a heading
		{Title: "3 Results", Depth: 1, Page: 3},        // a heading on the next page
		{Title: "4", Depth: 1, Page: 4},                // no letter: left out
	}
	findable, found, missed := headingRecall(doc, pages, bms)
	if findable != 3 || found != 2 || len(missed) != 1 || !strings.Contains(missed[0], "Related work") {
		t.Errorf("findable %d found %d missed %q, want 3, 2 and the related-work bookmark", findable, found, missed)
	}
}
