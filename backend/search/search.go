// Package search is Cairn's passage search without a model: BM25 over the
// FTS5 index (title and headings weighted above body, CJK through character
// bigrams) and nearest neighbours over the chunk vectors, fused by
// reciprocal rank. Later retrievers (entities, relations, mind maps) join
// the same fusion.
package search

import (
	"context"
	"math"
	"sort"
	"strings"

	"cairn/backend/analyze"
	"cairn/backend/embed"
	"cairn/backend/kb"
	"cairn/backend/store"
)

// Settings tune hybrid search. Defaults were measured on ../shared/eval (README).
type Settings struct {
	ColumnWeights [4]float64 // BM25 weights for title, heading, body, cjk
	Depth         int        // how deep each ranked list is read before fusion
	RRFK          float64    // reciprocal-rank constant
	LexicalWeight float64
	VectorWeight  float64
}

// DefaultSettings are the measured defaults.
func DefaultSettings() Settings {
	// Measured with `go test ./backend/evalset -run TestRecallBeatsBM25 -v`
	// (README "Retrieval quality"): titles weigh most; the built-in vectors
	// are weaker than BM25 on these sets, so they add a light vote.
	return Settings{ColumnWeights: [4]float64{5, 1.5, 1, 1}, Depth: 50, RRFK: 10, LexicalWeight: 1, VectorWeight: 0.3}
}

// Searcher runs hybrid passage search over one project store.
type Searcher struct {
	Store    *store.Store
	Embedder embed.Embedder
	Settings Settings
	// QueryVector, when set, embeds the question instead of Embedder (the
	// built-in embedder weights question words by IDF this way).
	QueryVector func(ctx context.Context, q string) ([]float32, error)
}

// FTSRow builds the lexical index row of a chunk.
func FTSRow(docTitle string, c kb.Chunk) store.FTSRow {
	return store.FTSRow{
		Title:   docTitle,
		Heading: strings.Join(c.HeadingPath, " / "),
		Body:    c.Text,
		CJK:     analyze.CJKBigramText(docTitle + "\n" + strings.Join(c.HeadingPath, "\n") + "\n" + c.Text),
	}
}

// EmbedText is the text a chunk's vector is made from: document title,
// heading path and body, so passages inherit their context.
func EmbedText(docTitle string, c kb.Chunk) string {
	return docTitle + "\n" + strings.Join(c.HeadingPath, "\n") + "\n" + c.Text
}

// ChunkTerms lists the distinct words of a chunk as the built-in embedder
// counts them for document frequencies (a store.TermsOf).
func ChunkTerms(docTitle string, c kb.Chunk) []string {
	return embed.Words(EmbedText(docTitle, c))
}

