// Package retrieve finds the evidence for a question: several ranked lists
// of passages, fused by weighted reciprocal rank (search.Fuse).
//
//   - passage: hybrid passage search (BM25 + vectors, package search);
//   - entity: entities named in the question (alias lookup of its n-grams,
//     nearest entities by vector for its name-like spans) → the chunks that
//     mention them (the mutual index), rarer entities first;
//   - relation: the question's nearest relation statements by vector → the
//     chunks that state them;
//   - expand: the 1–2 hop subgraph around the question entities and
//     recalled relations → the chunks stating its relations;
//   - ppr: personalised PageRank over the local entity–passage graph seeded
//     by the question entities (HippoRAG/KAG style);
//   - topic: the chunks about the question's entities and about the
//     entities of the top passages (document title or heading names them):
//     the bridge hop of a multi-hop question.
//
// Besides the ranked passages it returns the subgraph it looked at (for the
// reranker, reasoning paths and the UI) and candidate answer entities. A
// project without a knowledge graph gets the passage list alone. Weights are
// settings; the defaults were measured on the DEV sets of ../shared/eval
// with `cairn-eval eval-tune` (docs/measurements.md, "Retrieval quality"). Gather returns the
// lists unfused and FuseLists fuses them, so tuning scores many weightings
// of one gathering.
package retrieve

import (
	"context"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"cairn/backend/analyze"
	"cairn/backend/embed"
	"cairn/backend/graph/walk"
	"cairn/backend/kb"
	"cairn/backend/question"
	"cairn/backend/search"
	"cairn/backend/store"
	"cairn/backend/vecindex"
)

// Settings tune retrieval.
type Settings struct {
	Search search.Settings
	RRFK   float64 // reciprocal-rank constant of the final fusion
	Depth  int     // passages read from each list

	PassageWeight  float64
	EntityWeight   float64
	RelationWeight float64
	ExpandWeight   float64
	PPRWeight      float64
	TopicWeight    float64

	EntityK        int     // nearest entities per question span
	EntityMinSim   float64 // cosine needed for a vector-linked entity
	MaxSeedChunks  int     // an entity in more chunks than this is too generic to seed
	RelationK      int     // nearest relations to the question
	Hops           int     // subgraph expansion (1 or 2)
	MaxRelations   int     // relations kept in the subgraph
	PPR            walk.PPROptions
	PPRPassageSeed float64 // seed weight of the top passages in PPR (HippoRAG 2 style); 0 = entities only
	TopicPassages  int     // top passages whose entities' topic chunks the topic list ranks
	TopicEntities  int     // entities looked up by the topic list
}

// DefaultSettings are the measured defaults: `cairn-eval eval-tune` on the three
// DEV sets of ../shared/eval, offline, built-in embedder. The topic list and
// PPR carry the graph's gain; the entity, relation and expansion lists add
// nothing measurable to Recall@5 there (weight 0 or near it, still computed:
// they make the subgraph that the rerank call, reasoning paths and the UI
// use). A walk of the mind maps' pseudo-graph (PG-RAG's fact paths) was a
// list here too and is gone: fused at any weight it gained nothing beyond
// noise on the DEV sets for 1.3–3× the time a question (docs/design/
// mindmaps.md).
func DefaultSettings() Settings {
	return Settings{
		Search: search.DefaultSettings(), RRFK: 10, Depth: 50,
		PassageWeight: 1, EntityWeight: 0.2, RelationWeight: 0, ExpandWeight: 0, PPRWeight: 0.6, TopicWeight: 1.5,
		EntityK: 3, EntityMinSim: 0.75, MaxSeedChunks: 50, RelationK: 30, Hops: 1, MaxRelations: 80,
		PPR: walk.DefaultPPR(), PPRPassageSeed: 0.5,
		TopicPassages: 5, TopicEntities: 60,
	}
}

