package mindmap

import (
	"context"
	"errors"
	"math"
	"sort"
	"strings"

	"cairn/backend/embed"
	"cairn/backend/kb"
	"cairn/backend/llm"
	qa "cairn/backend/question"
	"cairn/backend/retrieve"
	"cairn/backend/search"
	"cairn/backend/store"
	"cairn/backend/vecindex"
)

// Pseudo-graph retrieval (PG-RAG): key points of the question seed anchors
// among the mind-map nodes (path vectors and the node lexical index), the
// best documents' trees are walked with the control-matrix rule, and the
// best fact paths come back with their chunks.
//
// The walk, per key point q and anchor fact a (similarity s = cos(q, a)):
// climbing from a towards the topic, each ancestor whose similarity differs
// from s by at most Fuzzy is accepted; the highest accepted one is the
// upper-bound parent u. Every fact path below u is then credited from u
// downwards, node by node, with weight × importance, where importance is the
// node's similarity to q and weight is 1 (support: |sim − s| ≤ Support), 0.5
// (fuzzy: ≤ Fuzzy) or 0 (reject: the path stops there). Credits add up over
// anchors and key points; a chunk scores by its best fact path.

// PGSettings tune the pseudo-graph walk.
type PGSettings struct {
	// Provider, when it is a model, writes the key points (one small call);
	// otherwise they are the question's key phrases and names.
	Provider llm.Provider
	Model    string

	Seeds   int     // nodes read per key point from the vector and lexical seeding
	Docs    int     // documents (trees) walked
	Anchors int     // anchor facts per key point
	Support float64 // control-matrix support threshold on |sim − anchor sim|
	Fuzzy   float64 // fuzzy threshold; beyond it a node is rejected
	Hop     bool    // also walk documents linked to the seeds by supernodes
	K       int     // chunks returned
}

// DefaultPGSettings are the measured defaults. Thresholds measured with
// `go run ./tools/pgeval -data ../shared/eval -sets hotpotqa,musique`
// (offline mind maps, hashed path vectors): the code's 0.01/0.02 beat the
// paper's 0.03/0.05 for the walk alone (HotpotQA R@2/R@5 40.0/62.5 vs
// 33.0/59.5, MuSiQue 25.3/38.2 vs 20.4/36.7, with the supernode hop). Fused
// into passage search the walk changes Recall by less than the noise of 100
// questions; weight it lightly (0.3) in the rank fusion.
func DefaultPGSettings() PGSettings {
	return PGSettings{Seeds: 40, Docs: 10, Anchors: 8, Support: 0.01, Fuzzy: 0.02, Hop: true, K: 20}
}

// PGStep is one node of a fact path.
type PGStep struct {
	NodeID    int64       `json:"node_id"`
	Kind      kb.MindKind `json:"kind"`
	Label     string      `json:"label"`
	ChunkID   int64       `json:"chunk_id,omitempty"`
	PageStart int         `json:"page_start,omitempty"`
	PageEnd   int         `json:"page_end,omitempty"`
}

// PGHit is one chunk reached by the walk, with its best fact path (topic
// first, fact last).
type PGHit struct {
	ChunkID int64    `json:"chunk_id"`
	DocID   int64    `json:"doc_id"`
	Score   float64  `json:"score"`
	Path    []PGStep `json:"path"`
}

// KeyPoints returns the walk's query texts: the question itself, then its
// key points (from the model when s.Provider is one and answers, else its
// names and key phrases), at most six, without repeats.
func KeyPoints(ctx context.Context, question string, s PGSettings) []string {
	out := []string{question}
	seen := map[string]bool{strings.ToLower(strings.TrimSpace(question)): true}
	add := func(k string) {
		k = strings.TrimSpace(k)
		if k != "" && !seen[strings.ToLower(k)] && len(out) < 6 {
			seen[strings.ToLower(k)] = true
			out = append(out, k)
		}
	}
	if s.Provider != nil && s.Provider.Mode() != llm.ModeOffline {
		if kps, _, err := ModelKeyPoints(ctx, s.Provider, s.Model, question); err == nil && len(kps) > 0 {
			for _, k := range kps {
				add(k)
			}
			return out
		}
	}
	for _, k := range qa.NameSpans(question) {
		add(k)
	}
	for _, k := range KeyPhrases(question, nil, 4) {
		add(k)
	}
	return out
}

// pgNode is a candidate tree's node in the walk.
type pgNode struct {
	store.MindNodeRow
	vec      []float32
	children []int
	parent   int // index, -1 for the topic
}

