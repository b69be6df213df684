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
