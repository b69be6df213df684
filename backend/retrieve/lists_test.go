package retrieve_test

import (
	"context"
	"math"
	"reflect"
	"slices"
	"testing"

	"cairn/backend/evalset"
	"cairn/backend/project"
	"cairn/backend/question"
	"cairn/backend/retrieve"
)

// Unit tests of the retrieval lists, one test per list, on the fixture of
// fixture_test.go. Each row names the question chosen for the list and what
// the list must find; settings are narrowed where a row needs one list's
// behaviour alone (RelationK 1: only the nearest relation; TopicPassages 1:
// only the top passage's entities).

// TestPassageList pins the passage search list (BM25 + vectors): the
// passage holding a question's rare words comes first, and the list ranks
// every passage (it is read to Depth, here more than the corpus).
func TestPassageList(t *testing.T) {
	f := loadFixture(t)
	for _, tc := range []struct {
		name, question, first string
	}{
		{"rare word", "Which village has quillwort meadows?", "kelbridge"},
		{"words of one sentence", "Which lighthouse was rebuilt twice?", "drelmouth"},
		{"paraphrase of a plot", "What book tells of three sisters on a failing farm?", "orchard"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, lists := f.gather(t, f.retriever(nil), tc.question)
			got := f.names(lists["passage"].IDs)
			if len(got) == 0 || got[0] != tc.first {
				t.Fatalf("passage list %v: want %s first", got, tc.first)
			}
			if len(got) != len(f.chunk) {
				t.Errorf("passage list has %d of %d passages", len(got), len(f.chunk))
			}
			if w := lists["passage"].Weight; w != retrieve.DefaultSettings().PassageWeight {
				t.Errorf("passage weight %v", w)
			}
		})
	}
}

