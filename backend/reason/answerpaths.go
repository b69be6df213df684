package reason

import (
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"cairn/backend/answerspan"
	"cairn/backend/chunk"
	"cairn/backend/kb"
	"cairn/backend/lexicon"
	"cairn/backend/relphrase"
)

// runnersUp is how many candidates after the best one may get a path of
// their own.
const runnersUp = 4

// answerPaths are the reasoning paths that end at the best candidate
// answers: question entity → (bridge →) answer, each edge the sentence
// that joins them, labelled by the phrase it states between the two (or by
// the sentence itself), with its span. The best candidate's path comes
// first (a decided yes/no question's path ends at its conclusion); the
// others end at the next candidates (of the runnersUp after it) that add
// an answer to the ones drawn (not "Varnow's" after a path through "Jim
// Wynorski"), those reached through a bridge entity first (the chain a
// multi-hop question asks for), else in the candidates' order. Scores fall
// by 0.05 a place from 1 (at least 0.5), so they rank above the
// structural paths.
func answerPaths(question string, cs []answerspan.Candidate, pool []Evidence, linked []string, max int) []kb.Path {
	type runner struct {
		p       kb.Path
		bridged bool
	}
	var out []kb.Path
	var runners []runner
	for rank, c := range cs {
		if rank > runnersUp {
			break
		}
		if rank == 0 && isYesNo(c) {
			if p, ok := conclusionPath(c, pool); ok {
				out = append(out, p)
				continue
			}
		}
		if rank == 0 && len(c.Items) > 0 {
			// A yes/no comparison: each item runs to the value it was
			// compared by ("the same country": the country each is in).
			out = append(out, comparedPaths(c.Items, pool)...)
			continue
		}
		p, hops, ok := candidatePath(question, c, pool, linked)
		if !ok {
			continue
		}
		if rank == 0 {
			p.Chosen = true
			out = append(out, p)
			continue
		}
		runners = append(runners, runner{p, hops > 1})
	}
	sort.SliceStable(runners, func(i, j int) bool { return runners[i].bridged && !runners[j].bridged })
	var ends, inner []string
	for _, p := range out {
		ends = append(ends, p.Nodes[len(p.Nodes)-1])
		inner = append(inner, p.Nodes[:len(p.Nodes)-1]...)
	}
	for _, r := range runners {
		p := r.p
		end := p.Nodes[len(p.Nodes)-1]
		if !adds(end, ends, inner) {
			continue
		}
		out = append(out, p)
		ends = append(ends, end)
		inner = append(inner, p.Nodes[:len(p.Nodes)-1]...)
	}
	if len(out) > max {
		out = out[:max]
	}
	for i := range out {
		s := round3(math.Max(0.5, 1-0.05*float64(i)))
		out[i].Score, out[i].Semantic, out[i].Structural = s, s, s
	}
	return out
}

