// Package search is Cairn's passage search without a model: BM25 over the
// FTS5 index (title and headings weighted above body, CJK through character
// bigrams) and nearest neighbours over the chunk vectors, fused by
// reciprocal rank. Later retrievers (entities, relations, mind maps) join
// the same fusion.
package search

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"cairn/backend/analyze"
	"cairn/backend/embed"
	"cairn/backend/kb"
	"cairn/backend/question"
	"cairn/backend/store"
	"cairn/backend/vecindex"
)

// Settings tune hybrid search. Defaults were measured on ../shared/eval (docs/measurements.md).
type Settings struct {
	ColumnWeights [4]float64 // BM25 weights for title, heading, body, cjk
	Depth         int        // how deep each ranked list is read before fusion
	RRFK          float64    // reciprocal-rank constant
	LexicalWeight float64
	VectorWeight  float64
	// NamedWeight weighs the list of passages whose heading path the
	// question names (see NamedSection; 0: no such list). Measured on
	// ../shared/eval/docqa/financebench-dev (docs/measurements.md).
	NamedWeight float64
	// PageWeight weighs the list of passages on the pages the question
	// names ("on page 12", "the second page"; see PageRefs; 0: no such
	// list). Above the lexical list's weight: a page the user names is
	// where they want to look.
	PageWeight float64
	// RowsWeight weighs the list of table passages whose row labels hold
	// the question's words (see rowList; 0: no such list).
	RowsWeight float64
	// CellsWeight weighs the list of table passages holding a cell the
	// question names by its row and period (see cellList; 0: no such
	// list).
	CellsWeight float64
	// WindowWeight weighs the list of passages holding the question's
	// words close together (see windowList; 0: no such list).
	WindowWeight float64
	// PageWordsWeight weighs the list of passages ranked by their page's
	// words as a whole (see pageWordsList; 0: no such list).
	PageWordsWeight float64
	// SpreadDepth is how many of the best passages a search's results are
	// drawn from so that its first ones lie on different pages (see
	// spreadPages; 0: results in rank order).
	SpreadDepth int
}

// DefaultSettings are the measured defaults.
func DefaultSettings() Settings {
	// Measured with `go test ./backend/evalset -run TestRecallBeatsBM25 -v`
	// (docs/measurements.md, "Retrieval quality"): titles weigh most; the built-in vectors
	// are weaker than BM25 on these sets, so they add a light vote. The
	// page words' weight and the spread's depth were measured with
	// ../shared/eval/docqa (docs/measurements.md, "Pages as a whole"):
	// page hit@5 rises alike for weights 0.1 to 0.25 and falls above.
	return Settings{ColumnWeights: [4]float64{5, 1.5, 1, 1}, Depth: 50, RRFK: 10, LexicalWeight: 1, VectorWeight: 0.3, NamedWeight: 1, PageWeight: 2, RowsWeight: 1, CellsWeight: 1, WindowWeight: 1, PageWordsWeight: 0.2, SpreadDepth: 30}
}

// Searcher runs hybrid passage search over one project store.
type Searcher struct {
	Store    *store.Store
	Embedder embed.Embedder
	Settings Settings
	// QueryVector, when set, embeds the question instead of Embedder (the
	// built-in embedder weights question words by IDF this way).
	QueryVector func(ctx context.Context, q string) ([]float32, error)
	// Docs, when not empty, searches only these documents' passages.
	Docs []int64
}

// EmbedText is the text a chunk's vector is made from: document title,
// heading path, the header row of a table the chunk continues, and body,
// so passages inherit their context.
func EmbedText(docTitle string, c kb.Chunk) string {
	if c.TableHeader != "" {
		return docTitle + "\n" + strings.Join(c.HeadingPath, "\n") + "\n" + c.TableHeader + "\n" + c.Text
	}
	return docTitle + "\n" + strings.Join(c.HeadingPath, "\n") + "\n" + c.Text
}

