package reason

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"cairn/backend/answerspan"
	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/question"
	"cairn/backend/retrieve"
)

// DeclineText is the answer when the documents do not support one.
const DeclineText = "The documents do not answer this question. The closest passages are listed below."

// NoShortText leads an extractive answer when no short answer was found
// in the passages: the best-supported sentences follow.
const NoShortText = "No short answer was found in the passages; the sentences that match the question best:\n\n"

// StreamBroken is streamed when the model's answer broke off after some of
// it was streamed: the text before it is void, the extractive answer from
// the passages follows (the stored answer is that one alone).
const StreamBroken = "\n\n[The model's answer broke off; the text above is incomplete and is discarded. Answer from the passages instead:]\n\n"

// Quick answers text with retrieval, at most one rerank call and one
// streamed answer call (none offline). onToken may be nil.
func (r *Reasoner) Quick(ctx context.Context, text string, onToken func(string)) (kb.Answer, error) {
	return r.QuickAnalysed(ctx, question.New(text), onToken)
}

// QuickAnalysed is Quick of a question already analysed (as a project
// analyses it to route it).
func (r *Reasoner) QuickAnalysed(ctx context.Context, q *question.Question, onToken func(string)) (kb.Answer, error) {
	u := r.newRun(q, "quick")
	a, err := u.quick(ctx, onToken, nil)
	if err != nil {
		return kb.Answer{}, err
	}
	return a, u.finish(&a, onToken)
}

// gathered is the evidence and paths for one answer.
type gathered struct {
	res      *retrieve.Result
	evidence []Evidence
	paths    []kb.Path
	declined bool
	// Candidate short answers (best first), the passages they were sought
	// in (the evidence first) and the question's kind.
	short []answerspan.Candidate
	pool  []Evidence
	kind  answerspan.Question
	// cells: the table cells the question names among the evidence;
	// stated: the figure computed by the formula the question states.
	cells  []foundCell
	stated *statedFigure
	// figureAsked: the cells are of the figure the question asks for by
	// name (askedCells: "What was Acme's revenue in 2025?"): a figure is
	// the answer, not a name read near it.
	figureAsked bool
	// ranked: the row with the highest or lowest figure the question
	// asks which item has.
	ranked *rankedCell
	// longForm: the long form a document writes for the short form the
	// question asks about, at evidence index longFormAt.
	longForm   *longFormFound
	longFormAt int
	// titles: the titles of the labelled parts the question asks about,
	// at evidence indexes titlesAt.
	titles   []*longFormFound
	titlesAt []int
	// parts: the labelled parts of the document the question counts,
	// the first ones' passages at evidence indexes partsAt.
	parts   []partFound
	partsAt []int
	// partsListed: the parts are the contents entries a list question
	// asks for (listedParts), answered by their titles, not counted.
	partsListed bool
	// keyed: the cells of tables of words the question names by their
	// rows' keys (keyedcell.go).
	keyed []keyedFound
	// filtered: the rows of a table the question picks by a condition
	// (filteredrows.go).
	filtered *filteredFound
	// distinct: the different values of the column the question counts
	// (distinctrows.go).
	distinct *distinctFound
	// list: the list the question asks for (lists.go).
	list *listFound
	// subs: the headings under the heading the question quotes, their
	// first passages at evidence indexes subsAt (subsections.go).
	subs   []subsectionFound
	subsAt []int
}

// tableAnswered reports whether a table answered the question before its
// cells were looked up: a figure worked out, a ranking, rows picked by a
// condition or a column's values counted.
func (g *gathered) tableAnswered() bool {
	return g.stated != nil || g.ranked != nil || g.filtered != nil || g.distinct != nil
}

// stepOptions say what gathering the evidence for the question asked does
// beyond retrieval, the support check and the paths: stated, not inferred
// from which text is asked or from a flag toggled around the call.
type stepOptions struct {
	// Rerank lets the model pick the subgraph's useful relations and
	// propose chains (one call; never offline).
	Rerank bool
	// Answer reads the answer out of the evidence: a comparison the
	// evidence dates decided, the table figures the question names or
	// states a formula for, the candidate short answers and the paths
	// to them.
	Answer bool
}

// quickStep is quick mode's gathering: everything.
var quickStep = stepOptions{Rerank: true, Answer: true}

// deepFinalStep is deep mode's final gathering, after its plan ran: the
// plan already chose the relations, so no rerank.
var deepFinalStep = stepOptions{Answer: true}

