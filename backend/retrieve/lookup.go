package retrieve

import (
	"context"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"cairn/backend/analyze"
	"cairn/backend/embed"
	"cairn/backend/kb"
)

// The look-ups below are what the answer core (package reason) reads of a
// project besides the ranked evidence of Retrieve: passages by id, word
// frequencies, lexical matches, passages by document title and the graph
// around a name. They are its only way to the project's passages, so each
// says whether it keeps to the retriever's documents (Docs) or reads the
// whole project.

// Passages loads the passages ids, in the order of ids, leaving out those
// outside the retriever's documents (Docs, when set) and those that do not
// exist. It is how the answer core reads a passage it found by other means
// (a lexical match, a title, a relation's source).
func (r *Retriever) Passages(ctx context.Context, ids []int64) ([]kb.Hit, error) {
	if len(r.Docs) > 0 {
		in, err := r.scopeChunks(ctx)
		if err != nil {
			return nil, err
		}
		kept := ids[:0:0]
		for _, id := range ids {
			if in[id] {
				kept = append(kept, id)
			}
		}
		ids = kept
	}
	return r.Store.ChunkHits(ctx, ids)
}

// scopeChunks is the set of the chunks of the retriever's documents, loaded
// once for the documents Docs holds (again if Docs changes).
func (r *Retriever) scopeChunks(ctx context.Context) (map[int64]bool, error) {
	r.scope.mu.Lock()
	defer r.scope.mu.Unlock()
	if r.scope.in != nil && slices.Equal(r.scope.docs, r.Docs) {
		return r.scope.in, nil
	}
	ids, err := r.Store.DocChunkIDs(ctx, r.Docs)
	if err != nil {
		return nil, err
	}
	in := make(map[int64]bool, len(ids))
	for _, id := range ids {
		in[id] = true
	}
	r.scope.docs, r.scope.in = slices.Clone(r.Docs), in
	return in, nil
}

// TermStats are the document frequencies of some words: in how many of the
// project's passages each occurs (DF; 0 for a word no passage holds) and how
// many passages the project has (N). Words are as embed.Words gives them
// (lower case, stemmed).
type TermStats struct {
	DF map[string]int
	N  int
}

// IDF is a word's smoothed inverse document frequency, ln(1 + (N+1)/(DF+1)):
// never below ln 2, so a word every passage holds still counts. The
// answer core weighs the question's words by it (abstention, extractive
// sentences, short answers).
func (t TermStats) IDF(w string) float64 {
	return math.Log(1 + float64(t.N+1)/float64(t.DF[w]+1))
}

// PlainIDF is a word's inverse document frequency without the smoothing,
// ln((N+1)/(DF+1)): 0 for a word every passage holds. The answer core weighs
// table labels by it (a table cell a question names).
func (t TermStats) PlainIDF(w string) float64 {
	return math.Log(float64(t.N+1) / float64(t.DF[w]+1))
}

// TermStats looks up the document frequencies of words over the whole
// project (whatever Docs holds): the weights of a question's words do not
// change with the documents it is put to.
func (r *Retriever) TermStats(ctx context.Context, words []string) (TermStats, error) {
	df, n, err := r.Store.TermDF(ctx, words)
	if err != nil {
		return TermStats{}, err
	}
	return TermStats{DF: df, N: n}, nil
}

// Match runs the lexical (FTS5) query expr within the retriever's documents
// (Docs, when set) and returns the ids of the k best passages, best first.
// weights are BM25's column weights (title, heading, body, cjk; see
// search.Settings.ColumnWeights). The answer core uses it for the passages
// that state a figure a question asks for. An expr FTS5 cannot parse is an
// error.
func (r *Retriever) Match(ctx context.Context, expr string, weights [4]float64, k int) ([]int64, error) {
	return r.match(ctx, expr, weights, k, r.Docs)
}

// Around returns the passage id with up to before passages ahead of it and
// after behind it in its document, in order (within the scope).
func (r *Retriever) Around(ctx context.Context, id int64, before, after int) ([]kb.Hit, error) {
	hits, err := r.Store.ChunksAround(ctx, id, before, after)
	if err != nil || len(r.Docs) == 0 {
		return hits, err
	}
	in, err := r.scopeChunks(ctx)
	if err != nil {
		return nil, err
	}
	kept := hits[:0:0]
	for _, h := range hits {
		if in[h.ID] {
			kept = append(kept, h)
		}
	}
	return kept, nil
}

// MatchProject is Match over the whole project, whatever Docs holds: the
// answer core's search for a name's next hop and for a title with a
// bracketed disambiguation, which then keeps the in-scope passages of what
// it found (Passages).
func (r *Retriever) MatchProject(ctx context.Context, expr string, weights [4]float64, k int) ([]int64, error) {
	return r.match(ctx, expr, weights, k, nil)
}

// SoleDocument is the one document the scope holds (Docs, else the
// project's documents); 0 when it holds none or several.
func (r *Retriever) SoleDocument(ctx context.Context) (int64, error) {
	if len(r.Docs) > 0 {
		if len(r.Docs) == 1 {
			return r.Docs[0], nil
		}
		return 0, nil
	}
	docs, err := r.Store.Documents(ctx)
	if err != nil || len(docs) != 1 {
		return 0, err
	}
	return docs[0].ID, nil
}

// DocumentPassages loads every passage of a document, in their order.
func (r *Retriever) DocumentPassages(ctx context.Context, docID int64) ([]kb.Hit, error) {
	ids, err := r.Store.DocChunkIDs(ctx, []int64{docID})
	if err != nil {
		return nil, err
	}
	return r.Store.ChunkHits(ctx, ids)
}

