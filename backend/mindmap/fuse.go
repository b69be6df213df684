package mindmap

import (
	"cmp"
	"math"
	"sort"
	"strings"

	"cairn/backend/embed"
	"cairn/backend/kb"
	"cairn/backend/vecindex"
)

// Fusion links the mind maps of different documents: similar topics, routes
// and facts are clustered under supernodes. It is incremental: nodes not yet
// considered (new documents) join an existing supernode or form a new one
// with their best match; a removed document's nodes simply leave their
// clusters (the store dissolves clusters left with one member).

// Item is a node as fusion sees it.
type Item struct {
	ID, DocID int64
	Kind      kb.MindKind
	Text      string // what is compared: title, route path, route path + fact
	Super     int64  // current supernode (0: none)
}

// FuseParams are fusion's thresholds.
type FuseParams struct {
	// Minimum cosine of the hashed vectors of Item.Text, per kind.
	TopicSim, RouteSim, FactSim float64
	// Minimum share of content words in common (Jaccard), a lexical check
	// that keeps hashed-vector collisions out.
	MinOverlap float64
	// Words in more than this share of a kind's nodes do not propose
	// candidates (they still count for the overlap).
	MaxWordShare float64
}

// DefaultFuseParams are fusion's defaults (checked on the sample project
// and the eval corpora: see the package tests).
func DefaultFuseParams() FuseParams {
	return FuseParams{TopicSim: 0.55, RouteSim: 0.7, FactSim: 0.8, MinOverlap: 0.35, MaxWordShare: 0.05}
}

func (p FuseParams) threshold(k kb.MindKind) float64 {
	switch k {
	case kb.MindTopic:
		return p.TopicSim
	case kb.MindRoute:
		return p.RouteSim
	}
	return p.FactSim
}

// NewCluster is a supernode to create.
type NewCluster struct {
	Kind    kb.MindKind
	Label   string
	Members []int64
	Sims    []float64
}

// Join adds a node to an existing supernode.
type Join struct {
	NodeID, Super int64
	Sim           float64
}

type fuseIndex struct {
	items   []Item
	pos     map[int64]int
	words   [][]string
	wids    [][]int32 // words as ids numbered in sorted word order (same order, cheaper compares)
	vecs    [][]float32
	posting map[string][]int // kind+word → item positions
	any     map[string][]int // word → item positions, every kind
	h       *embed.Hashed
}

