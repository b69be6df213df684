package evalset

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/embed"
	"cairn/backend/search"
	"cairn/backend/store"
	"cairn/backend/testshared"
)

var bm25R5 = BM25Recall5

func evalDir(t *testing.T) string {
	d, _ := filepath.Abs("../../../shared/eval")
	if _, err := os.Stat(d); err != nil {
		testshared.Missing(t, "../shared/eval not present")
	}
	return d
}

// loadSet reads a dataset folder's corpus and questions.
func loadSet(t *testing.T, dir string) ([]Passage, []Question) {
	t.Helper()
	corpus, qs, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return corpus, qs
}

// TestRecallBeatsBM25 builds a real project from each DEV corpus and checks
// that hybrid passage search reaches at least BM25's Recall@5.
func TestRecallBeatsBM25(t *testing.T) {
	if testing.Short() {
		t.Skip("builds three corpora")
	}
	root := evalDir(t)
	ctx := context.Background()
	for _, ds := range []string{"hotpotqa", "musique", "2wikimultihopqa"} {
		t.Run(ds, func(t *testing.T) {
			corpus, qs := loadSet(t, filepath.Join(root, ds))
			st, err := store.Open(filepath.Join(t.TempDir(), "cairn.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			e := embed.NewHashed(embed.DefaultDim)
			if err := Build(ctx, st, e, corpus); err != nil {
				t.Fatal(err)
			}
			s := &search.Searcher{Store: st, Embedder: e, Settings: search.DefaultSettings()}
			var r2, r5 float64
			for _, q := range qs {
				hits, err := s.Search(ctx, q.Question, 5)
				if err != nil {
					t.Fatal(err)
				}
				ids, err := PassageIDs(ctx, st, hits)
				if err != nil {
					t.Fatal(err)
				}
				r2 += Recall(ids, q.SupportingIDs, 2)
				r5 += Recall(ids, q.SupportingIDs, 5)
			}
			n := float64(len(qs))
			t.Logf("%s: R@2 %.1f R@5 %.1f (BM25 reference R@5 %.1f)", ds, 100*r2/n, 100*r5/n, bm25R5[ds])
			if 100*r5/n < bm25R5[ds] {
				t.Errorf("%s: Recall@5 %.1f is below BM25's %.1f", ds, 100*r5/n, bm25R5[ds])
			}
		})
	}
}

func TestRecall(t *testing.T) {
	cases := []struct {
		ranked, gold []string
		k            int
		want         float64
	}{
		{[]string{"a", "b", "c"}, []string{"a", "c"}, 2, 0.5},
		{[]string{"a", "b", "c"}, []string{"a", "c"}, 3, 1},
		{nil, []string{"a"}, 5, 0},
		{[]string{"a"}, nil, 5, 0},
	}
	for _, c := range cases {
		if got := Recall(c.ranked, c.gold, c.k); got != c.want {
			t.Errorf("Recall(%v, %v, %d) = %v, want %v", c.ranked, c.gold, c.k, got, c.want)
		}
	}
}

func TestSubset(t *testing.T) {
	corpus := []Passage{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}, {ID: "e"}}
	qs := []Question{{SupportingIDs: []string{"d", "b"}}, {SupportingIDs: []string{"e"}}}
	var got []string
	for _, p := range Subset(corpus, qs, 1) {
		got = append(got, p.ID)
	}
	if strings.Join(got, ",") != "a,b,d,e" {
		t.Fatalf("subset %v, want a,b,d,e (head, then supporting passages in corpus order)", got)
	}
}
