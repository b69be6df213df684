package numerals

import "testing"

func TestRomanAndLetters(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{Roman(4), "IV"}, {Roman(1994), "MCMXCIV"}, {Roman(0), "0"}, {Roman(4000), "4000"},
		{Letters(1, 'a'), "a"}, {Letters(26, 'A'), "Z"}, {Letters(28, 'a'), "bb"}, {Letters(0, 'a'), "0"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestRomanValue(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{"iv", 4}, {"xiv", 14}, {"MCMXCIV", 1994}, {"ix", 9}, {"", 0}, {"xa", 0}, {"12", 0},
	} {
		if got := RomanValue(c.in); got != c.want {
			t.Errorf("RomanValue(%q) = %d, want %d", c.in, got, c.want)
		}
	}
	for n := 1; n < 200; n++ {
		if got := RomanValue(Roman(n)); got != n {
			t.Errorf("RomanValue(Roman(%d)) = %d", n, got)
		}
	}
}
