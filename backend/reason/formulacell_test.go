package reason_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"cairn/backend/evalset"
	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/reason"
)

// A made-up company's statements, each its own passage, and a question
// that states how its figure is computed from rows of both: the answer
// leads with the formula worked out, every operand's row cited.
func TestOfflineAnswerFromStatedFormula(t *testing.T) {
	corpus := []evalset.Passage{
		{ID: "earnings", Title: "Gadgetco statement of earnings", Text: "Consolidated Statement of Earnings\n" +
			"(Thousands) | 2025 | 2024 | 2023\n" +
			"Gadget sales | $ 12,000 | $ 10,000 | $ 9,000\n" +
			"Cost of gadgets sold | (7,000) | (6,000) | (5,500)\n" +
			"Net earnings | $ 1,500 | $ 1,200 | $ 1,000"},
		{ID: "position", Title: "Gadgetco statement of position", Text: "Consolidated Statement of Position\n" +
			"(Thousands) | 2025 | 2024\n" +
			"Gadget stock | 2,000 | 1,000\n" +
			"Total current assets | 5,000 | 4,000\n" +
			"Total assets | 11,000 | 9,000\n" +
			"Total current liabilities | 2,500 | 2,000"},
		{ID: "note", Title: "Gadgetco note on the working ratio of its gadget leasing arm", Text: "Working ratio of the leasing arm\n" +
			"(Thousands) | 2025 | 2024\n" +
			"Total current assets | 900 | 800\n" +
			"Leases receivable | 400 | 300"},
		{ID: "board", Title: "Gadgetco board", Text: "The board of Gadgetco meets four times a year. Its chair is elected by the members for a term of three years."},
	}
	st := corpusStore(t, corpus)
	r := newReasoner(st, llm.Offline{})
	a, err := r.Quick(context.Background(), "What is Gadgetco's 2025 return on assets? Return on assets is defined as: 2025 net earnings / (average total assets between 2024 and 2025). Round to two decimals.", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "Return on assets 2025 = net earnings 2025 1,500 / ((total assets 2024 9,000 + total assets 2025 11,000) / 2) = 0.15"
	if a.Formula != want {
		t.Fatalf("formula %q\nwant    %q\nanswer %q", a.Formula, want, a.Answer)
	}
	if len(a.Cells) != 3 || a.Cells[1].Row != "Total assets" || a.Cells[1].Year != 2024 || a.Cells[0].Row != "Net earnings" {
		t.Errorf("cells %+v", a.Cells)
	}
	// The text leads with the formula exactly as the field states it (the
	// Ask view then shows it once).
	if !strings.HasPrefix(a.Answer, a.Formula+". From the tables: ") {
		t.Errorf("answer %q does not lead with the formula %q", a.Answer, a.Formula)
	}
	for i, c := range a.Citations[:3] {
		if c.N != i+1 || !strings.HasPrefix(c.Text, a.Cells[i].Row+" |") {
			t.Errorf("citation %d: %+v", i, c)
		}
	}
	checkProvenance(t, st, a)
	var tr reason.Trace
	if err := json.Unmarshal(a.Trace, &tr); err != nil || tr.AnswerBy != "table" || tr.Formula == nil || len(tr.Formula.Found) != 3 {
		t.Errorf("trace: answer_by %q formula %+v (%v)", tr.AnswerBy, tr.Formula, err)
	}

	// An instruction with word operators and a change between years.
	a, err = r.Quick(context.Background(), "Define the stock turn as cost of gadgets sold divided by the change in gadget stock between 2024 and 2025. What is Gadgetco's stock turn in 2025?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := "stock turn 2025 = cost of gadgets sold 2025 7,000 / (gadget stock 2025 2,000 − gadget stock 2024 1,000) = 7"; a.Formula != want || !strings.HasPrefix(a.Answer, want+". ") {
		t.Errorf("formula %q\nwant    %q\nanswer %q", a.Formula, want, a.Answer)
	}

	// Both figures from the statement that holds them both, not one from
	// a note whose title shares the question's words.
	a, err = r.Quick(context.Background(), "What was Gadgetco's working ratio in 2025? Define the working ratio as total current assets divided by total current liabilities.", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := "working ratio 2025 = total current assets 2025 5,000 / total current liabilities 2025 2,500 = 2"; a.Formula != want || !strings.HasPrefix(a.Answer, want+". ") {
		t.Errorf("formula %q\nwant    %q\nanswer %q", a.Formula, want, a.Answer)
	}

	// A percentage asked for: the formula's line carries it, in the field
	// as in the text.
	a, err = r.Quick(context.Background(), "What is Gadgetco's 2025 earnings margin as a percentage? Define the earnings margin as 2025 net earnings / 2025 gadget sales.", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := "earnings margin 2025 = net earnings 2025 1,500 / gadget sales 2025 12,000 = 0.125 (12.5 %)"; a.Formula != want || !strings.HasPrefix(a.Answer, want+". ") {
		t.Errorf("formula %q\nwant    %q\nanswer %q", a.Formula, want, a.Answer)
	}

	// A quantity no row names: no formula, the answer goes on without it.
	a, err = r.Quick(context.Background(), "What is Gadgetco's 2025 widget yield? Widget yield is defined as: 2025 gadget sales / 2025 moon dust.", nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Formula != "" && strings.Contains(a.Formula, "moon dust") {
		t.Errorf("formula with a quantity no table holds: %q", a.Formula)
	}
	if err := json.Unmarshal(a.Trace, &tr); err != nil || tr.Formula == nil || tr.Formula.Missing != "moon dust" {
		t.Errorf("trace formula %+v (%v)", tr.Formula, err)
	}
}

// A ratio asked by its two terms reads each from the row that is the
// category itself: "Other current liabilities" is what is left of the
// current liabilities, not they (lexicon remainder_words).
func TestOfflineRatioSkipsRemainderRows(t *testing.T) {
	corpus := []evalset.Passage{
		{ID: "position", Title: "Gadgetco statement of position", Text: "Consolidated Statement of Position\n" +
			"(Thousands) | 2025 | 2024\n" +
			"Accounts payable | 1,500 | 1,200\n" +
			"Other current liabilities | 500 | 400\n" +
			"Total current liabilities | 2,000 | 1,600\n" +
			"Long-term debt | 2,000 | 2,400\n" +
			"Total liabilities | 4,000 | 4,000"},
		{ID: "board", Title: "Gadgetco board", Text: "The board of Gadgetco meets four times a year. Its chair is elected by the members for a term of three years."},
	}
	st := corpusStore(t, corpus)
	r := newReasoner(st, llm.Offline{})
	a, err := r.Quick(context.Background(), "What is current liabilities to total liabilities for Gadgetco in FY2025? Round your answer to two decimal places.", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "current liabilities to total liabilities 2025 = current liabilities 2025 2,000 / total liabilities 2025 4,000 = 0.5"
	if a.Formula != want {
		t.Fatalf("formula %q\nwant    %q\nanswer %q", a.Formula, want, a.Answer)
	}
	checkProvenance(t, st, a)
}

// A ratio's operand is read from the row whose label is the quantity:
// not one that names it only after a preposition ("Current portion of
// long-term borrowings" is a part of them; "Proceeds from sale of …" no
// sales), and not a row that names it less well because it stands on the
// page of the other operand ("Total current liabilities" beside the
// borrowings is not the total liabilities printed in another statement).
func TestOfflineRatioReadsTheRowNamedByItsHead(t *testing.T) {
	corpus := []evalset.Passage{
		{ID: "position", Title: "Gadgetco statement of position", Text: "Consolidated Statement of Position\n" +
			"(Thousands) | 2025 | 2024\n" +
			"Current portion of long-term borrowings | 100 | 90\n" +
			"Total current liabilities | 2,000 | 1,600\n" +
			"Long-term borrowings, excluding current portion | 900 | 700"},
		{ID: "summary", Title: "Gadgetco summary of liabilities", Text: "Summary of Liabilities\n" +
			"(Thousands) | 2025 | 2024\n" +
			"Lease liabilities | 1,100 | 1,000\n" +
			"Total liabilities | 4,000 | 3,300"},
		{ID: "cash", Title: "Gadgetco statement of cash flows", Text: "Consolidated Statement of Cash Flows\n" +
			"(Thousands) | 2025 | 2024\n" +
			"Proceeds from sale of machines | 300 | 200\n" +
			"Purchases of machines | (500) | (400)"},
		{ID: "board", Title: "Gadgetco board", Text: "The board of Gadgetco meets four times a year. Its chair is elected by the members for a term of three years."},
	}
	st := corpusStore(t, corpus)
	r := newReasoner(st, llm.Offline{})
	a, err := r.Quick(context.Background(), "What is long-term borrowings to total liabilities for Gadgetco in FY2025? Round your answer to two decimal places.", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "long-term borrowings to total liabilities 2025 = long-term borrowings 2025 900 / total liabilities 2025 4,000 = 0.225"
	if a.Formula != want {
		t.Fatalf("formula %q\nwant    %q\nanswer %q", a.Formula, want, a.Answer)
	}
	checkProvenance(t, st, a)

	// No row is the sales: no ratio is worked out of the proceeds of a
	// sale, and no one cell answers for the ratio; the passages are
	// evidence.
	a, err = r.Quick(context.Background(), "What is the sales to total liabilities ratio of Gadgetco in FY2025? Round your answer to two decimal places.", nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Formula != "" || len(a.Cells) > 0 || a.Outcome != kb.OutcomeEvidence {
		t.Errorf("formula %q, cells %+v, outcome %q from no sales row\nanswer %q", a.Formula, a.Cells, a.Outcome, a.Answer)
	}
	// The evidence says what the tables give of the formula and what not,
	// the row it found cited.
	if want := "total liabilities 2025: 4,000 (Total liabilities, 2025) [1]; no table row gives sales, so it was not worked out."; !strings.Contains(a.Answer, want) {
		t.Errorf("answer %q\ndoes not say %q", a.Answer, want)
	}
	if len(a.Citations) == 0 || !strings.HasPrefix(a.Citations[0].Text, "Total liabilities | 4,000") {
		t.Errorf("citations %+v", a.Citations)
	}
	checkProvenance(t, st, a)
}

// A ratio's operand named by several rows is read from the one that adds
// up the rows above it: the gadget earnings including the minority's
// share, not those of continuing operations alone.
func TestOfflineRatioReadsTheTotalRow(t *testing.T) {
	corpus := []evalset.Passage{
		{ID: "earnings", Title: "Gadgetco statement of earnings", Text: "Consolidated Statement of Earnings\n" +
			"(Thousands) | 2025 | 2024\n" +
			"Gadget sales | $ 10,000 | $ 8,000\n" +
			"Gadget earnings from continuing lines | 700 | 500\n" +
			"Gain from discontinued lines | 100 | 60\n" +
			"Gadget earnings including the minority's share | 800 | 560"},
		{ID: "board", Title: "Gadgetco board", Text: "The board of Gadgetco meets four times a year. Its chair is elected by the members for a term of three years."},
	}
	st := corpusStore(t, corpus)
	r := newReasoner(st, llm.Offline{})
	a, err := r.Quick(context.Background(), "What is Gadgetco's gadget earnings margin in FY2025? Gadget earnings margin is defined as: gadget earnings / gadget sales.", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Cells) == 0 || a.Cells[0].Row != "Gadget earnings including the minority's share" {
		t.Fatalf("formula %q, cells %+v\nanswer %q", a.Formula, a.Cells, a.Answer)
	}
	checkProvenance(t, st, a)
}
