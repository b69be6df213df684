package search

import (
	"slices"
	"testing"

	"cairn/backend/kb"
)

func TestSpreadPages(t *testing.T) {
	hit := func(id, doc int64, from, to int) kb.Hit {
		return kb.Hit{Chunk: kb.Chunk{ID: id, DocID: doc, PageStart: from, PageEnd: to}}
	}
	for _, tc := range []struct {
		name string
		hits []kb.Hit
		want []int64
	}{
		{"second passage of a page after the other pages",
			[]kb.Hit{hit(1, 1, 39, 39), hit(2, 1, 39, 39), hit(3, 1, 40, 40), hit(4, 1, 12, 12)},
			[]int64{1, 3, 4, 2}},
		{"a passage reaching a page not shown yet keeps its place",
			[]kb.Hit{hit(1, 1, 29, 29), hit(2, 1, 29, 30), hit(3, 1, 30, 30), hit(4, 1, 5, 5)},
			[]int64{1, 2, 4, 3}},
		{"the same page number in two documents is two pages",
			[]kb.Hit{hit(1, 1, 3, 3), hit(2, 2, 3, 3), hit(3, 1, 4, 4), hit(4, 2, 5, 5)},
			[]int64{1, 2, 3, 4}},
		{"a document all on one page keeps its order",
			[]kb.Hit{hit(1, 7, 1, 1), hit(2, 7, 1, 1), hit(3, 8, 2, 2), hit(4, 8, 2, 2), hit(5, 8, 3, 3)},
			[]int64{1, 2, 3, 5, 4}},
		{"moved passages keep their order",
			[]kb.Hit{hit(1, 1, 2, 2), hit(2, 1, 2, 2), hit(3, 1, 2, 2), hit(4, 1, 8, 8)},
			[]int64{1, 4, 2, 3}},
	} {
		var got []int64
		for _, h := range spreadPages(tc.hits) {
			got = append(got, h.ID)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}