// gather retrieves the evidence for the question asked, checks support,
// and does what st says.
func (u *run) gather(ctx context.Context, st stepOptions) (*gathered, error) {
	k := u.set.K
	res, err := u.r.Retriever.Retrieve(ctx, u.q, max(k, 10))
	if err != nil {
		return nil, fmt.Errorf("retrieve: %w", err)
	}
	// Passages whose heading names what the question asks rank up, also
	// those the lists found but the fusion left out.
	more, err := u.sections(ctx, u.q, res)
	if err != nil {
		return nil, err
	}
	res.Hits = byHeading(u.q, append(res.Hits, more...))
	res.Hits, err = u.keepBestPassage(ctx, res, k)
	if err != nil {
		return nil, err
	}
	u.lap("retrieve")
	g := &gathered{res: res}
	u.trace.Retrieval = RetrievalTrace{Lists: res.Lists, Linked: res.Linked, Candidates: res.Candidates, Timings: res.Timings}
	u.trace.Subgraph = res.Subgraph
	cov, joint, err := support(ctx, u.r.Retriever, u.q, res.Hits[:min(len(res.Hits), k)])
	if err != nil {
		return nil, err
	}
	unmentioned, err := u.r.Retriever.Unmentioned(ctx, u.q.Anchors)
	if err != nil {
		return nil, err
	}
	u.trace.Support = SupportTrace{Coverage: round3(cov), Joint: round3(joint), Threshold: u.set.Abstain, Declined: cov < u.set.Abstain || len(unmentioned) > 0, Unmentioned: unmentioned}
	u.lap("support")
	// supportedBy lifts a decline when every name the question asks about
	// is in the project and what was found answers it anyway: flag says
	// what did.
	supportedBy := func(flag *bool) {
		if u.trace.Support.Declined && len(unmentioned) == 0 {
			u.trace.Support.Declined = false
			*flag = true
		}
	}
	hits := res.Hits
	var chains []Chain
	var chosen []int64
	if !u.trace.Support.Declined && !u.r.offline() && st.Rerank && len(res.Subgraph.Relations) > 0 {
		chosen, chains = u.rerank(ctx, u.q.Text, res.Subgraph)
		u.lap("rerank")
		if len(chosen) > 0 {
			hits, err = u.promote(ctx, hits, res.Subgraph, chosen)
			if err != nil {
				return nil, err
			}
		}
	}
	for i, h := range hits[:min(len(hits), k)] {
		g.evidence = append(g.evidence, Evidence{N: i + 1, Hit: h})
		u.trace.Retrieval.Evidence = append(u.trace.Retrieval.Evidence, h.ID)
	}
	if u.trace.Support.Declined && len(unmentioned) == 0 && st.Answer && u.decided(ctx, g) {
		// The question compares two items the evidence names and dates:
		// its words are thinly covered ("Who lived longer, X or Y?"), but
		// the passages answer it.
		u.trace.Support.Declined = false
		u.trace.Support.Decided = true
	}
	if st.Answer {
		// A figure computed by the formula the question states.
		if g.stated, err = u.statedFormula(ctx, g.evidence); err != nil {
			return nil, err
		}
		// Else the sum or the difference of the items it names in one
		// table, when it asks for one.
		if g.stated == nil && superlative(u.q.Tokens) == 0 {
			if g.stated, err = u.combinedFigure(ctx, g); err != nil {
				return nil, err
			}
		}
		// Else the row with the highest or lowest figure, when it asks
		// which item has the most or least of something.
		if g.stated == nil && superlative(u.q.Tokens) != 0 {
			// A ranking reads the tables of the span of time it names.
			if g.evidence, err = u.spanNeighbours(ctx, g.evidence); err != nil {
				return nil, err
			}
			if g.ranked, err = u.rankedRow(ctx, g.evidence); err != nil {
				return nil, err
			}
		}
		// Else the rows of a table it picks by a condition ("which
		// members rowed more than 8 races").
		if g.stated == nil && g.ranked == nil && superlative(u.q.Tokens) == 0 {
			if g.filtered, err = u.filteredRows(ctx, g.evidence); err != nil {
				return nil, err
			}
			if g.filtered != nil {
				for _, ri := range g.filtered.Rows {
					u.trace.FilteredRows = append(u.trace.FilteredRows, g.filtered.table.Rows[ri].Cells[0])
				}
				supportedBy(&u.trace.Support.Filtered)
			}
		}
		// Else the different values of a column it counts ("how many
		// distinct functions").
		if !g.tableAnswered() && superlative(u.q.Tokens) == 0 {
			if g.distinct, err = u.distinctValues(ctx, g); err != nil {
				return nil, err
			}
			if g.distinct != nil {
				for _, v := range g.distinct.values {
					u.trace.DistinctValues = append(u.trace.DistinctValues, v.Value)
				}
				supportedBy(&u.trace.Support.Distinct)
			}
		}
		// Else the figure it asks by name, searched for as a quantity of
		// its own; else a figure it names in a table of the evidence.
		if !g.tableAnswered() {
			if g.cells, err = u.askedCells(ctx, g); err != nil {
				return nil, err
			}
			g.figureAsked = len(g.cells) > 0
		}
		// Not for a figure computed by a formula it could not work out:
		// a cell that names some of its words is no such figure.
		if !g.tableAnswered() && len(g.cells) == 0 && !u.formulaAsked {
			if g.cells, err = u.tableCells(ctx, g); err != nil {
				return nil, err
			}
		}
		if err := u.statedScales(ctx, g); err != nil {
			return nil, err
		}
		if len(g.cells) > 0 || g.stated != nil || g.ranked != nil {
			supportedBy(&u.trace.Support.Table)
		}
		if u.trace.Support.Declined && len(unmentioned) == 0 && g.stated == nil && len(u.operandsFound) > 0 {
			// Some of the figures it is computed from are in the tables:
			// evidence, not nothing.
			u.trace.Support.Declined = false
			u.trace.Support.Operands = u.operandsFound
		}
		// The long form of the short form it asks about, written out in
		// the scope.
		if g.longForm, err = u.longForm(ctx); err != nil {
			return nil, err
		}
		if g.longForm != nil {
			g.evidence, g.longFormAt = withLongForm(g.evidence, g.longForm)
			u.trace.LongForm = g.longForm.span.Text
			supportedBy(&u.trace.Support.LongForm)
		}
		// The titles of the labelled parts it asks about.
		if g.titles, err = u.sectionTitles(ctx); err != nil {
			return nil, err
		}
		for _, t := range g.titles {
			var at int
			g.evidence, at = withLongForm(g.evidence, t)
			g.titlesAt = append(g.titlesAt, at)
			u.trace.SectionTitles = append(u.trace.SectionTitles, t.span.Text)
		}
		if len(g.titles) > 0 {
			supportedBy(&u.trace.Support.SectionTitle)
		}
		// The parts of the document it counts, by their labels.
		if g.parts, err = u.countParts(ctx); err != nil {
			return nil, err
		}
		if len(g.parts) == 0 {
			if g.parts, err = u.listedParts(ctx); err != nil {
				return nil, err
			}
			g.partsListed = len(g.parts) > 0
		}
		for i, p := range g.parts {
			u.trace.Parts = append(u.trace.Parts, p.label)
			if i < maxCitedParts {
				var at int
				g.evidence, at = withPassage(g.evidence, p.hit)
				g.partsAt = append(g.partsAt, at)
			}
		}
		if len(g.parts) > 0 && u.trace.Support.Declined {
			u.trace.Support.Declined = false
			u.trace.Support.Parts = true
		}
		// Else the cells of the rows it names by their keys in tables of
		// words.
		if !g.tableAnswered() && len(g.cells) == 0 && g.longForm == nil && len(g.titles) == 0 && len(g.parts) == 0 {
			if g.keyed, err = u.keyedCells(ctx, g.evidence); err != nil {
				return nil, err
			}
			for _, c := range g.keyed {
				u.trace.KeyedCells = append(u.trace.KeyedCells, c.Key+": "+c.Value)
			}
			if len(g.keyed) > 0 {
				supportedBy(&u.trace.Support.Keyed)
			}
		}
		// Else the headings under the heading it quotes, when it asks for
		// a section's parts.
		if !g.tableAnswered() && len(g.cells) == 0 && g.longForm == nil && len(g.titles) == 0 && len(g.parts) == 0 && len(g.keyed) == 0 {
			var heading string
			if g.subs, heading, err = u.subsections(ctx, g.evidence); err != nil {
				return nil, err
			}
			for _, sub := range g.subs {
				var at int
				g.evidence, at = withPassage(g.evidence, sub.hit)
				g.subsAt = append(g.subsAt, at)
				u.trace.Subsections = append(u.trace.Subsections, sub.title)
			}
			if len(g.subs) > 0 {
				u.trace.SubsectionsOf = heading
				supportedBy(&u.trace.Support.Subsections)
			}
		}
		// Else the items of the list it asks for.
		if !g.tableAnswered() && len(g.cells) == 0 && g.longForm == nil && len(g.titles) == 0 && len(g.parts) == 0 && len(g.keyed) == 0 && len(g.subs) == 0 {
			if g.list, err = u.listAnswer(ctx, g.evidence); err != nil {
				return nil, err
			}
			if g.list != nil {
				for _, it := range g.list.items {
					u.trace.ListItems = append(u.trace.ListItems, it.text)
				}
				supportedBy(&u.trace.Support.List)
			}
		}
	}
	if u.trace.Support.Declined {
		g.declined = true
		return g, nil
	}
	g.paths = u.paths(res, g.evidence, chains, chosen)
	u.lap("paths")
	// Candidate short answers and the chains reaching them: the answer leads
	// with the best (offline), and with a model its paths lead the prompt's.
	if st.Answer {
		cs, pool, q, err := u.shortAnswer(ctx, g)
		if err != nil {
			return nil, err
		}
		cs = inSection(u.q, cs, pool)
		if g.longForm != nil {
			cs = append([]answerspan.Candidate{longFormCandidate(g.longForm, g.longFormAt)}, cs...)
		}
		if len(g.titles) > 0 {
			cs = append([]answerspan.Candidate{titlesCandidate(g.titles, g.titlesAt)}, cs...)
		}
		if len(g.parts) > 0 && g.partsListed {
			cs = append([]answerspan.Candidate{partsListCandidate(g.parts, g.partsAt)}, cs...)
		} else if len(g.parts) > 0 {
			cs = append([]answerspan.Candidate{partsCandidate(g.parts, g.partsAt)}, cs...)
		}
		if len(g.keyed) > 0 {
			cs = append([]answerspan.Candidate{keyedCandidate(g.keyed)}, cs...)
		}
		if g.filtered != nil {
			cs = append([]answerspan.Candidate{g.filtered.candidate()}, cs...)
		}
		if g.distinct != nil {
			cs = append([]answerspan.Candidate{g.distinct.candidate()}, cs...)
		}
		if g.list != nil && countsListItems(u.q) {
			cs = append([]answerspan.Candidate{listCountCandidate(g.list)}, cs...)
		} else if g.list != nil {
			cs = append([]answerspan.Candidate{listCandidate(g.list)}, cs...)
		}
		if len(g.subs) > 0 {
			cs = append([]answerspan.Candidate{subsectionsCandidate(g.subs, g.subsAt)}, cs...)
		}
		if q.Kind == answerspan.YesNo {
			cs = byCellsDirection(u.q.Moved, cs, g.cells)
		}
		g.short, g.pool, g.kind = cs, pool, q
		for i, c := range cs {
			if i >= 8 {
				break
			}
			u.trace.Candidates = append(u.trace.Candidates, ShortTrace{Text: c.Text, Type: string(c.Type), Score: c.Score})
		}
		if len(cs) > 0 && cs[0].Score >= answerspan.MinScore {
			var linked []string
			for _, l := range res.Linked {
				linked = append(linked, l.Name)
			}
			g.paths = withAnswerPaths(answerPaths(u.q.Text, cs, pool, linked, 3), g.paths, u.set.MaxPaths+3)
		}
		u.lap("short")
	}
	if len(u.r.Unowned) > 0 {
		// The question asks about an organisation no document is about:
		// a figure or a name read from the documents is another's; the
		// evidence is where they mention it.
		g.short, g.cells, g.stated, g.ranked = nil, nil, nil, nil
		if g.evidence, err = u.mentioning(ctx, g.evidence, u.set.K); err != nil {
			return nil, err
		}
	}
	// A figure read from a table is drawn as its reading, not as the
	// names its passages join.
	if tp := tablePaths(u.q.Text, g); len(tp) > 0 {
		g.paths = tp
	}
	return g, nil
}

