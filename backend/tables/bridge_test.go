package tables

import "testing"

// A five-year summary names the quantity without usable year heads; the
// statement prints the same figures under its own label: the statement's
// cell in the year asked is the answer, by way of the summary's row.
func TestBridge(t *testing.T) {
	summary := Parse("Five-year summary\n(In millions) | 4,129.9 | 3,756.8 | 3,435.6\nWidget outlays | 460.8 | 537.6 | 622.7\nHeadcount | 12 | 12 | 11", "", "")
	statement := Parse("Statement of flows\n(In millions) | 2025 | 2024 | 2023\nPurchases of machines and tools | (460.8) | (537.6) | (622.7)\nOther, net | 12 | 12 | 11", "", "")
	tabs := append(summary, statement...)
	q := query("widget outlays", 2025)
	if cells := Lookup(q, tabs, simpleWords); len(cells) != 0 {
		t.Fatalf("Lookup found %+v", cells)
	}
	cells := Bridge(q, tabs, simpleWords)
	if len(cells) != 1 || cells[0].Label != "Purchases of machines and tools" || cells[0].Value != "(460.8)" || cells[0].Via != "Widget outlays" || cells[0].Year != 2025 {
		t.Fatalf("got %+v", cells)
	}
	// Small whole numbers shared by chance bridge nothing.
	if cells := Bridge(query("headcount", 2025), tabs, simpleWords); len(cells) != 0 {
		t.Errorf("bridged by small numbers: %+v", cells)
	}
}

func TestUnclip(t *testing.T) {
	for _, c := range []struct{ word, label, want string }{
		{"capex", "Capital expenditures", "Capital expenditures"},
		{"opex", "Total operating expenses", "operating expenses"},
		{"capex", "Capitalized interest", ""},
		{"widget", "Widget sales", ""},
	} {
		if got := Unclip(c.word, c.label); got != c.want {
			t.Errorf("Unclip(%q, %q) = %q, want %q", c.word, c.label, got, c.want)
		}
	}
}

func TestKindred(t *testing.T) {
	for _, c := range []struct{ word, label, want string }{
		{"accrual", "Total accrued liabilities", "accrued"},
		{"contract", "Contractual obligations", "Contractual"},
		{"accrued", "Accrued liabilities", ""},           // the label says it as it is
		{"provision", "Cash provided by operations", ""}, // "provi" is too little of either
		{"rate", "Effective tax ratio", ""},              // too short a root
	} {
		if got := Kindred(c.word, c.label); got != c.want {
			t.Errorf("Kindred(%q, %q) = %q, want %q", c.word, c.label, got, c.want)
		}
	}
}
