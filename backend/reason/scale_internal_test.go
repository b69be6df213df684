package reason

import "testing"

// The scale stated above a table, on a line of its own, not a count in
// prose.
func TestScaleAbove(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"Consolidated Statement of Cash Flows\n(in millions)\n| 2021 | 2020\nCapital spending | (4,625) | (4,240)", 1e6},
		{"Dollars in thousands, except per share amounts\nRevenue | 12", 1e3},
		{"(Millions)\n", 1e6},
		{"The mill served millions of customers in 2021.\nRevenue | 12", 0},
		{"Revenue | in millions | 12", 0},
	} {
		if got := scaleAbove(c.text); got != c.want {
			t.Errorf("scaleAbove(%q) = %g, want %g", c.text, got, c.want)
		}
	}
}
