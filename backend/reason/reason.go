package reason

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"cairn/backend/analyze"
	"cairn/backend/chunk"
	"cairn/backend/embed"
	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/question"
	"cairn/backend/retrieve"
	"cairn/backend/tables"
)

// Settings tune answering. Defaults were measured on the DEV sets (docs/measurements.md).
type Settings struct {
	K         int     // evidence passages given to the answer
	Abstain   float64 // minimum IDF-weighted question coverage of the best passage
	Lambda1   float64 // weight of the semantic score of a path
	Lambda2   float64 // weight of the structural score of a path
	Theta     float64 // paths scoring below this are dropped
	MaxPaths  int     // paths kept after rethinking
	MaxRounds int     // deep mode reflection rounds (≤ 3)
	MaxRerank int     // relations shown to the rerank call
	Sentences int     // sentences in an extractive answer
}

// DefaultSettings are the measured defaults. λ1, λ2, θ: `cairn-eval eval-paths`
// on the hotpotqa and musique DEV sets, offline (a gold passage states an
// edge of the top path in 50 % of questions at 0.75/0.25 vs 47 % at
// 0.5/0.5 — within noise; θ 0.2 keeps about 5 paths); Abstain: `cairn-eval eval
// --thresholds` on each set's own corpus and on another set's, then 0.4 → 0.35 once
// a question naming what its scope never mentions was declined whatever its
// coverage (question.Anchors): on mmlb-dev's "Not answerable" questions and
// false declines, and the multi-hop sets (docs/measurements.md).
func DefaultSettings() Settings {
	return Settings{K: 5, Abstain: 0.35, Lambda1: 0.75, Lambda2: 0.25, Theta: 0.2, MaxPaths: 5, MaxRounds: 3, MaxRerank: 40, Sentences: 2}
}

// Reasoner answers questions over one project. It reads the project only
// through its retriever: the ranked evidence (Retrieve) and the look-ups of
// backend/retrieve's lookup.go (passages by id, word frequencies, lexical
// matches, titles, the graph around a name).
type Reasoner struct {
	Retriever *retrieve.Retriever
	Provider  llm.Provider
	Settings  Settings
	// Scope, when not whole, is the documents the question is put to, as
	// the answer's trace records it. What keeps every passage read or cited
	// within them is Retriever.Docs, which must hold the same documents.
	Scope *kb.Scope
	// FiscalEnds, when set, is the day each document's fiscal years end
	// on (by document id; project.FiscalEndsOf): a table's date columns are
	// read as the fiscal years they fall in. Missing: calendar years.
	FiscalEnds map[int64]tables.FiscalEnd
	// Unowned are the names the question asks something of that no
	// document of the library is about (route.Route.Unowned): figures and
	// names the documents state are their own organisations', so none is
	// given as the answer; the passages that mention the name are shown
	// as evidence, and a model's answer is prefaced by a note saying so.
	Unowned []string

	emb *embed.Hashed
}

// New returns a reasoner with default settings.
func New(r *retrieve.Retriever, p llm.Provider) *Reasoner {
	return &Reasoner{Retriever: r, Provider: p, Settings: DefaultSettings()}
}

func (r *Reasoner) hashed() *embed.Hashed {
	if r.emb == nil {
		r.emb = embed.NewHashed(embed.DefaultDim)
	}
	return r.emb
}

// hashedVector is the question's built-in vector, word features
// unweighted (as Hashed.Vector makes it), which paths are scored against;
// made once and kept on the question.
func (u *run) hashedVector() []float32 {
	h := u.r.hashed()
	v, _ := u.q.Vector("hashed "+h.Info().Model, func() ([]float32, error) {
		return h.QueryVectorOf(u.q.Tokens, nil), nil
	})
	return v
}

func scopeOrNil(s *kb.Scope) *kb.Scope {
	if s.Whole() {
		return nil
	}
	return s
}

// chunkHits loads passages by id, leaving out those outside the scope
// (Retriever.Passages).
func (u *run) chunkHits(ctx context.Context, ids []int64) ([]kb.Hit, error) {
	return u.r.Retriever.Passages(ctx, ids)
}

func (r *Reasoner) offline() bool {
	return r.Provider == nil || r.Provider.Mode() == llm.ModeOffline
}

