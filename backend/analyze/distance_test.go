package analyze

import "testing"

func TestSpellingDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"netflix", "netflix", 0},
		{"neflix", "netflix", 1},  // a letter left out
		{"netfilx", "netflix", 1}, // two letters swapped
		{"netflux", "netflix", 1}, // a letter changed
		{"kestria", "norcell", 7},
		{"", "abc", 3},
		{"überall", "uberall", 1}, // by runes, not bytes
	} {
		if got := SpellingDistance(c.a, c.b); got != c.want {
			t.Errorf("SpellingDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