// candidatePath is the path of one candidate answer (nodes and edges, no
// scores) and how many hops of its chain it draws (2 through a bridge),
// false when its chain gives none.
func candidatePath(question string, c answerspan.Candidate, pool []Evidence, linked []string) (kb.Path, int, bool) {
	if c.Span.End <= c.Span.Start && c.Value == "" || c.Type == "" {
		return kb.Path{}, 0, false
	}
	subject := c.Subject
	if subject == "" && len(linked) > 0 && !strings.EqualFold(linked[0], c.Text) {
		subject = linked[0]
	} else if subject == "" || strings.EqualFold(subject, c.Text) && c.Bridge == "" && c.Value == "" && !strings.Contains(strings.ToLower(question), strings.ToLower(c.Text)) {
		// An answer the question describes but does not name (its own
		// passage is the first hop); a compared item the question names
		// has no path of its own.
		subject = pathStart(c, pool, linked)
	}
	text := kb.OneLine(c.Text)
	hops := [][2]string{{subject, text}}
	if strings.EqualFold(subject, c.Text) && c.Bridge != "" && len(c.Chain) >= 1 {
		// The chosen item of a comparison: its path runs to the entity
		// whose date decided it ("the director born later").
		hops = [][2]string{{text, c.Bridge}}
		c.Chain = c.Chain[:1]
	} else if strings.EqualFold(subject, c.Text) && c.Value != "" && len(c.Chain) >= 1 {
		// A compared item: its path runs to the date compared, on the
		// sentence stating it.
		hops = [][2]string{{text, c.Value}}
		c.Chain = c.Chain[:1]
	} else if subject == "" || strings.EqualFold(subject, c.Text) {
		// The item a comparison chose by dates that read as no one date
		// (a lifespan): its path runs to the dates, as its sentence
		// writes them. Any other compared item has no path.
		v := ""
		if subject != "" && c.Score >= answerspan.Decided {
			v = datesOf(c.Chain, pool)
		}
		if v == "" {
			return kb.Path{}, 0, false
		}
		hops = [][2]string{{text, v}}
		c.Chain = c.Chain[:1]
	}
	refs := make([]answerspan.Ref, len(hops))
	refs[len(refs)-1] = c.Chain[len(c.Chain)-1]
	if len(hops) == 1 && hops[0][0] == subject && c.Bridge != "" && !sameWords(answerWords(c.Bridge), answerWords(c.Text)) && !strings.EqualFold(c.Bridge, subject) && len(c.Chain) >= 2 {
		// Through the bridge: its edge on the latest earlier sentence of
		// the chain that joins the two (a hop answered on its own may
		// have put its passage's other sentences after it); else the
		// path starts at the bridge.
		hops = [][2]string{{c.Bridge, text}}
		for k := len(c.Chain) - 2; k >= 0; k-- {
			if joins(c.Chain[k], subject, c.Bridge, pool) {
				hops = [][2]string{{subject, c.Bridge}, {c.Bridge, text}}
				refs = []answerspan.Ref{c.Chain[k], c.Chain[len(c.Chain)-1]}
				break
			}
		}
	}
	var p kb.Path
	first := -1
	for i, h := range hops {
		r := refs[i]
		edge, ok := statedEdge(r, h[0], h[1], pool)
		if !ok {
			return kb.Path{}, 0, false
		}
		p.Edges = append(p.Edges, edge)
		if i == 0 {
			p.Nodes = append(p.Nodes, h[0])
			first = r.Passage
		}
		p.Nodes = append(p.Nodes, h[1])
	}
	if named, edge, ok := questionHop(question, linked, p.Nodes, pool[first]); ok {
		p.Nodes = append([]string{named}, p.Nodes...)
		p.Edges = append([]kb.PathEdge{edge}, p.Edges...)
	}
	return p, len(hops), true
}

// questionHop is the edge that joins a path starting at an entity the
// question does not name ("Tarn River" for "the body of water where
// Velm Falls is located") to one it names: the first sentence of the
// start's passage naming a question entity that is not on the path,
// stated in the direction the sentence reads, and that entity. False when
// the path starts at a named entity or no sentence names one.
func questionHop(question string, linked, nodes []string, e Evidence) (string, kb.PathEdge, bool) {
	start := nodes[0]
	q := strings.ToLower(question)
	if start == "" || strings.Contains(q, strings.ToLower(unbracketed(start))) {
		return "", kb.PathEdge{}, false
	}
	text := e.Hit.Text
	for _, l := range linked {
		if !namesAsName(question, l) || onPath(l, nodes) {
			continue
		}
		for _, sp := range chunk.Sentences(text) {
			sentence := text[sp[0]:sp[1]]
			if !mentions(sentence, l) {
				continue
			}
			edge := kb.PathEdge{From: start, To: l, Source: citation(e, sp[0], sp[1]).Source}
			pred, stated := relphrase.Between(sentence, start, l, e.Hit.IndexTitle)
			if !stated {
				if back, ok := relphrase.Between(sentence, l, start, e.Hit.IndexTitle); ok {
					// The sentence reads from the question entity.
					edge.From, edge.To, pred, stated = l, start, back, true
				}
			}
			edge.Predicate = pred
			if !stated {
				edge.Sentence = kb.OneLine(sentence)
			}
			return l, edge, true
		}
	}
	return "", kb.PathEdge{}, false
}

// namesAsName says whether the question names name as a name: as whole
// words, written with a capital (any case after it), and not inside a
// longer title or name ("Lady" of "Lady Irmina Marsh", "Walk" of
// "Walk the Shore"; "country" of "the country where" is no name either).
func namesAsName(question, name string) bool {
	if name == "" {
		return false
	}
	for from := 0; ; {
		i := foldIndex(question, name, from)
		if i < 0 {
			return false
		}
		end := i + len(name)
		from = end
		first, _ := utf8.DecodeRuneInString(question[i:])
		prev, _ := utf8.DecodeLastRuneInString(question[:i])
		next, _ := utf8.DecodeRuneInString(question[end:])
		if !unicode.IsUpper(first) || i > 0 && (unicode.IsLetter(prev) || unicode.IsDigit(prev)) || end < len(question) && (unicode.IsLetter(next) || unicode.IsDigit(next)) {
			continue
		}
		if prev == ' ' && inTitle(reverse(strings.Fields(question[:i])), true) || strings.HasPrefix(question[end:], " ") && inTitle(strings.Fields(question[end:]), false) {
			continue
		}
		return true
	}
}