// ChunkTerms lists the distinct words of a chunk as the built-in embedder
// counts them for document frequencies (the words the store keeps counts
// of; embed.ChunkWords is the same for a stored chunk).
func ChunkTerms(docTitle string, c kb.Chunk) []string {
	return embed.Words(EmbedText(docTitle, c))
}

// ChunkRows decides, in this one place, what a document's chunks are
// indexed as: each chunk's lexical row and words (for document
// frequencies), and the texts to embed, one per chunk, whose vectors the
// caller puts in the rows' Vector.
func ChunkRows(docTitle string, chunks []kb.Chunk) (rows []store.ChunkRow, embedTexts []string) {
	rows = make([]store.ChunkRow, len(chunks))
	embedTexts = make([]string, len(chunks))
	for i, c := range chunks {
		rows[i] = store.ChunkRow{Chunk: c, FTS: store.ChunkFTS(docTitle, c), Terms: ChunkTerms(docTitle, c)}
		embedTexts[i] = EmbedText(docTitle, c)
	}
	return rows, embedTexts
}

// MatchTerms turns a question into FTS5 query terms: every content word
// quoted (FTS stems it), every CJK bigram against the cjk column. Stop words
// are dropped unless nothing else is left.
func MatchTerms(q string) []string { return MatchTermsOf(analyze.Tokens(q)) }

// MatchTermsOf is MatchTerms of a text already cut into tokens (an
// analysed question's Tokens).
func MatchTermsOf(toks []analyze.Token) []string {
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
	return terms
}

// MatchExpr is a question as one FTS5 query: its MatchTerms OR-ed, so BM25
// rewards passages matching more of them.
func MatchExpr(q string) string { return strings.Join(MatchTerms(q), " OR ") }

// Lexical ranks the k best chunks for a question by BM25 (title and headings
// weighted by weights).
//
// FTS5 scores every row its query matches, and a plain OR of the question's
// words makes that every row holding any of them: at 100k chunks a question
// with "film", "director" and "born" matched half the table and took 60-90
// ms, most of it reading each row's sizes for the length norm. So on a large
// project the question's commonest words stop selecting rows (SplitCommon):
// rows are selected by the rarer words and scored by all of them
// (ScopedMatch), as Elasticsearch's common-terms query does. A row holding
// only common words is then left out; on the 100k-chunk bench corpus the top
// 50 stayed the same (backend/bench RESULTS.md).
func Lexical(ctx context.Context, st *store.Store, q *question.Question, weights [4]float64, k int) ([]store.Scored, error) {
	return LexicalIn(ctx, st, q, weights, k, nil)
}

// LexicalIn is Lexical within the passages of the documents docs (all when
// empty).
func LexicalIn(ctx context.Context, st *store.Store, q *question.Question, weights [4]float64, k int, docs []int64) ([]store.Scored, error) {
	tc, err := countTerms(ctx, st, MatchTermsOf(q.Tokens))
	if err != nil {
		return nil, err
	}
	return tc.lexical(ctx, st, weights, k, docs)
}

// termCounts are a question's FTS5 terms (MatchTerms) with the chunks each
// matches and the chunks in the project: counted once per search, read by
// the lexical list and the heading search of the named list.
type termCounts struct {
	terms []string
	rows  []int
	total int
}

func countTerms(ctx context.Context, st *store.Store, terms []string) (termCounts, error) {
	tc := termCounts{terms: terms}
	if len(tc.terms) == 0 {
		return tc, nil
	}
	var err error
	tc.rows, tc.total, err = st.TermRows(ctx, tc.terms)
	return tc, err
}

// lexical is LexicalIn over counted terms.
func (tc termCounts) lexical(ctx context.Context, st *store.Store, weights [4]float64, k int, docs []int64) ([]store.Scored, error) {
	if len(tc.terms) == 0 {
		return nil, nil
	}
	rare, common := SplitCommon(tc.terms, tc.rows, CommonRowBudget(tc.total))
	return st.LexicalSearchIn(ctx, ScopedMatch(rare, common), weights, k, docs)
}

