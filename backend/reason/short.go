package reason

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"cairn/backend/analyze"
	"cairn/backend/answerspan"
	"cairn/backend/kb"
	"cairn/backend/lexicon"
	"cairn/backend/question"
	"cairn/backend/retrieve"
	"cairn/backend/search"
)

// shortPool is how many retrieved passages the short answer is sought in
// (the evidence and a few more: a bridge passage may rank just below it).
const shortPool = 8

// shortAnswer finds the candidate short answers of the question in the
// retrieved passages. pool holds the passages searched (evidence first).
func (u *run) shortAnswer(ctx context.Context, g *gathered) ([]answerspan.Candidate, []Evidence, answerspan.Question, error) {
	q := u.q.Kind
	u.trace.Language = q.Lang
	pool := append([]Evidence(nil), g.evidence...)
	if q.NoLexicon {
		// No lexicon reads the question: the best sentences answer it.
		u.trace.NoShort = answerspan.NoShortReason(q)
		return nil, pool, q, nil
	}
	seen := map[int64]bool{}
	for _, e := range pool {
		seen[e.Hit.ID] = true
	}
	if g.res != nil {
		for _, h := range g.res.Hits {
			if len(pool) >= shortPool {
				break
			}
			if !seen[h.ID] {
				seen[h.ID] = true
				pool = append(pool, Evidence{N: len(pool) + 1, Hit: h})
			}
		}
	}
	// Bridge passages not retrieved: fetch the passages about the names the
	// question's passages relate it to (at most 3 names, 2 passages each).
	passages := passageCache{}
	ps0 := make([]answerspan.Passage, len(pool))
	for i, e := range pool {
		ps0[i] = passages.of(e)
	}
	titled := map[string]bool{}
	for _, e := range pool {
		titled[strings.ToLower(strings.TrimSpace(e.Hit.IndexTitle))] = true
		titled[answerspan.TitleKey(e.Hit.IndexTitle)] = true
	}
	if q.Kind != answerspan.YesNo && q.Kind != answerspan.Define && q.Kind != answerspan.Unknown {
		var names []string
		most := 4
		if q.Kind == answerspan.Choice {
			most = 6 // the related entities of both compared items
		}
		for _, name := range answerspan.Bridges(q, ps0) {
			if len(names) >= most {
				break
			}
			if !titled[strings.ToLower(name)] && !titled[answerspan.TitleKey(name)] {
				names = append(names, name)
			}
		}
		if _, err := u.fetchTitled(ctx, names, &pool, seen); err != nil {
			return nil, nil, q, err
		}
	}
	dfs := &termDF{}
	if err := dfs.add(ctx, u, u.q.Words); err != nil {
		return nil, nil, q, err
	}
	idf := dfs.idf
	ps := make([]answerspan.Passage, len(pool))
	ids := make([]int64, len(pool))
	for i, e := range pool {
		ps[i] = passages.of(e)
		ids[i] = e.Hit.ID
	}
	kinds, err := u.r.Retriever.EntityKinds(ctx, ids)
	if err != nil {
		return nil, nil, q, err
	}
	q.Kinds = answerspan.GraphKinds(kinds)
	cs := answerspan.Find(q, ps, idf)
	// The next hop: the best candidates may be the entity the question
	// passes through ("the city where ..."); their own passages, when not
	// retrieved, are fetched and the candidates found again, so the bridge
	// found in one hop seeds the next.
	if len(cs) > 0 && q.Kind != answerspan.YesNo && q.Kind != answerspan.Choice && q.Kind != answerspan.Define && q.Kind != answerspan.Unknown {
		for _, e := range pool {
			titled[strings.ToLower(strings.TrimSpace(e.Hit.IndexTitle))] = true
			titled[answerspan.TitleKey(e.Hit.IndexTitle)] = true
		}
		var next []string
		for _, c := range cs {
			if len(next) >= 2 || c.Score < nextHopScore {
				break
			}
			if c.Type == answerspan.TName && !titled[strings.ToLower(c.Text)] && !titled[answerspan.TitleKey(c.Text)] {
				next = append(next, c.Text)
			}
		}
		added, err := u.fetchTitled(ctx, next, &pool, seen)
		if err != nil {
			return nil, nil, q, err
		}
		// Passages that name a candidate together with the question's
		// words: the next hop's evidence when it is titled otherwise.
		for _, c := range cs[:min(len(cs), 2)] {
			if c.Type != answerspan.TName || c.Score < nextHopScore {
				continue
			}
			n, err := u.searchNear(ctx, c.Text, u.q, false, &pool, seen)
			if err != nil {
				return nil, nil, q, err
			}
			added += n
		}
		if added > 0 {
			for _, e := range pool[len(ps):] {
				ps = append(ps, passages.of(e))
			}
			cs = answerspan.Find(q, ps, idf)
		}
	}
	// A chained question: its inner hops answered one by one, each found
	// entity searched with the words of the hop after it.
	if resolvable(q.Kind) {
		h, err := u.resolveHops(ctx, u.q.Text, &pool, seen, &ps, dfs, passages, nil)
		if err != nil {
			return nil, nil, q, err
		}
		if h.alt && (len(h.cs) == 0 || h.cs[0].Score < answerspan.MinScore) {
			// The first hop's entity led to no answer: its runner-up may.
			h2, err := u.resolveHops(ctx, u.q.Text, &pool, seen, &ps, dfs, passages, h.bridges[:1])
			if err != nil {
				return nil, nil, q, err
			}
			// It must do better than the answer found without hops.
			base := answerspan.MinScore
			if len(cs) > 0 {
				base = max(base, cs[0].Score)
			}
			if len(h2.cs) > 0 && h2.cs[0].Score >= base {
				h = h2
			}
		}
		if len(h.bridges) > 0 {
			q.Resolved, q.Trail = h.text, h.trail
			if len(h.cs) > 0 && h.cs[0].Score >= answerspan.MinScore {
				cs = h.cs
			}
		}
	}
	return cs, pool, q, nil
}