// foldIndex is the first index at or after from where s holds sub in any
// case (the same bytes long), -1 when none.
func foldIndex(s, sub string, from int) int {
	for i := from; i+len(sub) <= len(s); i++ {
		if utf8.RuneStart(s[i]) && strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// titleWords are the lower-case words a title runs on through ("Walk the
// Line", "Welcome to the Show"; not "and", which lists names).
var titleWords = lexicon.English().Set("title_words")

// inTitle says whether the words next to a name (nearest first) run on a
// title: a capitalised word, maybe after title words. before: the words
// run back to the question's start (whose first word is no title's), and
// a mark ending a word parts it from the name, as one opening a word
// does after the name ("Port Ardis, Republic of Norland", "Come Sail With Me
// (Song)").
func inTitle(words []string, before bool) bool {
	for k, w := range words {
		if before && k == len(words)-1 {
			return false
		}
		r, _ := utf8.DecodeRuneInString(w)
		if before {
			r, _ = utf8.DecodeLastRuneInString(w)
		}
		if unicode.IsPunct(r) {
			return false
		}
		if capitalised(strings.TrimLeftFunc(w, unicode.IsPunct)) {
			return true
		}
		if !titleWords[w] {
			return false
		}
	}
	return false
}

// reverse is words in reverse order.
func reverse(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[len(words)-1-i] = w
	}
	return out
}

// capitalised says whether a word starts with a capital letter.
func capitalised(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

// onPath says whether a name shares all its words with a node of the path
// or the path's node with it.
func onPath(name string, nodes []string) bool {
	ws := answerWords(name)
	for _, n := range nodes {
		nw := answerWords(n)
		if subset(ws, nw) || subset(nw, ws) {
			return true
		}
	}
	return false
}

// mentions says whether sentence names name as whole words (any case).
func mentions(sentence, name string) bool {
	low, n := strings.ToLower(sentence), strings.ToLower(name)
	for from := 0; ; {
		i := strings.Index(low[from:], n)
		if i < 0 {
			return false
		}
		i += from
		before, _ := utf8.DecodeLastRuneInString(low[:i])
		after, _ := utf8.DecodeRuneInString(low[i+len(n):])
		if (i == 0 || !unicode.IsLetter(before) && !unicode.IsDigit(before)) && (i+len(n) == len(low) || !unicode.IsLetter(after) && !unicode.IsDigit(after)) {
			return true
		}
		from = i + len(n)
	}
}

// datesOf are the dates of the first sentence of a chain as it writes
// them: a range ("27 October 1708 – 27 February 1794") when its first two
// dates are joined by a dash, else its first date; "" when it has none.
func datesOf(chain []answerspan.Ref, pool []Evidence) string {
	if len(chain) == 0 {
		return ""
	}
	r := chain[0]
	if r.Passage < 0 || r.Passage >= len(pool) || r.End <= r.Start || r.End > len(pool[r.Passage].Hit.Text) {
		return ""
	}
	sentence := pool[r.Passage].Hit.Text[r.Start:r.End]
	var dates []answerspan.Span
	for _, sp := range answerspan.Spans(sentence) {
		if sp.Type == answerspan.TDate {
			dates = append(dates, sp)
		}
	}
	if len(dates) == 0 {
		return ""
	}
	sort.SliceStable(dates, func(i, j int) bool { return dates[i].Start < dates[j].Start })
	if len(dates) > 1 && dates[1].Start > dates[0].End && strings.Trim(sentence[dates[0].End:dates[1].Start], " –—-") == "" {
		return kb.OneLine(sentence[dates[0].Start:dates[1].End])
	}
	return kb.OneLine(dates[0].Text)
}

// statedEdge is the edge from a to b on the sentence at r: labelled by the
// phrase the sentence states between them, else by the sentence itself
// (kept in full), with the sentence's span as its source. False when r is
// no span of the pool.
func statedEdge(r answerspan.Ref, a, b string, pool []Evidence) (kb.PathEdge, bool) {
	if r.Passage < 0 || r.Passage >= len(pool) || r.End <= r.Start || r.End > len(pool[r.Passage].Hit.Text) {
		return kb.PathEdge{}, false
	}
	e := pool[r.Passage]
	sentence := e.Hit.Text[r.Start:r.End]
	pred, stated := relphrase.Between(sentence, a, b, e.Hit.IndexTitle)
	edge := kb.PathEdge{From: a, To: b, Predicate: pred, Source: citation(e, r.Start, r.End).Source}
	if !stated {
		edge.Sentence = kb.OneLine(sentence)
	}
	return edge, true
}

// joins reports whether the sentence r names b and names a or stands in
// a's own passage (where "It was designed by …" is about a).
func joins(r answerspan.Ref, a, b string, pool []Evidence) bool {
	if r.Passage < 0 || r.Passage >= len(pool) || r.End <= r.Start || r.End > len(pool[r.Passage].Hit.Text) {
		return false
	}
	e := pool[r.Passage]
	sentence := e.Hit.Text[r.Start:r.End]
	if !mentions(sentence, b) {
		return false
	}
	return mentions(sentence, a) || answerspan.TitleKey(e.Hit.IndexTitle) == answerspan.TitleKey(a)
}

// decidedYesNo is the score the answer finder gives the yes/no answer a
// comparison decided (both items' values found, or each item checked for
// what the question says of both); an undecided "yes" scores 0.5.
const decidedYesNo = 0.7

// isYesNo says whether a candidate is a yes/no answer.
func isYesNo(c answerspan.Candidate) bool {
	t := strings.ToLower(strings.TrimSpace(c.Text))
	return c.Type == "" && (t == "yes" || t == "no")
}

// conclusionPath is the path of a decided yes/no comparison, ending at
// its conclusion. With the values compared ("the same country"), each item
// runs to its value on the sentence stating it, and the values to the
// conclusion, labelled by what it says of them ("the same", "not the
// same"), on the same sentences: item → value → conclusion ← value ← item,
// or item → value ← item → conclusion ("both American") when the values
// read alike. Without values, each item's sentence (the one checked for
// what the question says of both) joins it to the conclusion: item →
// conclusion ← item. False when the comparison was not decided or a
// sentence is missing.
func conclusionPath(c answerspan.Candidate, pool []Evidence) (kb.Path, bool) {
	verdict := shortForm(strings.ToLower(strings.TrimSpace(c.Text)))
	p := kb.Path{Score: 1, Semantic: 1, Structural: 1, Chosen: true}
	if len(c.Items) == 2 {
		a, b := c.Items[0], c.Items[1]
		if a.Value == "" || b.Value == "" {
			return kb.Path{}, false
		}
		ea, okA := statedEdge(a.Ref, a.Item, a.Value, pool)
		eb, okB := statedEdge(b.Ref, b.Item, b.Value, pool)
		if !okA || !okB {
			return kb.Path{}, false
		}
		label := "the same"
		if verdict == "No" {
			label = "not the same"
		}
		if strings.EqualFold(strings.TrimSpace(a.Value), strings.TrimSpace(b.Value)) {
			if verdict == "Yes" {
				label = "both " + b.Value
			}
			cb := eb
			cb.From, cb.To, cb.Predicate, cb.Sentence = b.Item, verdict, label, ""
			p.Nodes = []string{a.Item, a.Value, b.Item, verdict}
			p.Edges = []kb.PathEdge{ea, eb, cb}
			return p, true
		}
		ca, cb := ea, eb
		ca.From, ca.To, ca.Predicate, ca.Sentence = a.Value, verdict, label, ""
		cb.From, cb.To, cb.Predicate, cb.Sentence = b.Value, verdict, label, ""
		p.Nodes = []string{a.Item, a.Value, verdict, b.Value, b.Item}
		p.Edges = []kb.PathEdge{ea, ca, cb, eb}
		return p, true
	}
	if len(c.Items) > 0 || c.Score < decidedYesNo || len(c.Chain) != 2 {
		return kb.Path{}, false
	}
	var items []string
	for _, r := range c.Chain {
		if r.Passage < 0 || r.Passage >= len(pool) {
			return kb.Path{}, false
		}
		items = append(items, pool[r.Passage].Hit.IndexTitle)
	}
	if items[0] == "" || items[1] == "" || strings.EqualFold(items[0], items[1]) {
		return kb.Path{}, false
	}
	for k, r := range c.Chain {
		if r.Passage < 0 || r.Passage >= len(pool) || r.End <= r.Start || r.End > len(pool[r.Passage].Hit.Text) {
			return kb.Path{}, false
		}
		e := pool[r.Passage]
		sentence := e.Hit.Text[r.Start:r.End]
		p.Edges = append(p.Edges, kb.PathEdge{From: items[k], To: verdict, Predicate: relphrase.Quote(sentence), Sentence: kb.OneLine(sentence), Source: citation(e, r.Start, r.End).Source})
	}
	p.Nodes = []string{items[0], verdict, items[1]}
	return p, true
}

// adds says whether an answer adds one to those drawn: not when its words
// (lower case, possessive "'s" and articles dropped) are those of a drawn
// answer, or all among the words of a node a drawn path passes through
// ("Varnow's" after a path through "Jim Varnow"), or when it lists a
// drawn answer with others ("Jean-Paul Marel and Lise Aubry" after
// "Céline Léger": the others get their own paths).
func adds(answer string, ends, inner []string) bool {
	ws := answerWords(answer)
	if len(ws) == 0 {
		return false
	}
	for _, e := range ends {
		if sameWords(ws, answerWords(e)) {
			return false
		}
	}
	for _, n := range inner {
		if subset(ws, answerWords(n)) {
			return false
		}
	}
	parts := conjuncts.Split(answer, -1)
	if len(parts) > 1 {
		for _, part := range parts {
			for _, e := range ends {
				if sameWords(answerWords(part), answerWords(e)) {
					return false
				}
			}
		}
	}
	return true
}

// conjuncts splits a list of names ("A and B", "A, B & C").
var conjuncts = regexp.MustCompile(`\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)`)

// subset says whether every word of a is a word of b.
func subset(a, b []string) bool {
	have := map[string]bool{}
	for _, w := range b {
		have[w] = true
	}
	for _, w := range a {
		if !have[w] {
			return false
		}
	}
	return true
}

// sameWords says whether a and b have the same words.
func sameWords(a, b []string) bool {
	return len(a) > 0 && len(b) > 0 && subset(a, b) && subset(b, a)
}

// answerWords are the words of a name as answers compare them: lower case,
// split at anything but letters and digits, a possessive "'s" and the
// articles dropped.
func answerWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’' }) {
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
		w = strings.Trim(w, "'’")
		if w != "" && w != "a" && w != "an" && w != "the" {
			out = append(out, w)
		}
	}
	return out
}