// run carries one question's state.
type run struct {
	r        *Reasoner
	q        *question.Question // the question asked, analysed once
	set      Settings
	meter    *llm.Meter
	trace    *Trace
	start    time.Time
	lapStart time.Time
	// quantityHits are the passages with tables that the searches for a
	// question's quantities found (quantityRows): one quantity's search
	// may find the statement another's row is in.
	quantityHits []kb.Hit
	// formulaAsked: the question states or names how its figure is
	// computed (statedFormula read a formula from it).
	formulaAsked bool
	// operandsFound are the quantities of that formula a table row was
	// found for.
	operandsFound []string
	// mentioned are the quantities a passage of the scope names with
	// all their words (in a sentence or a row).
	mentioned map[string]bool
	// partial is the formula asked when the tables give only some of
	// its quantities (nil otherwise).
	partial *partialFormula
}

func (r *Reasoner) newRun(q *question.Question, mode string) *run {
	set := r.Settings
	if set.K == 0 {
		set = DefaultSettings()
	}
	now := time.Now()
	return &run{r: r, q: q, set: set, meter: &llm.Meter{}, start: now, lapStart: now,
		trace: &Trace{Mode: mode, Scope: scopeOrNil(r.Scope), Unowned: r.Unowned, Offline: r.offline(), Timings: map[string]int64{}, Subgraph: kb.Graph{Entities: []kb.Entity{}, Relations: []kb.Relation{}}}}
}

func (u *run) lap(name string) {
	u.trace.Timings[name] += time.Since(u.lapStart).Milliseconds()
	u.lapStart = time.Now()
}

func (u *run) failed(task string, err error) {
	u.trace.Errors = append(u.trace.Errors, fmt.Sprintf("%s: %v", task, err))
	var ce *llm.CallError
	if errors.As(err, &ce) {
		u.meter.Add(task, ce.Usage)
	}
}

// finish keeps the paths worth drawing (DrawnPaths) and fills the
// answer's trace JSON.
func (u *run) finish(a *kb.Answer, onToken func(string)) error {
	if len(u.q.Respelled) > 0 {
		// read with words respelled: shown as typed, and says so
		a.Question = u.q.Asked()
		u.trace.Respelled = u.q.Respelled
		note := "\n\n(" + respelledNote(u.q.Respelled) + ")"
		a.Answer += note
		if onToken != nil {
			onToken(note)
		}
	}
	if len(a.Paths) > 0 {
		var c PathCounts
		a.Paths, c = DrawnPaths(u.anchors(a), a.Paths)
		if len(u.r.Unowned) > 0 {
			// Asked of a name no document is about: only a path
			// through that name says anything of it.
			kept := a.Paths[:0:0]
			for _, p := range a.Paths {
				if throughAny(p, u.r.Unowned) {
					kept = append(kept, p)
				} else {
					c.Dropped++
				}
			}
			a.Paths = kept
		}
		u.trace.PathsDropped, u.trace.PathsTouch = c.Dropped, &c
	}
	switch {
	case a.Declined:
		a.Outcome = kb.OutcomeDeclined
	case a.Outcome == "":
		a.Outcome = kb.OutcomeAnswer
	}
	u.trace.Outcome = a.Outcome
	u.trace.Timings["total"] = time.Since(u.start).Milliseconds()
	u.trace.Usage = u.meter.Total()
	u.trace.ByTask = u.meter.ByTask()
	raw, err := json.Marshal(u.trace)
	if err != nil {
		return err
	}
	a.Trace = raw
	a.Mode = u.trace.Mode
	a.Scope = u.trace.Scope
	if a.Citations == nil {
		a.Citations = []kb.Citation{}
	}
	if a.Paths == nil {
		a.Paths = []kb.Path{}
	}
	return nil
}

// anchors are what the answer's drawn paths must touch.
func (u *run) anchors(a *kb.Answer) Anchors {
	an := Anchors{Question: u.q.Text, Answer: a.Answer}
	if a.Short != nil && a.Short.Text != "" {
		an.Answer = a.Short.Text
	}
	for _, l := range u.trace.Retrieval.Linked {
		an.Entities = append(an.Entities, l.Name)
	}
	if u.trace.Scope != nil {
		an.Documents = u.trace.Scope.Titles
	}
	for _, c := range a.Citations {
		an.Cited = append(an.Cited, c.Source)
	}
	return an
}

