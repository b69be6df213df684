package store

import (
	"context"
	"errors"
	"slices"
	"testing"
)

func TestChunksAround(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	a := addDoc(t, s, "a", "a0", "a1", "a2", "a3", "a4")
	addDoc(t, s, "b", "b0", "b1")
	chunks, err := s.ChunksOfDocument(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	id := func(ord int) int64 { return chunks[ord].ID }
	for _, tc := range []struct {
		name          string
		ord           int
		before, after int
		want          []string
	}{
		{"alone", 2, 0, 0, []string{"a2"}},
		{"one each side", 2, 1, 1, []string{"a1", "a2", "a3"}},
		{"first passage", 0, 2, 1, []string{"a0", "a1"}},
		{"last passage, wide", 4, 2, 9, []string{"a2", "a3", "a4"}},
		{"negative is none", 2, -1, -5, []string{"a2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hits, err := s.ChunksAround(ctx, id(tc.ord), tc.before, tc.after)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range hits {
				got = append(got, h.Text)
				if h.DocTitle != "T a" {
					t.Errorf("title %q", h.DocTitle)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	if _, err := s.ChunksAround(ctx, 99999, 1, 1); !errors.Is(err, ErrNoChunk) {
		t.Errorf("unknown passage: %v", err)
	}
}