// TestEntityLinking pins link (through Result.Linked): exact aliases of
// n-grams (a quoted title, multi-word names, a title without its article)
// link with score 1, a near miss of a name-like span links by vector when
// EntityK allows it, and a question naming nothing links nothing. Each
// linked entity carries its name and how many chunks mention it.
func TestEntityLinking(t *testing.T) {
	f := loadFixture(t)
	type link struct{ name, by, span string }
	for _, tc := range []struct {
		name, question string
		tune           func(*retrieve.Settings)
		want           []link
		chunks         map[string]int // mentions per linked name
	}{
		{name: "quoted title", question: `Where was the author of "The Glass Orchard" born?`,
			want: []link{{"The Glass Orchard", "alias", "The Glass Orchard"}}, chunks: map[string]int{"The Glass Orchard": 1}},
		{name: "multi-word name", question: "Whom did Ivo Brant marry?",
			want: []link{{"Ivo Brant", "alias", "Ivo Brant"}}, chunks: map[string]int{"Ivo Brant": 2}},
		{name: "two names", question: "What did Lena Osk and Ivo Brant do?",
			want: []link{{"Ivo Brant", "alias", "Ivo Brant"}, {"Lena Osk", "alias", "Lena Osk"}}},
		{name: "title without its article", question: "Who wrote Glass Orchard?",
			want: []link{{"The Glass Orchard", "alias", "Glass Orchard"}}},
		{name: "near miss by vector", question: "Who was Mirela Tansks?",
			want: []link{{"Mirela Tansk", "vector", "Mirela Tansks"}}, chunks: map[string]int{"Mirela Tansk": 2}},
		{name: "no vector linking when EntityK is 0", question: "Who was Mirela Tansks?",
			tune: func(s *retrieve.Settings) { s.EntityK = 0 }},
		{name: "no names", question: "Which village has quillwort meadows?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := f.gather(t, f.retriever(tc.tune), tc.question)
			var got []link
			for _, l := range res.Linked {
				got = append(got, link{l.Name, l.By, l.Span})
				switch {
				case l.By == "alias" && l.Score != 1:
					t.Errorf("%s linked by alias with score %v", l.Name, l.Score)
				case l.By == "vector" && (l.Score < retrieve.DefaultSettings().EntityMinSim || l.Score >= 1):
					t.Errorf("%s linked by vector with score %v", l.Name, l.Score)
				}
				if n, ok := tc.chunks[l.Name]; ok && l.Chunks != n {
					t.Errorf("%s: %d chunks, want %d", l.Name, l.Chunks, n)
				}
			}
			slices.SortFunc(got, func(a, b link) int {
				if a.name < b.name {
					return -1
				}
				if a.name > b.name {
					return 1
				}
				return 0
			})
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("linked %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestEntityList pins the entity list: the chunks mentioning the question's
// entities (the mutual index), a chunk's score the sum of its entities' seed
// weights, rarer entities weighing more, and an entity in more than
// MaxSeedChunks chunks seeding nothing.
func TestEntityList(t *testing.T) {
	f := loadFixture(t)
	for _, tc := range []struct {
		name, question string
		tune           func(*retrieve.Settings)
		first          string   // "" when the list must be empty
		set            []string // the list's passages, any order
	}{
		{name: "chunks mentioning the entity", question: "Where did Mirela Tansk study?",
			first: "mirela", set: []string{"mirela", "orchard"}},
		// Lena Osk (1 chunk) weighs 1/ln 3, Castor Vasquith (2 chunks) 1/ln 4.
		{name: "rarer entity first", question: "Who are Lena Osk and Castor Vasquith?",
			first: "brant", set: []string{"brant", "castor", "orlen"}},
		{name: "too generic to seed", question: "Where did Mirela Tansk study?",
			tune: func(s *retrieve.Settings) { s.MaxSeedChunks = 1 }},
		{name: "nothing linked", question: "Which village has quillwort meadows?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, lists := f.gather(t, f.retriever(tc.tune), tc.question)
			got := f.names(lists["entity"].IDs)
			if tc.first == "" {
				if len(got) != 0 {
					t.Fatalf("entity list %v, want empty", got)
				}
				return
			}
			if len(got) == 0 || got[0] != tc.first {
				t.Errorf("entity list %v: want %s first", got, tc.first)
			}
			if !slices.Equal(sorted(got), sorted(tc.set)) {
				t.Errorf("entity list %v, want the passages %v", got, tc.set)
			}
		})
	}
}

// TestRelationRecall pins relation recall: the relation statement nearest
// to the question by vector is the one connecting the question's entities
// (or naming its entity and the asked-for predicate); it is the first
// relation of the subgraph, and the relation list is the chunk stating it.
// With RelationK 0 nothing is recalled.
func TestRelationRecall(t *testing.T) {
	f := loadFixture(t)
	for _, tc := range []struct {
		name, question  string
		relationK       int
		subj, pred, obj string
		stating         []string
	}{
		{"founded by", "Was Halden Academy founded by Ivo Brant?", 1, "Halden Academy", "was founded by", "Ivo Brant", []string{"halden"}},
		{"written by", "Did Mirela Tansk write The Glass Orchard?", 1, "The Glass Orchard", "was written by", "Mirela Tansk", []string{"orchard"}},
		{"buried in", "Is Castor Vasquith buried in Kelbridge?", 1, "Castor Vasquith", "was buried in", "Kelbridge", []string{"castor"}},
		{"born in", "Was Mirela Tansk born in Ostravel?", 1, "Mirela Tansk", "was born in", "Ostravel", []string{"mirela"}},
		{"asked-for predicate", "Whom did Ivo Brant marry?", 1, "Ivo Brant", "married", "Lena Osk", []string{"brant"}},
		{"off", "Was Halden Academy founded by Ivo Brant?", 0, "", "", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, lists := f.gather(t, f.retriever(func(s *retrieve.Settings) { s.RelationK = tc.relationK }), tc.question)
			got := f.names(lists["relation"].IDs)
			if !slices.Equal(got, tc.stating) && !(len(got) == 0 && len(tc.stating) == 0) {
				t.Errorf("relation list %v, want %v", got, tc.stating)
			}
			if tc.relationK == 0 {
				return
			}
			if len(res.Subgraph.Relations) == 0 {
				t.Fatal("empty subgraph")
			}
			r := res.Subgraph.Relations[0]
			if r.SubjectName != tc.subj || r.Predicate != tc.pred || r.ObjectName != tc.obj {
				t.Errorf("recalled %q -[%s]-> %q, want %q -[%s]-> %q", r.SubjectName, r.Predicate, r.ObjectName, tc.subj, tc.pred, tc.obj)
			}
		})
	}
}

// TestExpandList pins subgraph expansion and the expand list, with relation
// recall off so only the seed expands: Hops 1 takes the relations touching
// the seed entity, Hops 2 also those touching their other ends, MaxRelations
// caps the subgraph; the list ranks the chunks stating seed-touching
// relations before the second hop's, though the passage search (the
// tiebreak) puts the second hop's passage first for this question.
func TestExpandList(t *testing.T) {
	f := loadFixture(t)
	// Castor Vasquith —buried in→ Kelbridge, —co-occurs with→ Drelmouth
	// ←stands in— Perrow Gallery (a museum of maritime art); Orlen
	// Vasquith —was son of→ Castor Vasquith ("He was the son of …": the
	// sentence's "He" is the passage's subject); Drelmouth —town on→
	// Sable Coast; Kelbridge —lies→ Sable Coast ("The village lies above
	// …": the village is the passage's subject).
	const q = "Did Castor Vasquith build boats for the small museum of maritime art?"
	for _, tc := range []struct {
		name         string
		hops, maxRel int
		relations    []string // "subject|predicate|object", any order
		list         []string // the list's passages, any order
		last         string   // the list's last passage, "" for any
	}{
		{"one hop", 1, 80,
			[]string{"Castor Vasquith|co-occurs with|Drelmouth", "Castor Vasquith|was buried in|Kelbridge", "Orlen Vasquith|was son of|Castor Vasquith"},
			[]string{"castor", "orlen"}, ""},
		{"two hops", 2, 80,
			[]string{"Castor Vasquith|co-occurs with|Drelmouth", "Castor Vasquith|was buried in|Kelbridge", "Orlen Vasquith|was son of|Castor Vasquith",
				"Perrow Gallery|stands in|Drelmouth", "Drelmouth|town on|Sable Coast", "Kelbridge|lies|Sable Coast"},
			[]string{"castor", "orlen", "perrow", "kelbridge", "drelmouth"}, "drelmouth"},
		{"capped", 2, 1, nil, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, lists := f.gather(t, f.retriever(func(s *retrieve.Settings) {
				s.RelationK, s.Hops, s.MaxRelations = 0, tc.hops, tc.maxRel
			}), q)
			var rels []string
			for _, r := range res.Subgraph.Relations {
				rels = append(rels, r.SubjectName+"|"+r.Predicate+"|"+r.ObjectName)
			}
			if tc.relations == nil { // capped
				if len(rels) != tc.maxRel {
					t.Errorf("subgraph %v, want %d relation(s)", rels, tc.maxRel)
				}
				return
			}
			if !slices.Equal(sorted(rels), sorted(tc.relations)) {
				t.Errorf("subgraph %v, want %v", rels, tc.relations)
			}
			got := f.names(lists["expand"].IDs)
			if !slices.Equal(sorted(got), sorted(tc.list)) {
				t.Errorf("expand list %v, want the passages %v", got, tc.list)
			}
			if tc.last != "" && (len(got) == 0 || got[len(got)-1] != tc.last) {
				t.Errorf("expand list %v: want %s last", got, tc.last)
			}
		})
	}
}

// TestPPRList pins personalised PageRank: seeded by the question's entity
// (and the top passages), most mass off the question lands on the bridge
// entity the question's passage names, which is the first answer
// candidate, and the bridge passage ranks second in the ppr list. Seeded
// by an entity alone the walk stays in the seed's neighbourhood; with no
// seed at all there is no list.
func TestPPRList(t *testing.T) {
	f := loadFixture(t)
	for _, tc := range []struct {
		name, question string
		passageSeed    float64
		bridge         string   // first candidate; "" when no list
		top2           []string // the ppr list's first two passages
		all            []string // the whole list (any order) when not nil
	}{
		{"father of", "Where was the father of Orlen Vasquith buried?", 0.5, "Castor Vasquith", []string{"orlen", "castor"}, nil},
		{"author of", `Where was the author of "The Glass Orchard" born?`, 0.5, "Mirela Tansk", []string{"orchard", "mirela"}, nil},
		// seeded by the entity alone the walk follows the stated chain (the
		// author's birthplace, her academy and its founder), nothing else
		{"entity seed only", `Where was the author of "The Glass Orchard" born?`, 0, "Mirela Tansk", []string{"orchard", "mirela"}, []string{"orchard", "mirela", "ostravel", "halden", "brant"}},
		{"no seed", "Which village has quillwort meadows?", 0, "", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, lists := f.gather(t, f.retriever(func(s *retrieve.Settings) { s.PPRPassageSeed = tc.passageSeed }), tc.question)
			got := f.names(lists["ppr"].IDs)
			if tc.bridge == "" {
				if len(got) != 0 || len(res.EntityMass) != 0 || len(res.Candidates) != 0 {
					t.Errorf("no seed: ppr list %v, %d masses, %d candidates", got, len(res.EntityMass), len(res.Candidates))
				}
				return
			}
			if len(res.Candidates) == 0 || f.entityName(res.Candidates[0]) != tc.bridge {
				t.Fatalf("candidates %v: want %s first", res.Candidates, tc.bridge)
			}
			bridge := res.Candidates[0]
			for id, m := range res.EntityMass {
				question := false
				for _, l := range res.Linked {
					question = question || l.Entity == id
				}
				if id != bridge && !question && m >= res.EntityMass[bridge] {
					t.Errorf("%s has mass %.4f ≥ the bridge's %.4f", f.entityName(id), m, res.EntityMass[bridge])
				}
			}
			for _, l := range res.Linked {
				if slices.Contains(res.Candidates, l.Entity) {
					t.Errorf("question entity %s among the candidates", l.Name)
				}
			}
			if len(got) < 2 || !slices.Equal(got[:2], tc.top2) {
				t.Errorf("ppr list %v: want %v first", got, tc.top2)
			}
			if tc.all != nil && !slices.Equal(sorted(got), sorted(tc.all)) {
				t.Errorf("ppr list %v, want the passages %v", got, tc.all)
			}
		})
	}
}