// Evidence is one passage given to the answer, numbered from 1.
type Evidence struct {
	N   int
	Hit kb.Hit
}

// support measures how much of the question the hits cover: the
// IDF-weighted share of the words of the sentence that asks
// (question.AskWords, not a role set before it or the answer's form
// asked after it) found in a passage (title and
// headings included; words unknown to the corpus weigh most), for the best
// single passage (best) and for the passages together (joint: a multi-hop
// question's words spread over its passages).
func support(ctx context.Context, rt *retrieve.Retriever, q *question.Question, hits []kb.Hit) (best, joint float64, err error) {
	qw := q.AskWords
	if len(q.Computed) > 0 && len(q.Computed) < len(qw) {
		// "the current ratio": the passages give the figures, Cairn the ratio
		qw = slices.DeleteFunc(slices.Clone(qw), func(w string) bool { return slices.Contains(q.Computed, w) })
	}
	if len(qw) == 0 || len(hits) == 0 {
		return 0, 0, nil
	}
	terms, err := rt.TermStats(ctx, qw)
	if err != nil {
		return 0, 0, err
	}
	idf := terms.IDF
	var total float64
	for _, w := range qw {
		total += idf(w)
	}
	all := map[string]bool{}
	for _, h := range hits {
		have := map[string]bool{}
		for _, w := range embed.Words(h.IndexTitle + "\n" + strings.Join(h.HeadingPath, "\n") + "\n" + h.Text) {
			have[w] = true
		}
		var got float64
		for _, w := range qw {
			if have[w] {
				got += idf(w)
				all[w] = true
			}
		}
		best = max(best, got/total)
	}
	for _, w := range qw {
		if all[w] {
			joint += idf(w)
		}
	}
	return best, joint / total, nil
}

// Support is the abstention measure on its own (for evaluation): the
// IDF-weighted coverage of question by the best of hits and by all of them.
func Support(ctx context.Context, rt *retrieve.Retriever, text string, hits []kb.Hit) (best, joint float64, err error) {
	return support(ctx, rt, question.New(text), hits)
}

// sentence is a candidate sentence of an extractive answer.
type sentence struct {
	ev         int // evidence index
	start, end int // byte span inside the chunk text
	text       string
	score      float64
}

// extract picks the best-supported sentences of the evidence: overlap with
// the words of the sentence that asks (IDF-weighted; question.AskWords),
// passage rank, and mentions of path entities.
func extract(ctx context.Context, rt *retrieve.Retriever, q *question.Question, ev []Evidence, boost []string, n int) ([]sentence, error) {
	qw := q.AskWords
	terms, err := rt.TermStats(ctx, qw)
	if err != nil {
		return nil, err
	}
	idf := map[string]float64{}
	var sum float64
	for _, w := range qw {
		idf[w] = terms.IDF(w)
		sum += idf[w]
	}
	// Path entities said by the question add nothing: each other one
	// counts once.
	var boosts []string
	seenBoost := map[string]bool{}
	lowQ := strings.ToLower(q.Text)
	for _, b := range boost {
		lb := strings.ToLower(strings.TrimSpace(b))
		if lb == "" || seenBoost[lb] || strings.Contains(lowQ, lb) {
			continue
		}
		seenBoost[lb] = true
		boosts = append(boosts, lb)
	}
	asked := map[string]bool{}
	for _, w := range q.Words {
		asked[w] = true
	}
	var all []sentence
	for i, e := range ev {
		text := e.Hit.Text
		// A section whose heading names what the question asks: its
		// sentences lead, its first sentence (what the section says
		// first) most.
		section := HeadingMatch(q, e.Hit.IndexTitle, e.Hit.HeadingPath)
		if section < 0.5 {
			section = 0
		}
		pos := 0
		sents := proseSentences(text)
		for k, sp := range sents {
			s := text[sp[0]:sp[1]]
			if len(strings.Fields(s)) < 3 && len([]rune(s)) < 8 {
				continue
			}
			if k+1 < len(sents) && saysOnlyAsked(s, asked) {
				// A line that only names what is asked ("Law of good
				// milling.") says it with the sentence after it.
				sp = [2]int{sp[0], sents[k+1][1]}
				s = text[sp[0]:sp[1]]
			}
			if strings.EqualFold(kb.OneLine(s), kb.OneLine(lastHeading(e.Hit.HeadingPath))) {
				continue // the heading itself
			}
			have := map[string]bool{}
			for _, w := range embed.Words(e.Hit.IndexTitle + " " + lastHeading(e.Hit.HeadingPath) + " " + s) {
				have[w] = true
			}
			var got float64
			for _, w := range qw {
				if have[w] {
					got += idf[w]
				}
			}
			score := 0.0
			if sum > 0 {
				score = got / sum
			}
			score += 0.3 / float64(i+1)
			if section > 0 {
				if pos == 0 {
					score += 0.5 * section
				} else {
					score += 0.25 * section
				}
			}
			pos++
			low := strings.ToLower(s)
			for _, b := range boosts {
				if strings.Contains(low, b) {
					score += 0.2
				}
			}
			all = append(all, sentence{ev: i, start: sp[0], end: sp[1], text: s, score: score})
		}
	}
	sort.SliceStable(all, func(a, b int) bool { return all[a].score > all[b].score })
	// The same sentence in two passages (chunks overlap) is said once.
	var out []sentence
	said := map[string]bool{}
	for _, s := range all {
		if len(out) >= n {
			break
		}
		k := kb.OneLine(s.text)
		if said[k] {
			continue
		}
		said[k] = true
		out = append(out, s)
	}
	return out, nil
}