// withAnswerPaths puts the paths that end at candidate answers first, then
// the other paths not already among them (neither the same relation chain
// nor the same nodes), at most max in all.
func withAnswerPaths(ap, rest []kb.Path, max int) []kb.Path {
	if len(ap) == 0 {
		return rest
	}
	have := map[string]bool{}
	for _, p := range ap {
		have[pathKey(p)] = true
		have[nodesKey(p)] = true
	}
	out := ap
	for _, p := range rest {
		if have[pathKey(p)] || have[nodesKey(p)] {
			continue
		}
		have[nodesKey(p)] = true
		p.Chosen = false
		out = append(out, p)
	}
	if len(out) > max {
		out = out[:max]
	}
	return out
}

// rerank is the KG-RAG call: the model picks the useful relations of the
// subgraph (ordered) and proposes relation chains. Failures are recorded
// and leave the retrieval order as it was.
func (u *run) rerank(ctx context.Context, question string, sub kb.Graph) ([]int64, []Chain) {
	rels := sub.Relations
	if len(rels) > u.set.MaxRerank {
		rels = rels[:u.set.MaxRerank]
	}
	valid := map[int64]bool{}
	data := rerankData{Question: fence(question)}
	for _, r := range rels {
		valid[r.ID] = true
		text := r.Statement
		if text == "" {
			text = r.SubjectName + " " + r.Predicate + " " + r.ObjectName
		}
		data.Relations = append(data.Relations, promptRelation{ID: r.ID, Text: fence(kb.OneLine(text))})
	}
	msgs, err := messages("rerank", data)
	if err != nil {
		u.failed("rerank", err)
		return nil, nil
	}
	var reply struct {
		Thought   string     `json:"thought"`
		Relations []int64    `json:"relations"`
		Chains    [][]string `json:"chains"`
	}
	rep, err := u.r.Provider.ChatJSON(ctx, llm.JSONRequest{Task: "rerank", Messages: msgs, Schema: schema("rerank"),
		Validate: func(raw json.RawMessage) error {
			var v struct {
				Relations []int64 `json:"relations"`
			}
			if err := json.Unmarshal(raw, &v); err != nil {
				return err
			}
			for _, id := range v.Relations {
				if !valid[id] {
					return fmt.Errorf("relation id %d is not in the list", id)
				}
			}
			return nil
		}})
	if err != nil {
		u.failed("rerank", err)
		u.trace.Rerank = &RerankTrace{Error: err.Error(), Relations: []int64{}}
		return nil, nil
	}
	u.meter.Add("rerank", rep.Usage)
	if err := json.Unmarshal(rep.Raw, &reply); err != nil {
		u.failed("rerank", err)
		return nil, nil
	}
	var chosen []int64
	seen := map[int64]bool{}
	for _, id := range reply.Relations {
		if valid[id] && !seen[id] {
			seen[id] = true
			chosen = append(chosen, id)
		}
	}
	u.trace.Rerank = &RerankTrace{Thought: reply.Thought, Relations: chosen}
	var chains []Chain
	for _, c := range reply.Chains {
		var preds []string
		for _, p := range c {
			if p = strings.TrimSpace(p); p != "" {
				preds = append(preds, p)
			}
		}
		if len(preds) > 0 {
			chains = append(chains, Chain{Predicates: preds})
		}
	}
	u.trace.Semantic = chains
	return chosen, chains
}

