package reason

import (
	"reflect"
	"strings"
	"testing"

	"cairn/backend/answerspan"
	"cairn/backend/embed"
	"cairn/backend/kb"
)

// An answer the question describes without naming it (its own passage is
// the first hop) gets a path from the question entity its sentence names;
// a compared item the question names gets none of its own; a bridge chain
// runs through the bridge.
func TestAnswerPathsStart(t *testing.T) {
	band := "Grimward Choir is a Kestrian doom metal band from Varnholm."
	film := "The Copper Lantern is a 1944 film."
	bridge := "Midnight Tollway was directed by Edmund Saltry."
	pool := []Evidence{
		{N: 1, Hit: kb.Hit{DocTitle: "Grimward Choir", IndexTitle: "Grimward Choir", Chunk: kb.Chunk{Text: band}}},
		{N: 2, Hit: kb.Hit{DocTitle: "The Copper Lantern", IndexTitle: "The Copper Lantern", Chunk: kb.Chunk{Text: film}}},
		{N: 3, Hit: kb.Hit{DocTitle: "Midnight Tollway", IndexTitle: "Midnight Tollway", Chunk: kb.Chunk{Text: bridge}}},
	}
	whole := func(p int, s string) answerspan.Ref { return answerspan.Ref{Passage: p, Start: 0, End: len(s)} }
	at := func(p int, s, sub string) answerspan.Ref {
		i := strings.Index(s, sub)
		return answerspan.Ref{Passage: p, Start: i, End: i + len(sub)}
	}
	cases := []struct {
		name     string
		question string
		c        answerspan.Candidate
		linked   []string
		want     []string
	}{
		{"described answer starts at the named place", "Which Kestrian doom metal band from Varnholm released a compilation?",
			answerspan.Candidate{Text: "Grimward Choir", Type: answerspan.TName, Span: at(0, band, "Grimward Choir"), Chain: []answerspan.Ref{whole(0, band)}, Subject: "Grimward Choir"},
			[]string{"Varnholm"}, []string{"Varnholm", "Grimward Choir"}},
		{"no question entity in the sentence: no path", "Which Kestrian doom metal band released a compilation?",
			answerspan.Candidate{Text: "Grimward Choir", Type: answerspan.TName, Span: at(0, band, "Grimward Choir"), Chain: []answerspan.Ref{whole(0, band)}, Subject: "Grimward Choir"},
			[]string{"Tarnby"}, nil},
		{"a compared item the question names: no path", "Which film came first, The Copper Lantern or Gravelmoor?",
			answerspan.Candidate{Text: "The Copper Lantern", Type: answerspan.TName, Span: at(1, film, "The Copper Lantern"), Chain: []answerspan.Ref{whole(1, film)}, Subject: "The Copper Lantern"},
			[]string{"film"}, nil},
		{"answer in another passage starts at its title", "Who directed the film shot in Dunmarrow?",
			answerspan.Candidate{Text: "Edmund Saltry", Type: answerspan.TName, Span: at(2, bridge, "Edmund Saltry"), Chain: []answerspan.Ref{whole(2, bridge)}},
			nil, []string{"Midnight Tollway", "Edmund Saltry"}},
	}
	for _, tc := range cases {
		ps := answerPaths(tc.question, []answerspan.Candidate{tc.c}, pool, tc.linked, 3)
		var got []string
		if len(ps) > 0 {
			got = ps[0].Nodes
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: nodes %q, want %q", tc.name, got, tc.want)
		}
	}
}