// MatchDocument is Match within one document (which must be in scope:
// the answer core asks it of a passage's own document).
func (r *Retriever) MatchDocument(ctx context.Context, expr string, weights [4]float64, k int, docID int64) ([]int64, error) {
	return r.match(ctx, expr, weights, k, []int64{docID})
}

func (r *Retriever) match(ctx context.Context, expr string, weights [4]float64, k int, docs []int64) ([]int64, error) {
	found, err := r.Store.LexicalSearchIn(ctx, expr, weights, k, docs)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for _, f := range found {
		ids = append(ids, f.ChunkID)
	}
	return ids, nil
}

// Titled returns, for each of names that is a document's title (case
// folded), the first perDoc passages of the documents so titled (at most 8
// per title), keyed by the lower-cased title. It reads the whole project,
// whatever Docs holds; the answer core keeps the in-scope ones (Passages).
func (r *Retriever) Titled(ctx context.Context, names []string, perDoc int) (map[string][]int64, error) {
	return r.Store.ChunksTitled(ctx, names, perDoc)
}

// EntitiesCalled returns the graph's entities known by each of names (an
// alias whose kb.NormKey is the name's), in the order of names, over the
// whole project's graph. A deep-mode step looks up the entity its question
// names with it.
func (r *Retriever) EntitiesCalled(ctx context.Context, names []string) ([]int64, error) {
	keys := make([]string, len(names))
	for i, n := range names {
		keys[i] = kb.NormKey(n)
	}
	byAlias, err := r.Store.EntitiesByAlias(ctx, keys)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for _, k := range keys {
		ids = append(ids, byAlias[k]...)
	}
	return ids, nil
}

// EntitiesNear returns the k entities of the whole project's graph whose
// names are nearest text (cosine of built-in vectors), nearest first,
// keeping those at minSim or above: a deep-mode step's fallback when no
// alias matches.
func (r *Retriever) EntitiesNear(ctx context.Context, text string, k int, minSim float64) ([]int64, error) {
	near, err := r.Store.NearestEntities(ctx, embed.NewHashed(embed.DefaultDim).Vector(text), k)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for _, n := range near {
		if n.Score >= minSim {
			ids = append(ids, n.ID)
		}
	}
	return ids, nil
}

// RelationsTouching loads the relations of the whole project's graph with
// an endpoint among entities (at most limit, highest confidence first),
// with their endpoint names and sources: the facts a deep-mode step reads
// about the entities its question names.
func (r *Retriever) RelationsTouching(ctx context.Context, entities []int64, limit int) ([]kb.Relation, error) {
	ids, err := r.Store.RelationsTouching(ctx, entities, limit)
	if err != nil {
		return nil, err
	}
	return r.Store.RelationsByID(ctx, ids)
}

// Unmentioned returns the anchors (question.Anchors) that no passage of the
// retriever's documents holds (title, headings or text, as the lexical
// index reads words: case folded, stemmed), unless the project holds a
// near spelling of them in its documents ("Neflix" for Netflix: one edit
// in a word of five letters or more, two in one of nine or more). A question naming such a
// word asks about something the documents never mention.
func (r *Retriever) Unmentioned(ctx context.Context, anchors []string) ([]string, error) {
	var out []string
	for _, a := range anchors {
		var words []string
		for _, t := range analyze.Tokens(a) {
			words = append(words, t.Text)
		}
		if len(words) == 0 {
			continue
		}
		ids, err := r.match(ctx, `{title heading body} : "`+strings.Join(words, " ")+`"`, [4]float64{1, 1, 1, 1}, 1, r.Docs)
		if err != nil {
			return nil, err
		}
		if len(ids) > 0 {
			continue
		}
		near, err := r.nearSpelling(ctx, words)
		if err != nil {
			return nil, err
		}
		if !near {
			out = append(out, a)
		}
	}
	return out, nil
}

// nearSpelling says a passage of the retriever's documents holds a word a
// few edits from the one word of words (see Unmentioned); false for
// several words or a short one.
func (r *Retriever) nearSpelling(ctx context.Context, words []string) (bool, error) {
	if len(words) != 1 || utf8.RuneCountInString(words[0]) < 5 {
		return false, nil
	}
	stems, err := r.nearStems(ctx, words[0], 1)
	if err != nil {
		return false, err
	}
	allowed := editsAllowed(words[0])
	for _, t := range stems {
		written, err := r.wordsOfStem(ctx, t, r.Docs)
		if err != nil {
			return false, err
		}
		for _, s := range written {
			if analyze.SpellingDistance(s, words[0]) <= allowed {
				return true, nil
			}
		}
	}
	return false, nil
}

// nearStems lists the project's counted stems (without their "w:") that a
// start of w (lower case) is spelled near: one edit, two from nine
// letters. They share w's first shared letters (a slip rarely changes
// them); stems an FTS5 query cannot quote are left out.
func (r *Retriever) nearStems(ctx context.Context, w string, shared int) ([]string, error) {
	rs := []rune(w)
	allowed := editsAllowed(w)
	lo := "w:" + string(rs[:shared])
	terms, err := r.Store.TermsFrom(ctx, lo, lo+"\U0010FFFF", maxSpellings)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, t := range terms {
		t = strings.TrimPrefix(t, "w:")
		if !strings.ContainsAny(t, `"*:{}()^+-`) && stemNear([]rune(t), rs, allowed) {
			out = append(out, t)
		}
	}
	return out, nil
}

// editsAllowed is how many edits a near spelling of w may be: one, two
// from nine letters.
func editsAllowed(w string) int {
	if utf8.RuneCountInString(w) >= 9 {
		return 2
	}
	return 1
}

// maxSpellings bounds the counted words read for one word's near
// spellings (those sharing its first letter).
const maxSpellings = 200000
