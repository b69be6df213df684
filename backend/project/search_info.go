package project

import (
	"context"

	"cairn/backend/kb"
	"cairn/backend/question"
	"cairn/backend/search"
)

// SearchInfo says how a passage search ranked: which embedder embedded the
// query, or why it could not (then only the keyword list ranked).
type SearchInfo struct {
	Embedder string `json:"embedder"`       // the project's chunk embedder ("cairn-hash-v1-1024", "ollama:bge-m3")
	Vectors  bool   `json:"vectors"`        // the query was embedded: vector similarity ranked too
	Note     string `json:"note,omitempty"` // why not, in words
	// Scope is what was searched: the documents chosen or routed to (nil:
	// the whole project).
	Scope *kb.Scope `json:"scope,omitempty"`
	// Respelled are the query's words searched as another spelling the
	// project holds (Analyse).
	Respelled []question.Respelling `json:"respelled,omitempty"`
}

// SearchInfo is Search that also says how the query was embedded. A
// project whose passages are embedded by an Ollama model embeds the query
// with that model; when it cannot (Ollama not connected or failing) the
// search still runs on keywords alone and the note says so.
func (p *Project) SearchInfo(ctx context.Context, query string, k int) ([]kb.Hit, SearchInfo, error) {
	return p.SearchIn(ctx, query, k, nil)
}

// SearchIn is SearchInfo within the documents docs (none: the documents
// the query names, else the whole project; see Scope). A routed search
// that finds fewer than k passages in the documents it was routed to is
// filled from the rest of the project.
func (p *Project) SearchIn(ctx context.Context, query string, k int, docs []int64) ([]kb.Hit, SearchInfo, error) {
	if k <= 0 {
		k = 10
	}
	q, err := p.Analyse(ctx, query)
	if err != nil {
		return nil, SearchInfo{}, err
	}
	scope, err := p.Scope(ctx, q, docs)
	if err != nil {
		return nil, SearchInfo{}, err
	}
	e := p.Embedder()
	info := SearchInfo{Embedder: e.Info().Model, Vectors: true}
	if oc, ok := e.(*ollamaChunks); ok {
		v, err := oc.strict(ctx, []string{query}, 0)
		if err != nil {
			if ctx.Err() != nil {
				return nil, info, ctx.Err()
			}
			info.Vectors = false
			info.Note = "the query was not embedded: " + err.Error() + "; passages were ranked by keywords only"
			v = [][]float32{make([]float32, oc.info.Dim)}
		}
		e = fixedQuery{info: oc.info, vec: v[0]}
	}
	info.Scope, info.Respelled = scope, q.Respelled
	s := &search.Searcher{Store: p.store, Embedder: e, Settings: search.DefaultSettings()}
	if scope.Whole() {
		hits, err := s.SearchQuestion(ctx, q, k)
		return hits, info, err
	}
	s.Docs = scope.Docs
	hits, err := s.SearchQuestion(ctx, q, k)
	if err != nil || !scope.Routed || len(hits) >= k {
		return hits, info, err
	}
	s.Docs = nil
	more, err := s.SearchQuestion(ctx, q, k)
	seen := map[int64]bool{}
	for _, h := range hits {
		seen[h.ID] = true
	}
	for _, h := range more {
		if len(hits) < k && !seen[h.ID] {
			hits = append(hits, h)
		}
	}
	return hits, info, err
}

// fixedQuery is an embedder that returns one vector already computed for
// the query.
type fixedQuery struct {
	info kb.EmbedderInfo
	vec  []float32
}

func (f fixedQuery) Info() kb.EmbedderInfo { return f.info }

func (f fixedQuery) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = f.vec
	}
	return out, nil
}