// A decided yes/no comparison draws one path through both items' values
// to its conclusion; each edge keeps the span of a sentence.
func TestAnswerPathsCompared(t *testing.T) {
	a := "Fenwick International Airport is a county-owned airport in New York."
	b := "Marrowgate International Airport is a public airport in Louisiana."
	pool := []Evidence{
		{N: 1, Hit: kb.Hit{DocTitle: "Fenwick International Airport", IndexTitle: "Fenwick International Airport", Chunk: kb.Chunk{Text: a}}},
		{N: 2, Hit: kb.Hit{DocTitle: "Marrowgate International Airport", IndexTitle: "Marrowgate International Airport", Chunk: kb.Chunk{Text: b}}},
	}
	items := []answerspan.Compared{
		{Item: "Fenwick International Airport", Value: "New York", Ref: answerspan.Ref{Passage: 0, Start: 0, End: len(a)}},
		{Item: "Marrowgate International Airport", Value: "Louisiana", Ref: answerspan.Ref{Passage: 1, Start: 0, End: len(b)}},
	}
	cs := []answerspan.Candidate{{Text: "no", Score: 0.8, Items: items}, {Text: "yes", Score: 0.5, Items: items}}
	ps := answerPaths("Are Fenwick International Airport and Marrowgate International Airport in the same state?", cs, pool, nil, 3)
	want := []string{"Fenwick International Airport", "New York", "No", "Louisiana", "Marrowgate International Airport"}
	if len(ps) != 1 || !reflect.DeepEqual(ps[0].Nodes, want) {
		t.Fatalf("paths %+v, want one with nodes %q", ps, want)
	}
	p := ps[0]
	if !p.Chosen || len(p.Edges) != 4 {
		t.Fatalf("chosen / edges %+v", p)
	}
	if p.Edges[0].Predicate != "is a county-owned airport in" || p.Edges[3].From != "Marrowgate International Airport" || p.Edges[1].Predicate != "not the same" {
		t.Errorf("edges %+v", p.Edges)
	}
	if p.Edges[1].Source.CharEnd != len(a) || p.Edges[2].Source.CharEnd != len(b) {
		t.Errorf("conclusion edges keep the values' spans: %+v", p.Edges)
	}
}

// A yes/no answer "both X" decided by each item's sentence draws item →
// conclusion ← item on those sentences; an undecided one draws nothing.
func TestConclusionPath(t *testing.T) {
	a := "Corin Halvard is a British-American film director."
	b := "Tavish Omondi is an Indian film director."
	pool := []Evidence{
		{N: 1, Hit: kb.Hit{DocTitle: "Corin Halvard", IndexTitle: "Corin Halvard", Chunk: kb.Chunk{Text: a}}},
		{N: 2, Hit: kb.Hit{DocTitle: "Tavish Omondi", IndexTitle: "Tavish Omondi", Chunk: kb.Chunk{Text: b}}},
	}
	chain := []answerspan.Ref{{Passage: 0, End: len(a)}, {Passage: 1, End: len(b)}}
	cases := []struct {
		name string
		c    answerspan.Candidate
		want []string
	}{
		{"decided", answerspan.Candidate{Text: "yes", Score: 0.8, Chain: chain}, []string{"Corin Halvard", "Yes", "Tavish Omondi"}},
		{"undecided", answerspan.Candidate{Text: "yes", Score: 0.5, Chain: chain}, nil},
		{"one sentence", answerspan.Candidate{Text: "no", Score: 0.8, Chain: chain[:1]}, nil},
		{"not yes/no", answerspan.Candidate{Text: "Corin Halvard", Type: answerspan.TName, Score: 0.8, Chain: chain}, nil},
	}
	for _, tc := range cases {
		p, ok := conclusionPath(tc.c, pool)
		if !isYesNo(tc.c) {
			ok = false
		}
		if !ok {
			if tc.want != nil {
				t.Errorf("%s: no path, want %q", tc.name, tc.want)
			}
			continue
		}
		if !reflect.DeepEqual(p.Nodes, tc.want) {
			t.Errorf("%s: nodes %q, want %q", tc.name, p.Nodes, tc.want)
			continue
		}
		for k, e := range p.Edges {
			if e.Sentence == "" || e.Source.CharEnd != chain[k].End || e.To != "Yes" {
				t.Errorf("%s: edge %d %+v", tc.name, k, e)
			}
		}
	}
}