// saysOnlyAsked reports whether a sentence says nothing but words of the
// question (asked: its word keys), at least one: a title or term on a
// line of its own.
func saysOnlyAsked(s string, asked map[string]bool) bool {
	ws := embed.Words(s)
	if len(ws) == 0 || len(ws) > 8 {
		return false
	}
	for _, w := range ws {
		if !asked[w] {
			return false
		}
	}
	return true
}

// proseSentences splits text into sentences for an extractive answer:
// chunk.Sentences, with lines wrapped inside a sentence (PDF text keeps
// its line breaks) joined again. A line runs on into the next when it does
// not end a sentence, no blank line separates them, and the wrap is plainly
// mid-sentence: the next line starts in lower case, or the line ends with a
// comma, hyphen or a function word ("signed into law by"), or the line is
// as full as the lines above it (fullLine: "…Liverworts; Hornworts, Algae"
// over "Development and Spread.") and the next
// opens no list item. Headings and running heads stay apart.
func proseSentences(text string) [][2]int {
	var out [][2]int
	for _, sp := range chunk.Sentences(text) {
		if n := len(out); n > 0 {
			prev := out[n-1]
			gap := text[prev[1]:sp[0]]
			if strings.Count(gap, "\n") <= 1 && strings.TrimSpace(gap) == "" &&
				(wrapsInto(text[prev[0]:prev[1]], text[sp[0]:sp[1]]) || fullLine(text, prev[1]) && !endsSentence(text[prev[0]:prev[1]]) && !listItemStart(text[sp[0]:sp[1]])) {
				out[n-1][1] = sp[1]
				continue
			}
		}
		out = append(out, sp)
	}
	return out
}

// fullLine reports whether the line of text ending at end was broken
// because it was full: it has lines above it in its block (no blank line
// between), the longest of up to fullLineLookBack of them holds at least
// minFullLineRunes, and this one is at least fullLineShare as long.
func fullLine(text string, end int) bool {
	lines := strings.Split(text[:end], "\n")
	if strings.Contains(lines[len(lines)-1], " | ") {
		return false // a table row
	}
	last := utf8.RuneCountInString(strings.TrimSpace(lines[len(lines)-1]))
	longest := 0
	for i := len(lines) - 2; i >= 0 && i >= len(lines)-1-fullLineLookBack; i-- {
		t := strings.TrimSpace(lines[i])
		if t == "" || strings.Contains(t, " | ") {
			break
		}
		longest = max(longest, utf8.RuneCountInString(t))
	}
	return longest >= minFullLineRunes && float64(last) >= fullLineShare*float64(longest)
}

// fullLineLookBack, minFullLineRunes and fullLineShare: what makes a line
// full (fullLine).
const (
	fullLineLookBack = 3
	minFullLineRunes = 40
	fullLineShare    = 0.85
)