// PseudoGraph walks the project's pseudo-graph for question and returns the
// best chunks, best first, each with its best fact path. A project without
// mind maps gives no hits and no error.
func PseudoGraph(ctx context.Context, st *store.Store, question string, s PGSettings) ([]PGHit, error) {
	def := DefaultPGSettings()
	if s.Seeds <= 0 {
		s.Seeds = def.Seeds
	}
	if s.Docs <= 0 {
		s.Docs = def.Docs
	}
	if s.Anchors <= 0 {
		s.Anchors = def.Anchors
	}
	if s.K <= 0 {
		s.K = def.K
	}
	if s.Fuzzy < s.Support {
		return nil, errors.New("pseudo-graph walk: fuzzy threshold below the support threshold")
	}
	kps := KeyPoints(ctx, question, s)
	h := embed.NewHashed(store.MindVecDim)
	qvecs := make([][]float32, 0, len(kps))
	for _, k := range kps {
		v, err := search.IDFQueryVector(ctx, st, h, k)
		if err != nil {
			return nil, err
		}
		if !vecindex.IsZero(v) {
			qvecs = append(qvecs, v)
		}
	}
	if len(qvecs) == 0 {
		return nil, nil
	}
	// Seeds: nearest path vectors per key point, plus the node lexical index;
	// documents ranked by reciprocal rank of their seeds.
	docScore := map[int64]float64{}
	var seedIDs []int64
	var lists [][]store.ScoredNode
	for _, qv := range qvecs {
		near, err := st.NearestMindNodes(ctx, qv, s.Seeds)
		if err != nil {
			return nil, err
		}
		lists = append(lists, near)
	}
	lex, err := st.LexicalMindNodes(ctx, search.MatchExpr(question), [3]float64{2, 1, 1}, s.Seeds)
	if err != nil {
		return nil, err
	}
	lists = append(lists, lex)
	for _, l := range lists {
		for _, sn := range l {
			seedIDs = append(seedIDs, sn.NodeID)
		}
	}
	if len(seedIDs) == 0 {
		return nil, nil
	}
	seedRows, err := st.MindNodesByID(ctx, uniq(seedIDs))
	if err != nil {
		return nil, err
	}
	docOf := map[int64]int64{}
	superOf := map[int64]int64{}
	for _, r := range seedRows {
		docOf[r.ID] = r.DocID
		superOf[r.ID] = r.Supernode
	}
	for _, l := range lists {
		seenDoc := map[int64]bool{}
		rank := 0
		for _, sn := range l {
			d := docOf[sn.NodeID]
			if d == 0 || seenDoc[d] {
				continue
			}
			seenDoc[d] = true
			rank++
			docScore[d] += 1 / (10 + float64(rank))
		}
	}
	docs := topDocs(docScore, s.Docs)
	if s.Hop {
		// one hop over supernodes from the seeds of the chosen documents
		chosen := map[int64]bool{}
		for _, d := range docs {
			chosen[d] = true
		}
		supers := map[int64]bool{}
		for _, r := range seedRows {
			if chosen[r.DocID] && r.Supernode != 0 {
				supers[r.Supernode] = true
			}
		}
		if len(supers) > 0 {
			all, err := st.Supernodes(ctx)
			if err != nil {
				return nil, err
			}
			extra := map[int64]float64{}
			for _, sn := range all {
				if !supers[sn.ID] {
					continue
				}
				for _, d := range sn.DocIDs {
					if !chosen[d] {
						extra[d] += docScore[d] + 1e-3
					}
				}
			}
			docs = append(docs, topDocs(extra, max(2, s.Docs/2))...)
		}
	}
	rows, err := st.MindNodesOfDocs(ctx, docs)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	vecs, err := st.MindVectors(ctx, ids)
	if err != nil {
		return nil, err
	}
	nodes := make([]pgNode, len(rows))
	pos := make(map[int64]int, len(rows))
	for i, r := range rows {
		nodes[i] = pgNode{MindNodeRow: r, vec: vecs[r.ID], parent: -1}
		pos[r.ID] = i
	}
	for i := range nodes {
		if p, ok := pos[nodes[i].Parent]; ok && nodes[i].Parent != 0 {
			nodes[i].parent = p
			nodes[p].children = append(nodes[p].children, i)
		}
	}
	row := pgWalk(nodes, qvecs, s)
	return pgHits(nodes, row, s.K), nil
}