// promote puts the chunks stating the chosen relations first, in the order
// chosen, then the rest of the hits.
func (u *run) promote(ctx context.Context, hits []kb.Hit, sub kb.Graph, chosen []int64) ([]kb.Hit, error) {
	byRel := map[int64]kb.Relation{}
	for _, r := range sub.Relations {
		byRel[r.ID] = r
	}
	have := map[int64]kb.Hit{}
	for _, h := range hits {
		have[h.ID] = h
	}
	var order []int64
	seen := map[int64]bool{}
	var missing []int64
	for _, id := range chosen {
		for _, s := range byRel[id].Sources {
			if !seen[s.ChunkID] {
				seen[s.ChunkID] = true
				order = append(order, s.ChunkID)
				if _, ok := have[s.ChunkID]; !ok {
					missing = append(missing, s.ChunkID)
				}
			}
		}
	}
	more, err := u.chunkHits(ctx, missing)
	if err != nil {
		return nil, err
	}
	for _, h := range more {
		have[h.ID] = h
	}
	var out []kb.Hit
	for _, id := range order {
		if h, ok := have[id]; ok {
			out = append(out, h)
		}
	}
	for _, h := range hits {
		if !seen[h.ID] {
			out = append(out, h)
		}
	}
	return out, nil
}

// paths builds structural and semantic paths and rethinks them against
// the question's built-in vector (hashedVector).
func (u *run) paths(res *retrieve.Result, ev []Evidence, chains []Chain, chosen []int64) []kb.Path {
	if len(res.Subgraph.Relations) == 0 {
		return nil
	}
	eg := newEntityGraph(res.Subgraph)
	evSet := map[int64]bool{}
	for _, e := range ev {
		evSet[e.Hit.ID] = true
	}
	var from []int64
	isQ := map[int64]bool{}
	for _, l := range res.Linked {
		from = append(from, l.Entity)
		isQ[l.Entity] = true
	}
	// Candidate answers: the retriever's (by walk mass), plus the far ends
	// of the relations the model chose.
	var to []int64
	for _, c := range res.Candidates {
		if len(to) >= 8 {
			break
		}
		to = append(to, c)
	}
	byRel := map[int64]kb.Relation{}
	for _, r := range res.Subgraph.Relations {
		byRel[r.ID] = r
	}
	for _, id := range chosen {
		r := byRel[id]
		for _, e := range []int64{r.Subject, r.Object} {
			if !isQ[e] {
				to = append(to, e)
			}
		}
	}
	all := structuralPaths(eg, from, to, evSet, u.set.MaxPaths*2)
	all = append(all, groundChains(u.r.hashed(), eg, chains, from, evSet, 0.4)...)
	out := rethink(u.r.hashed(), u.hashedVector(), all, u.set.Lambda1, u.set.Lambda2, u.set.Theta, u.set.MaxPaths)
	for i := range out {
		for _, e := range out[i].Edges {
			if evSet[e.Source.ChunkID] {
				out[i].Chosen = true
			}
		}
	}
	return out
}

