package retrieve_test

import (
	"context"
	"math"
	"reflect"
	"testing"

	"cairn/backend/embed"
	"cairn/backend/retrieve"
	"cairn/backend/search"
)

// The look-ups of lookup.go on the fixture project (fixture_test.go): twelve
// passages, one document each.

// docsOf returns the documents of the fixture passages named.
func (f *fixture) docsOf(t *testing.T, names ...string) []int64 {
	t.Helper()
	var ids []int64
	for _, n := range names {
		ids = append(ids, f.chunk[n])
	}
	hits, err := f.retriever(nil).Passages(context.Background(), ids)
	if err != nil || len(hits) != len(names) {
		t.Fatalf("Passages(%v): %d hits, %v", names, len(hits), err)
	}
	var docs []int64
	for _, h := range hits {
		docs = append(docs, h.DocID)
	}
	return docs
}

// TestPassages pins Passages: the passages asked for in the order asked,
// unknown ids left out, and with Docs set only the passages of those
// documents, also when Docs changes between calls.
func TestPassages(t *testing.T) {
	f := loadFixture(t)
	ctx := context.Background()
	r := f.retriever(nil)
	for _, tc := range []struct {
		name string
		docs []string // passages whose documents are the scope; none: whole project
		ask  []string // "" stands for an id no chunk has
		want []string
	}{
		{name: "in the order asked", ask: []string{"kelbridge", "orlen", "castor"}, want: []string{"kelbridge", "orlen", "castor"}},
		{name: "unknown id left out", ask: []string{"sable", "", "brant"}, want: []string{"sable", "brant"}},
		{name: "none asked", ask: nil, want: nil},
		{name: "scope keeps its own", docs: []string{"orlen", "castor"}, ask: []string{"kelbridge", "orlen", "castor"}, want: []string{"orlen", "castor"}},
		{name: "another scope on the same retriever", docs: []string{"kelbridge"}, ask: []string{"kelbridge", "orlen"}, want: []string{"kelbridge"}},
		{name: "nothing in scope", docs: []string{"mirela"}, ask: []string{"kelbridge", "orlen"}, want: nil},
		{name: "whole project again", ask: []string{"kelbridge", "mirela"}, want: []string{"kelbridge", "mirela"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r.Docs = nil
			if len(tc.docs) > 0 {
				r.Docs = f.docsOf(t, tc.docs...)
			}
			var ids []int64
			for _, n := range tc.ask {
				id, ok := f.chunk[n]
				if !ok {
					id = 1 << 40
				}
				ids = append(ids, id)
			}
			hits, err := r.Passages(ctx, ids)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range hits {
				got = append(got, f.passage[h.ID])
				if h.Text == "" || h.IndexTitle == "" {
					t.Errorf("%s: passage without its text or title: %+v", f.passage[h.ID], h)
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestTermStats pins the document frequencies (whole project, whatever the
// scope) and the two IDF forms the answer core weighs words by.
func TestTermStats(t *testing.T) {
	f := loadFixture(t)
	r := f.retriever(nil)
	r.Docs = f.docsOf(t, "kelbridge")
	ts, err := r.TermStats(context.Background(), embed.Words("quillwort Vasquith harbour zzqx"))
	if err != nil {
		t.Fatal(err)
	}
	if ts.N != 12 {
		t.Errorf("N = %d, want the project's 12 passages", ts.N)
	}
	for _, tc := range []struct {
		word      string
		df        int
		idf, pidf float64
	}{
		{"quillwort", 1, math.Log(1 + 13.0/2), math.Log(13.0 / 2)},
		{"vasquith", 2, math.Log(1 + 13.0/3), math.Log(13.0 / 3)},
		{"harbour", 3, math.Log(1 + 13.0/4), math.Log(13.0 / 4)}, // none of them in the scope
		{"zzqx", 0, math.Log(1 + 13.0/1), math.Log(13.0)},
	} {
		w := embed.Words(tc.word)[0]
		if ts.DF[w] != tc.df {
			t.Errorf("DF[%s] = %d, want %d", w, ts.DF[w], tc.df)
		}
		if got := ts.IDF(w); math.Abs(got-tc.idf) > 1e-12 {
			t.Errorf("IDF(%s) = %v, want %v", w, got, tc.idf)
		}
		if got := ts.PlainIDF(w); math.Abs(got-tc.pidf) > 1e-12 {
			t.Errorf("PlainIDF(%s) = %v, want %v", w, got, tc.pidf)
		}
	}
	if got := (retrieve.TermStats{DF: map[string]int{"w:all": 12}, N: 12}).PlainIDF("w:all"); got != 0 {
		t.Errorf("PlainIDF of a word in every passage = %v, want 0", got)
	}
}

// TestMatch pins the two lexical look-ups: Match keeps to Docs, MatchProject
// reads the whole project; both best first, at most k, and an expression
// FTS5 cannot parse is an error.
func TestMatch(t *testing.T) {
	f := loadFixture(t)
	ctx := context.Background()
	body := search.DefaultSettings().ColumnWeights
	titleOnly := [4]float64{1, 0, 0, 0}
	for _, tc := range []struct {
		name    string
		docs    []string
		expr    string
		weights [4]float64
		k       int
		match   []string // Match
		project []string // MatchProject
	}{
		{name: "one word, whole project", expr: "quillwort", weights: body, k: 5,
			match: []string{"kelbridge"}, project: []string{"kelbridge"}},
		{name: "one word, out of scope", docs: []string{"orlen"}, expr: "quillwort", weights: body, k: 5,
			match: nil, project: []string{"kelbridge"}},
		{name: "name and one of the other words", expr: "(vasquith) AND (boats OR painter)", weights: body, k: 5,
			match: []string{"orlen", "castor"}, project: []string{"orlen", "castor"}},
		{name: "scope keeps its own", docs: []string{"castor", "sable"}, expr: "(vasquith) AND (boats OR painter)", weights: body, k: 5,
			match: []string{"castor"}, project: []string{"orlen", "castor"}},
		{name: "at most k", expr: "drelmouth", weights: body, k: 2,
			match: []string{"drelmouth", "perrow"}, project: []string{"drelmouth", "perrow"}},
		{name: "title column", expr: "title : drelmouth", weights: titleOnly, k: 6,
			match: []string{"drelmouth"}, project: []string{"drelmouth"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := f.retriever(nil)
			if len(tc.docs) > 0 {
				r.Docs = f.docsOf(t, tc.docs...)
			}
			m, err := r.Match(ctx, tc.expr, tc.weights, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			p, err := r.MatchProject(ctx, tc.expr, tc.weights, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			if got := f.names(m); !reflect.DeepEqual(nilIfEmpty(got), tc.match) {
				t.Errorf("Match: %v, want %v", got, tc.match)
			}
			if got := f.names(p); !reflect.DeepEqual(nilIfEmpty(got), tc.project) {
				t.Errorf("MatchProject: %v, want %v", got, tc.project)
			}
		})
	}
	r := f.retriever(nil)
	if _, err := r.Match(ctx, `"unbalanced`, body, 2); err == nil {
		t.Error("Match of an unparsable expression: no error")
	}
	if _, err := r.MatchProject(ctx, `"unbalanced`, body, 2); err == nil {
		t.Error("MatchProject of an unparsable expression: no error")
	}
}

func nilIfEmpty(xs []string) []string {
	if len(xs) == 0 {
		return nil
	}
	return xs
}

// TestTitled pins Titled: the first passages of the documents titled with
// each name, case folded, keyed by the lower-cased title, whatever Docs
// holds.
func TestTitled(t *testing.T) {
	f := loadFixture(t)
	r := f.retriever(nil)
	r.Docs = f.docsOf(t, "orlen")
	got, err := r.Titled(context.Background(), []string{"KELBRIDGE", "Ivo Brant", "Nowhere", "Glass Orchard"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	named := map[string][]string{}
	for k, ids := range got {
		named[k] = f.names(ids)
	}
	want := map[string][]string{"kelbridge": {"kelbridge"}, "ivo brant": {"brant"}}
	if !reflect.DeepEqual(named, want) {
		t.Errorf("got %v, want %v", named, want)
	}
	if got, err := r.Titled(context.Background(), nil, 1); err != nil || len(got) != 0 {
		t.Errorf("no names: %v, %v", got, err)
	}
}

// TestGraphLookups pins the look-ups of a deep-mode step: entities by alias
// in the order of the names, the nearest entities above a similarity, and
// the relations touching entities with their names and sources.
func TestGraphLookups(t *testing.T) {
	f := loadFixture(t)
	ctx := context.Background()
	r := f.retriever(nil)
	names := func(ids []int64) []string {
		var out []string
		for _, id := range ids {
			out = append(out, f.entityName(id))
		}
		return out
	}
	for _, tc := range []struct {
		called []string
		want   []string
	}{
		{[]string{"Ivo Brant"}, []string{"Ivo Brant"}},
		{[]string{"halden academy", "nobody", "IVO BRANT"}, []string{"Halden Academy", "Ivo Brant"}},
		{[]string{"Mirela Tansks"}, nil},
		{nil, nil},
	} {
		ids, err := r.EntitiesCalled(ctx, tc.called)
		if err != nil {
			t.Fatal(err)
		}
		if got := names(ids); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("EntitiesCalled(%q) = %v, want %v", tc.called, got, tc.want)
		}
	}
	near, err := r.EntitiesNear(ctx, "Mirela Tansks", 3, 0.85)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(near); !reflect.DeepEqual(got, []string{"Mirela Tansk"}) {
		t.Errorf("EntitiesNear above 0.85 = %v, want [Mirela Tansk]", got)
	}
	if all, err := r.EntitiesNear(ctx, "Mirela Tansks", 3, 0); err != nil || len(all) != 3 || all[0] != near[0] {
		t.Errorf("EntitiesNear without a floor = %v, %v; want 3, nearest first", names(all), err)
	}
	rels, err := r.RelationsTouching(ctx, near, 10)
	if err != nil {
		t.Fatal(err)
	}
	stated := map[string]string{}
	for _, rl := range rels {
		if rl.Subject != near[0] && rl.Object != near[0] {
			t.Errorf("relation %s %s %s does not touch Mirela Tansk", rl.SubjectName, rl.Predicate, rl.ObjectName)
		}
		if len(rl.Sources) == 0 {
			t.Errorf("relation %s %s %s without a source", rl.SubjectName, rl.Predicate, rl.ObjectName)
			continue
		}
		stated[rl.SubjectName+" → "+rl.ObjectName] = f.passage[rl.Sources[0].ChunkID]
	}
	want := map[string]string{
		"The Glass Orchard → Mirela Tansk": "orchard",
		"Mirela Tansk → Ostravel":          "mirela",
		"Mirela Tansk → Halden Academy":    "mirela",
	}
	if !reflect.DeepEqual(stated, want) {
		t.Errorf("relations %v, want %v", stated, want)
	}
	if rels, err := r.RelationsTouching(ctx, near, 1); err != nil || len(rels) != 1 {
		t.Errorf("limit 1: %d relations, %v", len(rels), err)
	}
	if rels, err := r.RelationsTouching(ctx, nil, 10); err != nil || len(rels) != 0 {
		t.Errorf("no entities: %d relations, %v", len(rels), err)
	}
}

// TestUnmentioned pins Unmentioned on the fixture: a name no passage of the
// scope holds is returned, one a passage holds is not (in any case, as a
// phrase of several words too), a misspelling one edit from a word of the
// project counts as mentioned, and a scope without the name's passage
// does not mention it.
func TestUnmentioned(t *testing.T) {
	f := loadFixture(t)
	ctx := context.Background()
	r := f.retriever(nil)
	for _, tc := range []struct {
		name    string
		docs    []string // passages whose documents are the scope; none: whole project
		anchors []string
		want    []string
	}{
		{name: "held and not held", anchors: []string{"Kelbridge", "Zanthorpe"}, want: []string{"Zanthorpe"}},
		{name: "case folded", anchors: []string{"KELBRIDGE", "kelbridge"}},
		{name: "a phrase of words", anchors: []string{"Halden Academy", "Halden Orchard"}, want: []string{"Halden Orchard"}},
		{name: "a misspelling", anchors: []string{"Kelbrigde", "Vasqiuth"}},
		{name: "short words are not respelled", anchors: []string{"Ivo", "Iva"}, want: []string{"Iva"}},
		{name: "only its start spelled like a word held", anchors: []string{"Borneld"}, want: []string{"Borneld"}},
		{name: "scope without it", docs: []string{"orlen"}, anchors: []string{"Quillwort"}, want: []string{"Quillwort"}},
		{name: "scope with it", docs: []string{"kelbridge"}, anchors: []string{"Quillwort"}},
		{name: "nothing to look for"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r.Docs = nil
			if len(tc.docs) > 0 {
				r.Docs = f.docsOf(t, tc.docs...)
			}
			got, err := r.Unmentioned(ctx, tc.anchors)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Unmentioned(%q) = %q, want %q", tc.anchors, got, tc.want)
			}
		})
	}
}

// TestRespell pins Respell on the fixture: a lower-case word no passage
// holds is read as the word one edit from it that passages hold
// ("harbuor": "harbour"), also when it opens the question with a
// capital; two words run together are read apart; a capitalised word
// inside the question (a name), a short word, a word the project holds and
// one with no near word stay as typed.
func TestRespell(t *testing.T) {
	f := loadFixture(t)
	ctx := context.Background()
	r := f.retriever(nil)
	for _, tc := range []struct {
		text, want string
		fixes      int
	}{
		{"Which painter lived by the harbuor?", "Which painter lived by the harbour?", 1},
		{"Harbuor towns on the coast?", "Harbour towns on the coast?", 1},
		{"Who painted the Harbuor scene?", "Who painted the Harbuor scene?", 0},
		{"Which harbr town?", "Which harbr town?", 0},
		{"Which harbour town has a lighthouse?", "Which harbour town has a lighthouse?", 0},
		{"Which zymurgist lived there?", "Which zymurgist lived there?", 0},
		// an English word of its own is no slip, but for a spelling of
		// one the project holds
		{"Which harbor town?", "Which harbour town?", 1},
		{"Which painter won the sprint?", "Which painter won the sprint?", 0},
		// a word the project holds and a function word run together,
		// also in a name; not a short word with one ("turnover"), nor
		// two content words ("database")
		{"Who painted the Harbourfor scene?", "Who painted the Harbour for scene?", 1},
		{"Which painter lived by the harbourvillage?", "Which painter lived by the harbourvillage?", 0},
		{"Which painter had the townover?", "Which painter had the townover?", 0},
	} {
		got, fixes, err := r.Respell(ctx, tc.text)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want || len(fixes) != tc.fixes {
			t.Errorf("Respell(%q) = %q %+v, want %q with %d respelled", tc.text, got, fixes, tc.want, tc.fixes)
		}
	}
}
