package reason_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"cairn/backend/evalset"
	"cairn/backend/llm"
	"cairn/backend/reason"
)

// A made-up company's statements as passages keep them (rows of cells
// under a header row of years), beside prose passages. A question naming a
// row and a year is answered offline with the cell, its row cited; two
// years get the change worked out.
func TestOfflineAnswerFromTableCell(t *testing.T) {
	corpus := []evalset.Passage{
		{ID: "flows", Title: "Widgetco statement of widget flows", Text: "Consolidated Statement of Widget Flows\n" +
			"(Thousands) | 2025 | 2024 | 2023\n" +
			"Flows from Making Things\n" +
			"Net earnings | $ 5,363 | $ 4,869 | $ 5,058\n" +
			"Depreciation and amortization | 1,488 | 1,544 | 1,474\n" +
			"Flows from Investing\n" +
			"Purchases of gizmo tooling | (1,577) | (1,373) | (1,420)\n" +
			"Proceeds from sale of old widgets | 262 | 49 | 58\n" +
			"Net flows from investing | (1,315) | (1,324) | (1,362)"},
		{ID: "mdna", Title: "Widgetco discussion", Text: "Widgetco makes widgets in three plants. Demand for widgets grew in every region, and the company expects to open a fourth plant."},
		{ID: "board", Title: "Widgetco board", Text: "The board of Widgetco meets four times a year. Its chair is elected by the members for a term of three years."},
	}
	st := corpusStore(t, corpus)
	r := newReasoner(st, llm.Offline{})
	a, err := r.Quick(context.Background(), "How much did Widgetco spend on purchases of gizmo tooling in 2024?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Declined || len(a.Cells) != 1 || a.Cells[0].Value != "(1,373)" || a.Cells[0].Number != -1373 || a.Cells[0].Year != 2024 {
		t.Fatalf("answer %q, cells %+v", a.Answer, a.Cells)
	}
	if !strings.HasPrefix(a.Answer, "Purchases of gizmo tooling (Flows from Investing): 2024: (1,373) (Thousands) [1]") {
		t.Errorf("answer %q", a.Answer)
	}
	if c := a.Citations[0]; c.N != 1 || !strings.HasPrefix(c.Text, "Purchases of gizmo tooling |") {
		t.Errorf("the row is not cited first: %+v", a.Citations[0])
	}
	checkProvenance(t, st, a)
	var tr reason.Trace
	if err := json.Unmarshal(a.Trace, &tr); err != nil || tr.AnswerBy != "table" {
		t.Errorf("answer_by %q (%v)", tr.AnswerBy, err)
	}

	// The figure in the scale the question asks for.
	a, err = r.Quick(context.Background(), "How much did Widgetco spend on purchases of gizmo tooling in 2025? Answer in millions.", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(a.Answer, "Purchases of gizmo tooling (Flows from Investing): 2025: (1,577) (= -1.58 million) (Thousands) [1]") {
		t.Errorf("answer %q", a.Answer)
	}

	a, err = r.Quick(context.Background(), "What were Widgetco's net earnings from 2023 to 2025?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Cells) != 3 || a.Formula != "Change 2023 → 2025: 5,363 − 5,058 = +305 (+6.03 %). Average 2023–2025: (5,058 + 4,869 + 5,363) / 3 = 5,096.67." {
		t.Fatalf("cells %+v, formula %q", a.Cells, a.Formula)
	}
	if !strings.Contains(a.Answer, "]. "+a.Formula) {
		t.Errorf("answer %q does not state the formula %q as its field does", a.Answer, a.Formula)
	}

	// A question no row names gets no cell.
	a, err = r.Quick(context.Background(), "Who chairs the board of Widgetco?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Cells) != 0 {
		t.Errorf("cells for a question no row names: %+v", a.Cells)
	}
}

// A question that asks which item has the highest (or lowest) figure is
// answered by ranking the rows of the table that names it, its total left
// out, and one that asks which moved most by ranking their change from the
// year before; a table whose one named row is the figure measured ranks
// nothing.
func TestOfflineAnswerRanksRows(t *testing.T) {
	corpus := []evalset.Passage{
		{ID: "plants", Title: "Widgetco plant output", Text: "Output of widgets by plant\n" +
			"(Thousands of widgets) | 2025 | 2024\n" +
			"Northfield plant | 4,120 | 3,980\n" +
			"Eastbrook plant | 6,310 | 5,020\n" +
			"Lakeside plant | 2,275 | 2,990\n" +
			"Total | 12,705 | 11,990"},
		{ID: "earnings", Title: "Widgetco earnings", Text: "Statement of Earnings\n" +
			"(Thousands) | 2025 | 2024\n" +
			"Net sales | 90,000 | 80,000\n" +
			"Net earnings | 5,363 | 4,869"},
		{ID: "mdna", Title: "Widgetco discussion", Text: "Widgetco makes widgets in three plants. Demand for widgets grew in every region."},
		// the total row is labelled with the measure the question names
		{ID: "branches", Title: "Widgetco shops", Text: "Takings of the shops by branch\n" +
			"(Thousands) | 2025 | 2024 | % Change\n" +
			"Harbour branch | 1,540 | 1,610 | (4)\n" +
			"Market branch | 930 | 1,240 | (25)\n" +
			"Station branch | 2,205 | 2,180 | 1\n" +
			"Takings | 4,675 | 5,030 | (7)"},
	}
	st := corpusStore(t, corpus)
	r := newReasoner(st, llm.Offline{})
	for _, c := range []struct{ q, lead string }{
		// a row the question names that is the total of the others is
		// no measure row: the others are ranked
		{"Which branch of Widgetco's shops had the biggest drop in takings in 2025 on a percentage basis?", "Market branch — the largest fall of 3 rows (2024 → 2025: 1,240 → 930 (Thousands), -25.0 %) [1]"},
		{"Which Widgetco plant had the highest output of widgets in 2025?", "Eastbrook plant — the highest of 3 rows (2025: 6,310 (Thousands of widgets)) [1]"},
		{"Which plant had the lowest widget output in 2024?", "Lakeside plant — the lowest of 3 rows (2024: 2,990 (Thousands of widgets)) [1]"},
		// a superlative of a change ranks the rows by how much they moved
		{"Which Widgetco plant had the biggest drop in widget output in 2025 on a percentage basis?", "Lakeside plant — the largest fall of 3 rows (2024 → 2025: 2,990 → 2,275 (Thousands of widgets), -23.9 %) [1]"},
		{"Which Widgetco plant had the largest increase in widget output in 2025?", "Eastbrook plant — the largest rise of 3 rows (2024 → 2025: 5,020 → 6,310 (Thousands of widgets), +1,290 (Thousands of widgets)) [1]"},
	} {
		a, err := r.Quick(context.Background(), c.q, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(a.Answer, c.lead) || len(a.Cells) != 1 {
			t.Errorf("%q: answer %q, cells %+v", c.q, a.Answer, a.Cells)
		}
		checkProvenance(t, st, a)
	}
	a, err := r.Quick(context.Background(), "Which year had the highest net earnings?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(a.Answer, "the highest of") {
		t.Errorf("ranked the rows of a table whose named row is the measure: %q", a.Answer)
	}
}

// An answer read from a table draws the table's reading as its path: the
// table, the row and its cells, each step cited by the row.
func TestTableAnswerDrawsItsReading(t *testing.T) {
	corpus := []evalset.Passage{
		{ID: "plants", Title: "Widgetco plant output", Text: "Output of widgets by plant\n" +
			"(Thousands of widgets) | 2025 | 2024\n" +
			"Northfield plant | 4,120 | 3,980\n" +
			"Eastbrook plant | 6,310 | 5,020\n" +
			"Lakeside plant | 2,275 | 2,990"},
		{ID: "mdna", Title: "Widgetco discussion", Text: "Widgetco makes widgets in three plants. Demand for widgets grew in every region."},
	}
	st := corpusStore(t, corpus)
	r := newReasoner(st, llm.Offline{})
	a, err := r.Quick(context.Background(), "Which Widgetco plant had the highest output of widgets in 2025?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Paths) != 1 || a.Paths[0].Kind != reason.KindTable || a.Paths[0].Nodes[len(a.Paths[0].Nodes)-1] != "Eastbrook plant" {
		t.Fatalf("paths %+v", a.Paths)
	}
	if e := a.Paths[0].Edges[0]; !strings.Contains(e.Predicate, "highest of 3 rows") || e.Source.ChunkID == 0 {
		t.Errorf("step %+v", e)
	}
	a, err = r.Quick(context.Background(), "What was the output of the Lakeside plant in 2024?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Paths) != 1 || a.Paths[0].Kind != reason.KindTable || a.Paths[0].Nodes[1] != "Lakeside plant" || a.Paths[0].Nodes[2] != "2,990" {
		t.Fatalf("answer %q paths %+v", a.Answer, a.Paths)
	}
}

// A ranking question whose items are a table's columns (a statement by
// segment, set out over two tables under one another, the row named the
// measure) ranks the columns of the year asked, the Total column left out.
func TestOfflineAnswerRanksColumns(t *testing.T) {
	corpus := []evalset.Passage{
		{ID: "segments", Title: "Widgetco segment results", Text: "Segment results\n" +
			"Three months ended March 31, | Retail Widgets |  |  | Wholesale Widgets |  |\n" +
			"(in millions) | 2025 | 2024 | Change | 2025 | 2024 | Change\n" +
			"Total net revenue | $ 12,517 | $ 13,287 | (6) % | $ 14,605 | $ 10,003 | 46 %\n" +
			"Total noninterest expense | 7,202 | 7,269 | (1) | 7,104 | 5,955 | 19\n" +
			"Three months ended March 31, | Widget Finance |  |  |  | Total |  |\n" +
			"(in millions) | 2025 | 2024 | Change | 2025 | 2024 | Change\n" +
			"Total net revenue | $ (473) | $ 166 | NM | $ 26,649 | $ 23,456 | 14 %\n" +
			"Total noninterest expense | 876 | 146 | NM | 15,182 | 13,370 | 14"},
		{ID: "mdna", Title: "Widgetco discussion", Text: "Widgetco reports three segments. Widget Finance lends to buyers of widgets."},
	}
	st := corpusStore(t, corpus)
	r := newReasoner(st, llm.Offline{})
	for _, c := range []struct{ q, lead string }{
		{"Which of Widgetco's segments had the lowest net revenue in 2025?", "Widget Finance — the lowest of 3 columns (Total net revenue, Widget Finance 2025: $ (473) (in millions)) [1]"},
		{"Which Widgetco segment had the highest noninterest expense in 2024?", "Retail Widgets — the highest of 3 columns (Total noninterest expense, Retail Widgets 2024: 7,269 (in millions)) [1]"},
	} {
		a, err := r.Quick(context.Background(), c.q, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(a.Answer, c.lead) || len(a.Cells) != 1 {
			t.Errorf("%q: answer %q, cells %+v", c.q, a.Answer, a.Cells)
		}
		checkProvenance(t, st, a)
	}
}

// A figure asked in words no row prints is read in a synonym WordNet
// gives for its head noun ("expenditure": "spending"), and the trace says
// so.
func TestOfflineAnswerBySynonym(t *testing.T) {
	corpus := []evalset.Passage{
		{ID: "flows", Title: "Widgetco statement of widget flows", Text: "| 2025 | 2024\n" +
			"Capital spending | (4,625) | (4,240)\n" +
			"Proceeds from sale of old widgets | 262 | 49"},
		{ID: "board", Title: "Widgetco board", Text: "The board of Widgetco meets four times a year. Its chair is elected by the members for a term of three years."},
	}
	st := corpusStore(t, corpus)
	r := newReasoner(st, llm.Offline{})
	a, err := r.Quick(context.Background(), "What was Widgetco's capital expenditure in 2025?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Cells) != 1 || a.Cells[0].Value != "(4,625)" {
		t.Fatalf("answer %q, cells %+v", a.Answer, a.Cells)
	}
	var tr reason.Trace
	if err := json.Unmarshal(a.Trace, &tr); err != nil || len(tr.ReadAs) != 1 || tr.ReadAs[0].As != "capital spending" {
		t.Errorf("read_as %+v (%v)", tr.ReadAs, err)
	}
}

// A figure asked by a word of another ending than its row's ("accrual
// payments" for "Accrued payments"; the project uses "accrual" elsewhere,
// so the word weighs) is read in the row's word and leads the answer.
func TestOfflineAnswerByKindredWord(t *testing.T) {
	corpus := []evalset.Passage{
		{ID: "sheet", Title: "Widgetco balance of widgets", Text: "| 2025 | 2024\n" +
			"Lease payments | 902 | 851\n" +
			"Accrued payments | 1,204 | 1,117\n" +
			"Unearned widget fees | 310 | 288\n" +
			"Total owed | 2,416 | 2,256"},
		{ID: "board", Title: "Widgetco board", Text: "The board of Widgetco meets four times a year. Its chair is elected by the members for a term of three years."},
		{ID: "policy", Title: "Widgetco accounting", Text: "Widgetco keeps its books on the accrual basis: a cost is booked when the widgets are made, not when they are paid for."},
	}
	st := corpusStore(t, corpus)
	r := newReasoner(st, llm.Offline{})
	a, err := r.Quick(context.Background(), "What were Widgetco's accrual payments in 2025?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(a.Answer, "Accrued payments: 2025: 1,204") || len(a.Cells) != 1 || a.Cells[0].Value != "1,204" {
		t.Fatalf("answer %q, cells %+v", a.Answer, a.Cells)
	}
}

// A question asking for things named by a plural noun no row is labelled
// with ("What factors can affect …?") is not answered by the figure of a
// row that shares its other words ("Supply chain | 214"): the list the
// text gives answers it. A plural noun a row is labelled with ("What
// sales …?") still asks for that row's figure.
func TestThingsAreNoFigure(t *testing.T) {
	corpus := []evalset.Passage{
		{ID: "costs", Title: "Widgetco costs", Text: "Costs by Area\n" +
			"(Thousands) | 2025 | 2024\n" +
			"Supply chain | 214 | 93\n" +
			"Sales | 900 | 850\n" +
			"Stores | 40 | 38"},
		{ID: "risks", Title: "Widgetco risk factors", Text: "Risks of our supply chain\n" +
			"In 2025 these factors could slow down the supply chain of our widget plants:\n" +
			"• frost on the mountain roads;\n" +
			"• a shortage of crates at the ports;\n" +
			"• the price of diesel."},
		{ID: "board", Title: "Widgetco board", Text: "The board of Widgetco meets four times a year. Its chair is elected by the members for a term of three years."},
	}
	st := corpusStore(t, corpus)
	r := newReasoner(st, llm.Offline{})
	a, err := r.Quick(context.Background(), "What factors could slow down the supply chain of Widgetco's plants in 2025?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Cells) > 0 || strings.Contains(a.Answer, "214") || !strings.Contains(a.Answer, "a shortage of crates") {
		t.Errorf("answer %q, cells %+v", a.Answer, a.Cells)
	}
	a, err = r.Quick(context.Background(), "What sales did Widgetco report in 2025?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Cells) != 1 || a.Cells[0].Value != "900" {
		t.Errorf("answer %q, cells %+v", a.Answer, a.Cells)
	}
}

// A company's figure asked by name is read from the row that is that
// figure, not from a row of the same word filed under another heading
// (the cash flow statement's change in deferred revenues, whose title
// prints the company's name), and it leads the answer over a name read
// near it (a segment table's heads).
func TestFigureAskedByNameIsTheStatementRow(t *testing.T) {
	corpus := []evalset.Passage{
		{ID: "flows", Title: "Widgetco Inc. annual report 2025", Text: "WIDGETCO INC. CONSOLIDATED STATEMENTS OF CASH FLOWS\n" +
			"(Millions) | 2025 | 2024\n" +
			"Net income | 812 | 744\n" +
			"Changes in operating assets and liabilities:\n" +
			"Accounts receivable | (41) | 12\n" +
			"Deferred revenues | (96) | 57\n" +
			"Net cash from operating activities | 1,020 | 930"},
		{ID: "ops", Title: "Widgetco Inc. annual report 2025", Text: "CONSOLIDATED STATEMENTS OF OPERATIONS\n" +
			"(Millions) | 2025 | 2024\n" +
			"Net revenues\n" +
			"Widget sales | 2,104 | 1,990\n" +
			"Service and other revenues | 1,377 | 1,251\n" +
			"Total net revenues | 3,481 | 3,241\n" +
			"Cost of sales | 2,010 | 1,902"},
		{ID: "segments", Title: "Widgetco Inc. annual report 2025", Text: "Segment revenues, year ended December 31, 2025\n" +
			"| Gears | Springs | Total\n" +
			"Segment revenues | 1,903 | 1,578 | 3,481"},
		{ID: "mdna", Title: "Widgetco Inc. annual report 2025", Text: "Widgetco makes widgets in three plants. Revenues grew in every region in 2025, and the company expects to open a fourth plant."},
	}
	// Statements and notes print "total" and "net" everywhere.
	for i, part := range []string{"assets", "liabilities", "equity", "taxes", "leases", "debt"} {
		corpus = append(corpus, evalset.Passage{ID: "note" + part, Title: "Widgetco Inc. annual report 2025", Text: fmt.Sprintf("Note %d: %s\n(Millions) | 2025 | 2024\nNet %s, current | %d | %d\nTotal %s, net | %d | %d", i+1, part, part, 100+i, 90+i, part, 300+i, 280+i)})
	}
	st := corpusStore(t, corpus)
	r := newReasoner(st, llm.Offline{})
	a, err := r.Quick(context.Background(), "What was Widgetco's revenue in 2025?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(a.Answer, "Total net revenues (Net revenues): 2025: 3,481") || len(a.Cells) != 1 || a.Cells[0].Value != "3,481" {
		t.Errorf("answer %q, cells %+v", a.Answer, a.Cells)
	}
}