// pgWalk scores every fact of the candidate trees (row sums of the stained
// control matrices, summed over key points and anchors).
func pgWalk(nodes []pgNode, qvecs [][]float32, s PGSettings) map[int]float64 {
	row := map[int]float64{}
	var facts []int
	for i, n := range nodes {
		if n.Kind == kb.MindFact {
			facts = append(facts, i)
		}
	}
	sim := make([]float64, len(nodes))
	for _, q := range qvecs {
		for i, n := range nodes {
			sim[i] = vecindex.Dot(q, n.vec)
		}
		anchors := append([]int(nil), facts...)
		sort.SliceStable(anchors, func(a, b int) bool { return sim[anchors[a]] > sim[anchors[b]] })
		if len(anchors) > s.Anchors {
			anchors = anchors[:s.Anchors]
		}
		for _, a := range anchors {
			sa := sim[a]
			if sa <= 0 {
				continue
			}
			weight := func(i int) float64 {
				switch d := math.Abs(sim[i] - sa); {
				case d <= s.Support:
					return 1
				case d <= s.Fuzzy:
					return 0.5
				}
				return 0
			}
			// left boundary: climb while ancestors are accepted
			u := a
			for p := nodes[u].parent; p >= 0 && weight(p) > 0; p = nodes[p].parent {
				u = p
			}
			// right expansion: every path below u is credited node by node
			// until its first reject (the cells before the reject still count)
			var down, credit func(i int, acc float64)
			credit = func(i int, acc float64) {
				if nodes[i].Kind == kb.MindFact {
					row[i] += acc
				}
				for _, c := range nodes[i].children {
					credit(c, acc)
				}
			}
			down = func(i int, acc float64) {
				w := weight(i)
				if i == a {
					w = 1
				}
				if w == 0 {
					if acc > 0 {
						credit(i, acc)
					}
					return
				}
				acc += w * sim[i]
				if nodes[i].Kind == kb.MindFact {
					row[i] += acc
					return
				}
				for _, c := range nodes[i].children {
					down(c, acc)
				}
			}
			down(u, 0)
		}
	}
	return row
}

func pgHits(nodes []pgNode, row map[int]float64, k int) []PGHit {
	type agg struct {
		best, sum float64
		fact      int
	}
	byChunk := map[int64]*agg{}
	for i, sc := range row {
		c := nodes[i].ChunkID
		a := byChunk[c]
		if a == nil {
			a = &agg{fact: i}
			byChunk[c] = a
		}
		a.sum += sc
		if sc > a.best || (sc == a.best && i < a.fact) {
			a.best, a.fact = sc, i
		}
	}
	var out []PGHit
	for c, a := range byChunk {
		var path []PGStep
		for i := a.fact; i >= 0; i = nodes[i].parent {
			n := nodes[i]
			path = append(path, PGStep{NodeID: n.ID, Kind: n.Kind, Label: n.Label, ChunkID: n.ChunkID, PageStart: n.PageStart, PageEnd: n.PageEnd})
		}
		for l, r := 0, len(path)-1; l < r; l, r = l+1, r-1 {
			path[l], path[r] = path[r], path[l]
		}
		out = append(out, PGHit{ChunkID: c, DocID: nodes[a.fact].DocID, Score: a.best + 0.1*(a.sum-a.best), Path: path})
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Score != out[b].Score {
			return out[a].Score > out[b].Score
		}
		return out[a].ChunkID < out[b].ChunkID
	})
	if len(out) > k {
		out = out[:k]
	}
	return out
}

// PGChunkIDs is the walk's ranked chunk list (a retrieve.PseudoFunc for Retriever.Pseudo).
func PGChunkIDs(st *store.Store, s PGSettings) retrieve.PseudoFunc {
	return func(ctx context.Context, question string, k int) ([]int64, error) {
		s := s
		s.K = max(s.K, k)
		hits, err := PseudoGraph(ctx, st, question, s)
		if err != nil {
			return nil, err
		}
		out := make([]int64, len(hits))
		for i, h := range hits {
			out[i] = h.ChunkID
		}
		return out, nil
	}
}

func topDocs(score map[int64]float64, n int) []int64 {
	ids := make([]int64, 0, len(score))
	for d := range score {
		ids = append(ids, d)
	}
	sort.Slice(ids, func(a, b int) bool {
		if score[ids[a]] != score[ids[b]] {
			return score[ids[a]] > score[ids[b]]
		}
		return ids[a] < ids[b]
	})
	if len(ids) > n {
		ids = ids[:n]
	}
	return ids
}

func uniq(ids []int64) []int64 {
	seen := map[int64]bool{}
	var out []int64
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