// The top paths end at distinct answers: a candidate naming a node already
// drawn, or listing a drawn answer with others, gets no path of its own.
func TestAdds(t *testing.T) {
	ends := []string{"Port Ardley", "Célia Vauquier"}
	inner := []string{"The Revenge of Bog Creature", "Jim Tarlowski"}
	cases := []struct {
		answer string
		want   bool
	}{
		{"Vellshire", true},
		{"Tarlowski's", false},
		{"port ardley", false},
		{"Jean-Marc Durel and Célia Vauquier", false},
		{"Jean-Marc Durel", true},
		{"Ardley Point", true},
		{"Bog Creature", false},
		{"", false},
	}
	for _, tc := range cases {
		if got := adds(tc.answer, ends, inner); got != tc.want {
			t.Errorf("adds(%q) = %v, want %v", tc.answer, got, tc.want)
		}
	}
}

// The three answer paths end at three distinct answers: a candidate that
// names the bridge is passed over for the next one.
func TestAnswerPathsDistinct(t *testing.T) {
	film := "The Revenge of Bog Creature is a 1989 film directed by Jim Tarlowski."
	bio := "Jim Tarlowski was born in Port Ardley, Vellshire. Tarlowski's films are low-budget."
	pool := []Evidence{
		{N: 1, Hit: kb.Hit{DocTitle: "The Revenge of Bog Creature", IndexTitle: "The Revenge of Bog Creature", Chunk: kb.Chunk{Text: film}}},
		{N: 2, Hit: kb.Hit{DocTitle: "Jim Tarlowski", IndexTitle: "Jim Tarlowski", Chunk: kb.Chunk{Text: bio}}},
	}
	chain := []answerspan.Ref{{Passage: 0, End: len(film)}, {Passage: 1, End: strings.Index(bio, " Tarl")}}
	cand := func(text string, score float64) answerspan.Candidate {
		i := strings.Index(bio, text)
		return answerspan.Candidate{Text: text, Type: answerspan.TName, Score: score, Span: answerspan.Ref{Passage: 1, Start: i, End: i + len(text)},
			Chain: chain, Bridge: "Jim Tarlowski", Subject: "The Revenge of Bog Creature"}
	}
	cs := []answerspan.Candidate{cand("Port Ardley", 0.9), cand("Tarlowski's", 0.8), cand("Vellshire", 0.7)}
	ps := answerPaths("Where was the director of The Revenge of Bog Creature born?", cs, pool, nil, 3)
	var ends []string
	for _, p := range ps {
		ends = append(ends, p.Nodes[len(p.Nodes)-1])
	}
	if want := []string{"Port Ardley", "Vellshire"}; !reflect.DeepEqual(ends, want) {
		t.Fatalf("ends %q, want %q", ends, want)
	}
	if !ps[0].Chosen || ps[1].Chosen || !reflect.DeepEqual(ps[0].Nodes, []string{"The Revenge of Bog Creature", "Jim Tarlowski", "Port Ardley"}) {
		t.Errorf("paths %+v", ps)
	}
	for _, p := range ps {
		for _, e := range p.Edges {
			if e.Source.CharEnd <= e.Source.CharStart {
				t.Errorf("edge without a span %+v", e)
			}
		}
	}
}