// pathStart is where a candidate's path starts when its chain names no
// other question entity (or names only the candidate itself, as when the
// question describes the answer's own passage): the title of the passage
// stating it, else the first question entity the sentence stating it
// names, so that an answer still gets a path on the sentence that joins
// the two. "" when there is none.
func pathStart(c answerspan.Candidate, pool []Evidence, linked []string) string {
	if c.Span.Passage < 0 || c.Span.Passage >= len(pool) {
		return ""
	}
	e := pool[c.Span.Passage]
	if t := unbracketed(e.Hit.IndexTitle); t != "" && !strings.EqualFold(t, c.Text) && len(c.Chain) > 0 {
		return e.Hit.IndexTitle
	}
	if len(c.Chain) == 0 {
		return ""
	}
	r := c.Chain[len(c.Chain)-1]
	if r.End <= r.Start || r.End > len(e.Hit.Text) || r.Passage != c.Span.Passage {
		return ""
	}
	sentence := strings.ToLower(e.Hit.Text[r.Start:r.End])
	for _, l := range linked {
		if l != "" && !strings.EqualFold(l, c.Text) && strings.Contains(sentence, strings.ToLower(l)) {
			return l
		}
	}
	return ""
}

// unbracketed is a title without its bracketed disambiguation ("George
// Pearson (filmmaker)" -> "Hugo Pell").
func unbracketed(title string) string {
	if i := strings.LastIndex(title, " ("); i > 0 && strings.HasSuffix(title, ")") {
		return strings.TrimSpace(title[:i])
	}
	return strings.TrimSpace(title)
}

// comparedPaths are the paths of a yes/no comparison: each item to the
// value that decided it, on the sentence stating it.
func comparedPaths(items []answerspan.Compared, pool []Evidence) []kb.Path {
	var out []kb.Path
	for k, it := range items {
		r := it.Ref
		if it.Value == "" || r.Passage < 0 || r.Passage >= len(pool) || r.End <= r.Start || r.End > len(pool[r.Passage].Hit.Text) {
			continue
		}
		e := pool[r.Passage]
		sentence := e.Hit.Text[r.Start:r.End]
		pred, stated := relphrase.Between(sentence, it.Item, it.Value, e.Hit.IndexTitle)
		edge := kb.PathEdge{From: it.Item, To: it.Value, Predicate: pred, Source: citation(e, r.Start, r.End).Source}
		if !stated {
			edge.Sentence = kb.OneLine(sentence)
		}
		s := round3(1 - 0.05*float64(k))
		out = append(out, kb.Path{Score: s, Semantic: s, Structural: s, Chosen: k == 0, Nodes: []string{it.Item, it.Value}, Edges: []kb.PathEdge{edge}})
	}
	return out
}
