package tables

import (
	"math"
	"strings"
)

// Bridge finds the figures a query asks in the years it names through the
// document's own redundancy: a row that names the quantity but whose table
// has no column for those years (a five-year summary with a broken head, a
// segment table) prints the same run of figures as a row of another table
// that has them, under a name of its own ("Capital expenditures 460.8 |
// 537.6" in a summary; "Purchases of land, buildings, and equipment |
// (460.8) | (537.6)" in the cash flow statement). The other row is the
// quantity, in that table's columns; each cell found keeps the label of the
// row that named it in Via. Signs are compared apart (a statement prints
// an outflow in parentheses). Nil when the query names no year, or no
// table holds such a pair of rows.
func Bridge(q Query, tabs []Table, words Words) []Cell {
	if len(q.Years) == 0 {
		return nil
	}
	// The rows that name the quantity, in any column.
	any := q
	any.Years = nil
	named := Lookup(any, tabs, words)
	if len(named) > maxBridgeRows {
		named = named[:maxBridgeRows]
	}
	var out []Cell
	for _, n := range named {
		src := figures(tabs[n.Table].Rows[n.Row].Cells)
		for ti, t := range tabs {
			cols := yearColumns(t, q.Years)
			if len(cols) == 0 {
				continue
			}
			scale := t.scale()
			for ri, r := range t.Rows {
				if ti == n.Table && ri == n.Row || !sameRun(src, figures(r.Cells)) {
					continue
				}
				for _, yc := range cols {
					if yc.col >= len(r.Cells) {
						continue
					}
					v, ok := Number(r.Cells[yc.col])
					if !ok {
						continue
					}
					out = append(out, Cell{Table: ti, Row: ri, Col: yc.col, Label: r.Label, Section: r.Section, Column: t.Columns[yc.col],
						Unit: t.Stub, Scale: scale, Value: r.Cells[yc.col], Number: v, Year: yc.year, Score: n.Score, Share: n.Share,
						Via: tabs[n.Table].Rows[n.Row].Label})
				}
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// maxBridgeRows is how many of the rows naming a quantity are tried.
const maxBridgeRows = 3

// minRun is how many figures in a row, in order, two rows must share to be
// read as one quantity.
const minRun = 2

// figures are a row's cells as numbers (NaN for a cell that is none).
func figures(cells []string) []float64 {
	out := make([]float64, len(cells))
	for i, c := range cells {
		if v, ok := Number(c); ok && !IsYear(c) {
			out[i] = math.Abs(v)
		} else {
			out[i] = math.NaN()
		}
	}
	return out
}

// sameRun reports whether two rows print minRun or more figures in the same
// order, one after another, at least one of them telling (a decimal or
// three digits: "460.8", "1,577"; not "2", "12").
func sameRun(a, b []float64) bool {
	for i := range a {
		for j := range b {
			n, telling := 0, false
			for i+n < len(a) && j+n < len(b) && a[i+n] == b[j+n] && !math.IsNaN(a[i+n]) {
				v := a[i+n]
				telling = telling || v >= 100 || v != math.Trunc(v)
				n++
			}
			if n >= minRun && telling {
				return true
			}
		}
	}
	return false
}

// clipMin is the least number of letters each word gives a clipped
// compound ("cap" + "ex").
const clipMin = 2

// Unclip finds the two words of a label that a clipped compound is made of
// ("capex" in "Capital expenditures": "cap" + "ex"; "opex" in "Operating
// expenses"): consecutive words, the first starting with the compound's
// head and the second with its rest. "" when no two words of the label do.
func Unclip(word, label string) string {
	w := strings.ToLower(word)
	fields := strings.FieldsFunc(label, func(r rune) bool { return !isWordRune(r) })
	for i := 0; i+1 < len(fields); i++ {
		a, b := strings.ToLower(fields[i]), strings.ToLower(fields[i+1])
		for k := clipMin; k <= len(w)-clipMin; k++ {
			if len(a) > k && len(b) > len(w)-k && strings.HasPrefix(a, w[:k]) && strings.HasPrefix(b, w[k:]) {
				return fields[i] + " " + fields[i+1]
			}
		}
	}
	return ""
}

func isWordRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r > 127
}

// Kindred finds the word of a label of the same family as word, though
// written with another ending ("accrual" in "Accrued liabilities": the
// question's noun, the label's participle): both start with the same
// kindredMin letters or more, and the part they share is at least
// kindredShare of the shorter. A word the label holds as it is, or none
// alike: "".
func Kindred(word, label string) string {
	w := strings.ToLower(word)
	fields := strings.FieldsFunc(label, func(r rune) bool { return !isWordRune(r) })
	for _, f := range fields {
		l := strings.ToLower(f)
		if l == w {
			return ""
		}
	}
	for _, f := range fields {
		l := strings.ToLower(f)
		n := 0
		for n < len(w) && n < len(l) && w[n] == l[n] {
			n++
		}
		if n >= kindredMin && float64(n) >= kindredShare*float64(min(len(w), len(l))) {
			return f
		}
	}
	return ""
}

// kindredMin and kindredShare are how much of their beginning two words
// of one family share.
const (
	kindredMin   = 5
	kindredShare = 0.7
)
