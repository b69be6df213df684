package pdf

import "strings"

// Approximate advance widths (1/1000 em) of the ASCII characters of the
// standard Helvetica and Times fonts, used only for old files that rely on
// a standard font without a /Widths array. Exact widths do not matter much:
// they only position the text that follows a string within the same line.
const (
	helveticaASCII = "" +
		"278 278 355 556 556 889 667 191 333 333 389 584 278 333 278 278 " + // space .. /
		"556 556 556 556 556 556 556 556 556 556 278 278 584 584 584 556 " + // 0 .. ?
		"1015 667 667 722 722 667 611 778 722 278 500 667 556 833 722 778 " + // @ .. O
		"667 778 722 667 611 722 667 944 667 667 611 278 278 278 469 556 " + // P .. _
		"333 556 556 500 556 556 278 556 556 222 222 500 222 833 556 556 " + // ` .. o
		"556 556 333 500 278 556 500 722 500 500 500 334 260 334 584" // p .. ~
	timesASCII = "" +
		"250 333 408 500 500 833 778 180 333 333 500 564 250 333 250 278 " +
		"500 500 500 500 500 500 500 500 500 500 278 278 564 564 564 444 " +
		"921 722 667 667 722 611 556 722 722 333 389 722 611 889 722 722 " +
		"556 722 667 556 611 722 722 944 722 722 611 333 278 333 469 500 " +
		"333 444 500 444 500 444 333 500 500 278 278 500 278 778 500 500 " +
		"500 500 333 389 278 500 500 722 500 500 444 480 200 480 541"
)

var (
	helveticaWidths = parseWidthTable(helveticaASCII)
	timesWidths     = parseWidthTable(timesASCII)
)

// parseWidthTable reads widths listed from the space character onwards.
func parseWidthTable(s string) map[rune]float64 {
	m := map[rune]float64{}
	r := rune(' ')
	for _, f := range strings.Fields(s) {
		var v float64
		for _, c := range f {
			v = v*10 + float64(c-'0')
		}
		m[r] = v
		r++
	}
	return m
}

// standardWidths returns a width lookup (by character text) for a
// standard-14 font name; unknown characters get 0 (caller's default).
func standardWidths(base string) func(text string) float64 {
	if i := strings.IndexByte(base, '+'); i == 6 {
		base = base[7:]
	}
	var table map[rune]float64
	switch {
	case strings.HasPrefix(base, "Courier"):
		return func(string) float64 { return 600 }
	case strings.HasPrefix(base, "Times"):
		table = timesWidths
	default:
		table = helveticaWidths
	}
	return func(text string) float64 {
		r := []rune(text)
		if len(r) != 1 {
			return 0
		}
		return table[r[0]]
	}
}
