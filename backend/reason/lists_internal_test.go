package reason

import (
	"strings"
	"testing"

	"cairn/backend/question"
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
