package reason

import "testing"

// TestRowFactsBefore orders the rows that may give an operand: the row
// whose own label names the quantity comes before one that leaves part of
// it to a title, even of a table the question names; the other keys
// decide among rows that name it alike.
func TestRowFactsBefore(t *testing.T) {
	// "total current assets": the note's "Total" (its title names the
	// rest, and a word of the question) against the balance sheet's row.
	noteTotal := rowFacts{labelCover: 0.1, named: 4.8, headed: true, share: 1}
	sheetRow := rowFacts{labelCover: 1, headed: true, share: 1}
	cases := []struct {
		name string
		a, b rowFacts
		want bool
	}{
		{"the label names the quantity, the other only its title", sheetRow, noteTotal, true},
		{"the other way round", noteTotal, sheetRow, false},
		{"a year in one column before a split one", rowFacts{split: false, labelCover: 0.1}, rowFacts{split: true, labelCover: 1}, true},
		{"alike labels: the table the question names", rowFacts{labelCover: 1, named: 2}, rowFacts{labelCover: 0.95, named: 0}, true},
		{"alike labels, no table named: the head names it", rowFacts{labelCover: 1, headed: true}, rowFacts{labelCover: 1}, true},
		{"then the label that says least beyond it", rowFacts{labelCover: 1, headed: true, share: 1}, rowFacts{labelCover: 1, headed: true, share: 0.5}, true},
		{"a row filed under another heading after one that is the quantity, whatever table is named", rowFacts{labelCover: 1, headed: true, share: 0.4, named: 9}, rowFacts{labelCover: 1, headed: true, share: 0.11, named: 13}, true},
		{"shares within the slack keep their order", rowFacts{labelCover: 1, share: 0.95}, rowFacts{labelCover: 1, share: 1}, false},
	}
	for _, c := range cases {
		if got := c.a.before(c.b); got != c.want {
			t.Errorf("%s: before = %v, want %v", c.name, got, c.want)
		}
	}
}
