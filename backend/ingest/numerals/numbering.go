// Package numerals writes and reads the numbers documents print in lists
// and on pages: roman numerals and letter sequences. The DOCX reader
// numbers list items with it, the PDF reader page labels and the page
// numbers of contents entries. Pure functions.
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

// RomanValue reads a roman numeral in either case ("xiv", "MCM"); 0
// when s is not one (empty, or a letter that is no roman digit).
func RomanValue(s string) int {
	val := map[byte]int{'i': 1, 'v': 5, 'x': 10, 'l': 50, 'c': 100, 'd': 500, 'm': 1000}
	s = strings.ToLower(s)
	total := 0
	for i := 0; i < len(s); i++ {
		v := val[s[i]]
		if v == 0 {
			return 0
		}
		if i+1 < len(s) && val[s[i+1]] > v {
			total -= v
		} else {
			total += v
		}
	}
	return total
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
