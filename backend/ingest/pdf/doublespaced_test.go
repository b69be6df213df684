package pdf

import (
	"strings"
	"testing"
)

// A page set double-spaced (a loan agreement's clauses, 11 pt lines 24 pt
// apart): each paragraph's lines are one paragraph, not a paragraph per
// line; a numbered item set as far apart stays an item of its own, and a
// paragraph ends at its short last line.
func TestDoubleSpacedParagraphs(t *testing.T) {
	lines := []placedText{
		{72, 700, "This agreement is made between the parties named below and sets out the"},
		{72, 676, "terms on which the first party lends the second party the sum stated in"},
		{72, 652, "the schedule, to be repaid in equal parts over the period agreed there."},
		{108, 628, "Each party may end this agreement by notice in writing to the other one"},
		{72, 604, "given no later than thirty days before the end of any year of the loan."},
		{72, 580, "1. The borrower pays the interest due on the first day of every month and"},
		{72, 556, "2. The lender sends the borrower a statement of the loan after each year"},
	}
	blocks := blocksOfStream(t, placedStream(11, lines...))
	var paras []string
	for _, b := range blocks {
		paras = append(paras, strings.ReplaceAll(b.Text, "\n", " "))
	}
	want := []string{
		lines[0].text + " " + lines[1].text + " " + lines[2].text,
		lines[3].text + " " + lines[4].text,
	}
	for _, w := range want {
		found := false
		for _, p := range paras {
			if p == w {
				found = true
			}
		}
		if !found {
			t.Errorf("no paragraph %q among:\n%s", w, strings.Join(paras, "\n"))
		}
	}
	for _, p := range paras {
		if strings.Contains(p, "1. The borrower") && strings.Contains(p, "2. The lender") {
			t.Errorf("two numbered items read as one paragraph: %q", p)
		}
	}
}

// The same lines single-spaced but for a wider gap before each item
// (list items set apart on a page of single-spaced text) are not joined
// either: the page is not double-spaced.
func TestItemsApartOnSingleSpacedPage(t *testing.T) {
	lines := []placedText{
		{72, 700, "Indicate by check mark whether the registrant has filed all reports that"},
		{72, 687, "were required to be filed by the rules during the preceding twelve months"},
		{72, 674, "and has been subject to such filing requirements for the past ninety days."},
		{72, 661, "Indicate by check mark whether the registrant has submitted every file it"},
		{72, 648, "was required to submit electronically during the preceding twelve months."},
		{72, 624, "Written communications pursuant to the rules on business combinations of"},
		{72, 600, "Soliciting material pursuant to the rules on proxy solicitations of votes"},
	}
	blocks := blocksOfStream(t, placedStream(11, lines...))
	for _, b := range blocks {
		if strings.Contains(b.Text, "Written communications") && strings.Contains(b.Text, "Soliciting material") {
			t.Errorf("items set apart on a single-spaced page joined: %q", b.Text)
		}
	}
}

// Sentences set large or bold are no headings; long titles in title case
// and one-sentence headlines are.
func TestReadsAsProse(t *testing.T) {
	for text, want := range map[string]bool{
		"1. Lending of Widgets. The lender lends the widgets on the first day of each month shown on the schedule.":                true,
		"(b) Returns. Until the widgets are returned, the borrower keeps them at the address given in the notice.":                 true,
		"borrower, as the case may be) may be required to pay the fees of more than one widget lender.":                            true,
		"• Failure to follow the instructions for the widget press can result in serious injury to the user.":                      true,
		"By signing the notice or otherwise accepting the widgets, the borrower agrees to be bound by all terms of the agreement.": true,
		"Item 7. Management's Discussion and Analysis of Financial Condition and Results of Widget Operations.":                    false,
		"Most widget owners say that the new presses have made their work in the workshop easier.":                                 false,
		"Widgets lent in the year": false,
	} {
		if got := readsAsProse(text); got != want {
			t.Errorf("readsAsProse(%q) = %v", text, got)
		}
	}
}
