package search

import (
	"fmt"
	"testing"

	"cairn/backend/kb"
	"cairn/backend/question"
)

func TestNamedSection(t *testing.T) {
	const title = "Northwind Holdings — Annual Report 2024"
	for _, tc := range []struct {
		question string
		path     []string
		want     int
	}{
		// A caption's line names the statement (3 of its 4 content words).
		{"What were Northwind's 2024 purchases of equipment, as shown in the cash flow statement?",
			[]string{"Report of the auditors", "Northwind Holdings — Consolidated Statements of Cash Flows — (In millions)"}, 3},
		{"According to the balance sheet, what were total assets?", []string{"Consolidated Balance Sheets"}, 2},
		// Two of six words are too few: a note about cash flows is not the statement.
		{"What does the cash flow statement show?", []string{"Note 9. Supplemental Cash Flow Information"}, 0},
		// One word never names a section.
		{"What was the revenue?", []string{"Revenue"}, 0},
		// The document's own title words do not count.
		{"What does the Northwind annual report say about risk?", []string{"Annual Report"}, 0},
		{"Which risks does the report name?", nil, 0},
	} {
		if got := NamedSection(question.New(tc.question), title, tc.path); got != tc.want {
			t.Errorf("NamedSection(%q, %q) = %d, want %d", tc.question, tc.path, got, tc.want)
		}
	}
}

// A question that names the statement it asks about finds the statement's
// passage, although the passage is figures and shares few of its words,
// while passages of prose that repeat the question's words rank below it
// without the named list.
func TestNamedStatementIsFound(t *testing.T) {
	st := testStore(t)
	var chunks []kb.Chunk
	var pages []kb.Page
	add := func(page int, path []string, header, text string) {
		chunks = append(chunks, kb.Chunk{Ordinal: len(chunks), PageStart: page, PageEnd: page, CharEnd: len(text), Text: text, HeadingPath: path, TableHeader: header})
		pages = append(pages, kb.Page{Number: page, Text: text})
	}
	for i := range 12 {
		add(i+1, []string{"Management's discussion", fmt.Sprintf("Topic %d", i)}, "",
			fmt.Sprintf("The 2024 capital expenditure amount, in millions, rests on the cash flow forecasts and the statement of plans for region %d.", i))
	}
	add(40, []string{"Report of the auditors", "Northwind Holdings — Consolidated Statements of Cash Flows — Years ended December 31"}, "(Millions) | 2024 | 2023",
		"Net income | 5,120 | 4,870\nDepreciation | 1,410 | 1,380\nPurchases of equipment | (1,577) | (1,373)\nProceeds from sales of assets | 262 | 49")
	saveDoc(t, st, "Northwind Holdings — Annual Report 2024", "pdf", pages, chunks)
	const q = "What is the 2024 capital expenditure amount in millions? Rely on the cash flow statement."
	rank := func(set Settings) int { return rankOfPage(t, st, set, q, 5, 40) }
	set := DefaultSettings()
	// The prose here holds the question's words in one clause, so the
	// window list (TestCloseWordsAreFound) rightly lifts it; this test
	// weighs the statement against the lexical and vector lists alone.
	set.WindowWeight = 0
	if r := rank(set); r != 1 {
		t.Errorf("the named statement ranks %d in the top 5, want 1", r)
	}
	set.NamedWeight = 0
	if r := rank(set); r == 1 {
		t.Errorf("without the named list the statement ranks first too: the test does not test it")
	}
}

// The document's name set as its running top heading is no section the
// question names, though the question names the company.
func TestNamedSectionLeavesOutTheDocumentsName(t *testing.T) {
	q := "What drove Northwind's operating margin change? If margin is not useful for a company like this, say why."
	if got := NamedSection(question.New(q), "Northwind Company — Form 10-K 2024 — UNITED STATES SECURITIES AND EXCHANGE COMMISSION", []string{"NORTHWIND COMPANY", "Notices"}); got != 0 {
		t.Errorf("NamedSection = %d, want 0", got)
	}
}
