package reason

import (
	"context"
	"testing"

	"cairn/backend/kb"
	"cairn/backend/question"
	"cairn/backend/retrieve"
)

// A kettle manual's fault table, split between two passages (the second
// carries the header row): a question quoting two fault codes is answered
// with the cell under the head it names in each code's row, each row
// cited; a question quoting no row's key, quoting the cell itself or
// asking a count gets no cell.
func TestKeyedCellsByRowKey(t *testing.T) {
	ctx := context.Background()
	const header = "Fault code | Fault description | What to do"
	texts := []string{
		"Troubleshooting\nThe display shows a fault code.\n" + header + "\n12 | Element too hot | Let it cool, then switch on again\n13 | Pump dry | Fill the tank",
		"112 | Lid sensor open | Close the lid\n7 | Scale build-up | Descale the kettle\nCall the service if a fault remains.",
		"Descaling\nDescale the kettle every month with citric acid.",
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
	st, e, all := oneDocStore(t, "Kettle manual", chunks, pages)
	hits, err := st.ChunkHits(ctx, []int64{all[0].ID, all[1].ID, all[2].ID})
	if err != nil {
		t.Fatal(err)
	}
	var ev []Evidence
	for i, h := range hits {
		ev = append(ev, Evidence{N: i + 1, Hit: h})
	}
	r := &Reasoner{Retriever: retrieve.New(st, e)}
	ask := func(q string) []keyedFound {
		u := &run{r: r, q: question.New(q), set: DefaultSettings(), trace: &Trace{}}
		cells, err := u.keyedCells(ctx, ev)
		if err != nil {
			t.Fatal(err)
		}
		return cells
	}
	cells := ask("What are the fault descriptions for fault codes 12 and 112?")
	if len(cells) != 2 {
		t.Fatalf("cells %+v, want two", cells)
	}
	c := keyedCandidate(cells)
	if c.Text != "Element too hot (12); Lid sensor open (112)" || len(c.Chain) != 2 {
		t.Errorf("candidate %q citing %d rows", c.Text, len(c.Chain))
	}
	if row := ev[c.Chain[1].Passage].Hit.Text[c.Chain[1].Start:c.Chain[1].End]; row != "112 | Lid sensor open | Close the lid" {
		t.Errorf("112 cited by %q", row)
	}
	for _, q := range []string{
		"How often should the kettle be descaled?",               // no key quoted
		"For fault 13, pump dry, what is the fault description?", // the cell asked is quoted
		"How many faults does code 12 stand for?",                // a count, not a cell of words
	} {
		if cells := ask(q); len(cells) != 0 {
			t.Errorf("%q: cells %+v, want none", q, cells)
		}
	}
}
