package tables

import "testing"

func minorWord(w string) bool { return w == "and" || w == "of" || w == "the" }

func TestSpell(t *testing.T) {
	tests := []struct{ acronym, label, want string }{
		{"PP&E", "Purchases of property, plant and equipment", "property, plant and equipment"},
		{"COGS", "Cost of goods sold", "Cost of goods sold"},
		{"D&A", "Depreciation and amortization", "Depreciation and amortization"},
		{"SG&A", "Selling, general and administrative expenses", "Selling, general and administrative"},
		{"R&D", "Research and development", "Research and development"},
		{"PP&E", "Property and equipment, net", ""},
		{"PPNE", "Property, plant and equipment — net", "Property, plant and equipment"},
		{"RND", "Research and development", "Research and development"},
		{"ABC", "A bad choice", "A bad choice"},
		{"AB", "and the", ""},
		{"X", "Xylophones", ""},
	}
	for _, tt := range tests {
		if got := Spell(tt.acronym, tt.label, minorWord); got != tt.want {
			t.Errorf("Spell(%q, %q) = %q, want %q", tt.acronym, tt.label, got, tt.want)
		}
	}
}

func TestIsAcronym(t *testing.T) {
	for w, want := range map[string]bool{"PP&E": true, "COGS": true, "D&A": true, "&A": false, "Revenue": false, "A": false, "EBITDA": true, "FY2019": false} {
		if got := IsAcronym(w); got != want {
			t.Errorf("IsAcronym(%q) = %v, want %v", w, got, want)
		}
	}
}