// TestTopicList pins the topic list, the bridge hop: the passage titled by
// the entity the question names comes first, then the passage titled by
// the entity that passage names (the father, the author), though the
// question does not name it; with TopicPassages 1 the list holds exactly
// the topic passages of the question's entity and the entities of the top
// passage (not the answer's passage, one more hop away); TopicWeight 0
// drops the list.
func TestTopicList(t *testing.T) {
	f := loadFixture(t)
	for _, tc := range []struct {
		name, question string
		tune           func(*retrieve.Settings)
		top2           []string // nil: no topic list
		all            []string // the whole list (any order) when not nil
	}{
		{name: "father of", question: "Where was the father of Orlen Vasquith buried?",
			top2: []string{"orlen", "castor"}},
		{name: "author of", question: `Where was the author of "The Glass Orchard" born?`,
			top2: []string{"orchard", "mirela"}},
		{name: "one top passage", question: "Where was the father of Orlen Vasquith buried?",
			tune: func(s *retrieve.Settings) { s.TopicPassages = 1 },
			top2: []string{"orlen", "castor"}, all: []string{"orlen", "castor", "drelmouth", "lantern"}},
		{name: "off", question: "Where was the father of Orlen Vasquith buried?",
			tune: func(s *retrieve.Settings) { s.TopicWeight = 0 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, lists := f.gather(t, f.retriever(tc.tune), tc.question)
			l, ok := lists["topic"]
			if tc.top2 == nil {
				if ok {
					t.Fatalf("TopicWeight 0 and a topic list %v", f.names(l.IDs))
				}
				return
			}
			got := f.names(l.IDs)
			if len(got) < 2 || !slices.Equal(got[:2], tc.top2) {
				t.Errorf("topic list %v: want %v first", got, tc.top2)
			}
			if tc.all != nil && !slices.Equal(sorted(got), sorted(tc.all)) {
				t.Errorf("topic list %v, want the passages %v", got, tc.all)
			}
		})
	}
}

