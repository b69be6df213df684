package reason

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"cairn/backend/question"
	"cairn/backend/retrieve"
)

// The lists of a passage: bullets under the lines that introduce them
// (up to maxIntroLines lines above them; an item goes on over its
// wrapped lines, and past a page break), short
// titles each over its own paragraph under an introduction ending in a
// colon (as many as the introduction counts), and no list where bullets
// have no introduction or the titles none ending in a colon.
func TestListsIn(t *testing.T) {
	for _, c := range []struct {
		name, text string
		intro      string
		items      []string
	}{
		{
			name:  "bullets",
			text:  "Pairing\nThe kettle pairs with the following kinds of device. Before you\nstart, switch on the radio:\n• Speaker: Make sure it is on the same network as\nthe kettle.\fKitchen\n• Wall panel: Hold the pair button.\nPairing takes a minute.",
			intro: "Pairing\nThe kettle pairs with the following kinds of device. Before you\nstart, switch on the radio:",
			items: []string{"Speaker", "Wall panel"},
		},
		{
			name:  "titles over paragraphs",
			text:  "Our teams\nWe advise farms across 3 areas:\nSoil care\nTesting the soil of every field twice a year and advising on\nlime and manure\nWater\nPlanning ponds, ditches and drains.\nWoodland\nPlanting hedges and copses.\nHerds\nWorking with the vets.",
			intro: "Our teams\nWe advise farms across 3 areas:",
			items: []string{"Soil care", "Water", "Woodland"},
		},
		{
			name: "bullets with no introduction",
			text: "• First point\n• Second point",
		},
		{
			name: "titles under no colon",
			text: "The farm has many parts.\nSoil care\nTesting the soil.\nWater\nPlanning ponds.",
		},
	} {
		ls := listsIn(c.text)
		if c.items == nil {
			if len(ls) != 0 {
				t.Errorf("%s: lists %+v, want none", c.name, ls)
			}
			continue
		}
		if len(ls) != 1 {
			t.Fatalf("%s: %d lists, want 1", c.name, len(ls))
		}
		var items []string
		for _, it := range ls[0].items {
			items = append(items, it.text)
		}
		if got := c.text[ls[0].intro[0]:ls[0].intro[1]]; got != c.intro || strings.Join(items, "|") != strings.Join(c.items, "|") {
			t.Errorf("%s: intro %q items %q, want %q %q", c.name, got, items, c.intro, c.items)
		}
	}
}

func TestAsksForList(t *testing.T) {
	for q, want := range map[string]bool{
		"What are the uses of the kettle's timer?":       true,
		"List the crops the farm grows.":                 true,
		"What speakers can be paired with the kettle?":   true,
		"Which breeds does the farm keep?":               true,
		"What speaker can be paired with the kettle?":    false,
		"What is the boiling point of water?":            false,
		"How many crops does the farm grow?":             false,
		"Which class does the kettle's glass belong to?": false,
	} {
		if got := asksForList(question.New(q).Kind); got != want {
			t.Errorf("asksForList(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestCountsListItems(t *testing.T) {
	for q, want := range map[string]bool{
		"How many steps are required to clean the filter?": true,
		"How many tips does the guide give for descaling?": true,
		"How many crops does the farm grow?":               false, // crops are counted in the text, not as a list's items
		"What are the steps to clean the filter?":          false,
	} {
		if got := countsListItems(question.New(q)); got != want {
			t.Errorf("countsListItems(%q) = %v, want %v", q, got, want)
		}
	}
}

// A question counting a procedure's steps is answered by the number of
// items of the list its other words introduce, not the list of another
// procedure in the same passage.
func TestListCount(t *testing.T) {
	ctx := context.Background()
	texts := []string{
		"Care of the filter\nTo take out the filter:\n1. Open the lid.\n2. Lift the filter up and out.\nTo clean the filter:\n1. Rinse it under warm water.\n2. Brush off the scale.\n3. Let it dry in open air.\n4. Put it back until it clicks.",
		"Descaling\nDescale the kettle every month with citric acid.",
	}
	chunks, pages := onePassagePerPage(texts)
	st, e, all := oneDocStore(t, "Kettle manual", chunks, pages)
	hits, err := st.ChunkHits(ctx, []int64{all[0].ID, all[1].ID})
	if err != nil {
		t.Fatal(err)
	}
	var ev []Evidence
	for i, h := range hits {
		ev = append(ev, Evidence{N: i + 1, Hit: h})
	}
	u := &run{r: &Reasoner{Retriever: retrieve.New(st, e)}, q: question.New("How many steps are required to clean the filter?"), set: DefaultSettings(), trace: &Trace{}}
	l, err := u.listAnswer(ctx, ev)
	if err != nil {
		t.Fatal(err)
	}
	if l == nil {
		t.Fatal("no list found")
	}
	if c := listCountCandidate(l); !strings.HasPrefix(c.Text, "4 (Rinse it under warm water.") || len(c.Chain) != 4 {
		t.Errorf("candidate %q with %d items cited", c.Text, len(c.Chain))
	}
}

// A long procedure is counted whole, though its answer shows only the
// first maxListItems steps.
func TestListCountPastShownItems(t *testing.T) {
	var b strings.Builder
	b.WriteString("To service the boiler:\n")
	for i := 1; i <= 14; i++ {
		fmt.Fprintf(&b, "%d. Check part %d.\n", i, i)
	}
	ls := listsIn(b.String())
	if len(ls) != 1 {
		t.Fatalf("lists %d, want 1", len(ls))
	}
	c := listCountCandidate(&ls[0])
	if !strings.HasPrefix(c.Text, "14 (Check part 1.") || !strings.HasSuffix(c.Text, "; …)") || len(c.Chain) != maxListItems {
		t.Errorf("candidate %q with %d items cited", c.Text, len(c.Chain))
	}
}