// sections ranks the k passages whose heading path (with a table's
// caption and header row) best matches the question by BM25 over that
// column alone: a question that names the section or table it asks about
// ("… shown in the cash flow statement") finds the passages under it
// however little of the question their text repeats. Only the question's
// rarer words select (see SplitCommon).
// CJK bigram terms are left out: they search their own column.
func (tc termCounts) sections(ctx context.Context, st *store.Store, k int, docs []int64) ([]store.Scored, error) {
	var terms []string
	var rows []int
	for i, t := range tc.terms {
		if !strings.HasPrefix(t, "cjk :") {
			terms = append(terms, t)
			rows = append(rows, tc.rows[i])
		}
	}
	if len(terms) == 0 {
		return nil, nil
	}
	rare, _ := SplitCommon(terms, rows, CommonRowBudget(tc.total))
	return st.LexicalSearchIn(ctx, "heading : ("+strings.Join(rare, " OR ")+")", [4]float64{0, 1, 0, 0}, k, docs)
}

// Common-word split: a question's words select at most
// max(commonMinRows, commonShare × chunks) rows, counted as the sum of their
// document frequencies. Below commonMinRows FTS5 scores a question's rows
// in a few milliseconds and nothing is split. The share was measured on the
// 100k-chunk bench corpus (50 questions): at 10% the top 50 matched the
// unsplit search exactly; at 5% 96% of it did.
const (
	commonMinRows = 5000
	commonShare   = 0.10
)

// CommonRowBudget is how many rows a question's selecting words may match
// in a project of total chunks.
func CommonRowBudget(total int) int { return max(commonMinRows, int(commonShare*float64(total))) }

// SplitCommon splits query terms (rows: the chunks each matches) into the
// rare ones that select rows and the common ones that only score them. When
// all terms together match at most budget rows, all are rare. Otherwise the
// rarest terms are taken while their rows fit the budget; the rarest term
// always selects, so a question of only common words still finds its rows.
// Terms keep their question order within each part.
func SplitCommon(terms []string, rows []int, budget int) (rare, common []string) {
	sum := 0
	for _, r := range rows {
		sum += r
	}
	if sum <= budget {
		return terms, nil
	}
	order := make([]int, len(terms))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return rows[order[a]] < rows[order[b]] })
	selects := make([]bool, len(terms))
	used := 0
	for n, i := range order {
		if n > 0 && used+rows[i] > budget {
			break
		}
		selects[i] = true
		used += rows[i]
	}
	for i, t := range terms {
		if selects[i] {
			rare = append(rare, t)
		} else {
			common = append(common, t)
		}
	}
	return rare, common
}