// List is one retriever's ranked chunk ids (kept in the trace).
type List struct {
	Name   string  `json:"name"`
	Weight float64 `json:"weight"`
	IDs    []int64 `json:"ids"`
}

// Linked is a question entity: the span of the question it came from and
// how it was linked ("alias" or "vector").
type Linked struct {
	Entity int64   `json:"entity"`
	Name   string  `json:"name"`
	Span   string  `json:"span"`
	By     string  `json:"by"`
	Score  float64 `json:"score"`
	Chunks int     `json:"chunks"` // how many chunks mention it
}

// Result is what retrieval found.
type Result struct {
	Hits       []kb.Hit          `json:"hits"`
	Lists      []List            `json:"lists"`
	Linked     []Linked          `json:"linked"`
	Subgraph   kb.Graph          `json:"subgraph"`
	Candidates []int64           `json:"candidates"` // candidate answer entities, best first
	EntityMass map[int64]float64 `json:"-"`          // PPR mass per entity (structural paths)
	Timings    map[string]int64  `json:"timings_ms"`
}

// Retriever runs retrieval over one project store.
type Retriever struct {
	Store    *store.Store
	Embedder embed.Embedder // the project's chunk embedder
	Settings Settings
	// Docs, when not empty, keeps retrieval within these documents: the
	// passage search runs in them and every list keeps their passages only.
	Docs []int64

	graphEmb *embed.Hashed // entities_vec / relations_vec are always built-in vectors
	scope    struct {      // the chunks of Docs, for Passages
		mu   sync.Mutex
		docs []int64
		in   map[int64]bool
	}
}

// New returns a retriever with the default settings.
func New(st *store.Store, e embed.Embedder) *Retriever {
	return &Retriever{Store: st, Embedder: e, Settings: DefaultSettings()}
}

// Retrieve returns the k best passages for the question q, the subgraph
// and the lists behind them.
func (r *Retriever) Retrieve(ctx context.Context, q *question.Question, k int) (*Result, error) {
	if k <= 0 {
		k = 10
	}
	res, err := r.Gather(ctx, q, k)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	fused, score, ranks := FuseLists(r.settings().RRFK, res.Lists, nil)
	if len(fused) > k {
		fused = fused[:k]
	}
	hits, err := search.LoadHits(ctx, r.Store, q, fused, score, ranks)
	if err != nil {
		return nil, err
	}
	res.Hits = hits
	res.Timings["fuse"] = time.Since(t0).Milliseconds()
	return res, nil
}

func (r *Retriever) settings() Settings {
	if r.Settings.Depth == 0 {
		return DefaultSettings()
	}
	return r.Settings
}

// FuseLists fuses ranked lists by weighted reciprocal rank with constant
// rrfK. weights, when not nil, replaces the lists' own weights by name (a
// name missing from it weighs 0); a list of weight 0 takes no part.
func FuseLists(rrfK float64, lists []List, weights map[string]float64) ([]int64, map[int64]float64, map[int64]map[string]int) {
	var ranked []search.Ranked
	for _, l := range lists {
		w := l.Weight
		if weights != nil {
			w = weights[l.Name]
		}
		if w > 0 && len(l.IDs) > 0 {
			ranked = append(ranked, search.Ranked{Name: l.Name, Weight: w, IDs: l.IDs})
		}
	}
	return search.Fuse(rrfK, ranked...)
}

