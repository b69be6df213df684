package tables

import (
	"strings"
	"testing"
)

// A kettle's manual: an error list continued from the passage before
// (its header row carried), and two tables of the same keys under
// different titles.
const (
	faultsHead = "Fault code | Fault description | What to do"
	faults     = `Fault code | Fault description | What to do
12 | Element too hot | Let it cool, then switch on again
112 | Lid sensor open | Close the lid
7 | Scale build-up | Descale the kettle`
	buttons = `Start button
Action | Result | Notes
Tap once | Starts heating | -
Tap twice | Starts the timer | Only when full

Stop button
Action | Result | Notes
Tap once | Stops heating | -
Tap twice | Switches the kettle off | Needs two seconds`
	parts = `Spare parts
Part | Supplier (name and town) | Order code
Lid | Lidworks, Leeds | L-1
Filter | Meshco, York | F-2
Lid | Hingeco, Hull | L-3
Lid | Lidworks, Leeds | L-4`
)

// rawWords cuts lower-cased words, every word kept: the question's tokens.
func rawWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })
}

func keyQuery(q string) KeyQuery {
	return KeyQuery{Tokens: rawWords(q), Weight: func(string) float64 { return 1 }}
}

func TestParseText(t *testing.T) {
	ts := ParseText(faults, "", "Troubleshooting")
	if len(ts) != 1 || strings.Join(ts[0].Head, "|") != "Fault code|Fault description|What to do" || len(ts[0].Rows) != 3 {
		t.Fatalf("tables = %+v", ts)
	}
	if r := ts[0].Rows[1]; faults[r.Start:r.End] != "112 | Lid sensor open | Close the lid" {
		t.Errorf("row span = %q", faults[r.Start:r.End])
	}
	// A passage continuing the table: the carried header heads it.
	rest := "7 | Scale build-up | Descale the kettle\n13 | Pump dry | Fill the tank"
	ts = ParseText(rest, faultsHead, "")
	if len(ts) != 1 || len(ts[0].Head) != 3 || len(ts[0].Rows) != 2 {
		t.Errorf("continued table = %+v", ts)
	}
	// Two tables, each under its own title line.
	ts = ParseText(buttons, "", "Buttons")
	if len(ts) != 2 || !strings.Contains(ts[1].Title, "Stop button") || ts[1].Rows[1].Cells[1] != "Switches the kettle off" {
		t.Errorf("button tables = %+v", ts)
	}
}

func TestKeyedLookup(t *testing.T) {
	all := append(ParseText(faults, "", "Troubleshooting"), ParseText(buttons, "", "Buttons")...)
	all = append(all, ParseText(parts, "", "")...)
	for _, c := range []struct {
		q    string
		want []string // key: value
	}{
		{"What are the fault descriptions for fault codes 12 and 112?", []string{"12: Element too hot", "112: Lid sensor open"}},
		{"What should I do about fault 7?", []string{"7: Descale the kettle"}},
		{"What happens when you tap twice on the stop button?", []string{"Tap twice: Switches the kettle off"}},
		{"What does tap once do on the start button?", []string{"Tap once: Starts heating"}},
		{"What is the boiling point of water?", nil},
		// Every row of the key, each supplier once; the head's note in
		// parentheses aside, "supplier" names its column.
		{"Which suppliers make the lid part?", []string{"Lid: Lidworks, Leeds", "Lid: Hingeco, Hull"}},
		// A row key that is one word of the question, naming neither
		// table nor head, is no key of it.
		{"Is there an action to cancel?", nil},
	} {
		var got []string
		for _, k := range KeyedLookup(keyQuery(c.q), all, rawWords, simpleWords) {
			got = append(got, k.Key+": "+k.Value)
		}
		if strings.Join(got, "; ") != strings.Join(c.want, "; ") {
			t.Errorf("%q: got %q, want %q", c.q, got, c.want)
		}
	}
}

// FuzzKeyedLookup: any text and question parse and look up without a
// panic, every row span inside the text and every cell found inside its
// table.
func FuzzKeyedLookup(f *testing.F) {
	f.Add(faults, faultsHead, "What are the fault descriptions for fault codes 12 and 112?")
	f.Add(buttons, "", "What happens when you tap twice on the stop button?")
	f.Add("a | | b\n| |\n|", "x | y", "a b")
	f.Fuzz(func(t *testing.T, text, header, q string) {
		tabs := ParseText(text, header, "")
		for _, tb := range tabs {
			for _, r := range tb.Rows {
				if r.Start < 0 || r.End > len(text) || r.Start > r.End {
					t.Fatalf("row span %d..%d outside %d bytes", r.Start, r.End, len(text))
				}
			}
		}
		for _, c := range KeyedLookup(keyQuery(q), tabs, rawWords, simpleWords) {
			if c.Table >= len(tabs) || c.Row >= len(tabs[c.Table].Rows) || c.Col >= len(tabs[c.Table].Rows[c.Row].Cells) {
				t.Fatalf("cell %+v outside its table", c)
			}
		}
	})
}

// A table printed as two panels side by side is read as one panel's rows
// after the other's, so the total closing the second panel is a row of
// its own; a statement's figures are never cut into panels.
func TestSplitPanels(t *testing.T) {
	stores := `Shops by county
 | Shops | | Shops
Avon | 11 | Norfolk | 5
Berks | 2 | Oxford | 9
Cheshire | 22 | Rutland | 6
Devon | 7 | Total shops | 62`
	ts := Parse(stores, "", "")
	if len(ts) != 1 || len(ts[0].Rows) != 8 {
		t.Fatalf("tables %+v", ts)
	}
	if r := ts[0].Rows[7]; r.Label != "Total shops" || len(r.Cells) != 1 || r.Cells[0] != "62" {
		t.Errorf("last row %+v, want Total shops | 62", r)
	}
	if got := Lookup(query("How many shops in total?"), ts, simpleWords); len(got) == 0 || got[0].Value != "62" {
		t.Errorf("look-up %+v, want 62", got)
	}
	statement := `Revenue | 100 | 90 | 80
Costs | (40) | (35) | (30)
Profit | 60 | 55 | 50
Tax | 12 | 11 | 10`
	if ts := Parse(statement, "", ""); len(ts) != 1 || len(ts[0].Rows) != 4 || len(ts[0].Rows[0].Cells) != 3 {
		t.Errorf("statement cut: %+v", ts)
	}
}