// quick answers from gathered evidence; memory (deep mode's intermediate
// results) goes into the answer prompt.
func (u *run) quick(ctx context.Context, onToken func(string), memory []string) (kb.Answer, error) {
	g, err := u.gather(ctx, quickStep)
	if err != nil {
		return kb.Answer{}, err
	}
	return u.answer(ctx, g, onToken, memory)
}

func (u *run) answer(ctx context.Context, g *gathered, onToken func(string), memory []string) (kb.Answer, error) {
	a := kb.Answer{Question: u.q.Text, Paths: g.paths}
	if g.declined {
		a.Declined, a.Outcome = true, kb.OutcomeDeclined
		a.Answer = u.declineText(g.evidence)
		for _, e := range g.evidence {
			a.Citations = append(a.Citations, citation(e, 0, 0))
		}
		a.Paths = nil
		u.trace.AnswerBy = "declined"
		if onToken != nil {
			onToken(a.Answer)
		}
		return a, nil
	}
	if !u.r.offline() {
		var pathLines []string
		for _, p := range g.paths {
			pathLines = append(pathLines, fence(pathText(p)))
		}
		var mem []string
		for _, m := range memory {
			mem = append(mem, fence(m))
		}
		msgs, err := messages("answer", answerData{Question: fence(u.q.Text), Memory: mem, Paths: pathLines, Passages: passagesOf(g.evidence)})
		if err != nil {
			return a, err
		}
		note := ""
		if len(u.r.Unowned) > 0 && len(memory) == 0 {
			note = unownedNote(u.r.Unowned) + "\n\n"
			if onToken != nil {
				onToken(note)
			}
		}
		streamed := false
		stream := onToken
		if onToken != nil {
			stream = func(t string) {
				streamed = true
				onToken(t)
			}
		}
		rep, err := u.r.Provider.ChatStream(ctx, llm.ChatRequest{Task: "answer", Messages: msgs}, stream)
		if err == nil && strings.TrimSpace(rep.Text) != "" {
			u.meter.Add("answer", rep.Usage)
			if rep.Cut {
				rep = u.continueCut(ctx, msgs, rep, stream)
			}
			u.lap("answer")
			a.Answer = note + strings.TrimSpace(rep.Text)
			a.Citations = u.cite(a.Answer, g.evidence)
			a.Outcome = kb.OutcomeAnswer
			u.trace.AnswerBy = "model"
			if rep.Cut {
				a.Cut = fmt.Sprintf("the model stopped at its length limit (%d tokens) before finishing; the answer is incomplete", rep.MaxTokens)
				u.trace.AnswerCut = a.Cut
				if onToken != nil {
					onToken(CutNote)
				}
			}
			return a, nil
		}
		if err == nil {
			err = fmt.Errorf("empty answer")
		}
		if ctx.Err() != nil {
			return a, ctx.Err()
		}
		u.failed("answer", err)
		u.trace.AnswerFallback = "the model's answer failed (" + err.Error() + "); answered from the passages instead"
		if streamed {
			// What was streamed is not the answer: say so before the
			// extractive answer follows on the same stream.
			onToken(StreamBroken)
		}
	}
	return u.extractive(ctx, g, onToken, memory)
}

