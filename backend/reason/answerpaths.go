package reason

import (
	"math"
	"strings"

	"cairn/backend/answerspan"
	"cairn/backend/kb"
	"cairn/backend/relphrase"
)

// answerPaths are the reasoning paths that end at the best candidate
// answers: question entity → (bridge →) answer, each edge the sentence
// that joins them, labelled by the phrase it states between the two (or by
// the sentence itself), with its span. The best candidate's path comes
// first; they rank above the structural paths.
func answerPaths(question string, cs []answerspan.Candidate, pool []Evidence, linked []string, max int) []kb.Path {
	var out []kb.Path
	for rank, c := range cs {
		if len(out) >= max {
			break
		}
		if rank == 0 && len(c.Items) > 0 {
			// A yes/no comparison: each item runs to the value it was
			// compared by ("the same country": the country each is in).
			out = append(out, comparedPaths(c.Items, pool)...)
			continue
		}
		if c.Span.End <= c.Span.Start && c.Value == "" || c.Type == "" {
			continue
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
			continue
		}
		var nodes []string
		var edges []kb.PathEdge
		if len(hops) == 1 && hops[0][0] == subject && c.Bridge != "" && !strings.EqualFold(c.Bridge, c.Text) && !strings.EqualFold(c.Bridge, subject) && len(c.Chain) >= 2 {
			hops = [][2]string{{subject, c.Bridge}, {c.Bridge, text}}
		}
		ok := true
		for i, h := range hops {
			r := c.Chain[min(i+len(c.Chain)-len(hops), len(c.Chain)-1)]
			if len(hops) == 1 {
				r = c.Chain[len(c.Chain)-1]
			}
			if r.End <= r.Start {
				ok = false
				break
			}
			e := pool[r.Passage]
			sentence := e.Hit.Text[r.Start:r.End]
			pred, stated := relphrase.Between(sentence, h[0], h[1], e.Hit.DocTitle)
			edge := kb.PathEdge{From: h[0], To: h[1], Predicate: pred, Source: citation(e, r.Start, r.End).Source}
			if !stated {
				edge.Sentence = kb.OneLine(sentence)
			}
			edges = append(edges, edge)
			if i == 0 {
				nodes = append(nodes, h[0])
			}
			nodes = append(nodes, h[1])
		}
		if !ok {
			continue
		}
		s := round3(math.Max(0.5, 1-0.05*float64(rank)))
		out = append(out, kb.Path{Score: s, Semantic: s, Structural: s, Chosen: rank == 0, Nodes: nodes, Edges: edges})
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
	if t := unbracketed(e.Hit.DocTitle); t != "" && !strings.EqualFold(t, c.Text) && len(c.Chain) > 0 {
		return e.Hit.DocTitle
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
// Pearson (filmmaker)" -> "George Pearson").
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
		pred, stated := relphrase.Between(sentence, it.Item, it.Value, e.Hit.DocTitle)
		edge := kb.PathEdge{From: it.Item, To: it.Value, Predicate: pred, Source: citation(e, r.Start, r.End).Source}
		if !stated {
			edge.Sentence = kb.OneLine(sentence)
		}
		s := round3(1 - 0.05*float64(k))
		out = append(out, kb.Path{Score: s, Semantic: s, Structural: s, Chosen: k == 0, Nodes: []string{it.Item, it.Value}, Edges: []kb.PathEdge{edge}})
	}
	return out
}