// TestRetrieveFusesTheLists: Retrieve returns the k best of the lists
// fused by FuseLists, each hit with its fused score and its rank in every
// list that found it; for the bridge question both hops' passages are the
// top 2.
func TestRetrieveFusesTheLists(t *testing.T) {
	f := loadFixture(t)
	ctx := context.Background()
	r := f.retriever(nil)
	const q = "Where was the father of Orlen Vasquith buried?"
	res, err := r.Retrieve(ctx, question.New(q), 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 2 {
		t.Fatalf("%d hits, want 2", len(res.Hits))
	}
	fused, score, ranks := retrieve.FuseLists(r.Settings.RRFK, res.Lists, nil)
	for i, h := range res.Hits {
		if h.ID != fused[i] || math.Abs(h.Score-score[h.ID]) > 1e-12 || !reflect.DeepEqual(h.Ranks, ranks[h.ID]) {
			t.Errorf("hit %d: %s score %v ranks %v, fused %s score %v ranks %v", i, f.passage[h.ID], h.Score, h.Ranks, f.passage[fused[i]], score[fused[i]], ranks[fused[i]])
		}
		if h.Ranks["topic"] == 0 || h.Ranks["passage"] == 0 {
			t.Errorf("%s: ranks %v, want the topic and passage lists", f.passage[h.ID], h.Ranks)
		}
	}
	if got := sorted(f.names([]int64{res.Hits[0].ID, res.Hits[1].ID})); !slices.Equal(got, []string{"castor", "orlen"}) {
		t.Errorf("top 2 %v, want orlen and castor", got)
	}
}

// TestGatherWithoutGraph: a project whose passages were never indexed into
// a knowledge graph gets the passage list alone (and the pseudo list when
// injected), no linked entities, an empty subgraph.
func TestGatherWithoutGraph(t *testing.T) {
	ctx := context.Background()
	corpus, err := evalset.LoadCorpus("testdata/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	p, err := project.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := evalset.Build(ctx, p.Store(), p.Embedder(), corpus[:4]); err != nil {
		t.Fatal(err)
	}
	r := retrieve.New(p.Store(), p.Embedder())
	res, err := r.Gather(ctx, question.New("Where was Castor Vasquith buried?"), 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Lists) != 1 || res.Lists[0].Name != "passage" || len(res.Lists[0].IDs) != 4 {
		t.Fatalf("lists %+v, want the passage list of 4 alone", res.Lists)
	}
	if len(res.Linked) != 0 || len(res.Subgraph.Entities) != 0 || len(res.Subgraph.Relations) != 0 || len(res.Candidates) != 0 {
		t.Errorf("no graph, yet linked %v, subgraph %+v, candidates %v", res.Linked, res.Subgraph, res.Candidates)
	}
}