// CutNote is streamed after an answer the model left unfinished at its
// length limit (also after one continuation); the answer is marked cut.
const CutNote = "\n\n[The model's answer was cut off at its length limit and is incomplete.]"

// maxContinuations is how many follow-up calls may finish an answer cut at
// the model's length limit.
const maxContinuations = 1

// continueCut asks the model to finish an answer cut at its length limit:
// the partial answer goes back as the assistant's turn and the model is
// asked to go on from where it stopped (prompts/continue.user.txt); the
// continuation streams on after the partial text. The result is still Cut
// when the continuation was cut too or failed.
func (u *run) continueCut(ctx context.Context, msgs []llm.Message, rep llm.ChatReply, stream func(string)) llm.ChatReply {
	for i := 0; i < maxContinuations && rep.Cut; i++ {
		more := append(append([]llm.Message{}, msgs...),
			llm.Message{Role: "assistant", Content: rep.Text},
			llm.Message{Role: "user", Content: promptText("continue.user.txt")})
		next, err := u.r.Provider.ChatStream(ctx, llm.ChatRequest{Task: "answer", Messages: more}, stream)
		if err != nil {
			u.failed("answer-continue", err)
			return rep
		}
		u.meter.Add("answer", next.Usage)
		u.trace.AnswerContinued++
		rep.Text += next.Text
		rep.Cut = next.Cut
		rep.MaxTokens = next.MaxTokens
	}
	return rep
}

