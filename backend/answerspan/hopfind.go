package answerspan

import (
	"sort"
	"strings"
)

// FindHop lists the candidates of an inner hop's question, best first: as
// Find, but only names, and typed by their own passages where the pool
// holds them. A name whose passage says it is another kind of thing than
// the question asks for (a place for "who", a person or a work for "which
// country") is dropped; one whose passage says it is what is asked ("is a
// landlocked country" for "which country") ranks up.
func FindHop(q Question, ps []Passage, idf IDF) []Candidate {
	if len(ps) == 0 {
		return nil
	}
	switch q.Kind {
	case Person, Place, Thing, Demonym:
	default:
		return nil
	}
	f := newFinder(q, ps, idf)
	var out, extra []Candidate
	for _, c := range f.spans() {
		if c.Type != TName && c.Type != TQuoted {
			continue
		}
		if f.spelling(c.Text) || q.Kind != Demonym && (onlyDemonyms(c.Text) || isDemonym(c.Text)) {
			continue
		}
		for _, suf := range possessives {
			if strings.HasSuffix(c.Text, suf) && c.Span.End-c.Span.Start == len(c.Text) {
				c.Text = strings.TrimSuffix(c.Text, suf) // "Finland's": Finland
				c.Span.End -= len(suf)
			}
		}
		class := f.classOf(c.Text)
		switch q.Kind {
		case Person:
			// "Keepers of the Harbor", "House of Vell" name no one.
			if class == "place" || class == "work" || orgLike(c.Text) || strings.Contains(c.Text, " of the ") || strings.HasPrefix(c.Text, "House of ") {
				continue
			}
			if class == "person" || class == "focus" {
				c.Score *= 1.2
			}
		case Place, Demonym:
			// "West Ardis in Upper Tarn" is two places; a
			// college is no place.
			if class == "person" || class == "work" || strings.Contains(c.Text, " in ") || institution(c.Text) {
				continue
			}
			if class == "place" || class == "focus" {
				c.Score *= 1.2
			}
			c.Score *= f.placeFit(c)
			// "Eastern Region of Norland" for "which country": Norland.
			if holders[strings.TrimSuffix(q.Focus, "s")] {
				r := regionOf(c) // scored as the whole name
				head := strings.ToLower(lastWord(strings.TrimSuffix(c.Text, " of "+r.Text)))
				kind := f.placeKind(r.Text)
				if k, ok := sameAs[kind]; ok {
					kind = k
				}
				if r.Text != c.Text {
					// The part after "of" ranks first, by more when the
					// part before is a kind of place or the part after a
					// country or state by its own passage.
					extra = append(extra, r)
					c.Score *= 0.97
					if placeNoun(head) || holders[kind] {
						c.Score *= 0.9 / 0.97
					}
				}
			}
		case Thing:
			// "which company": not a person, nor a work unless one is asked.
			if classNouns[q.Focus] && !workNouns[q.Focus] && (class == "person" || class == "work") {
				continue
			}
			if class == "focus" {
				c.Score *= 1.2
			}
		}
		out = append(out, c)
	}
	// The parts of place names kept as they were scored.
	for _, r := range extra {
		out = append(out, r)
	}
	// A one-relation question names its entity: when the passage about it
	// holds candidates, it states the relation, and the others rank down.
	anchored := false
	for _, c := range out {
		if f.anchor[c.Span.Passage] >= 0.5 {
			anchored = true
		}
	}
	for i := range out {
		if anchored && f.anchor[out[i].Span.Passage] < 0.5 {
			out[i].Score *= 0.85
		}
		out[i].Score = round3(out[i].Score)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}

// spelling says a name is another spelling of a name the question says
// ("Velmor" for "Vellmor"): at most two letters apart.
func (f *finder) spelling(name string) bool {
	n := norm(name)
	if len(n) < 5 {
		return false
	}
	for _, q := range f.qNames {
		if len(q) >= 5 && n != q && abs(len(n)-len(q)) <= 2 && editDistance(n, q) <= 2 {
			return true
		}
	}
	return false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// editDistance is the Levenshtein distance of two strings, by bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// placeFit weighs a place candidate for a question asking for a kind of
// place ("which country", "which city"): a name written after a comma
// ("Tarn County, Westmark") is what holds the place before it, one
// written before a comma ("Eastbrook, Westmark") is held by the one
// after; a name whose own passage says it is another kind of place ("is
// a country" for "which city") ranks down.
func (f *finder) placeFit(c Candidate) float64 {
	foc := strings.TrimSuffix(f.q.Focus, "s")
	if c.Span.Passage < 0 || c.Span.Passage >= len(f.ps) || foc == "" {
		return 1
	}
	text := f.ps[c.Span.Passage].Text
	if c.Span.End > len(text) || c.Span.Start > c.Span.End {
		return 1
	}
	fit := 1.0
	before, after := text[:c.Span.Start], text[c.Span.End:]
	switch {
	case holders[foc] && strings.HasSuffix(before, ", ") && capWord(lastWord(before)) && !listed(after):
		// After a comma, no preposition says it is a place: this does.
		fit = 1.6
	case held[foc] && strings.HasPrefix(after, ", ") && capWord(strings.TrimPrefix(after, ", ")):
		fit = 1.3
	case holders[foc] && strings.HasPrefix(after, ", ") && capWord(strings.TrimPrefix(after, ", ")):
		fit = 0.6 // "Port Ardis, Norland": held by the name after it
	}
	if kind := f.placeKind(c.Text); kind != "" && placeNoun(foc) && foc != "place" && foc != "location" && foc != "area" {
		if k, ok := sameAs[kind]; ok {
			kind = k
		}
		if k, ok := sameAs[foc]; ok {
			foc = k
		}
		if kind != foc {
			fit *= 0.5
		}
	}
	return fit
}

// placeKind is the kind of place the first sentence of a name's own
// passage says it is ("Norland ... is a landlocked country": "country"),
// or "".
func (f *finder) placeKind(name string) string {
	i, ok := f.titleIx[norm(name)]
	if !ok {
		i, ok = f.titleIx[titleKey(name)]
	}
	if !ok || len(f.sents[i]) == 0 {
		return ""
	}
	first := f.sents[i][0].text
	if len(first) > 300 {
		first = first[:300]
	}
	if m := rePlaceKind.FindStringSubmatch(first); m != nil {
		return m[1]
	}
	return ""
}

// institution says a name is an organisation's ("Harbor City College of
// Law").
func institution(name string) bool {
	for _, w := range strings.Fields(strings.ToLower(name)) {
		if institutionWords[strings.Trim(w, ".,")] {
			return true
		}
	}
	return false
}

// regionOf is, for a name "X of Y" ("Eastern Region of Norland"), the
// candidate Y; otherwise c.
func regionOf(c Candidate) Candidate {
	i := strings.LastIndex(c.Text, " of ")
	if i <= 0 {
		return c
	}
	tail := c.Text[i+len(" of "):]
	if !capWord(tail) {
		return c
	}
	c.Span.Start += i + len(" of ")
	c.Text = tail
	return c
}

// listed says the text after a name goes on with another name of a list
// ("Ardis and /Velm", "Ardis, Port Tarn"), not with the sentence
// ("Norland and is situated").
func listed(after string) bool {
	for _, sep := range []string{" and ", ", ", " or "} {
		if rest, ok := strings.CutPrefix(after, sep); ok {
			w := strings.Fields(rest)
			return len(w) > 0 && !isLowerWord(strings.Trim(w[0], ".,;:"))
		}
	}
	return false
}