// Gather runs every list for question (each read to at least k passages)
// and fills the subgraph, linked entities and candidates, without fusing:
// Result.Hits stays empty. Tuning fuses the same lists under many weights.
//
// Independent look-ups run side by side (the machine Cairn targets has two
// cores, and most of a look-up is SQLite work): the passage search beside
// the graph's own chain (entity linking, relation recall, subgraph
// expansion and loading its entities), which does not need the passages;
// then the topic list beside PPR, which do.
// Result.Timings holds each stage's own time, so stages that overlapped sum
// to more than the wall time.
func (r *Retriever) Gather(ctx context.Context, q *question.Question, k int) (*Result, error) {
	set := r.settings()
	if r.graphEmb == nil {
		r.graphEmb = embed.NewHashed(embed.DefaultDim)
	}
	res := &Result{Timings: map[string]int64{}, Subgraph: kb.Graph{Entities: []kb.Entity{}, Relations: []kb.Relation{}}}
	clock := &stageClock{into: res.Timings}
	depth := max(set.Depth, k)
	hasGraph, err := r.Store.HasGraph(ctx)
	if err != nil {
		return nil, err
	}
	g, gctx := errgroup.WithContext(ctx)
	var passage []int64
	g.Go(func() error {
		t0 := time.Now()
		searcher := &search.Searcher{Store: r.Store, Embedder: r.Embedder, Settings: set.Search, Docs: r.Docs}
		var err error
		passage, _, _, err = searcher.RankQuestion(gctx, q, depth)
		if err != nil {
			return err
		}
		clock.done("passage", t0)
		return nil
	})
	var rc *recalled
	var sub *expanded
	if hasGraph {
		g.Go(func() error {
			var err error
			if rc, err = r.recall(gctx, q, set, clock); err != nil {
				return err
			}
			sub, err = r.expandSubgraph(gctx, rc, set, clock)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	lists := []List{{Name: "passage", Weight: set.PassageWeight, IDs: passage}}
	if hasGraph {
		gl, err := r.graphLists(ctx, rc, sub, passage, set, res, clock)
		if err != nil {
			return nil, err
		}
		lists = append(lists, gl...)
	}
	if len(r.Docs) > 0 {
		in, err := r.Store.DocChunkIDs(ctx, r.Docs)
		if err != nil {
			return nil, err
		}
		lists = withinChunks(lists, in)
	}
	res.Lists = lists
	return res, nil
}

// withinChunks keeps, in every list, only the chunks of in (a scope's).
func withinChunks(lists []List, in []int64) []List {
	keep := make(map[int64]bool, len(in))
	for _, id := range in {
		keep[id] = true
	}
	out := make([]List, len(lists))
	for i, l := range lists {
		out[i] = List{Name: l.Name, Weight: l.Weight}
		for _, id := range l.IDs {
			if keep[id] {
				out[i].IDs = append(out[i].IDs, id)
			}
		}
	}
	return out
}

// stageClock records how long each retrieval stage took (milliseconds), from
// whichever goroutine ran it.
type stageClock struct {
	mu   sync.Mutex
	into map[string]int64
}

func (c *stageClock) done(stage string, since time.Time) {
	c.mu.Lock()
	c.into[stage] = time.Since(since).Milliseconds()
	c.mu.Unlock()
}

// recalled is what the question finds in the graph before the passage
// search is known: its linked entities (weighted as seeds), the chunks
// mentioning the seeds, and the relations nearest to it.
type recalled struct {
	linked     []Linked
	seed       map[int64]float64
	seedIDs    []int64
	chunkScore map[int64]float64 // chunks mentioning seeds, by summed seed weight
	relIDs     []int64
	relScore   map[int64]float64
	relations  []kb.Relation
	relChunks  []int64 // chunks stating the recalled relations
}

// recall links the question's entities and recalls the relations nearest
// to it.
func (r *Retriever) recall(ctx context.Context, q *question.Question, set Settings, clock *stageClock) (*recalled, error) {
	t0 := time.Now()
	linked, err := r.link(ctx, q, set)
	if err != nil {
		return nil, err
	}
	rc := &recalled{linked: linked, seed: map[int64]float64{}, chunkScore: map[int64]float64{}, relScore: map[int64]float64{}}
	clock.done("link", t0)
	t0 = time.Now()
	// Seeds: specific entities weigh more (HippoRAG's node specificity).
	for _, l := range linked {
		if l.Chunks == 0 || l.Chunks > set.MaxSeedChunks {
			continue
		}
		w := l.Score / math.Log(1+float64(l.Chunks)+1)
		if w > rc.seed[l.Entity] {
			if rc.seed[l.Entity] == 0 {
				rc.seedIDs = append(rc.seedIDs, l.Entity)
			}
			rc.seed[l.Entity] = w
		}
	}
	ent2chunks, err := r.Store.EntityChunks(ctx, rc.seedIDs)
	if err != nil {
		return nil, err
	}
	// Entities in one order: a passage's score summed in map order
	// differs in its last bits from run to run, and ties must fall alike.
	for _, e := range slices.Sorted(maps.Keys(ent2chunks)) {
		for _, c := range ent2chunks[e] {
			rc.chunkScore[c] += rc.seed[e]
		}
	}
	clock.done("entity", t0)
	t0 = time.Now()

	// relation recall: nearest relation statements to the question.
	qv, err := search.IDFVector(ctx, r.Store, r.graphEmb, q)
	if err != nil {
		return nil, err
	}
	if !vecindex.IsZero(qv) && set.RelationK > 0 {
		near, err := r.Store.NearestRelations(ctx, qv, set.RelationK)
		if err != nil {
			return nil, err
		}
		for _, n := range near {
			rc.relIDs = append(rc.relIDs, n.ID)
			rc.relScore[n.ID] = n.Score
		}
	}
	if rc.relations, err = r.Store.RelationsByID(ctx, rc.relIDs); err != nil {
		return nil, err
	}
	seenChunk := map[int64]bool{}
	for _, rel := range rc.relations {
		for _, s := range rel.Sources {
			if !seenChunk[s.ChunkID] {
				seenChunk[s.ChunkID] = true
				rc.relChunks = append(rc.relChunks, s.ChunkID)
			}
		}
	}
	clock.done("relation", t0)
	return rc, nil
}

// expanded is the question's subgraph: the relations within set.Hops of
// its seeds and recalled relations, and the entities they join (with the
// linked ones).
type expanded struct {
	relations []kb.Relation
	entities  []kb.Entity
}

// expandSubgraph expands the subgraph around what recall found and loads
// its entities (at most 3 mentions each); neither needs the passage list.
func (r *Retriever) expandSubgraph(ctx context.Context, rc *recalled, set Settings, clock *stageClock) (*expanded, error) {
	t0 := time.Now()
	rels, err := r.expand(ctx, rc, set)
	if err != nil {
		return nil, err
	}
	clock.done("expand", t0)
	t0 = time.Now()
	entSet := map[int64]bool{}
	var entIDs []int64
	addE := func(id int64) {
		if !entSet[id] {
			entSet[id] = true
			entIDs = append(entIDs, id)
		}
	}
	for _, l := range rc.linked {
		addE(l.Entity)
	}
	for _, rel := range rels {
		addE(rel.Subject)
		addE(rel.Object)
	}
	ents, err := r.Store.EntitiesByID(ctx, entIDs, 3)
	if err != nil {
		return nil, err
	}
	clock.done("subgraph", t0)
	return &expanded{relations: rels, entities: ents}, nil
}

// graphLists builds the entity, relation, expand, ppr and topic lists from
// what recall and expansion found and the passage list (the topic list
// beside PPR), and fills res.Linked, res.Subgraph, res.EntityMass and
// res.Candidates.
func (r *Retriever) graphLists(ctx context.Context, rc *recalled, sub *expanded, passage []int64, set Settings, res *Result, clock *stageClock) ([]List, error) {
	res.Linked = rc.linked
	lists := []List{
		{Name: "entity", Weight: set.EntityWeight, IDs: topByScore(rc.chunkScore, set.Depth, passage)},
		{Name: "relation", Weight: set.RelationWeight, IDs: rc.relChunks},
	}
	g, gctx := errgroup.WithContext(ctx)
	var topic []int64
	if set.TopicWeight > 0 {
		g.Go(func() error {
			t0 := time.Now()
			var err error
			topic, err = r.topic(gctx, rc.linked, passage, set)
			clock.done("topic", t0)
			return err
		})
	}
	// Expand list: chunks stating subgraph relations, relations touching a
	// seed (or recalled) first.
	expandScore := map[int64]float64{}
	for _, rel := range sub.relations {
		w := 0.1 + rc.relScore[rel.ID]
		if rc.seed[rel.Subject] > 0 {
			w += 1
		}
		if rc.seed[rel.Object] > 0 {
			w += 1
		}
		for _, s := range rel.Sources {
			expandScore[s.ChunkID] += w
		}
	}
	lists = append(lists, List{Name: "expand", Weight: set.ExpandWeight, IDs: topByScore(expandScore, set.Depth, passage)})
	res.Subgraph.Relations = sub.relations
	res.Subgraph.Entities = sub.entities

	// ppr over the local entity–passage graph.
	t0 := time.Now()
	pprList, mass, err := r.ppr(gctx, rc.seed, passage, sub.relations, set)
	clock.done("ppr", t0)
	if werr := g.Wait(); err == nil {
		err = werr
	}
	if err != nil {
		return nil, err
	}
	res.EntityMass = mass
	lists = append(lists, List{Name: "ppr", Weight: set.PPRWeight, IDs: pprList})
	if set.TopicWeight > 0 {
		lists = append(lists, List{Name: "topic", Weight: set.TopicWeight, IDs: topic})
	}
	// Candidates: non-question entities by PPR mass.
	isQ := map[int64]bool{}
	for _, l := range rc.linked {
		isQ[l.Entity] = true
	}
	cand := map[int64]float64{}
	for id, m := range mass {
		if !isQ[id] && m > 0 {
			cand[id] = m
		}
	}
	res.Candidates = topByScore(cand, 20, nil)
	return lists, nil
}

// expand returns the relations within set.Hops of the seeds and of the
// recalled relations' endpoints (the recalled relations first), at most
// set.MaxRelations.
func (r *Retriever) expand(ctx context.Context, rc *recalled, set Settings) ([]kb.Relation, error) {
	frontier := append([]int64(nil), rc.seedIDs...)
	inFrontier := map[int64]bool{}
	for _, e := range frontier {
		inFrontier[e] = true
	}
	for _, rel := range rc.relations {
		for _, e := range []int64{rel.Subject, rel.Object} {
			if !inFrontier[e] {
				inFrontier[e] = true
				frontier = append(frontier, e)
			}
		}
	}
	relSet := map[int64]bool{}
	var subRel []int64
	loaded := map[int64]kb.Relation{}
	for _, rel := range rc.relations {
		loaded[rel.ID] = rel
	}
	for _, id := range rc.relIDs {
		relSet[id] = true
		subRel = append(subRel, id)
	}
	for hop := 0; hop < max(1, set.Hops) && len(subRel) < set.MaxRelations; hop++ {
		ids, err := r.Store.RelationsTouching(ctx, frontier, set.MaxRelations)
		if err != nil {
			return nil, err
		}
		var added []int64
		for _, id := range ids {
			if !relSet[id] && len(subRel) < set.MaxRelations {
				relSet[id] = true
				subRel = append(subRel, id)
				added = append(added, id)
			}
		}
		rels, err := r.Store.RelationsByID(ctx, added)
		if err != nil {
			return nil, err
		}
		frontier = frontier[:0]
		for _, rel := range rels {
			loaded[rel.ID] = rel
			for _, e := range []int64{rel.Subject, rel.Object} {
				if !inFrontier[e] {
					inFrontier[e] = true
					frontier = append(frontier, e)
				}
			}
		}
	}
	out := make([]kb.Relation, 0, len(subRel))
	for _, id := range subRel {
		if rel, ok := loaded[id]; ok {
			out = append(out, rel)
		}
	}
	return out, nil
}

// link finds the question's entities: n-grams of the question looked up as
// aliases, then name-like spans matched by vector.
func (r *Retriever) link(ctx context.Context, q *question.Question, set Settings) ([]Linked, error) {
	words := q.Fields
	var grams []string
	gramSpan := map[string]string{}
	for i := range words {
		for n := 1; n <= 6 && i+n <= len(words); n++ {
			span := strings.Join(words[i:i+n], " ")
			key := kb.NormKey(span)
			if key == "" || (n == 1 && (analyze.IsStop(key) || len([]rune(key)) < 2)) {
				continue
			}
			if _, ok := gramSpan[key]; !ok {
				gramSpan[key] = strings.Trim(span, " ?!.,;:\"'()")
				grams = append(grams, key)
			}
		}
	}
	byAlias, err := r.Store.EntitiesByAlias(ctx, grams)
	if err != nil {
		return nil, err
	}
	var out []Linked
	seen := map[int64]bool{}
	// Longer matches first: "Upper Ostrand" before "Ostrand".
	sort.SliceStable(grams, func(a, b int) bool { return len(grams[a]) > len(grams[b]) })
	covered := map[string]bool{}
	for _, g := range grams {
		ids := byAlias[g]
		if len(ids) == 0 {
			continue
		}
		// A single word inside a longer matched span adds nothing.
		if !strings.Contains(g, " ") && coveredBy(g, covered) {
			continue
		}
		covered[g] = true
		for _, id := range ids {
			if !seen[id] {
				seen[id] = true
				out = append(out, Linked{Entity: id, Span: gramSpan[g], By: "alias", Score: 1})
			}
		}
	}
	// Vector linking of name-like spans (capitalised runs, quotes) that no
	// alias matched as a whole (a k-NN over every entity vector is the
	// costliest query of retrieval; an exact alias needs none).
	if set.EntityK > 0 {
		for _, span := range q.Names {
			if len(byAlias[kb.NormKey(span)]) > 0 {
				continue
			}
			near, err := r.Store.NearestEntities(ctx, r.graphEmb.QueryVector(span, nil), set.EntityK)
			if err != nil {
				return nil, err
			}
			for _, n := range near {
				if n.Score >= set.EntityMinSim && !seen[n.ID] {
					seen[n.ID] = true
					out = append(out, Linked{Entity: n.ID, Span: span, By: "vector", Score: n.Score})
				}
			}
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(out))
	for i, l := range out {
		ids[i] = l.Entity
	}
	counts, err := r.Store.EntityChunkCounts(ctx, ids)
	if err != nil {
		return nil, err
	}
	ents, err := r.Store.EntitiesByID(ctx, ids, 0)
	if err != nil {
		return nil, err
	}
	name := map[int64]string{}
	for _, e := range ents {
		name[e.ID] = e.Name
	}
	for i := range out {
		out[i].Chunks = counts[out[i].Entity]
		out[i].Name = name[out[i].Entity]
	}
	return out, nil
}

func coveredBy(word string, covered map[string]bool) bool {
	for c := range covered {
		for _, w := range strings.Fields(c) {
			if w == word {
				return true
			}
		}
	}
	return false
}

// ppr runs personalised PageRank on the local entity–passage graph: the
// seeds, the chunks mentioning them, the top passages, the entities of all
// those chunks and the chunks mentioning those entities (capped per entity),
// plus the subgraph's relations as entity–entity edges.
func (r *Retriever) ppr(ctx context.Context, seed map[int64]float64, passage []int64, subgraph []kb.Relation, set Settings) ([]int64, map[int64]float64, error) {
	if len(seed) == 0 && set.PPRPassageSeed == 0 {
		return nil, nil, nil
	}
	b := newBipartite()
	var seedIDs []int64
	for e := range seed {
		seedIDs = append(seedIDs, e)
	}
	sort.Slice(seedIDs, func(i, j int) bool { return seedIDs[i] < seedIDs[j] })
	e2c, err := r.Store.EntityChunks(ctx, seedIDs)
	if err != nil {
		return nil, nil, err
	}
	chunkSet := map[int64]bool{}
	var chunks []int64
	addC := func(c int64) {
		if !chunkSet[c] {
			chunkSet[c] = true
			chunks = append(chunks, c)
		}
	}
	for _, e := range seedIDs {
		for _, c := range e2c[e] {
			addC(c)
		}
	}
	topN := min(len(passage), 20)
	for _, c := range passage[:topN] {
		addC(c)
	}
	c2e, err := r.Store.ChunkEntities(ctx, chunks)
	if err != nil {
		return nil, nil, err
	}
	entSet := map[int64]bool{}
	var ents []int64
	for _, c := range chunks {
		for _, e := range c2e[c] {
			b.link(e, c, 1)
			if !entSet[e] {
				entSet[e] = true
				ents = append(ents, e)
			}
		}
	}
	// second ring: chunks of those entities, skipping generic ones.
	counts, err := r.Store.EntityChunkCounts(ctx, ents)
	if err != nil {
		return nil, nil, err
	}
	var specific []int64
	for _, e := range ents {
		if counts[e] <= set.MaxSeedChunks {
			specific = append(specific, e)
		}
	}
	e2c2, err := r.Store.EntityChunks(ctx, specific)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range specific {
		for _, c := range e2c2[e] {
			b.link(e, c, 1)
		}
	}
	for _, rel := range subgraph {
		b.relate(rel.Subject, rel.Object, rel.ID)
	}
	seeds := map[int]float64{}
	var tot float64
	for e, w := range seed {
		if v, ok := b.ent[e]; ok {
			seeds[v] += w
			tot += w
		}
	}
	if set.PPRPassageSeed > 0 {
		// Top passages seed too (scaled so they weigh PPRPassageSeed of the
		// entity seeds, or stand alone without entities).
		share := set.PPRPassageSeed
		if tot == 0 {
			share, tot = 1, 1
		}
		var norm float64
		for i := range passage[:topN] {
			norm += 1 / float64(i+1)
		}
		for i, c := range passage[:topN] {
			if v, ok := b.chunk[c]; ok {
				seeds[v] += share * tot * (1 / float64(i+1)) / norm
			}
		}
	}
	if len(seeds) == 0 {
		return nil, nil, nil
	}
	mass, _ := walk.PPR(b.g, seeds, set.PPR)
	chunkMass := map[int64]float64{}
	for c, v := range b.chunk {
		chunkMass[c] = mass[v]
	}
	entMass := map[int64]float64{}
	for e, v := range b.ent {
		entMass[e] = mass[v]
	}
	return topByScore(chunkMass, set.Depth, passage), entMass, nil
}

// topic ranks the chunks about the entities around the question: a chunk
// whose document title or heading names an entity (a qualifier in
// parentheses aside, "Thessalon (painter)") is that entity's topic chunk.
// Entities are the question's own (weight 1) and those mentioned in the top
// passages (1/(1+rank) per passage). This is the hop of a bridge question:
// "the father of X" finds X's passage, which names the father, whose own
// passage holds the answer.
func (r *Retriever) topic(ctx context.Context, linked []Linked, passage []int64, set Settings) ([]int64, error) {
	weight := map[int64]float64{}
	var order []int64
	add := func(e int64, w float64) {
		if _, ok := weight[e]; !ok {
			order = append(order, e)
		}
		weight[e] += w
	}
	for _, l := range linked {
		add(l.Entity, 1)
	}
	top := passage[:min(len(passage), set.TopicPassages)]
	c2e, err := r.Store.ChunkEntities(ctx, top)
	if err != nil {
		return nil, err
	}
	for i, c := range top {
		for _, e := range c2e[c] {
			add(e, 1/float64(2+i))
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return weight[order[a]] > weight[order[b]] })
	if len(order) > set.TopicEntities {
		order = order[:set.TopicEntities]
	}
	ents, err := r.Store.EntitiesByID(ctx, order, 0)
	if err != nil {
		return nil, err
	}
	byKey := map[string]int64{}
	var keys []string
	for _, e := range ents {
		for _, n := range append([]string{e.Name}, e.Aliases...) {
			k := kb.NormKey(n)
			if len([]rune(k)) < 3 {
				continue
			}
			if old, ok := byKey[k]; !ok || weight[e.ID] > weight[old] {
				if !ok {
					keys = append(keys, k)
				}
				byKey[k] = e.ID
			}
		}
	}
	titled, err := r.Store.ChunksNamed(ctx, keys, 1000)
	if err != nil {
		return nil, err
	}
	score := map[int64]float64{}
	firstOfDoc := map[[2]int64]int{} // (doc, entity) → ordinal of the chunk kept for a title match
	keep := map[[2]int64]int64{}
	for _, t := range titled {
		if e, ok := byKey[kb.TopicKey(t.Title)]; ok {
			k := [2]int64{t.DocID, e}
			if o, seen := firstOfDoc[k]; !seen || t.Ordinal < o {
				firstOfDoc[k] = t.Ordinal
				if prev, had := keep[k]; had {
					delete(score, prev)
				}
				keep[k] = t.ChunkID
				score[t.ChunkID] = max(score[t.ChunkID], weight[e])
			}
		}
		for _, h := range t.Headings {
			if e, ok := byKey[kb.TopicKey(h)]; ok {
				score[t.ChunkID] = max(score[t.ChunkID], weight[e])
			}
		}
	}
	return topByScore(score, set.Depth, passage), nil
}

type bipartite struct {
	g     *walk.Graph
	ent   map[int64]int
	chunk map[int64]int
	edge  map[[2]int]bool
}

func newBipartite() *bipartite {
	return &bipartite{g: walk.NewGraph(0), ent: map[int64]int{}, chunk: map[int64]int{}, edge: map[[2]int]bool{}}
}

func (b *bipartite) entNode(e int64) int {
	if v, ok := b.ent[e]; ok {
		return v
	}
	v := b.g.AddNode()
	b.ent[e] = v
	return v
}

func (b *bipartite) chunkNode(c int64) int {
	if v, ok := b.chunk[c]; ok {
		return v
	}
	v := b.g.AddNode()
	b.chunk[c] = v
	return v
}

func (b *bipartite) link(e, c int64, w float64) {
	u, v := b.entNode(e), b.chunkNode(c)
	if !b.edge[[2]int{u, v}] {
		b.edge[[2]int{u, v}] = true
		b.g.AddEdge(u, v, w, 0)
	}
}

func (b *bipartite) relate(s, o, rel int64) {
	u, v := b.entNode(s), b.entNode(o)
	if u > v {
		u, v = v, u
	}
	if !b.edge[[2]int{u, v}] {
		b.edge[[2]int{u, v}] = true
		b.g.AddEdge(u, v, 1, rel)
	}
}

// topByScore returns up to n ids by descending score; ties go to the id that
// ranks earlier in tiebreak, then the smaller id.
func topByScore(score map[int64]float64, n int, tiebreak []int64) []int64 {
	pos := map[int64]int{}
	for i, id := range tiebreak {
		pos[id] = i + 1
	}
	ids := make([]int64, 0, len(score))
	for id, s := range score {
		if s > 0 {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(a, b int) bool {
		sa, sb := score[ids[a]], score[ids[b]]
		if sa != sb {
			return sa > sb
		}
		pa, pb := pos[ids[a]], pos[ids[b]]
		if pa != pb {
			if pa == 0 {
				return false
			}
			if pb == 0 {
				return true
			}
			return pa < pb
		}
		return ids[a] < ids[b]
	})
	if n > 0 && len(ids) > n {
		ids = ids[:n]
	}
	return ids
}