// resolvable says a question of this kind may chain hops (a comparison,
// a yes/no question or a definition does not).
func resolvable(k answerspan.Kind) bool {
	return k != answerspan.YesNo && k != answerspan.Choice && k != answerspan.Define && k != answerspan.List
}

// maxHops is how many inner hops of a chained question are resolved.
const maxHops = 3

// hopMin is the score from which a hop's best candidate is taken as the
// entity the question describes there.
const hopMin = 0.4

// hopFetch is how many of a hop's best names have their own passages
// fetched to type them.
const hopFetch = 3

// hops is a chained question resolved hop by hop: the question with the
// entities found put in, the sentences that found them, the entities, and
// the candidate answers of the last hop (their chains start with the
// trail).
type hops struct {
	text    string
	q       *question.Question // text analysed (nil before the first hop)
	trail   []answerspan.Ref
	bridges []string
	from    []string // each hop's starting entity: the title of the passage naming its entity ("" if none)
	cs      []answerspan.Candidate
	alt     bool // the first hop had a runner-up (hopAlt)
}

// hopAlt is the share of the first hop's best score from which the
// runner-up is tried when the best led to no answer.
const hopAlt = 0.75

// resolveHops answers a chained question hop by hop: the innermost
// described entity ("the director of Dance for Rain") is asked for in the
// passages, the best name found is put in its place ("Who is the spouse of
// Tomas Rell?"), and that name's own passage and the passages naming it
// with the remaining question's words join the pool; then the next hop.
// The last question is answered in the grown pool.
func (u *run) resolveHops(ctx context.Context, text string, pool *[]Evidence, seen map[int64]bool, ps *[]answerspan.Passage, dfs *termDF, passages passageCache, avoid []string) (hops, error) {
	h := hops{text: text}
	sync := func() {
		for _, e := range (*pool)[len(*ps):] {
			*ps = append(*ps, passages.of(e))
		}
	}
	for len(h.bridges) < maxHops {
		in, ok := answerspan.Innermost(h.text, h.bridges)
		if !ok {
			break
		}
		// The hop's own question, another text: analysed once.
		aq := question.New(in.Ask)
		sq := aq.Kind
		if !resolvable(sq.Kind) || sq.Kind == answerspan.Unknown {
			break
		}
		if err := dfs.add(ctx, u, aq.Words); err != nil {
			return h, err
		}
		// The likely names' own passages type them (a country's says it
		// is one): fetched before the hop is decided.
		var likely []string
		hcs := answerspan.FindHop(sq, *ps, dfs.idf)
		for _, c := range hcs {
			if len(likely) >= hopFetch || c.Score < hopMin {
				break
			}
			if !h.named(c.Text) {
				likely = append(likely, c.Text)
			}
		}
		if n, err := u.fetchTitled(ctx, likely, pool, seen); err != nil {
			return h, err
		} else if n > 0 {
			sync()
			hcs = answerspan.FindHop(sq, *ps, dfs.idf)
		}
		var found *answerspan.Candidate
		for _, c := range hcs {
			if c.Score < hopMin {
				break
			}
			if c.Type != answerspan.TName && c.Type != answerspan.TQuoted || h.named(c.Text) || len(h.bridges) == 0 && (hops{bridges: avoid}).named(c.Text) {
				continue
			}
			if found != nil {
				// A runner-up close to the first hop's entity.
				h.alt = len(h.bridges) == 0 && c.Score >= hopAlt*found.Score
				break
			}
			found = &c
			if len(h.bridges) > 0 {
				break
			}
		}
		if found == nil {
			break
		}
		h.trail = addRefs(h.trail, found.Chain)
		h.bridges = append(h.bridges, found.Text)
		// The hop starts at what the passage naming its entity is about
		// ("His wife was the actress Ida Renfrew" in Edwin Marlow's).
		from := found.Subject
		if p := found.Span.Passage; p >= 0 && p < len(*ps) && answerspan.TitleKey((*ps)[p].Title) != answerspan.TitleKey(found.Text) {
			from = (*ps)[p].Title
		}
		h.from = append(h.from, from)
		h.text = h.text[:in.Start] + found.Text + h.text[in.End:]
		h.q = question.New(h.text)
		if !slices.Contains(likely, found.Text) {
			if _, err := u.fetchTitled(ctx, []string{found.Text}, pool, seen); err != nil {
				return h, err
			}
		}
		if _, err := u.searchNear(ctx, found.Text, h.q, true, pool, seen); err != nil {
			return h, err
		}
		sync()
	}
	if len(h.bridges) == 0 {
		return h, nil
	}
	fq := h.q.Kind
	if !resolvable(fq.Kind) || fq.Kind == answerspan.Unknown {
		return h, nil
	}
	if err := dfs.add(ctx, u, h.q.Words); err != nil {
		return h, err
	}
	// A passage that stated an earlier hop is about an earlier entity: a
	// date or place in it is that entity's ("When was X's father born?":
	// X's own birth date), unless it is the last entity's own passage.
	earlier := map[int]bool{}
	for _, r := range h.trail {
		earlier[r.Passage] = true
	}
	last := answerspan.TitleKey(h.bridges[len(h.bridges)-1])
	for _, c := range answerspan.Find(fq, *ps, dfs.idf) {
		if h.named(c.Text) {
			continue
		}
		if earlier[c.Span.Passage] && answerspan.TitleKey((*ps)[c.Span.Passage].Title) != last {
			c.Score = math.Round(c.Score*earlierWeight*1000) / 1000
		}
		c.Chain = addRefs(append([]answerspan.Ref(nil), h.trail...), c.Chain)
		if c.Bridge == "" && aboutEntity((*ps)[c.Span.Passage], c.Span, h.bridges[len(h.bridges)-1]) {
			// The path runs through the last hop's entity: from the
			// entity that led to it, to it, to the answer.
			c.Bridge = h.bridges[len(h.bridges)-1]
			c.Subject = ""
			if f := h.from[len(h.from)-1]; f != "" && !strings.EqualFold(f, c.Bridge) {
				c.Subject = f
			}
		}
		h.cs = append(h.cs, c)
	}
	sort.SliceStable(h.cs, func(i, j int) bool { return h.cs[i].Score > h.cs[j].Score })
	return h, nil
}