// ScopedMatch is the FTS5 query that selects rows holding a rare term and
// scores every term on them: "(r1 OR r2) AND (c1 OR c2 OR every row)". The
// every-row term matches all rows, so the AND keeps exactly the rare terms'
// rows, while FTS5's BM25 sums each term present in a row, common ones
// included. With no common terms it is the plain OR.
func ScopedMatch(rare, common []string) string {
	if len(common) == 0 {
		return strings.Join(rare, " OR ")
	}
	return "(" + strings.Join(rare, " OR ") + ") AND (" + strings.Join(common, " OR ") + " OR " + store.MatchEveryRow + ")"
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

// Search returns the k best passages for query, loaded with snippets.
func (s *Searcher) Search(ctx context.Context, query string, k int) ([]kb.Hit, error) {
	return s.SearchQuestion(ctx, question.New(query), k)
}

// SearchQuestion is Search of an analysed question.
// Its first results lie on different pages where the best passages allow
// (spreadPages).
func (s *Searcher) SearchQuestion(ctx context.Context, q *question.Question, k int) ([]kb.Hit, error) {
	depth := max(k, s.Settings.SpreadDepth)
	fused, score, ranks, err := s.RankQuestion(ctx, q, depth)
	if err != nil {
		return nil, err
	}
	hits, err := s.Store.ChunkHits(ctx, fused)
	if err != nil {
		return nil, err
	}
	hits = spreadPages(hits)
	if len(hits) > k {
		hits = hits[:k]
	}
	fillHits(q, hits, score, ranks)
	return hits, nil
}

// LoadHits loads the passages of fused ids (in order; ids gone since are
// left out) with their fused score, per-list ranks and a snippet for the
// question q.
func LoadHits(ctx context.Context, st *store.Store, q *question.Question, ids []int64, score map[int64]float64, ranks map[int64]map[string]int) ([]kb.Hit, error) {
	hits, err := st.ChunkHits(ctx, ids)
	if err != nil {
		return nil, err
	}
	fillHits(q, hits, score, ranks)
	return hits, nil
}

// fillHits sets each hit's fused score, per-list ranks and snippet for q.
func fillHits(q *question.Question, hits []kb.Hit, score map[int64]float64, ranks map[int64]map[string]int) {
	terms := snippetTerms(q.Tokens)
	for i := range hits {
		hits[i].Score = score[hits[i].ID]
		hits[i].Ranks = ranks[hits[i].ID]
		hits[i].Snippet = snippet(hits[i].Text, terms, 240)
	}
}

// Rank returns the ids of the k best passages for query, best first, with
// their fused scores and their rank in each list (see Fuse), without
// loading the passages.
func (s *Searcher) Rank(ctx context.Context, query string, k int) ([]int64, map[int64]float64, map[int64]map[string]int, error) {
	return s.RankQuestion(ctx, question.New(query), k)
}

// RankQuestion is Rank of an analysed question: its words, stems and
// vector are read from q, not worked out again.
func (s *Searcher) RankQuestion(ctx context.Context, q *question.Question, k int) ([]int64, map[int64]float64, map[int64]map[string]int, error) {
	query := q.Text
	set := s.Settings
	if set.Depth == 0 {
		set = DefaultSettings()
	}
	depth := max(set.Depth, k)
	// The vector list (query embedding + k-NN) runs beside the lexical one:
	// on two cores that takes the slower of the two, not their sum.
	type vecResult struct {
		near []store.Scored
		err  error
	}
	vec := make(chan vecResult, 1)
	wantVec := (s.Embedder != nil || s.QueryVector != nil) && set.VectorWeight > 0
	var keep func(int64) bool
	if len(s.Docs) > 0 {
		in, err := s.Store.DocChunkIDs(ctx, s.Docs)
		if err != nil {
			return nil, nil, nil, err
		}
		set := make(map[int64]bool, len(in))
		for _, id := range in {
			set[id] = true
		}
		keep = func(id int64) bool { return set[id] }
	}
	if wantVec {
		go func() {
			qv, err := s.queryVector(ctx, q)
			if err != nil || vecindex.IsZero(qv) {
				vec <- vecResult{err: err}
				return
			}
			near, err := s.Store.NearestChunksIf(ctx, qv, depth, keep)
			vec <- vecResult{near: near, err: err}
		}()
	}
	tc, lerr := countTerms(ctx, s.Store, MatchTermsOf(q.Tokens))
	var lex []store.Scored
	if lerr == nil {
		lex, lerr = tc.lexical(ctx, s.Store, set.ColumnWeights, depth, s.Docs)
	}
	var vr vecResult
	if wantVec {
		vr = <-vec
	}
	if lerr != nil {
		return nil, nil, nil, lerr
	}
	if vr.err != nil {
		return nil, nil, nil, vr.err
	}
	lists := []Ranked{{Name: "lexical", Weight: set.LexicalWeight, IDs: ids(lex)}}
	if vr.near != nil {
		lists = append(lists, Ranked{Name: "vector", Weight: set.VectorWeight, IDs: ids(vr.near)})
	}
	fused, score, ranks := Fuse(set.RRFK, lists...)
	if set.NamedWeight > 0 || set.RowsWeight > 0 || set.CellsWeight > 0 || set.WindowWeight > 0 || set.PageWordsWeight > 0 {
		cand, err := s.sectionCandidates(ctx, fused, tc)
		if err != nil {
			return nil, nil, nil, err
		}
		n := len(lists)
		if named := namedList(q, cand); set.NamedWeight > 0 && len(named) > 0 {
			lists = append(lists, Ranked{Name: "named", Weight: set.NamedWeight, IDs: named})
		}
		if rows := rowList(q, cand, tc.stemIDF()); set.RowsWeight > 0 && len(rows) > 0 {
			lists = append(lists, Ranked{Name: "rows", Weight: set.RowsWeight, IDs: rows})
		}
		if cells := cellList(q, cand, tc.stemIDF()); set.CellsWeight > 0 && len(cells) > 0 {
			lists = append(lists, Ranked{Name: "cells", Weight: set.CellsWeight, IDs: cells})
		}
		if set.WindowWeight > 0 {
			if near := windowList(q, cand, tc.stemIDF()); len(near) > 0 {
				lists = append(lists, Ranked{Name: "window", Weight: set.WindowWeight, IDs: near})
			}
		}
		if set.PageWordsWeight > 0 {
			pages, err := s.Store.PageTexts(ctx, pageRefs(cand))
			if err != nil {
				return nil, nil, nil, err
			}
			if on := pageWordsList(q, cand, pages, tc.stemIDF()); len(on) > 0 {
				lists = append(lists, Ranked{Name: "page_words", Weight: set.PageWordsWeight, IDs: on})
			}
		}
		if len(lists) > n {
			fused, score, ranks = Fuse(set.RRFK, lists...)
		}
	}
	if set.PageWeight > 0 {
		onPage, err := s.pageList(ctx, query, fused, depth)
		if err != nil {
			return nil, nil, nil, err
		}
		if len(onPage) > 0 {
			lists = append(lists, Ranked{Name: "page", Weight: set.PageWeight, IDs: onPage})
			fused, score, ranks = Fuse(set.RRFK, lists...)
		}
	}
	if len(fused) > k {
		fused = fused[:k]
	}
	return fused, score, ranks, nil
}

// queryVector is q's vector for the chunk vectors' search: made by
// QueryVector when set, else the built-in embedder's IDF-weighted vector
// (IDFVector), else the embedder's, kept on q under the embedder's name.
func (s *Searcher) queryVector(ctx context.Context, q *question.Question) ([]float32, error) {
	if s.QueryVector != nil {
		return s.QueryVector(ctx, q.Text)
	}
	if h, ok := s.Embedder.(*embed.Hashed); ok {
		return IDFVector(ctx, s.Store, h, q)
	}
	return q.Vector("embed "+s.Embedder.Info().Model, func() ([]float32, error) {
		v, err := s.Embedder.Embed(ctx, []string{q.Text})
		if err != nil {
			return nil, err
		}
		return v[0], nil
	})
}

func ids(sc []store.Scored) []int64 {
	out := make([]int64, len(sc))
	for i, s := range sc {
		out[i] = s.ChunkID
	}
	return out
}

// IDFQueryVector embeds a question with the built-in embedder, weighting each
// word by its squared IDF over the project's chunks, so the cosine against
// the (unweighted) chunk vectors ranks like a TF-IDF dot product.
func IDFQueryVector(ctx context.Context, st *store.Store, h *embed.Hashed, q string) ([]float32, error) {
	return idfVector(ctx, st, h, question.New(q))
}

// IDFVector is IDFQueryVector of an analysed question, made once per
// embedder and store and kept on q: the passage search and the graph's
// relation recall embed the question the same way.
func IDFVector(ctx context.Context, st *store.Store, h *embed.Hashed, q *question.Question) ([]float32, error) {
	return q.Vector(fmt.Sprintf("idf %s %p", h.Info().Model, st), func() ([]float32, error) {
		return idfVector(ctx, st, h, q)
	})
}

func idfVector(ctx context.Context, st *store.Store, h *embed.Hashed, q *question.Question) ([]float32, error) {
	df, n, err := st.TermDF(ctx, q.Words)
	if err != nil {
		return nil, err
	}
	return h.QueryVectorOf(q.Tokens, func(w string) float64 {
		idf := math.Log(1 + float64(n)/float64(df[w]+1))
		return idf * idf
	}), nil
}
