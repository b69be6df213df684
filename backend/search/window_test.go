package search

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"cairn/backend/kb"
)

func TestBestWindow(t *testing.T) {
	w := map[string]float64{"a": 1, "b": 2, "c": 4}
	for _, tc := range []struct {
		stems []string
		n     int
		want  float64
		held  int
	}{
		{[]string{"a", "", "b", "", "c"}, 5, 7, 3},
		{[]string{"a", "", "b", "", "c"}, 3, 6, 2},
		{[]string{"c", "", "", "", "c"}, 5, 0, 0}, // one distinct word is no stretch
		{[]string{"a", "a", "b", "", "", "", "c", "c"}, 3, 3, 2},
		{nil, 3, 0, 0},
	} {
		got, held := bestWindow(tc.stems, w, tc.n, windowMinWords)
		if math.Abs(got-tc.want) > 1e-3 || held != tc.held {
			t.Errorf("bestWindow(%q, %d) = %v, %d; want %v, %d", tc.stems, tc.n, got, held, tc.want, tc.held)
		}
	}
}

// Of two runs holding the same words, the one where they stand together
// weighs more; a run holding a rarer word still weighs more than both.
func TestBestWindowPrefersWordsTogether(t *testing.T) {
	w := map[string]float64{"a": 1, "b": 2, "c": 4}
	apart, _ := bestWindow([]string{"a", "", "", "", "", "b"}, w, 12, windowMinWords)
	together, _ := bestWindow([]string{"", "", "a", "b", "", ""}, w, 12, windowMinWords)
	rarer, _ := bestWindow([]string{"a", "", "", "", "", "", "", "", "", "", "", "c"}, w, 12, windowMinWords)
	if !(together > apart) {
		t.Errorf("words together %v, apart %v: want together higher", together, apart)
	}
	if !(rarer > together) {
		t.Errorf("rarer word far off %v, common words together %v: want the rarer higher", rarer, together)
	}
}

// A short passage that holds the question's words in one clause is
// found in the top five, though long passages that repeat some of them, far apart, rank
// above it by BM25 alone.
func TestCloseWordsAreFound(t *testing.T) {
	st := testStore(t)
	var chunks []kb.Chunk
	var pages []kb.Page
	add := func(page int, text string) {
		chunks = append(chunks, kb.Chunk{Ordinal: len(chunks), PageStart: page, PageEnd: page, CharEnd: len(text), Text: text, HeadingPath: []string{fmt.Sprintf("Part %d", page)}})
		pages = append(pages, kb.Page{Number: page, Text: text})
	}
	filler := strings.Repeat("The district sets its budget each spring after hearings are held. ", 3)
	for i := range 8 {
		add(i+1, fmt.Sprintf("The cooperative plans the work of region %d with its members. %sSeedlings are moved outdoors in spring, and the cooperative sells them. %sGreenhouses are heated in winter; in 2022 the heating cost rose, and the greenhouses were repaired.", i, filler, filler))
	}
	add(20, "Sites. "+filler+"At the end of 2022 the cooperative ran 41 seedling greenhouses across the valley. "+filler+filler+"Leases last ten years.")
	saveDoc(t, st, "Valley Growers — Report 2022", "pdf", pages, chunks)
	const q = "How many seedling greenhouses did the cooperative run in 2022?"
	rank := func(set Settings) int { return rankOfPage(t, st, set, q, 5, 20) }
	set := DefaultSettings()
	if r := rank(set); r == 0 {
		t.Errorf("the passage naming it in one clause is not in the top 5")
	}
	set.WindowWeight = 0
	if r := rank(set); r != 0 {
		t.Errorf("without the window list it ranks %d: the test does not test it", r)
	}
}

// Each document's scored passages are sorted among the places they hold;
// a document with one scored passage has nothing to be ranked against.
func TestWithinDocuments(t *testing.T) {
	hit := func(id, doc int64) kb.Hit { return kb.Hit{Chunk: kb.Chunk{ID: id, DocID: doc}} }
	hits := []kb.Hit{hit(1, 10), hit(2, 20), hit(3, 10), hit(4, 30), hit(5, 20), hit(6, 10)}
	score := map[int64]float64{1: 1, 2: 5, 3: 3, 4: 9, 5: 7, 6: 3}
	got := withinDocuments(hits, score)
	want := []int64{3, 5, 6, 2, 1} // doc 10: 3, 6, 1 in places 1, 3, 5; doc 20: 5, 2 in places 2, 4; doc 30 left out
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("withinDocuments = %v, want %v", got, want)
	}
	delete(score, 3)
	delete(score, 6)
	if got := withinDocuments(hits, score); fmt.Sprint(got) != "[5 2]" {
		t.Errorf("with doc 10 scored once: %v, want [5 2]", got)
	}
}