// aboutEntity reports whether the sentence stating a candidate is about
// the entity: in its passage (titled so) or naming it.
func aboutEntity(p answerspan.Passage, at answerspan.Ref, entity string) bool {
	if answerspan.TitleKey(p.Title) == answerspan.TitleKey(entity) {
		return true
	}
	for _, s := range p.Sentences {
		if s[0] <= at.Start && at.Start < s[1] {
			return mentions(p.Text[s[0]:s[1]], entity)
		}
	}
	return false
}

// earlierWeight weighs a last-hop candidate found in a passage that
// stated an earlier hop.
const earlierWeight = 0.6

// named says text is one of the entities found for the hops.
func (h hops) named(text string) bool {
	for _, b := range h.bridges {
		if strings.EqualFold(b, text) || answerspan.TitleKey(b) == answerspan.TitleKey(text) {
			return true
		}
	}
	return false
}

// addRefs appends the sentences of more not yet in refs.
func addRefs(refs, more []answerspan.Ref) []answerspan.Ref {
	for _, r := range more {
		dup := r.End <= r.Start
		for _, o := range refs {
			if o == r {
				dup = true
			}
		}
		if !dup {
			refs = append(refs, r)
		}
	}
	return refs
}

// passageCache holds the passages made for Find, by chunk, so that their
// words are worked out once however many times Find reads them.
type passageCache map[int64]answerspan.Passage

// of is the passage of a piece of evidence.
func (c passageCache) of(e Evidence) answerspan.Passage {
	if p, ok := c[e.Hit.ID]; ok {
		return p
	}
	p := answerspan.NewPassage(e.Hit.IndexTitle, e.Hit.Text, proseSentences(e.Hit.Text))
	c[e.Hit.ID] = p
	return p
}

