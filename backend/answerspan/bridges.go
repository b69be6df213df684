package answerspan

import (
	"sort"
	"strings"
)

// Hops counts the relations a question chains: relation nouns ("father",
// "director", a grandparent counting two) and the asked attribute (birth,
// death, nationality, a date or place). Two or more: the answer sits in a
// bridge passage, not in the passage the question names.
func Hops(q Question) int {
	low := " " + strings.ToLower(q.Text) + " "
	n := 0
	for _, rw := range relationWords {
		n += strings.Count(low, " "+rw+" ") + strings.Count(low, " "+rw+"'s ") + strings.Count(low, " "+rw+"?")
	}
	n += 2 * (strings.Count(low, "grandfather") + strings.Count(low, "grandmother"))
	n += strings.Count(low, "-in-law")
	switch q.Kind {
	case Date, Place, Demonym, Number:
		n++
	}
	return n
}

// Bridges names the entities a two-hop question may pass through: names
// in the sentences of the passages the question names (or of the compared
// items' passages) that carry one of its relation words, best first. The
// caller fetches their passages when they were not retrieved.
func Bridges(q Question, ps []Passage) []string {
	f := newFinder(q, ps, func(string) float64 { return 1 })
	low := strings.ToLower(q.Text)
	var rel []string
	for _, rw := range relationWords {
		if strings.Contains(low, rw) {
			rel = append(rel, Stems(rw)...)
		}
	}
	if strings.Contains(low, "grand") {
		rel = append(rel, "w:father", "w:mother")
	}
	type named struct {
		name string
		rel  float64
	}
	var found []named
	seen := map[string]bool{}
	for i := range ps {
		if f.firstHop(i) < 0.5 {
			continue
		}
		for _, s := range f.sents[i] {
			hit := len(rel) == 0
			for _, w := range rel {
				if s.stems[w] || hasSyn(s.stems, w) {
					hit = true
				}
			}
			if !hit {
				continue
			}
			toks := words(s.text)
			for _, sp := range names(s.text) {
				k := norm(sp.Text)
				if seen[k] || f.inQuestion(sp.Text) >= 0.99 || len(strings.Fields(sp.Text)) > 6 || isDemonym(sp.Text) {
					continue
				}
				seen[k] = true
				score := f.firstHop(i) + f.sentRel(s)
				if relBefore(toks, sp.Start, rel) {
					score++ // "directed by Hugo Pell": the relation names it
				}
				found = append(found, named{sp.Text, score})
			}
		}
	}
	sort.SliceStable(found, func(a, b int) bool { return found[a].rel > found[b].rel })
	out := make([]string, len(found))
	for k, n := range found {
		out[k] = n.name
	}
	return out
}

// relBefore says one of the relation word keys is among the three words
// before position at ("directed by X", "his father X").
func relBefore(toks []tok, at int, rel []string) bool {
	k := -1
	for i, t := range toks {
		if t.start >= at {
			k = i
			break
		}
	}
	if k < 0 {
		return false
	}
	for i := max(0, k-3); i < k; i++ {
		for _, st := range Stems(toks[i].text) {
			for _, w := range rel {
				if st == w {
					return true
				}
				for _, y := range synonyms[w] {
					if st == y {
						return true
					}
				}
			}
		}
	}
	return false
}

// orgLike says a name holds a word of an organisation, place or work.
func orgLike(name string) bool {
	for _, w := range strings.Fields(strings.ToLower(name)) {
		if orgWords[strings.Trim(w, ".,")] {
			return true
		}
	}
	return false
}

// onlyDemonyms says every word of a name is a demonym or a connector
// ("English and Spanish"): languages and peoples, not places.
func onlyDemonyms(name string) bool {
	n := 0
	for _, w := range strings.Fields(name) {
		if connector[strings.ToLower(w)] {
			continue
		}
		if !isDemonym(w) {
			return false
		}
		n++
	}
	return n > 0
}

// quoted says the span sits right inside quotation marks.
func quoted(s string, sp Span) bool {
	before := strings.TrimRight(s[:sp.Start], " ")
	after := strings.TrimLeft(s[sp.End:], " ")
	open := strings.HasSuffix(before, "\"") || strings.HasSuffix(before, "“")
	close := strings.HasPrefix(after, "\"") || strings.HasPrefix(after, "”")
	return open && close
}

// describesAll says every word occurs in the first sentences of passage i
// (its title counted).
func (f *finder) describesAll(i int, ws []string) bool {
	seen := map[string]bool{}
	for w := range f.titleSt[i] {
		seen[w] = true
	}
	for k, s := range f.sents[i] {
		if k > 2 {
			break
		}
		for w := range s.stems {
			seen[w] = true
		}
	}
	for _, w := range ws {
		if !seen[w] && !hasSyn(seen, w) {
			return false
		}
	}
	return true
}
