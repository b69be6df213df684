package search

import (
	"fmt"
	"testing"

	"cairn/backend/kb"
)

func TestRowLabel(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"Goodwill 242 | 223", "Goodwill"},
		{"Accounts receivable, net $ 4,463 | $ 2,749", "Accounts receivable, net"},
		{"Retained earnings (deficit) 3,179 | (191)", "Retained earnings (deficit)"},
		{"Current portion of long-term debt $ — | $ 3", "Current portion of long-term debt"},
		{"Net sales | 1,654.3 | 1,647.7", "Net sales"},
		{"2021 | 2020", ""},
		{"A sentence without cells.", ""},
	} {
		if got := rowLabel(tc.line); got != tc.want {
			t.Errorf("rowLabel(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

// A question about a figure finds the statement whose row labels hold its
// words ("current" in "Total current assets" and "Total current
// liabilities"), though prose that repeats the question's words ranks
// above the statement without the rows list.
func TestNamedRowsAreFound(t *testing.T) {
	st := testStore(t)
	var chunks []kb.Chunk
	var pages []kb.Page
	add := func(page int, path []string, text string) {
		chunks = append(chunks, kb.Chunk{Ordinal: len(chunks), PageStart: page, PageEnd: page, CharEnd: len(text), Text: text, HeadingPath: path})
		pages = append(pages, kb.Page{Number: page, Text: text})
	}
	for i := range 8 {
		add(i+1, []string{"Risk factors", fmt.Sprintf("Risk %d", i)},
			fmt.Sprintf("The current covenant ratio in our credit agreement for fiscal 2024 may limit how we round out region %d; the ratio is tested each quarter.", i))
	}
	add(30, []string{"Consolidated Balance Sheets"},
		"(In millions) | 2024 | 2023\nCash and equivalents $ 9,889 | $ 8,348\nInventories 6,854 | 7,367\nTotal current assets 26,291 | 20,556\nGoodwill 242 | 223\nAccounts payable 2,836 | 2,248\nAccrued liabilities 6,063 | 5,184\nTotal current liabilities 9,674 | 8,284\nLong-term debt 9,413 | 9,406")
	saveDoc(t, st, "Northwind Holdings — Annual Report 2024", "pdf", pages, chunks)
	const q = "What is the current ratio for fiscal 2024? Round your answer to two decimal places."
	rank := func(set Settings) int { return rankOfPage(t, st, set, q, 5, 30) }
	set := DefaultSettings()
	// The prose here holds the question's words in one clause, so the
	// window list (TestCloseWordsAreFound) rightly lifts it; this test
	// weighs the statement against the lexical and vector lists alone.
	set.WindowWeight = 0
	if r := rank(set); r == 0 || r > 2 {
		t.Errorf("the balance sheet ranks %d in the top 5, want 1 or 2", r)
	}
	set.RowsWeight = 0
	if r := rank(set); r != 0 && r <= 2 {
		t.Errorf("without the rows list the balance sheet ranks %d: the test does not test it", r)
	}
}
