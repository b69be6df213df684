package reason

import (
	"testing"

	"cairn/backend/kb"
)

// where names each document's pages once, in order of first appearance,
// adjacent and overlapping pages joined into one range.
func TestWhere(t *testing.T) {
	ev := func(doc string, from, to int) Evidence {
		return Evidence{Hit: kb.Hit{DocTitle: doc, Chunk: kb.Chunk{PageStart: from, PageEnd: to}}}
	}
	cases := []struct {
		ev   []Evidence
		want string
	}{
		{[]Evidence{ev("Guide", 12, 12), ev("Guide", 13, 13)}, "pp. 12–13 of Guide"},
		{[]Evidence{ev("Guide", 4, 4)}, "p. 4 of Guide"},
		{[]Evidence{ev("Guide", 7, 8), ev("Notes", 2, 2), ev("Guide", 3, 3)}, "pp. 3, 7–8 of Guide and p. 2 of Notes"},
		{[]Evidence{ev("A", 1, 1), ev("B", 1, 1), ev("C", 5, 6)}, "p. 1 of A, p. 1 of B and pp. 5–6 of C"},
		{nil, "the pages cited"},
	}
	for _, c := range cases {
		if got := where(c.ev); got != c.want {
			t.Errorf("where(%v) = %q, want %q", c.ev, got, c.want)
		}
	}
}