func contentWords(text string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range words(text) {
		for _, k := range wordKeys(w) {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

// internWords numbers the distinct words in sorted order, so each node's
// sorted word list maps to a sorted id list.
func (x *fuseIndex) internWords() {
	var all []string
	for w := range x.any {
		all = append(all, w)
	}
	sort.Strings(all)
	id := make(map[string]int32, len(all))
	for i, w := range all {
		id[w] = int32(i)
	}
	x.wids = make([][]int32, len(x.words))
	for i, ws := range x.words {
		x.wids[i] = make([]int32, len(ws))
		for j, w := range ws {
			x.wids[i][j] = id[w]
		}
	}
}

func (x *fuseIndex) vec(i int) []float32 {
	if x.vecs[i] == nil {
		x.vecs[i] = x.h.Vector(x.items[i].Text)
	}
	return x.vecs[i]
}

// jaccard is |a∩b| / |a∪b| of two sorted sets.
func jaccard[T cmp.Ordered](a, b []T) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	i, j, common := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			common++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return float64(common) / float64(len(a)+len(b)-common)
}

// Fuse decides, for each pending node (by id order), whether it joins a
// supernode: its most similar node of the same kind in another document
// (cosine ≥ the kind's threshold and word overlap ≥ MinOverlap) gives its
// cluster, or a new cluster of the two. A node is in at most one cluster.
func Fuse(all []Item, pending []int64, p FuseParams) (clusters []NewCluster, joins []Join) {
	x := &fuseIndex{items: all, pos: map[int64]int{}, words: make([][]string, len(all)), vecs: make([][]float32, len(all)),
		posting: map[string][]int{}, any: map[string][]int{}, h: embed.NewHashed(1024)}
	perKind := map[kb.MindKind]int{}
	for i, it := range all {
		x.pos[it.ID] = i
		x.words[i] = contentWords(it.Text)
		perKind[it.Kind]++
		for _, w := range x.words[i] {
			key := string(it.Kind) + "\x00" + w
			x.posting[key] = append(x.posting[key], i)
			x.any[w] = append(x.any[w], i)
		}
	}
	x.internWords()
	super := make([]int64, len(all)) // existing supernode
	newc := make([]int, len(all))    // 1 + index into clusters
	for i, it := range all {
		super[i] = it.Super
	}
	stamp := make([]uint32, len(all)) // candidate already proposed for the current node
	var stampNow uint32
	var cands []int
	var posts [][]int
	sorted := append([]int64(nil), pending...)
	sort.Slice(sorted, func(a, b int) bool { return sorted[a] < sorted[b] })
	for _, id := range sorted {
		i, ok := x.pos[id]
		if !ok || super[i] != 0 || newc[i] != 0 {
			continue
		}
		it := all[i]
		limit := max(3, int(math.Ceil(p.MaxWordShare*float64(perKind[it.Kind]))))
		// Candidates: nodes sharing a word, rarest words first, at most
		// MaxCandidates of them. A near-duplicate shares most words, its
		// rare ones included, so it comes early; without the cap every node
		// met every other node holding any of its words, and fusion grew
		// with the square of the corpus.
		posts = x.rarestFirst(posts[:0], it.Kind, i, limit)
		cands = cands[:0]
		stampNow++
	gather:
		for _, post := range posts {
			for _, j := range post {
				if stamp[j] != stampNow && j != i && all[j].DocID != it.DocID {
					stamp[j] = stampNow
					cands = append(cands, j)
					if len(cands) == MaxCandidates {
						break gather
					}
				}
			}
		}
		best, bestSim := -1, 0.0
		consider := func(j int, sim float64) {
			if sim > bestSim || (sim == bestSim && j < best) {
				best, bestSim = j, sim
			}
		}
		for _, j := range cands {
			// Jaccard is at most the ratio of the two sizes (exactly that,
			// computed the same way, when one set holds the other): skip
			// the merge when even that is below the threshold
			la, lb := len(x.wids[i]), len(x.wids[j])
			if float64(min(la, lb))/float64(max(la, lb)) < p.MinOverlap {
				continue
			}
			if jaccard(x.wids[i], x.wids[j]) < p.MinOverlap {
				continue
			}
			if s := vecindex.Dot(x.vec(i), x.vec(j)); s >= p.threshold(it.Kind) {
				consider(j, s)
			}
		}
		// Mentions: a node of another document that names this topic (all
		// but a fifth of the topic's words), or a topic this node names.
		for j, c := range x.mentions(i, p) {
			consider(j, c)
		}
		if best < 0 {
			continue
		}
		switch {
		case super[best] != 0:
			joins = append(joins, Join{NodeID: id, Super: super[best], Sim: bestSim})
			super[i] = super[best]
		case newc[best] != 0:
			c := &clusters[newc[best]-1]
			c.Members = append(c.Members, id)
			c.Sims = append(c.Sims, bestSim)
			newc[i] = newc[best]
		default:
			clusters = append(clusters, NewCluster{Kind: it.Kind, Members: []int64{all[best].ID, id}, Sims: []float64{bestSim, bestSim}})
			newc[i], newc[best] = len(clusters), len(clusters)
		}
	}
	for ci := range clusters {
		c := &clusters[ci]
		c.Label = clusterLabel(x, c.Members)
		for _, id := range c.Members {
			if x.items[x.pos[id]].Kind == kb.MindTopic {
				// a cluster around a document's topic is that topic
				c.Kind, c.Label = kb.MindTopic, shorten(x.items[x.pos[id]].Text, 120)
				break
			}
		}
	}
	return clusters, joins
}

// rarestFirst appends to dst the posting lists of kind for node i's words
// that hold at most limit nodes, shortest (rarest word) first: the order in
// which fusion takes its capped candidates.
func (x *fuseIndex) rarestFirst(dst [][]int, kind kb.MindKind, i, limit int) [][]int {
	for _, w := range x.words[i] {
		if post := x.posting[string(kind)+"\x00"+w]; len(post) > 0 && len(post) <= limit {
			dst = append(dst, post)
		}
	}
	sort.SliceStable(dst, func(a, b int) bool { return len(dst[a]) < len(dst[b]) })
	return dst
}

// MaxCandidates is how many nodes fusion compares a pending node with at
// most, for similarity and for mentions each (see Fuse, mentions).
const MaxCandidates = 200

// MentionMinWords is the least number of content words a topic needs to be
// recognised inside another document's node.
const MentionMinWords = 2

// mentions finds nodes of other documents that name topic i, or the topics
// of other documents that node i names: containment of the topic's content
// words ≥ 0.8. The score is the containment scaled into the similarity range
// (0.8 → FactSim, 1 → 1), so a full mention outranks a near-duplicate.
func (x *fuseIndex) mentions(i int, p FuseParams) map[int]float64 {
	out := map[int]float64{}
	score := func(topic, other int) {
		tw := x.words[topic]
		if len(tw) < MentionMinWords || x.items[topic].DocID == x.items[other].DocID || topic == other {
			return
		}
		c := containment(x.wids[topic], x.wids[other])
		if c >= 0.8 {
			out[other+topic-i] = p.FactSim + (c-0.8)/0.2*(1-p.FactSim)
		}
	}
	if x.items[i].Kind == kb.MindTopic {
		tw := x.words[i]
		if len(tw) < MentionMinWords {
			return out
		}
		// candidates: nodes holding the topic's rarest word (the first
		// MaxCandidates of them, in document order)
		rare := tw[0]
		for _, w := range tw {
			if len(x.any[w]) < len(x.any[rare]) {
				rare = w
			}
		}
		post := x.any[rare]
		for _, j := range post[:min(len(post), MaxCandidates)] {
			score(i, j)
		}
		return out
	}
	// candidates: topics sharing one of this node's words, rarest words
	// first, at most MaxCandidates of them
	seen := map[int]bool{}
	for _, post := range x.rarestFirst(nil, kb.MindTopic, i, len(x.items)) {
		for _, j := range post {
			if len(seen) == MaxCandidates {
				return out
			}
			if !seen[j] {
				seen[j] = true
				score(j, i)
			}
		}
	}
	return out
}

// containment is the share of a's words found in b (both sorted).
func containment[T cmp.Ordered](a, b []T) float64 {
	if len(a) == 0 {
		return 0
	}
	i, j, common := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			common++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return float64(common) / float64(len(a))
}

// clusterLabel is the medoid member's text (the one closest to all others),
// cut short: a real label from the documents, readable on its own.
func clusterLabel(x *fuseIndex, members []int64) string {
	best, bestSum := -1, -1.0
	for _, a := range members {
		i := x.pos[a]
		var sum float64
		for _, b := range members {
			if a != b {
				sum += vecindex.Dot(x.vec(i), x.vec(x.pos[b]))
			}
		}
		if sum > bestSum || (sum == bestSum && len(x.items[i].Text) < len(x.items[best].Text)) {
			best, bestSum = i, sum
		}
	}
	t := x.items[best].Text
	if k := strings.LastIndex(t, PathSep); k >= 0 && x.items[best].Kind == kb.MindFact {
		t = t[k+len(PathSep):]
	}
	return shorten(t, 120)
}

// FusionText is what fusion compares for a node, given its path labels
// (topic first): the title for a topic, the route path without the topic for
// a route, and the route path plus the fact for a fact (PG-RAG leaves the
// title out of fact paths, so the same fact in two documents matches).
func FusionText(kind kb.MindKind, path []string) string {
	if kind == kb.MindTopic || len(path) < 2 {
		return path[len(path)-1]
	}
	return PathText(path[1:])
}