// extractive answers with the best-supported sentences of the evidence,
// each cited to its exact span.
func (u *run) extractive(ctx context.Context, g *gathered, onToken func(string), memory []string) (kb.Answer, error) {
	a := kb.Answer{Question: u.q.Text, Paths: g.paths}
	var boost []string
	for _, p := range g.paths {
		if len(p.Nodes) > 0 {
			boost = append(boost, p.Nodes[len(p.Nodes)-1])
		}
	}
	boost = append(boost, memory...)
	var lead bool
	if len(memory) == 0 {
		lead = len(g.cells) > 0 || g.stated != nil || g.ranked != nil
	}
	// A cell of a table the question names leads the answer over a short
	// answer that is a figure (read from the passages' words, it would be
	// a figure of the same rows taken without its column); a short answer
	// of another kind (a name, a date) leads, the cell follows it, but for
	// a figure the question asks for by name.
	// A figure computed by the formula the question states always leads.
	if lead && len(g.short) > 0 && (g.stated != nil || g.ranked != nil || g.figureAsked || g.short[0].Type == answerspan.TNumber) {
		g.short = nil
	}
	if len(memory) == 0 && len(g.short) > 0 && g.short[0].Score >= answerspan.MinScore {
		// A resolved chain: the supporting sentences beyond it are sought
		// for the question left at its end, in all the passages searched.
		ev, q := g.evidence, u.q
		if g.kind.Resolved != "" {
			ev, q = g.pool, question.New(g.kind.Resolved)
		}
		best, err := extract(ctx, u.r.Retriever, q, ev, append(boost, g.short[0].Text), u.set.Sentences)
		if err != nil {
			return a, err
		}
		var extra []answerspan.Ref
		for _, s := range best {
			extra = append(extra, answerspan.Ref{Passage: s.ev, Start: s.start, End: s.end})
		}
		text, cits, sa := shortText(g.short[0], g.kind, g.pool, extra)
		a.Answer, a.Citations, a.Short = text, cits, sa
		a.Outcome = kb.OutcomeAnswer
		if f := g.filtered; f != nil && g.short[0].Text == f.candidate().Text {
			a.Cells = f.answerCells(sa.N)
		}
		if d := g.distinct; d != nil && g.short[0].Text == d.candidate().Text {
			a.Cells = d.answerCells(sa.N)
		}
		if lead {
			text, cits, cells, f, _ := figureLead(u.q.Text, g, len(a.Citations)+1)
			a.Answer += "\n\nFrom a table: " + text
			a.Citations = append(a.Citations, cits...)
			a.Cells, a.Formula = cells, f
		}
		u.trace.Short = sa
		u.trace.AnswerBy = "extractive"
		u.lap("extract")
		if onToken != nil {
			onToken(a.Answer)
		}
		return a, nil
	}
	// A chained question whose inner hops were resolved: the sentences
	// that found them, then those that match the question left (its
	// entities put in) best, from all the passages searched.
	ev, q := g.evidence, u.q
	var trail []sentence
	if len(memory) == 0 && g.kind.Resolved != "" && len(g.kind.Trail) > 0 {
		ev, q = g.pool, question.New(g.kind.Resolved)
		for _, r := range g.kind.Trail {
			if r.Passage < len(ev) && r.End <= len(ev[r.Passage].Hit.Text) {
				trail = append(trail, sentence{ev: r.Passage, start: r.Start, end: r.End, text: ev[r.Passage].Hit.Text[r.Start:r.End]})
			}
		}
	}
	// The hops' sentences and the best for the question left, four at
	// most (as after a short answer).
	most := u.set.Sentences
	if len(trail) > 0 {
		most = max(most, min(4, len(trail)+1))
	}
	found, err := extract(ctx, u.r.Retriever, q, ev, boost, most+len(trail))
	if err != nil {
		return a, err
	}
	sents := trail
	for _, s := range found {
		if len(sents) >= most {
			break
		}
		dup := false
		for _, t := range trail {
			if t.ev == s.ev && t.start < s.end && s.start < t.end {
				dup = true
			}
		}
		// Nor a sentence said already (overlapping passages hold it twice,
		// once after its heading line).
		said := strings.ToLower(kb.OneLine(s.text))
		for _, t := range sents {
			if strings.Contains(strings.ToLower(kb.OneLine(t.text)), said) {
				dup = true
			}
		}
		if !dup {
			sents = append(sents, s)
		}
	}
	// Sentences without a short answer to a question that asks for one
	// (a name, a date, a figure, yes or no) are the passages about it, not
	// its answer: the outcome is evidence, and the text says so and where.
	unowned := len(u.r.Unowned) > 0 && len(memory) == 0
	evidence := !lead && len(memory) == 0 && len(sents) > 0 && (needsShort(g.kind) || unowned)
	var b strings.Builder
	off := 0
	if lead {
		// A figure read from a table leads; the sentences follow it.
		text, cits, cells, f, _ := figureLead(u.q.Text, g, 1)
		b.WriteString(text)
		a.Citations = append(a.Citations, cits...)
		a.Cells, a.Formula = cells, f
		if len(sents) > 0 {
			b.WriteString("\n\n")
		}
		off = len(cits)
	} else if evidence {
		var cited []Evidence
		for _, s := range sents {
			cited = append(cited, ev[s.ev])
		}
		lead := u.evidenceText(cited)
		if unowned {
			it := "it"
			if len(u.r.Unowned) > 1 {
				it = "them"
			}
			lead = "Evidence only: " + unownedNote(u.r.Unowned) + " The passages on " + where(cited) + " mention " + it + ". " + evidenceTail
		}
		if !unowned && u.partial != nil && len(u.partial.found) > 0 {
			// What the tables give of the formula asked, and what not,
			// before the sentences.
			text, cits := u.partial.text(1)
			lead = strings.TrimSuffix(lead, evidenceTail) + text + evidenceTail
			a.Citations = append(a.Citations, cits...)
			off = len(cits)
		}
		b.WriteString(lead)
	} else if len(memory) == 0 && len(sents) > 0 {
		b.WriteString(NoShortText)
	}
	if len(memory) > 0 {
		b.WriteString(strings.Join(memory, "; "))
		b.WriteString(". ")
	}
	for i, s := range sents {
		if i > 0 {
			b.WriteString(" ")
		}
		// Each sentence is its own citation, narrowed to its span.
		e := ev[s.ev]
		fmt.Fprintf(&b, "%s [%d]", kb.OneLine(s.text), i+1+off)
		c := citation(e, s.start, s.end)
		c.N = i + 1 + off
		a.Citations = append(a.Citations, c)
	}
	if len(sents) == 0 && !lead {
		a.Declined, a.Outcome = true, kb.OutcomeDeclined
		a.Answer = u.declineText(ev)
		for _, e := range g.evidence {
			a.Citations = append(a.Citations, citation(e, 0, 0))
		}
		u.trace.AnswerBy = "declined"
	} else {
		a.Answer = b.String()
		a.Outcome = kb.OutcomeAnswer
		if evidence {
			a.Outcome = kb.OutcomeEvidence
		}
		u.trace.AnswerBy = "extractive"
		if lead {
			u.trace.AnswerBy = "table"
		}
		if u.trace.NoShort != "" {
			// The question's language has no lexicon: say why the
			// sentences come without a short answer.
			a.Answer += "\n\n(" + upperFirst(u.trace.NoShort) + ".)"
		}
	}
	u.lap("extract")
	if onToken != nil {
		onToken(a.Answer)
	}
	return a, nil
}

// needsShort says a question of kind q asks for a short answer (a name,
// a date, a place, a figure, one of two items, yes or no): sentences
// without one are only the passages about it. Open questions, what a
// term or section says, lists and questions no lexicon reads are
// answered by their sentences.
func needsShort(q answerspan.Question) bool {
	switch q.Kind {
	case answerspan.Person, answerspan.Date, answerspan.Place, answerspan.Number,
		answerspan.Choice, answerspan.YesNo, answerspan.Demonym, answerspan.Thing:
		return !q.NoLexicon
	}
	return false
}

// evidenceText leads an answer whose outcome is evidence: passages about
// the question were found (ev, the passages its sentences come from) but
// no short answer was formed from them without a model; it says where
// they are and that a model can read them.
func (u *run) evidenceText(ev []Evidence) string {
	how := "offline"
	if u.trace.AnswerFallback != "" {
		how = "without the model (its answer failed)"
	}
	return fmt.Sprintf("Evidence only: the passages on %s are about this question, but no short answer could be formed from them %s. "+
		"A model (Ollama) can read them and answer it. ", where(ev), how) + evidenceTail
}

