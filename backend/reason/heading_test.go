package reason

import (
	"testing"

	"cairn/backend/kb"
	"cairn/backend/question"
)

func TestHeadingMatch(t *testing.T) {
	const title = "Instructions for Form 1040NR"
	cases := []struct {
		q     string
		path  []string
		above bool // at least one half
	}{
		{"Who must file Form 1040NR?", []string{title, "Who Must File"}, true},
		{"Who must file Form 1040NR?", []string{title, "When To File"}, false},
		{"Who must file Form 1040NR?", []string{title, "Where To File"}, false},
		{"Who must file Form 1040NR?", []string{title, "Form 1040NR", "Sign and Date Your Return", "Amended Return"}, false},
		{"Where do I file Form 1040NR?", []string{title, "Where To File"}, true},
		{"When is Form 1040NR due?", []string{title, "Who Must File"}, false},
		{"Who must file Form 1040NR?", nil, false},
	}
	for _, c := range cases {
		m := HeadingMatch(question.New(c.q), title, c.path)
		if (m >= 0.5) != c.above {
			t.Errorf("%q under %q: match %.2f", c.q, c.path, m)
		}
	}
}

func TestByHeading(t *testing.T) {
	hit := func(id int64, score float64, path ...string) kb.Hit {
		return kb.Hit{Chunk: kb.Chunk{ID: id, HeadingPath: path}, DocTitle: "Instructions for Form 1040NR", IndexTitle: "Instructions for Form 1040NR", Score: score}
	}
	hits := []kb.Hit{
		hit(278, 0.108, "Form 1040NR", "Amended Return"),
		hit(105, 0.106, "When To File"),
		hit(98, 0.090, "Who Must File"),
	}
	got := byHeading(question.New("Who must file Form 1040NR?"), hits)
	if got[0].ID != 98 || got[1].ID != 278 || got[2].ID != 105 {
		t.Errorf("order %d %d %d, want 98 278 105", got[0].ID, got[1].ID, got[2].ID)
	}
	// No heading matches: the order is kept.
	same := byHeading(question.New("What is the standard deduction?"), hits)
	if same[0].ID != 278 || same[2].ID != 98 {
		t.Errorf("order changed without a match")
	}
}

func TestByHeadingReadingOrder(t *testing.T) {
	hit := func(id int64, ord int, path ...string) kb.Hit {
		return kb.Hit{Chunk: kb.Chunk{ID: id, DocID: 14, Ordinal: ord, HeadingPath: path}, DocTitle: "Instructions for Form 1040NR", IndexTitle: "Instructions for Form 1040NR"}
	}
	got := byHeading(question.New("Who must file Form 1040NR?"), []kb.Hit{
		hit(1413, 40, "Form 1040NR", "Filing Status"),
		hit(1377, 7, "Who Must File"),
		hit(1375, 5, "Who Must File"),
	})
	if got[0].ID != 1375 || got[1].ID != 1377 || got[2].ID != 1413 {
		t.Errorf("order %d %d %d, want the section's first passage first", got[0].ID, got[1].ID, got[2].ID)
	}
}
