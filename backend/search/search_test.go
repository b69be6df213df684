package search

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"cairn/backend/kb"
	"cairn/backend/store"
)

func TestSplitCommon(t *testing.T) {
	for _, tc := range []struct {
		name         string
		rows         []int
		budget       int
		rare, common string
	}{
		{"fits the budget: nothing split", []int{10, 20, 30}, 60, "a b c", ""},
		{"commonest words only score", []int{900, 5, 400, 30}, 500, "b c d", "a"},
		{"question order kept in each part", []int{50, 900, 40, 800}, 100, "a c", "b d"},
		{"rarest word always selects", []int{700, 600, 900}, 100, "b", "a c"},
		{"a word too common for what is left stops the taking", []int{10, 95, 20}, 100, "a c", "b"},
		{"one word", []int{100000}, 10, "a", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			terms := []string{"a", "b", "c", "d"}[:len(tc.rows)]
			rare, common := SplitCommon(terms, tc.rows, tc.budget)
			if got := strings.Join(rare, " "); got != tc.rare {
				t.Errorf("rare %q, want %q", got, tc.rare)
			}
			if got := strings.Join(common, " "); got != tc.common {
				t.Errorf("common %q, want %q", got, tc.common)
			}
		})
	}
}

func TestCommonRowBudget(t *testing.T) {
	for total, want := range map[int]int{0: 5000, 1000: 5000, 50000: 5000, 100000: 10000, 1000000: 100000} {
		if got := CommonRowBudget(total); got != want {
			t.Errorf("CommonRowBudget(%d) = %d, want %d", total, got, want)
		}
	}
}

func TestScopedMatch(t *testing.T) {
	if got := ScopedMatch([]string{`"a"`, `"b"`}, nil); got != `"a" OR "b"` {
		t.Errorf("no common words: %s", got)
	}
	want := `("tango") AND ("film" OR "born" OR ` + store.MatchEveryRow + `)`
	if got := ScopedMatch([]string{`"tango"`}, []string{`"film"`, `"born"`}); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// The scoped query must keep exactly the rows a rare word selects and give
// each the BM25 score the plain OR of all words gives it: the every-row
// column adds nothing to a score.
func TestScopedMatchScoresLikePlainOR(t *testing.T) {
	ctx := context.Background()
	st := testStore(t)
	texts := map[int]string{}
	for i := range 60 {
		words := []string{"a", "story", "told", "slowly"}
		if i%2 == 0 {
			words = append(words, "film", "film")
		}
		if i%3 == 0 {
			words = append(words, "director", "born", "in", "the", "north")
		}
		if i%10 == 0 {
			words = append(words, "tango")
		}
		if i%7 == 0 {
			words = append(words, "varnholm", "and", "more", "words", "to", "vary", "the", "length")
		}
		texts[i] = strings.Join(words, " ")
		title := fmt.Sprintf("Doc %d", i)
		if i == 20 {
			title = "Slow Tango in Varnholm"
		}
		id, err := st.AddDocument(ctx, kb.Document{Title: title, FileName: fmt.Sprint(i), Kind: "txt", Hash: fmt.Sprint(i)})
		if err != nil {
			t.Fatal(err)
		}
		c := kb.Chunk{PageStart: 1, PageEnd: 1, CharEnd: len(texts[i]), Text: texts[i]}
		if err := st.SaveContent(ctx, id, store.Content{Title: title, Kind: "txt", Status: kb.StatusOK,
			Pages: []kb.Page{{Number: 1, Text: texts[i]}}, Chunks: []store.ChunkRow{{Chunk: c,
				FTS: store.ChunkFTS(title, c), Vector: []float32{1, 0}, Terms: strings.Fields(texts[i])}},
		}); err != nil {
			t.Fatal(err)
		}
	}
	w := DefaultSettings().ColumnWeights
	terms := MatchTerms("Which film director was born in Varnholm, the one of Slow Tango?")
	rows, total, err := st.TermRows(ctx, terms)
	if err != nil || total != 60 {
		t.Fatalf("term rows %v total %d: %v", rows, total, err)
	}
	rare, common := SplitCommon(terms, rows, 20)
	if len(common) == 0 || !slices.Contains(rare, `"tango"`) {
		t.Fatalf("split %v / %v (rows %v): the test needs both parts", rare, common, rows)
	}
	plain, err := st.LexicalSearch(ctx, strings.Join(terms, " OR "), w, 100)
	if err != nil {
		t.Fatal(err)
	}
	scoped, err := st.LexicalSearch(ctx, ScopedMatch(rare, common), w, 100)
	if err != nil {
		t.Fatal(err)
	}
	selected, err := st.LexicalSearch(ctx, strings.Join(rare, " OR "), w, 100)
	if err != nil {
		t.Fatal(err)
	}
	keep := map[int64]bool{}
	for _, s := range selected {
		keep[s.ChunkID] = true
	}
	var want []store.Scored
	for _, p := range plain {
		if keep[p.ChunkID] {
			want = append(want, p)
		}
	}
	if len(scoped) != len(want) || len(want) == len(plain) {
		t.Fatalf("scoped query kept %d rows, want the %d of %d a rare word selects", len(scoped), len(want), len(plain))
	}
	for i := range want {
		if scoped[i].ChunkID != want[i].ChunkID || math.Abs(scoped[i].Score-want[i].Score) > 1e-9 {
			t.Fatalf("rank %d: scoped %+v, plain OR %+v", i, scoped[i], want[i])
		}
	}
	// The every-row column itself matches everything and scores nothing.
	every, err := st.LexicalSearch(ctx, store.MatchEveryRow, w, 100)
	if err != nil || len(every) != 60 {
		t.Fatalf("every row: %d rows, %v", len(every), err)
	}
	for _, e := range every {
		if e.Score != 0 {
			t.Fatalf("every-row match scored %v", e.Score)
		}
	}
}
