package reason

import (
	"context"
	"slices"
	"testing"

	"cairn/backend/kb"
	"cairn/backend/retrieve"
)

// TestKeepBestPassage: the text search's first passage takes the k-th
// place of the evidence when it was further down; left where it is within
// the first k; nothing moves without a passage list.
func TestKeepBestPassage(t *testing.T) {
	hits := func(ids ...int64) []kb.Hit {
		var out []kb.Hit
		for _, id := range ids {
			out = append(out, kb.Hit{Chunk: kb.Chunk{ID: id}})
		}
		return out
	}
	idsOf := func(hs []kb.Hit) []int64 {
		var out []int64
		for _, h := range hs {
			out = append(out, h.ID)
		}
		return out
	}
	u := &run{}
	for _, tc := range []struct {
		name  string
		lists []retrieve.List
		hits  []kb.Hit
		want  []int64
	}{
		{"pushed down", []retrieve.List{{Name: "passage", IDs: []int64{7, 1}}}, hits(1, 2, 3, 4, 5, 6, 7), []int64{1, 2, 3, 7, 4, 5, 6}},
		{"within k", []retrieve.List{{Name: "passage", IDs: []int64{2, 1}}}, hits(1, 2, 3, 4, 5, 6), []int64{1, 2, 3, 4, 5, 6}},
		{"no passage list", []retrieve.List{{Name: "topic", IDs: []int64{6}}}, hits(1, 2, 3, 4, 5, 6), []int64{1, 2, 3, 4, 5, 6}},
	} {
		got, err := u.keepBestPassage(context.Background(), &retrieve.Result{Lists: tc.lists, Hits: tc.hits}, 4)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(idsOf(got), tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, idsOf(got), tc.want)
		}
	}
}