// After the chosen answer's path, a runner-up reached through a bridge
// entity comes before one joined to the question entity directly; scores
// fall with the place.
func TestAnswerPathsBridgedFirst(t *testing.T) {
	actor := "Corran Ashby starred in Harbor Wives and in Hexbound."
	show := "Hexbound is a series that was broadcast by The VX."
	pool := []Evidence{
		{N: 1, Hit: kb.Hit{DocTitle: "Corran Ashby", IndexTitle: "Corran Ashby", Chunk: kb.Chunk{Text: actor}}},
		{N: 2, Hit: kb.Hit{DocTitle: "Hexbound", IndexTitle: "Hexbound", Chunk: kb.Chunk{Text: show}}},
	}
	span := func(p int, s, sub string) answerspan.Ref {
		i := strings.Index(s, sub)
		return answerspan.Ref{Passage: p, Start: i, End: i + len(sub)}
	}
	direct := func(text string) answerspan.Candidate {
		return answerspan.Candidate{Text: text, Type: answerspan.TQuoted, Span: span(0, actor, text), Chain: []answerspan.Ref{{Passage: 0, End: len(actor)}}, Subject: "Corran Ashby"}
	}
	bridged := answerspan.Candidate{Text: "The VX", Type: answerspan.TName, Span: span(1, show, "The VX"),
		Chain: []answerspan.Ref{{Passage: 0, End: len(actor)}, {Passage: 1, End: len(show)}}, Subject: "Corran Ashby", Bridge: "Hexbound"}
	cs := []answerspan.Candidate{direct("Harbor Wives"), direct("Hexbound"), bridged}
	ps := answerPaths("Corran Ashby starred in a series broadcast on what station?", cs, pool, nil, 3)
	var got [][]string
	var scores []float64
	for _, p := range ps {
		got = append(got, p.Nodes)
		scores = append(scores, p.Score)
	}
	want := [][]string{{"Corran Ashby", "Harbor Wives"}, {"Corran Ashby", "Hexbound", "The VX"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("nodes %q, want %q", got, want)
	}
	if !reflect.DeepEqual(scores, []float64{1, 0.95}) || !ps[0].Chosen || ps[1].Chosen {
		t.Errorf("scores %v / chosen %+v", scores, ps)
	}
}

// A question entity starts a path only where the question writes it as a
// name of its own.
func TestNamesAsName(t *testing.T) {
	cases := []struct {
		question, name string
		want           bool
	}{
		{"Which region is Dorian Vale's city of birth located?", "Dorian Vale", true},
		{"Did Marian Ostrowe and Silas Arden Talbrook share the same nationality?", "Marian Ostrowe", true},
		{"Where was the place of death of Lady Agnes Thornbury's father?", "Lady", false},
		{"When did the country where the village of Ashbrook is located join?", "Country", false},
		{"Which 1988 Kestrian comedy had music by a female director?", "Kestrian", true},
		{"Where did Grand Duchess Mirela Tomasovna Of Varela's father die?", "Grand Duchess Mirela Tomasovna of Varela", true},
		{"Who founded Kestrianstan?", "Kestrian", false},
		{"Who played the We'll Go Far singer in Cross the River?", "Cross", false},
		{"Who performed in both Meet Me at the Harbor and the band m(q)?", "Harbor", false},
		{"Who performed in both Meet Me at the Harbor and the band m(q)?", "Meet Me at the Harbor", true},
		{"Where is Harrow District in Velmont, Republic of Ostrand, located?", "Republic of Ostrand", true},
		{"", "Kestrian", false},
		{"Who built the İstvara Airport and İzmara Port?", "İzmara Port", true},
		{"Who founded Ærøvik Town?", "ærøvik town", true},
		{"Who?", "", false},
	}
	for _, tc := range cases {
		if got := namesAsName(tc.question, tc.name); got != tc.want {
			t.Errorf("namesAsName(%q, %q) = %v, want %v", tc.question, tc.name, got, tc.want)
		}
	}
}

// A path starting at an entity the question does not name starts one hop
// earlier, at the question entity its passage names, on that sentence.
func TestAnswerPathsFromQuestion(t *testing.T) {
	river := "The Tessel River passes Varn Falls. It rises in Kestria."
	pool := []Evidence{{N: 1, Hit: kb.Hit{DocTitle: "Tessel River", IndexTitle: "Tessel River", Chunk: kb.Chunk{Text: river}}}}
	i := strings.Index(river, "Kestria")
	second := strings.Index(river, "It rises")
	c := answerspan.Candidate{Text: "Kestria", Type: answerspan.TName, Span: answerspan.Ref{Passage: 0, Start: i, End: i + len("Kestria")},
		Chain: []answerspan.Ref{{Passage: 0, Start: second, End: len(river)}}, Subject: "Tessel River"}
	cases := []struct {
		name, question string
		linked         []string
		want           []string
	}{
		{"named", "Where does the river at Varn Falls rise?", []string{"Varn Falls"}, []string{"Varn Falls", "Tessel River", "Kestria"}},
		{"not a name in the question", "Where does the river at the varn falls rise?", []string{"Varn Falls"}, []string{"Tessel River", "Kestria"}},
		{"start named already", "Where does the Tessel River rise?", []string{"Varn Falls"}, []string{"Tessel River", "Kestria"}},
	}
	for _, tc := range cases {
		ps := answerPaths(tc.question, []answerspan.Candidate{c}, pool, tc.linked, 3)
		if len(ps) != 1 || !reflect.DeepEqual(ps[0].Nodes, tc.want) {
			t.Errorf("%s: paths %+v, want nodes %q", tc.name, ps, tc.want)
			continue
		}
		if len(ps[0].Edges) != len(tc.want)-1 {
			t.Errorf("%s: %d edges", tc.name, len(ps[0].Edges))
		}
		if len(tc.want) == 3 {
			e := ps[0].Edges[0]
			if e.From != "Tessel River" || e.To != "Varn Falls" || e.Predicate != "passes" || e.Source.CharEnd != strings.Index(river, " It") {
				t.Errorf("%s: first edge %+v", tc.name, e)
			}
		}
	}
}

// The other paths follow the answer paths, one per node chain, none
// through the nodes of an answer path; Rethink keeps one path per node
// chain.
func TestWithAnswerPathsDistinct(t *testing.T) {
	edge := func(from, to, pred string) kb.PathEdge { return kb.PathEdge{From: from, To: to, Predicate: pred} }
	path := func(score float64, nodes []string, edges ...kb.PathEdge) kb.Path {
		return kb.Path{Score: score, Semantic: score, Structural: score, Nodes: nodes, Edges: edges}
	}
	ap := []kb.Path{path(1, []string{"Iron Bellows", "American", "Yes", "American", "A Season of Embers"},
		edge("Iron Bellows", "American", "is an"), edge("American", "Yes", "the same"), edge("American", "Yes", "the same"), edge("A Season of Embers", "American", "is an"))}
	ap[0].Chosen = true
	rest := []kb.Path{
		path(0.6, []string{"Iron Bellows", "American"}, edge("Iron Bellows", "American", "“Iron Bellows is a 1936 American film”")),
		path(0.5, []string{"A Season of Embers", "William Harrow"}, edge("A Season of Embers", "William Harrow", "stars")),
		path(0.4, []string{"A Season of Embers", "William Harrow"}, edge("William Harrow", "A Season of Embers", "starred in")),
	}
	rest[1].Chosen = true
	rest = append(rest, path(0.3, ap[0].Nodes, edge("Iron Bellows", "American", "is an")))
	got := withAnswerPaths(ap, rest, 5)
	if len(got) != 3 || !got[0].Chosen || got[1].Chosen || got[2].Chosen || got[1].Nodes[1] != "American" || got[2].Nodes[1] != "William Harrow" {
		t.Fatalf("paths %+v", got)
	}
	re := Rethink(embed.NewHashed(64), "", rest[1:3], 0, 1, 0, 5)
	if len(re) != 1 || re[0].Edges[0].Predicate != "stars" {
		t.Errorf("rethink kept %+v", re)
	}
}

// Items of the same value: item → value ← item → "Yes", the last edge
// saying "both …" on the second item's sentence.
func TestConclusionPathSameValue(t *testing.T) {
	a := "Tomas O'Rell is an American novelist."
	b := "Mira Castellan is an American novelist and poet."
	pool := []Evidence{
		{N: 1, Hit: kb.Hit{DocTitle: "Tomas O'Rell (author)", IndexTitle: "Tomas O'Rell (author)", Chunk: kb.Chunk{Text: a}}},
		{N: 2, Hit: kb.Hit{DocTitle: "Mira Castellan", IndexTitle: "Mira Castellan", Chunk: kb.Chunk{Text: b}}},
	}
	items := []answerspan.Compared{
		{Item: "Tomas O'Rell (author)", Value: "American", Ref: answerspan.Ref{Passage: 0, End: len(a)}},
		{Item: "Mira Castellan", Value: "American", Ref: answerspan.Ref{Passage: 1, End: len(b)}},
	}
	p, ok := conclusionPath(answerspan.Candidate{Text: "yes", Score: 0.8, Items: items}, pool)
	if !ok || !reflect.DeepEqual(p.Nodes, []string{"Tomas O'Rell (author)", "American", "Mira Castellan", "Yes"}) || len(p.Edges) != 3 {
		t.Fatalf("path %+v", p)
	}
	if e := p.Edges[2]; e.From != "Mira Castellan" || e.To != "Yes" || e.Predicate != "both American" || e.Source.CharEnd != len(b) {
		t.Errorf("conclusion edge %+v", e)
	}
}

// The item a comparison chose by lifespans runs to the dates as its
// sentence writes them; an undecided item gets no path.
func TestAnswerPathsLifespan(t *testing.T) {
	a := "Jean-Baptiste Vollarde (14 October 1709 – 2 March 1791) was a French architect."
	pool := []Evidence{{N: 1, Hit: kb.Hit{DocTitle: "Jean-Baptiste Vollarde", IndexTitle: "Jean-Baptiste Vollarde", Chunk: kb.Chunk{Text: a}}}}
	c := answerspan.Candidate{Text: "Jean-Baptiste Vollarde", Type: answerspan.TName, Span: answerspan.Ref{Passage: 0, End: len("Jean-Baptiste Vollarde")},
		Chain: []answerspan.Ref{{Passage: 0, End: len(a)}}, Subject: "Jean-Baptiste Vollarde", Score: answerspan.Decided}
	q := "Who lived longer, Jean-Baptiste Vollarde or Arvid Lennstrom?"
	ps := answerPaths(q, []answerspan.Candidate{c}, pool, nil, 3)
	if want := []string{"Jean-Baptiste Vollarde", "14 October 1709 – 2 March 1791"}; len(ps) != 1 || !reflect.DeepEqual(ps[0].Nodes, want) || ps[0].Edges[0].Source.CharEnd != len(a) {
		t.Fatalf("paths %+v, want nodes %q", ps, want)
	}
	c.Score = 0.55
	if ps := answerPaths(q, []answerspan.Candidate{c}, pool, nil, 3); len(ps) != 0 {
		t.Errorf("undecided: paths %+v", ps)
	}
}

// BenchmarkAnswerPaths: the answer paths of five candidates, each with a
// question hop (about 0.1 ms, mostly relphrase; the offline answer takes
// tens of ms).
func BenchmarkAnswerPaths(b *testing.B) {
	river := "The Tessel River passes Varn Falls. It rises in Kestria and flows through Upper Ostrand and Velmark."
	pool := []Evidence{{N: 1, Hit: kb.Hit{DocTitle: "Tessel River", IndexTitle: "Tessel River", Chunk: kb.Chunk{Text: river}}}}
	second := strings.Index(river, "It rises")
	var cs []answerspan.Candidate
	for _, name := range []string{"Kestria", "Upper Ostrand", "Velmark", "Ostrand", "Tessel"} {
		i := strings.Index(river, name)
		cs = append(cs, answerspan.Candidate{Text: name, Type: answerspan.TName, Span: answerspan.Ref{Passage: 0, Start: i, End: i + len(name)},
			Chain: []answerspan.Ref{{Passage: 0, Start: second, End: len(river)}}, Subject: "Tessel River"})
	}
	for b.Loop() {
		answerPaths("Where does the river at Varn Falls rise?", cs, pool, []string{"Varn Falls"}, 3)
	}
}
