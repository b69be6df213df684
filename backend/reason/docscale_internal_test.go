package reason

import (
	"context"
	"strings"
	"testing"

	"cairn/backend/question"
	"cairn/backend/retrieve"
)

// A table that states no scale, in a report whose statements all state
// "(in millions)", is read in millions when the question asks for another
// scale, and the answer says that it assumes so; a question that asks for
// no scale gets the figure as printed.
func TestTableWithoutScaleTakesTheDocuments(t *testing.T) {
	ctx := context.Background()
	texts := []string{
		"Statement of Income\n(in millions)\n| 2025 | 2024\nNet revenue | 86,392 | 79,474\nOperating profit | 10,080 | 11,512",
		"Balance Sheet\n(in millions)\n| 2025 | 2024\nTotal assets | 92,187 | 92,377\nTotal liabilities | 75,036 | 76,226",
		"Statement of Cash Flows\n(in millions)\n| 2025 | 2024\nNet cash from operations | 11,616 | 10,613\nDividends paid | (5,815) | (5,508)",
		"Free Cash Flow\nThe table below reconciles the cash from operations to the free cash flow.\n| 2025 | 2024\nNet cash from operations | 11,616 | 10,613\nGadget spending | (4,625) | (4,240)\nFree cash flow | 6,991 | 6,373",
	}
	chunks, pages := onePassagePerPage(texts)
	for i, tx := range texts {
		chunks[i].HeadingPath = []string{strings.SplitN(tx, "\n", 2)[0]}
	}
	st, e, all := oneDocStore(t, "Widgetco annual report", chunks, pages)
	last, err := st.ChunkHits(ctx, []int64{all[3].ID})
	if err != nil {
		t.Fatal(err)
	}
	r := &Reasoner{Retriever: retrieve.New(st, e)}
	for _, tc := range []struct {
		question string
		want     string
	}{
		{"What was the gadget spending in 2025 (in USD billions)?", "(4,625) (= -4.63 billion, if in millions as the document's other tables are: this one states no scale)"},
		{"What was the gadget spending in 2025?", "2025: (4,625) [1]"},
	} {
		u := &run{r: r, q: question.New(tc.question), set: DefaultSettings(), trace: &Trace{}}
		g := &gathered{evidence: []Evidence{{N: 1, Hit: last[0]}}}
		var err error
		if g.cells, err = u.tableCells(ctx, g); err != nil {
			t.Fatal(err)
		}
		if err := u.statedScales(ctx, g); err != nil {
			t.Fatal(err)
		}
		cells := g.cells
		if len(cells) == 0 {
			t.Fatalf("%q: no cell", tc.question)
		}
		if got := cellText(cells, 1, askedScale(tc.question)); !strings.Contains(got, tc.want) {
			t.Errorf("%q: %q, want it to hold %q", tc.question, got, tc.want)
		}
	}
}

// A percentage is no amount in a scale: a question asking "in millions"
// gets a table's "6%" as printed, not "(= 0.01 million)".
func TestPercentKeepsItsForm(t *testing.T) {
	c := foundCell{}
	c.Label, c.Column, c.Value, c.Number, c.Scale = "As a percentage of revenues", "2025", "6%", 6, 1e3
	amount := foundCell{}
	amount.Label, amount.Column, amount.Value, amount.Number, amount.Scale = "Personnel costs", "2025", "253,300", 253300, 1e3
	if got := cellText([]foundCell{c}, 1, 1e6); strings.Contains(got, "million") {
		t.Errorf("percentage converted: %q", got)
	}
	if got := cellText([]foundCell{amount}, 1, 1e6); !strings.Contains(got, "(= 253.3 million)") {
		t.Errorf("amount not converted: %q", got)
	}
}

func TestPrevailingScale(t *testing.T) {
	m := "Statement\n(in millions)\n| 2025\nA | 1"
	k := "Note\n(in thousands)\n| 2025\nB | 2"
	for _, tc := range []struct {
		texts []string
		want  float64
	}{
		{[]string{m, m, m}, 1e6},
		{[]string{m, m, m, m, k}, 1e6},
		{[]string{m, m, k, k}, 0},              // no agreement
		{[]string{m, m}, 0},                    // too few
		{[]string{"millions of customers"}, 0}, // prose, no scale line
	} {
		if got := prevailingScale(tc.texts); got != tc.want {
			t.Errorf("prevailingScale(%d texts) = %v, want %v", len(tc.texts), got, tc.want)
		}
	}
}