// termDF holds the document frequencies of the words of the questions
// asked so far (the question, then each hop's), for IDF weights.
type termDF struct {
	stats retrieve.TermStats
}

// add looks up the frequencies of a question's words (its Words) not
// known yet.
func (t *termDF) add(ctx context.Context, u *run, words []string) error {
	if t.stats.DF == nil {
		t.stats.DF = map[string]int{}
	}
	var missing []string
	for _, w := range words {
		if _, ok := t.stats.DF[w]; !ok {
			missing = append(missing, w)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	got, err := u.r.Retriever.TermStats(ctx, missing)
	if err != nil {
		return err
	}
	for _, w := range missing {
		t.stats.DF[w] = got.DF[w]
	}
	t.stats.N = got.N
	return nil
}

// idf is a word's inverse document frequency (retrieve.TermStats.IDF).
func (t *termDF) idf(w string) float64 {
	return t.stats.IDF(w)
}

// nextHopScore is the score from which a candidate's own passage is
// fetched as the next hop.
const nextHopScore = 0.3

// searchNear appends to pool the best two passages (BM25) that hold every
// word of name and some of the question q's other words. hop says q is a
// chained question with a hop's entity put in (resolveHops), not the
// question asked: a name it says nowhere with q's words then gets the
// passages that name it most.
func (u *run) searchNear(ctx context.Context, name string, q *question.Question, hop bool, pool *[]Evidence, seen map[int64]bool) (int, error) {
	must := search.MatchTerms(name)
	if len(must) == 0 {
		return 0, nil
	}
	in := map[string]bool{}
	for _, t := range must {
		in[t] = true
	}
	var rest []string
	toks := q.Tokens
	if rel := relatedWords(q.Fields); rel != "" {
		toks = append(slices.Clip(toks), analyze.Tokens(rel)...)
	}
	for _, t := range search.MatchTermsOf(toks) {
		if !in[t] {
			rest = append(rest, t)
		}
	}
	if len(rest) == 0 {
		return 0, nil
	}
	match := "(" + strings.Join(must, " AND ") + ") AND (" + strings.Join(rest, " OR ") + ")"
	found, err := u.r.Retriever.MatchProject(ctx, match, search.DefaultSettings().ColumnWeights, 2)
	if err != nil {
		// A name the lexical index cannot take as a query adds nothing;
		// the answer goes on without the next hop.
		return 0, ctx.Err()
	}
	var ids []int64
	for _, id := range found {
		if !seen[id] {
			ids = append(ids, id)
		}
	}
	if len(found) == 0 && hop {
		// A hop's name said nowhere with the hop's words: the passages
		// that name it most.
		if found, err = u.r.Retriever.MatchProject(ctx, strings.Join(must, " AND "), search.DefaultSettings().ColumnWeights, 2); err != nil {
			return 0, ctx.Err()
		}
		for _, id := range found {
			if !seen[id] {
				ids = append(ids, id)
			}
		}
	}
	hits, err := u.chunkHits(ctx, ids)
	if err != nil {
		return 0, err
	}
	for _, h := range hits {
		if !seen[h.ID] {
			seen[h.ID] = true
			*pool = append(*pool, Evidence{N: len(*pool) + 1, Hit: h})
		}
	}
	return len(hits), nil
}

// related are the words a passage states a relation with when a question
// names it otherwise ("spouse": "married").
var related = relatedOf(lexicon.English().Groups("relation_synonyms"))

func relatedOf(groups map[string][]string) map[string]string {
	out := map[string]string{}
	for k, ws := range groups {
		out[k] = strings.Join(ws, " ")
	}
	return out
}

// relatedWords are the related words of a question's words (its Fields).
func relatedWords(fields []string) string {
	var out []string
	for _, w := range fields {
		w = strings.ToLower(w)
		if r, ok := related[strings.Trim(w, "?,.'\"")]; ok {
			out = append(out, r)
		}
	}
	return strings.Join(out, " ")
}

// fetchTitled appends to pool the first passage of each document titled
// with one of the names, or titled with it and a disambiguation in
// brackets ("Ann Miro (director)", found through the lexical index's
// title column), that is not in it yet, and says how many it added.
func (u *run) fetchTitled(ctx context.Context, names []string, pool *[]Evidence, seen map[int64]bool) (int, error) {
	if len(names) == 0 {
		return 0, nil
	}
	byName, err := u.r.Retriever.Titled(ctx, names, 1)
	if err != nil {
		return 0, err
	}
	var ids []int64
	for _, name := range names {
		got := byName[strings.ToLower(name)]
		if len(got) == 0 {
			got, err = u.titledLike(ctx, name)
			if err != nil {
				return 0, err
			}
		}
		ids = append(ids, got...)
	}
	hits, err := u.chunkHits(ctx, ids)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, h := range hits {
		if !seen[h.ID] {
			seen[h.ID] = true
			*pool = append(*pool, Evidence{N: len(*pool) + 1, Hit: h})
			n++
		}
	}
	return n, nil
}

// titledLike is the chunks (at most two) whose document title is name with
// a bracketed disambiguation: every word of name in the title column, and
// the title's key (answerspan.TitleKey) equal to the name's.
func (u *run) titledLike(ctx context.Context, name string) ([]int64, error) {
	terms := search.MatchTerms(name)
	if len(terms) == 0 || len(terms) > 8 {
		return nil, nil
	}
	for i, t := range terms {
		if strings.HasPrefix(t, "cjk :") {
			return nil, nil
		}
		terms[i] = "title : " + t
	}
	ids, err := u.r.Retriever.MatchProject(ctx, strings.Join(terms, " AND "), [4]float64{1, 0, 0, 0}, 6)
	if err != nil {
		return nil, ctx.Err() // as in searchNear: no passage, no failure
	}
	hits, err := u.chunkHits(ctx, ids)
	if err != nil {
		return nil, err
	}
	key := answerspan.TitleKey(name)
	var out []int64
	for _, h := range hits {
		if len(out) < 2 && h.Ordinal == 0 && answerspan.TitleKey(h.IndexTitle) == key {
			out = append(out, h.ID)
		}
	}
	return out, nil
}

// shortText writes an answer that leads with the short answer (cited to
// the sentence stating it), then its supporting sentences in reasoning
// order, each cited to its span. It returns the text, the citations and
// the short answer.
func shortText(c answerspan.Candidate, q answerspan.Question, pool []Evidence, extra []answerspan.Ref) (string, []kb.Citation, *kb.ShortAnswer) {
	var cits []kb.Citation
	num := map[answerspan.Ref]int{}
	cite := func(r answerspan.Ref) int {
		if r.End <= r.Start {
			return 0
		}
		if n, ok := num[r]; ok {
			return n
		}
		c := citation(pool[r.Passage], r.Start, r.End)
		c.N = len(cits) + 1
		cits = append(cits, c)
		num[r] = c.N
		return c.N
	}
	// The sentence stating the answer: the chain's sentence holding its span.
	stating := answerspan.Ref{}
	for _, r := range c.Chain {
		if r.Passage == c.Span.Passage && r.Start <= c.Span.Start && c.Span.End <= r.End {
			stating = r
		}
	}
	var order []answerspan.Ref
	for _, r := range c.Chain {
		if r.End > r.Start {
			order = append(order, r)
		}
	}
	if stating.End == 0 && len(order) > 0 {
		stating = order[len(order)-1]
	}
	// Then the best-matching sentences not already in the chain (at most
	// three supporting sentences in all; a resolved chain of hops gets one
	// more, up to four).
	most := 3
	if q.Resolved != "" {
		most = min(4, max(3, len(order)+1))
	}
	for _, r := range extra {
		if len(order) >= most {
			break
		}
		dup := false
		for _, o := range order {
			if o.Passage == r.Passage && o.Start < r.End && r.Start < o.End {
				dup = true
			}
		}
		if !dup && r.End > r.Start {
			order = append(order, r)
		}
	}
	// Citations are numbered in reasoning order.
	for _, r := range order {
		cite(r)
	}
	n := cite(stating)
	sa := &kb.ShortAnswer{Text: shortForm(kb.OneLine(c.Text)), N: n, Kind: string(q.Kind), Score: c.Score, Support: []int{}}
	var b strings.Builder
	b.WriteString(sa.Text)
	if n > 0 {
		fmt.Fprintf(&b, " [%d]", n)
	}
	b.WriteString(".")
	if len(order) > 0 {
		b.WriteString("\n\n")
	}
	for i, r := range order {
		if i > 0 {
			b.WriteString(" ")
		}
		e := pool[r.Passage]
		k := num[r]
		sa.Support = append(sa.Support, k)
		fmt.Fprintf(&b, "%s [%d]", kb.OneLine(e.Hit.Text[r.Start:r.End]), k)
	}
	return b.String(), cits, sa
}

// shortForm capitalises a yes/no answer.
func shortForm(s string) string {
	switch s {
	case "yes":
		return "Yes"
	case "no":
		return "No"
	}
	return s
}
