// Package numerals writes the numbers documents print in lists and on
// pages: roman numerals and letter sequences. The DOCX reader numbers list
// items with it, the PDF reader page labels. Pure functions.
package numerals

import (
	"strconv"
	"strings"
)

// Roman renders 1..3999 in upper-case roman numerals; other numbers stay
// decimal.
func Roman(n int) string {
	if n <= 0 || n >= 4000 {
		return strconv.Itoa(n)
	}
	vals := []int{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}
	syms := []string{"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"}
	var b strings.Builder
	for i, v := range vals {
		for n >= v {
			b.WriteString(syms[i])
			n -= v
		}
	}
	return b.String()
}

// Letters renders 1→a, 26→z, 27→aa (the letter repeats, as Word and PDF
// page labels do) from base ('a' or 'A'); n < 1 stays decimal.
func Letters(n int, base rune) string {
	if n <= 0 {
		return strconv.Itoa(n)
	}
	r := base + rune((n-1)%26)
	return strings.Repeat(string(r), (n-1)/26+1)
}
