package vecindex

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"cairn/backend/embed"
)

// hashedCorpus embeds n short synthetic texts with the built-in embedder.
func hashedCorpus(n int, words int) ([]int64, [][]float32) {
	r := rand.New(rand.NewSource(1))
	vocab := make([]string, 3000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%dx%d", i, r.Intn(1000))
	}
	h := embed.NewHashed(1024)
	ids := make([]int64, n)
	vecs := make([][]float32, n)
	for i := range vecs {
		text := ""
		for j := 0; j < words; j++ {
			text += vocab[r.Intn(len(vocab))] + " "
		}
		ids[i] = int64(i + 1)
		vecs[i] = h.Vector(text)
	}
	return ids, vecs
}

func TestSearchMatchesExact(t *testing.T) {
	for _, tc := range []struct {
		name   string
		sparse bool
		words  int
	}{
		{"sparse short texts", true, 3},
		{"sparse paths", true, 15},
		{"dense passages", false, 80},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ids, vecs := hashedCorpus(3000, tc.words)
			b := NewBuilder(1024, tc.sparse)
			for i, v := range vecs {
				if err := b.Add(ids[i], v); err != nil {
					t.Fatal(err)
				}
			}
			b.Add(99999, make([]float32, 1024)) // zero vector: never found
			x := b.Index()
			byID := map[int64][]float32{}
			for i, id := range ids {
				byID[id] = vecs[i]
			}
			fetch := func(want []int64) (map[int64][]float32, error) {
				out := map[int64][]float32{}
				for _, id := range want {
					if v, ok := byID[id]; ok {
						out[id] = v
					}
				}
				return out, nil
			}
			const k = 10
			found, total := 0, 0
			for qi := 0; qi < 50; qi++ {
				q := vecs[qi*37%len(vecs)]
				want := Exact(q, ids, vecs, k)
				got, err := x.Search(q, k, DefaultDepth(k), fetch)
				if err != nil {
					t.Fatal(err)
				}
				in := map[int64]bool{}
				for _, h := range got {
					in[h.ID] = true
					if h.ID == 99999 {
						t.Fatal("zero vector returned")
					}
				}
				for _, h := range want {
					total++
					if in[h.ID] {
						found++
					}
				}
				if got[0].ID != want[0].ID || got[0].Score < 0.999 {
					t.Fatalf("query %d: top hit %+v, want %+v", qi, got[0], want[0])
				}
			}
			if recall := float64(found) / float64(total); recall < 0.99 {
				t.Fatalf("recall@%d %.3f against exact search", k, recall)
			}
		})
	}
}

// Rows live in column blocks: every row's approximate score must be close
// to its exact cosine, for a question-sized query (few non-zero columns)
// and a row-sized one, with a last block only partly full.
func TestBlocksScoreEveryRow(t *testing.T) {
	for _, sparse := range []bool{false, true} {
		t.Run(fmt.Sprintf("sparse=%v", sparse), func(t *testing.T) {
			ids, vecs := hashedCorpus(2*blockRows+77, 60)
			b := NewBuilder(1024, sparse)
			for i, v := range vecs {
				if err := b.Add(ids[i], v); err != nil {
					t.Fatal(err)
				}
			}
			x := b.Index()
			_, questions := hashedCorpus(5, 4)
			for qn, q := range append(questions, vecs[3], vecs[len(vecs)-1]) {
				got := x.Candidates(q, x.Len())
				if len(got) != len(ids) {
					t.Fatalf("query %d: %d candidates for %d rows", qn, len(got), len(ids))
				}
				exact := map[int64]float64{}
				for _, h := range Exact(q, ids, vecs, len(ids)) {
					exact[h.ID] = h.Score
				}
				for _, h := range got {
					if d := h.Score - exact[h.ID]; d > 0.02 || d < -0.02 {
						t.Fatalf("query %d row %d: approximate %.4f, exact %.4f", qn, h.ID, h.Score, exact[h.ID])
					}
				}
			}
		})
	}
}