// listItemStart reports whether a line opens a list item or a table row:
// a bullet, an item number ("3.", "(b)") or cells.
func listItemStart(s string) bool {
	return strings.Contains(s, " | ") || listMarkRE.MatchString(s)
}

var listMarkRE = regexp.MustCompile(`^(?:[•◦▪·*‐–—-]|\(?[0-9]{1,2}[.)]|\(?[a-z][.)]\s)`)

func wrapsInto(line, next string) bool {
	if endsSentence(line) {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(next); unicode.IsLower(r) {
		return true
	}
	if strings.HasSuffix(line, ",") || strings.HasSuffix(line, "-") {
		return true
	}
	words := strings.Fields(line)
	last := strings.ToLower(words[len(words)-1])
	return last == words[len(words)-1] && analyze.IsStop(last)
}

func endsSentence(s string) bool {
	s = strings.TrimRight(s, "\"'”’)]» ")
	if s == "" {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(s)
	return strings.ContainsRune(".!?:;。！？；．…", r)
}

// citation builds the citation of evidence e, narrowed to [start,end) of the
// chunk text when end > start.
func citation(e Evidence, start, end int) kb.Citation {
	h := e.Hit
	src := kb.Source{DocID: h.DocID, ChunkID: h.ID, PageStart: h.PageStart, PageEnd: h.PageEnd, CharStart: h.CharStart, CharEnd: h.CharEnd}
	text := h.Text
	if end > start && end <= len(h.Text) {
		src.CharStart = h.CharStart + start
		src.CharEnd = h.CharStart + end
		text = h.Text[start:end]
	}
	return kb.Citation{N: e.N, Source: src, DocTitle: h.DocTitle, Text: text}
}

// citedOnly keeps the citations whose [n] appears in text, in order of n
// (none when the text cites none).
func citedOnly(text string, ev []Evidence) []kb.Citation {
	var out []kb.Citation
	for _, e := range ev {
		if strings.Contains(text, fmt.Sprintf("[%d]", e.N)) {
			out = append(out, citation(e, 0, 0))
		}
	}
	return out
}

// cite picks a model answer's citations: the passages it cites as [n]; an
// answer with no marker is not credited with every passage: it gets the
// passages that share most of its words (at least minOverlap of the
// answer's terms and 3 terms), or none, and the trace says which.
func (u *run) cite(text string, ev []Evidence) []kb.Citation {
	if out := citedOnly(text, ev); len(out) > 0 {
		return out
	}
	out := overlapCitations(text, ev)
	u.trace.CitationsBy = "overlap"
	if len(out) == 0 {
		u.trace.CitationsBy = "none"
	}
	return out
}

// minOverlap is the share of an unmarked answer's terms a passage must
// hold to be cited for it.
const minOverlap = 0.5

func overlapCitations(text string, ev []Evidence) []kb.Citation {
	terms := termSet(text)
	if len(terms) == 0 {
		return nil
	}
	var out []kb.Citation
	for _, e := range ev {
		have := termSet(e.Hit.Chunk.Text)
		shared := 0
		for t := range terms {
			if have[t] {
				shared++
			}
		}
		if shared >= 3 && float64(shared) >= minOverlap*float64(len(terms)) {
			out = append(out, citation(e, 0, 0))
		}
	}
	return out
}

// termSet is text's content terms: stemmed words that are not stop words,
// and CJK bigrams.
func termSet(text string) map[string]bool {
	out := map[string]bool{}
	for _, t := range analyze.Tokens(text) {
		if t.CJK {
			for _, b := range analyze.Bigrams(t.Text) {
				out[b] = true
			}
			continue
		}
		if len(t.Text) < 2 || analyze.IsStop(t.Text) {
			continue
		}
		out[analyze.Stem(t.Text)] = true
	}
	return out
}

// lastHeading is the deepest heading of a passage's path ("" without one):
// its words count as said by each of the passage's sentences.
func lastHeading(path []string) string {
	if len(path) == 0 {
		return ""
	}
	return path[len(path)-1]
}

// respelledNote says how a question's words were read: Read “requiremnt”
// as “requirement”.
func respelledNote(fixes []question.Respelling) string {
	parts := make([]string, len(fixes))
	for i, f := range fixes {
		parts[i] = "“" + f.Word + "” as “" + f.As + "”"
	}
	return "Read " + strings.Join(parts, ", ") + "."
}
