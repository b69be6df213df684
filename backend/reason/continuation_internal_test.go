package reason

import (
	"context"
	"testing"

	"cairn/backend/kb"
	"cairn/backend/question"
	"cairn/backend/retrieve"
)

// A table the chunker split between two passages (the second carries its
// header row) is read whole: a question that names only its column group
// is answered from the total closing the second part, though only the
// first part is among the evidence, and not from the first part's last
// row.
func TestTableSplitBetweenPassages(t *testing.T) {
	ctx := context.Background()
	const header = "(Millions) | Gadget Spending 2025 | Gadget Spending 2024"
	texts := []string{
		"Segment Information\nWidgetco reports three segments.\n" + header + "\nRetail | 120 | 110\nWholesale | 95 | 90\nOnline | 41 | 37",
		"Online | 41 | 37\nTotal Widgetco | 256 | 237\nOnline sales are made through the company's own shops.",
		"The board of Widgetco meets four times a year.",
	}
	var chunks []kb.Chunk
	var pages []kb.Page
	for i, tx := range texts {
		c := kb.Chunk{PageStart: 1 + i, PageEnd: 1 + i, Text: tx}
		if i == 1 {
			c.TableHeader = header
		}
		chunks = append(chunks, c)
		pages = append(pages, kb.Page{Number: 1 + i, Text: tx})
	}
	st, e, all := oneDocStore(t, "Widgetco annual report", chunks, pages)
	if all[1].TableHeader != header {
		t.Fatalf("the second passage's header row is not read back: %q", all[1].TableHeader)
	}
	first, err := st.ChunkHits(ctx, []int64{all[0].ID})
	if err != nil {
		t.Fatal(err)
	}
	r := &Reasoner{Retriever: retrieve.New(st, e)}
	u := &run{r: r, q: question.New("How much was the gadget spending in 2025?"), set: DefaultSettings(), trace: &Trace{}}
	g := &gathered{evidence: []Evidence{{N: 1, Hit: first[0]}}}
	cells, err := u.tableCells(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 1 || cells[0].Label != "Total Widgetco" || cells[0].Value != "256" {
		t.Fatalf("cells %+v, want Total Widgetco 256", cells)
	}
	if len(g.evidence) != 2 || cells[0].ev != 1 || g.evidence[1].Hit.ID != all[1].ID {
		t.Errorf("the second part's passage is not the cell's evidence: ev %d of %d", cells[0].ev, len(g.evidence))
	}
}