func TestZeroQueryFindsNothing(t *testing.T) {
	b := NewBuilder(4, true)
	b.Add(1, []float32{1, 0, 0, 0})
	got, err := b.Index().Search(make([]float32, 4), 5, 10, func([]int64) (map[int64][]float32, error) { t.Fatal("fetch called"); return nil, nil })
	if err != nil || got != nil {
		t.Fatalf("got %v, %v", got, err)
	}
	if err := b.Add(2, []float32{1}); err == nil {
		t.Fatal("wrong dimension accepted")
	}
}

func TestSparseRoundTrip(t *testing.T) {
	for _, v := range [][]float32{
		{0, 0, 0},
		{0.5, 0, -0.25, 0, 1e-30},
		make([]float32, 1024),
	} {
		b := EncodeSparse(v)
		got, err := Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(v) {
			t.Fatalf("round trip %v → %v", v, got)
		}
		d, err := Decode(EncodeDense(v))
		if err != nil || fmt.Sprint(d) != fmt.Sprint(v) {
			t.Fatalf("dense round trip %v → %v %v", v, d, err)
		}
	}
	if _, err := Decode([]byte{sparseTag, 4, 0, 7, 0, 0, 0, 0, 0}); err == nil {
		t.Fatal("index out of range accepted")
	}
	if _, err := Decode([]byte{1, 2, 3}); err == nil {
		t.Fatal("3-byte BLOB accepted")
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(EncodeSparse([]float32{0, 1, 0, -2}))
	f.Add(EncodeDense([]float32{1, 2}))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := Decode(b)
		if err != nil {
			return
		}
		if len(b) > 0 && b[0] == sparseTag && (len(b)-3)%6 == 0 {
			again, err := Decode(EncodeSparse(v))
			if err != nil || len(again) != len(v) {
				t.Fatalf("re-encode: %v", err)
			}
		}
	})
}

func BenchmarkCandidates(b *testing.B) {
	for _, tc := range []struct {
		sparse bool
		words  int
		n      int
		query  int // words of the query text (0: a row of the corpus)
	}{{true, 3, 50000, 0}, {true, 20, 50000, 0}, {true, 20, 50000, 8}, {false, 80, 10000, 0}, {false, 80, 10000, 8}} {
		ids, vecs := hashedCorpus(tc.n, tc.words)
		bl := NewBuilder(1024, tc.sparse)
		for i, v := range vecs {
			bl.Add(ids[i], v)
		}
		x := bl.Index()
		queries := vecs
		if tc.query > 0 {
			_, queries = hashedCorpus(100, tc.query)
		}
		b.Run(fmt.Sprintf("sparse=%v/words=%d/n=%d/query=%d", tc.sparse, tc.words, tc.n, tc.query), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				x.Candidates(queries[i%len(queries)], 200)
			}
			b.ReportMetric(float64(x.Bytes())/float64(x.Len()), "B/row")
		})
	}
}

func TestDotSimilarityIsZero(t *testing.T) {
	a, b := []float32{0.6, 0.8}, []float32{1, 0}
	if d := Dot(a, b); math.Abs(d-0.6) > 1e-6 {
		t.Errorf("Dot = %v", d)
	}
	if d := Dot(a, []float32{1}); d != 0 {
		t.Errorf("Dot of mismatched lengths = %v", d)
	}
	if s := Similarity([]float32{3, 4}, []float32{2, 0}); math.Abs(s-0.6) > 1e-6 {
		t.Errorf("Similarity = %v", s)
	}
	if s := Similarity([]float32{0, 0}, b); s != 0 {
		t.Errorf("Similarity with zero = %v", s)
	}
	if !IsZero([]float32{0, 0}) || IsZero(a) || !IsZero(nil) {
		t.Error("IsZero")
	}
}
