package pdf

import (
	"reflect"
	"testing"

	"cairn/backend/ingest/parsed"
)

func TestNestUnderLabels(t *testing.T) {
	type h struct {
		text  string
		level int
	}
	for _, c := range []struct {
		name string
		in   []h
		want []int
	}{
		{"a report's parts hold its items, its items their sections", []h{
			{"ACME WIDGET WORKS", 1},
			{"Commission file number 7-1234", 2},
			{"Item 1. Business", 2},
			{"Available Information", 2},
			{"Item 1A. Risk Factors", 2},
			{"PART II", 2},
			{"Item 5. Market for Shares", 2},
			{"Liquidity and Capital Resources", 2},
			{"Note 3 – Leases", 3},
		}, []int{1, 2, 3, 4, 3, 2, 3, 4, 3}},
		{"items hold the notes inside one of them", []h{
			{"PART I", 2},
			{"Item 1. Financial Statements", 2},
			{"Note 1. Basis of Presentation", 2},
			{"Note 2. Revenue", 2},
			{"Note 3. Leases", 2},
			{"Note 4. Segments", 2},
			{"Segment Details", 2},
			{"Item 2. Discussion and Analysis", 2},
			{"PART II", 2},
			{"Item 1. Legal Proceedings", 2},
		}, []int{2, 3, 4, 4, 4, 4, 4, 3, 2, 3}},
		{"items hold the notes inside one of them, fewer than the items", []h{
			{"Item 1. Business", 2},
			{"Item 2. Properties", 2},
			{"Item 8. Financial Statements", 2},
			{"Note 1. Basis of Presentation", 2},
			{"Note 2. Revenue", 2},
			{"Item 9. Controls", 2},
			{"Item 10. Directors", 2},
		}, []int{2, 2, 2, 3, 3, 2, 2}},
		{"a decimal number keeps its level and ends the label's reach", []h{
			{"Theorem 1. Upper Bound", 2},
			{"Proof Sketch", 2},
			{"3.1 Setup", 2},
			{"Remarks", 2},
			{"Theorem 2. Tightness", 2},
		}, []int{2, 3, 2, 2, 2}},
		{"no label word used twice: levels by style", []h{
			{"Chapter 1: Beginnings", 1},
			{"The Valley", 1},
			{"Table 2: Sites", 1},
			{"Table 3: Yields", 1},
		}, []int{1, 1, 1, 1}},
		{"nothing deeper than the deepest level", []h{
			{"Part I", 3},
			{"Item 1. Scope", 3},
			{"Item 2. Terms", 3},
			{"Definitions", 3},
		}, []int{3, 4, 4, 4}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var blocks []parsed.Block
			for _, x := range c.in {
				blocks = append(blocks, parsed.Block{Kind: parsed.BlockHeading, Text: x.text, Level: x.level},
					parsed.Block{Kind: parsed.BlockParagraph, Text: "Body text follows the heading."})
			}
			nestUnderLabels(blocks)
			var got []int
			for _, b := range blocks {
				if b.Kind == parsed.BlockHeading {
					got = append(got, b.Level)
				}
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("levels %v, want %v", got, c.want)
			}
		})
	}
}
