package reason

import (
	"context"
	"strings"
	"testing"

	"cairn/backend/kb"
	"cairn/backend/question"
	"cairn/backend/retrieve"
)

// TestSpanNeighbours: a ranking question about a quarter whose evidence
// holds a statement's six months gets the passage before it, which holds
// the three months; a question naming no span, or the span the evidence
// already covers, gets nothing more.
func TestSpanNeighbours(t *testing.T) {
	ctx := context.Background()
	texts := []string{
		"Segment results\nThree months ended June 30, | Retail |  | Wholesale |\n(in millions) | 2025 | 2024 | 2025 | 2024\nNet income | 2,580 | 4,210 | 3,140 | 4,360",
		"Six months ended June 30, | Retail |  | Wholesale |\n(in millions) | 2025 | 2024 | 2025 | 2024\nNet income | 5,160 | 9,870 | 6,930 | 8,420",
		"Our segments sell widgets to stores and to other sellers.",
	}
	var chunks []kb.Chunk
	for _, tx := range texts {
		chunks = append(chunks, kb.Chunk{PageStart: 1, PageEnd: 1, Text: tx})
	}
	st, e, all := oneDocStore(t, "Widgetco quarterly report", chunks, []kb.Page{{Number: 1, Text: strings.Join(texts, "\n")}})
	six, err := st.ChunkHits(ctx, []int64{all[1].ID})
	if err != nil {
		t.Fatal(err)
	}
	r := &Reasoner{Retriever: retrieve.New(st, e)}
	for _, c := range []struct {
		q    string
		want int
	}{
		{"In Q2 2025, which Widgetco segment had the highest net income?", 2},
		{"In the six months ended June 30, 2025, which segment had the highest net income?", 1},
		{"Which Widgetco segment had the highest net income in 2025?", 1},
	} {
		u := &run{r: r, q: question.New(c.q)}
		ev, err := u.spanNeighbours(ctx, []Evidence{{N: 1, Hit: six[0]}})
		if err != nil {
			t.Fatal(err)
		}
		if len(ev) != c.want || c.want == 2 && !strings.HasPrefix(ev[1].Hit.Text, "Segment results\nThree months") {
			t.Errorf("%q: %d passages, want %d", c.q, len(ev), c.want)
		}
	}
	// The ranking then reads the quarter's table, though the six months'
	// passage comes first.
	u := &run{r: r, q: question.New("In Q2 2025, which Widgetco segment had the highest net income?"), set: DefaultSettings(), trace: &Trace{}}
	ev, err := u.spanNeighbours(ctx, []Evidence{{N: 1, Hit: six[0]}})
	if err != nil {
		t.Fatal(err)
	}
	rc, err := u.rankedRow(ctx, ev)
	if err != nil || rc == nil || rc.item != "Wholesale" || rc.Value != "3,140" {
		t.Fatalf("ranked %+v, %v; want Wholesale 3,140", rc, err)
	}
}
