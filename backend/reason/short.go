package reason

import (
	"context"
	"fmt"
	"math"
	"strings"

	"cairn/backend/answerspan"
	"cairn/backend/embed"
	"cairn/backend/kb"
	"cairn/backend/search"
)

// shortPool is how many retrieved passages the short answer is sought in
// (the evidence and a few more: a bridge passage may rank just below it).
const shortPool = 8

// shortAnswer finds the candidate short answers of the question in the
// retrieved passages. pool holds the passages searched (evidence first).
func (u *run) shortAnswer(ctx context.Context, g *gathered) ([]answerspan.Candidate, []Evidence, answerspan.Question, error) {
	q := answerspan.Classify(u.question)
	pool := append([]Evidence(nil), g.evidence...)
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
	ps0 := make([]answerspan.Passage, len(pool))
	for i, e := range pool {
		ps0[i] = answerspan.Passage{Title: e.Hit.DocTitle, Text: e.Hit.Text, Sentences: proseSentences(e.Hit.Text)}
	}
	titled := map[string]bool{}
	for _, e := range pool {
		titled[strings.ToLower(strings.TrimSpace(e.Hit.DocTitle))] = true
		titled[answerspan.TitleKey(e.Hit.DocTitle)] = true
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
	qw := embed.Words(u.question)
	df, n, err := u.r.Store.TermDF(ctx, qw)
	if err != nil {
		return nil, nil, q, err
	}
	idf := func(w string) float64 { return math.Log(1 + float64(n+1)/float64(df[w]+1)) }
	ps := make([]answerspan.Passage, len(pool))
	for i, e := range pool {
		ps[i] = answerspan.Passage{Title: e.Hit.DocTitle, Text: e.Hit.Text, Sentences: proseSentences(e.Hit.Text)}
	}
	cs := answerspan.Find(q, ps, idf)
	// The next hop: the best candidates may be the entity the question
	// passes through ("the city where ..."); their own passages, when not
	// retrieved, are fetched and the candidates found again, so the bridge
	// found in one hop seeds the next.
	if len(cs) > 0 && q.Kind != answerspan.YesNo && q.Kind != answerspan.Choice && q.Kind != answerspan.Define && q.Kind != answerspan.Unknown {
		for _, e := range pool {
			titled[strings.ToLower(strings.TrimSpace(e.Hit.DocTitle))] = true
			titled[answerspan.TitleKey(e.Hit.DocTitle)] = true
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
			n, err := u.searchNear(ctx, c.Text, &pool, seen)
			if err != nil {
				return nil, nil, q, err
			}
			added += n
		}
		if added > 0 {
			for _, e := range pool[len(ps):] {
				ps = append(ps, answerspan.Passage{Title: e.Hit.DocTitle, Text: e.Hit.Text, Sentences: proseSentences(e.Hit.Text)})
			}
			cs = answerspan.Find(q, ps, idf)
		}
	}
	return cs, pool, q, nil
}

// nextHopScore is the score from which a candidate's own passage is
// fetched as the next hop.
const nextHopScore = 0.3

// searchNear appends to pool the best two passages (BM25) that hold every
// word of name and some of the question's other words.
func (u *run) searchNear(ctx context.Context, name string, pool *[]Evidence, seen map[int64]bool) (int, error) {
	must := search.MatchTerms(name)
	if len(must) == 0 {
		return 0, nil
	}
	in := map[string]bool{}
	for _, t := range must {
		in[t] = true
	}
	var rest []string
	for _, t := range search.MatchTerms(u.question) {
		if !in[t] {
			rest = append(rest, t)
		}
	}
	if len(rest) == 0 {
		return 0, nil
	}
	match := "(" + strings.Join(must, " AND ") + ") AND (" + strings.Join(rest, " OR ") + ")"
	found, err := u.r.Store.LexicalSearch(ctx, match, search.DefaultSettings().ColumnWeights, 2)
	if err != nil {
		// A name the lexical index cannot take as a query adds nothing;
		// the answer goes on without the next hop.
		return 0, ctx.Err()
	}
	var ids []int64
	for _, f := range found {
		if !seen[f.ChunkID] {
			ids = append(ids, f.ChunkID)
		}
	}
	hits, err := u.r.Store.ChunkHits(ctx, ids)
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

// fetchTitled appends to pool the first passage of each document titled
// with one of the names, or titled with it and a disambiguation in
// brackets ("Ray Taylor (director)", found through the lexical index's
// title column), that is not in it yet, and says how many it added.
func (u *run) fetchTitled(ctx context.Context, names []string, pool *[]Evidence, seen map[int64]bool) (int, error) {
	if len(names) == 0 {
		return 0, nil
	}
	byName, err := u.r.Store.ChunksTitled(ctx, names, 1)
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
	hits, err := u.r.Store.ChunkHits(ctx, ids)
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
	found, err := u.r.Store.LexicalSearch(ctx, strings.Join(terms, " AND "), [4]float64{1, 0, 0, 0}, 6)
	if err != nil {
		return nil, ctx.Err() // as in searchNear: no passage, no failure
	}
	var ids []int64
	for _, f := range found {
		ids = append(ids, f.ChunkID)
	}
	hits, err := u.r.Store.ChunkHits(ctx, ids)
	if err != nil {
		return nil, err
	}
	key := answerspan.TitleKey(name)
	var out []int64
	for _, h := range hits {
		if len(out) < 2 && h.Ordinal == 0 && answerspan.TitleKey(h.DocTitle) == key {
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
	// three supporting sentences in all).
	for _, r := range extra {
		if len(order) >= 3 {
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