// MatchExpr turns a question into an FTS5 query: every content word as a
// quoted term (FTS stems it), every CJK bigram against the cjk column, all
// OR-ed so BM25 rewards passages matching more of them. Stop words are
// dropped unless nothing else is left.
func MatchExpr(q string) string {
	toks := analyze.Tokens(q)
	var terms, stops []string
	seen := map[string]bool{}
	add := func(list *[]string, t string) {
		if !seen[t] {
			seen[t] = true
			*list = append(*list, t)
		}
	}
	for _, t := range toks {
		if t.CJK {
			for _, g := range analyze.Bigrams(t.Text) {
				add(&terms, "cjk : "+quote(g))
			}
			continue
		}
		if analyze.IsStop(t.Text) {
			add(&stops, quote(t.Text))
			continue
		}
		add(&terms, quote(t.Text))
	}
	if len(terms) == 0 {
		terms = stops
	}
	return strings.Join(terms, " OR ")
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// Ranked is one retriever's ranked list of chunk ids, best first.
type Ranked struct {
	Name   string
	Weight float64
	IDs    []int64
}

// Fuse combines ranked lists by weighted reciprocal rank:
// score(id) = Σ weight / (k + rank). Ties keep first-list order.
func Fuse(k float64, lists ...Ranked) (ids []int64, score map[int64]float64, ranks map[int64]map[string]int) {
	score = map[int64]float64{}
	ranks = map[int64]map[string]int{}
	first := map[int64]int{}
	n := 0
	for _, l := range lists {
		for i, id := range l.IDs {
			if _, ok := score[id]; !ok {
				first[id] = n
				n++
				ids = append(ids, id)
				ranks[id] = map[string]int{}
			}
			score[id] += l.Weight / (k + float64(i+1))
			ranks[id][l.Name] = i + 1
		}
	}
	sort.SliceStable(ids, func(a, b int) bool {
		if score[ids[a]] != score[ids[b]] {
			return score[ids[a]] > score[ids[b]]
		}
		return first[ids[a]] < first[ids[b]]
	})
	return ids, score, ranks
}

// Search returns the k best passages for query.
func (s *Searcher) Search(ctx context.Context, query string, k int) ([]kb.Hit, error) {
	set := s.Settings
	if set.Depth == 0 {
		set = DefaultSettings()
	}
	depth := max(set.Depth, k)
	// The vector list (query embedding + k-NN) runs beside the lexical one:
	// on two cores that takes the slower of the two, not their sum (at 100k
	// chunks BM25 and k-NN are each tens of milliseconds).
	type vecResult struct {
		near []store.Scored
		err  error
	}
	vec := make(chan vecResult, 1)
	wantVec := (s.Embedder != nil || s.QueryVector != nil) && set.VectorWeight > 0
	if wantVec {
		go func() {
			qv, err := s.queryVector(ctx, query)
			if err != nil || zero(qv) {
				vec <- vecResult{err: err}
				return
			}
			near, err := s.Store.NearestChunks(ctx, qv, depth)
			vec <- vecResult{near: near, err: err}
		}()
	}
	lex, lerr := s.Store.LexicalSearch(ctx, MatchExpr(query), set.ColumnWeights, depth)
	var vr vecResult
	if wantVec {
		vr = <-vec
	}
	if lerr != nil {
		return nil, lerr
	}
	if vr.err != nil {
		return nil, vr.err
	}
	lists := []Ranked{{Name: "lexical", Weight: set.LexicalWeight, IDs: ids(lex)}}
	if vr.near != nil {
		lists = append(lists, Ranked{Name: "vector", Weight: set.VectorWeight, IDs: ids(vr.near)})
	}
	fused, score, ranks := Fuse(set.RRFK, lists...)
	if len(fused) > k {
		fused = fused[:k]
	}
	hits, err := s.Store.ChunkHits(ctx, fused)
	if err != nil {
		return nil, err
	}
	for i := range hits {
		hits[i].Score = score[hits[i].ID]
		hits[i].Ranks = ranks[hits[i].ID]
		hits[i].Snippet = Snippet(hits[i].Text, query, 240)
	}
	return hits, nil
}

func (s *Searcher) queryVector(ctx context.Context, q string) ([]float32, error) {
	if s.QueryVector != nil {
		return s.QueryVector(ctx, q)
	}
	if h, ok := s.Embedder.(*embed.Hashed); ok {
		return IDFQueryVector(ctx, s.Store, h, q)
	}
	v, err := s.Embedder.Embed(ctx, []string{q})
	if err != nil {
		return nil, err
	}
	return v[0], nil
}

func ids(sc []store.Scored) []int64 {
	out := make([]int64, len(sc))
	for i, s := range sc {
		out[i] = s.ChunkID
	}
	return out
}

func zero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// IDFQueryVector embeds a question with the built-in embedder, weighting each
// word by its squared IDF over the project's chunks, so the cosine against
// the (unweighted) chunk vectors ranks like a TF-IDF dot product.
func IDFQueryVector(ctx context.Context, st *store.Store, h *embed.Hashed, q string) ([]float32, error) {
	words := embed.Words(q)
	df, n, err := st.TermDF(ctx, words)
	if err != nil {
		return nil, err
	}
	return h.QueryVector(q, func(w string) float64 {
		idf := math.Log(1 + float64(n)/float64(df[w]+1))
		return idf * idf
	}), nil
}