// evidenceTail ends the lead of an evidence answer, before its sentences.
const evidenceTail = "The sentences that match the question best:\n\n"

// where names the pages of each document the passages ev lie on, in the
// order of first appearance: "p. 12–13 of Annual report", "pp. 3, 7 of
// Guide and p. 2 of Notes".
func where(ev []Evidence) string {
	type span struct{ from, to int }
	var docs []string
	pages := map[string][]span{}
	for _, e := range ev {
		t := e.Hit.DocTitle
		if t == "" {
			t = fmt.Sprintf("document %d", e.Hit.DocID)
		}
		if _, ok := pages[t]; !ok {
			docs = append(docs, t)
		}
		to := max(e.Hit.PageEnd, e.Hit.PageStart)
		pages[t] = append(pages[t], span{e.Hit.PageStart, to})
	}
	var parts []string
	for _, d := range docs {
		ss := pages[d]
		sort.Slice(ss, func(i, j int) bool { return ss[i].from < ss[j].from })
		var merged []span
		for _, s := range ss {
			if n := len(merged); n > 0 && s.from <= merged[n-1].to+1 {
				merged[n-1].to = max(merged[n-1].to, s.to)
				continue
			}
			merged = append(merged, s)
		}
		var list []string
		for _, s := range merged {
			if s.to > s.from {
				list = append(list, fmt.Sprintf("%d–%d", s.from, s.to))
			} else {
				list = append(list, fmt.Sprint(s.from))
			}
		}
		p := "p. "
		if len(list) > 1 || merged[0].to > merged[0].from {
			p = "pp. "
		}
		parts = append(parts, p+strings.Join(list, ", ")+" of "+d)
	}
	switch len(parts) {
	case 0:
		return "the pages cited"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// declineText says that nothing in the scope answers the question, what
// was searched (the whole project, the documents chosen, or those the
// question was routed to) and where the closest passages are.
func (u *run) declineText(ev []Evidence) string {
	var b strings.Builder
	b.WriteString(DeclineText)
	switch sc := u.r.Scope; {
	case sc.Whole():
		b.WriteString(" Searched: the whole project.")
	case sc.Routed:
		fmt.Fprintf(&b, " Searched: %s (the question names it: %s).", strings.Join(sc.Titles, "; "), strings.Join(sc.Because, ", "))
	default:
		fmt.Fprintf(&b, " Searched: %s.", strings.Join(sc.Titles, "; "))
	}
	if un := u.trace.Support.Unmentioned; len(un) > 0 {
		fmt.Fprintf(&b, " Nothing there mentions %s, which the question names.", quotedList(un))
	}
	var near []string
	seen := map[string]bool{}
	for _, e := range ev {
		where := e.Hit.DocTitle
		if n := len(e.Hit.HeadingPath); n > 0 {
			where += " › " + e.Hit.HeadingPath[n-1]
		}
		where += fmt.Sprintf(", p. %d", e.Hit.PageStart)
		if !seen[where] && len(near) < 3 {
			seen[where] = true
			near = append(near, where)
		}
	}
	if len(near) > 0 {
		b.WriteString(" Closest: " + strings.Join(near, "; ") + ".")
	}
	return b.String()
}

// decided says a comparison of two named items ("which was born first, A
// or B?") is decided by the evidence: both items' dates were found.
func (u *run) decided(ctx context.Context, g *gathered) bool {
	if u.q.Kind.Kind != answerspan.Choice {
		return false
	}
	cs, _, _, err := u.shortAnswer(ctx, g)
	return err == nil && len(cs) > 0 && cs[0].Score >= answerspan.Decided
}

// upperFirst capitalises the first letter of an ASCII sentence.
func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// quotedList writes words as a quoted list: “A”, “B” and “C”.
func quotedList(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = "“" + w + "”"
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// keepBestPassage keeps the passage the text search ranks first among the
// first k of hits: the graph's lists and the headings may reorder what
// the search found, not drop its best match from the evidence. It takes
// the k-th place when it is further down or missing.
func (u *run) keepBestPassage(ctx context.Context, res *retrieve.Result, k int) ([]kb.Hit, error) {
	hits := res.Hits
	var best int64
	for _, l := range res.Lists {
		if l.Name == "passage" && len(l.IDs) > 0 {
			best = l.IDs[0]
		}
	}
	if best == 0 || len(hits) < k {
		return hits, nil
	}
	at := -1
	for i, h := range hits {
		if h.ID == best {
			at = i
			break
		}
	}
	if at >= 0 && at < k {
		return hits, nil
	}
	var h kb.Hit
	if at >= 0 {
		h = hits[at]
		hits = append(hits[:at:at], hits[at+1:]...)
	} else {
		loaded, err := u.r.Retriever.Passages(ctx, []int64{best})
		if err != nil || len(loaded) == 0 {
			return res.Hits, err
		}
		h = loaded[0]
	}
	out := make([]kb.Hit, 0, len(hits)+1)
	out = append(out, hits[:k-1]...)
	out = append(out, h)
	return append(out, hits[k-1:]...), nil
}
