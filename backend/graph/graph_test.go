package graph

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"cairn/backend/embed"
	"cairn/backend/kb"
)

var hashed = embed.NewHashed(embed.DefaultDim).Vector

func TestNormKey(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Alû", "alû"},
		{"ALÛ", "alû"},
		{"Alu", "alu"},
		{"北京", "北京"},
		{"　北京市　", "北京市"}, // full-width spaces
		{"Ｆｏｒｍ　１０４０", "form 1040"},
		{"The Shire", "shire"},
		{"Smith's", "smith"},
		{"Internal Revenue Service (IRS)", "internal revenue service irs"},
		{"Ελλάδα", "ελλάδα"},
		{"Straße", "straße"},
		{"e\u0301cole", "école"}, // NFKC composes
	} {
		if got := kb.NormKey(c.in); got != c.want {
			t.Errorf("NormKey(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if kb.NormKey("Alû") == kb.NormKey("Alu") {
		t.Fatal("accents must not be stripped")
	}
}

func ent(id int64, name, typ string, aliases ...string) kb.Entity {
	return kb.Entity{ID: id, Name: name, Type: typ, Aliases: aliases}
}

func TestAlign(t *testing.T) {
	for _, c := range []struct {
		name  string
		m     Mention
		cands []Candidate
		want  int64
	}{
		{"same name same type", Mention{Name: "IRS", Type: "organization"}, []Candidate{{ent(1, "IRS", "organization"), true}}, 1},
		{"same name, other type: kept apart", Mention{Name: "Washington", Type: "person"}, []Candidate{{ent(1, "Washington", "location"), true}}, 0},
		{"untyped joins typed", Mention{Name: "Washington", Type: "other"}, []Candidate{{ent(1, "Washington", "location"), true}}, 1},
		{"cross-lingual by alias", Mention{Name: "北京", Type: "location", Aliases: []string{"Beijing"}}, []Candidate{{ent(4, "Beijing", "location"), true}}, 4},
		{"plural variant", Mention{Name: "Internal Revenue Services", Type: "organization"}, []Candidate{{ent(2, "Internal Revenue Service", "organization"), false}}, 2},
		{"numbers differ", Mention{Name: "Form 1040-NR", Type: "work"}, []Candidate{{ent(3, "Form 1040", "work"), false}}, 0},
		{"accent differs: never merged", Mention{Name: "Alû", Type: "person"}, []Candidate{{ent(5, "Alu", "person"), false}}, 0},
		{"similar but different type", Mention{Name: "Internal Revenue Services", Type: "work"}, []Candidate{{ent(2, "Internal Revenue Service", "organization"), false}}, 0},
		{"different names, same prefix", Mention{Name: "Department of Labor", Type: "organization"}, []Candidate{{ent(6, "Department of Justice", "organization"), false}}, 0},
		{"CJK near miss", Mention{Name: "民事主体", Type: "concept"}, []Candidate{{ent(7, "民事活动", "concept"), false}}, 0},
		{"weak type joins the one entity known by the name", Mention{Name: "QRPA", Type: "organization", TypeWeight: 0.05},
			[]Candidate{{ent(8, "Quarry Rights Protection Act", "law", "QRPA"), true}}, 8},
		{"strong type stays apart", Mention{Name: "QRPA", Type: "organization", TypeWeight: 2},
			[]Candidate{{ent(8, "Quarry Rights Protection Act", "law", "QRPA"), true}}, 0},
		{"weak type, two entities known by the name: none", Mention{Name: "QRPA", Type: "organization", TypeWeight: 0.05},
			[]Candidate{{ent(8, "Quarry Rights Protection Act", "law", "QRPA"), true}, {ent(9, "Quarry Road Paving Authority", "location", "QRPA"), true}}, 0},
		{"a definition joins the abbreviation's entity", Mention{Name: "Quarry Rights Protection Act", Type: "law", TypeWeight: 3, Aliases: []string{"QRPA"}},
			[]Candidate{{ent(10, "QRPA", "organization"), true}}, 10},
		{"a bracket that is no abbreviation joins nothing", Mention{Name: "Tarn Belvik", Type: "person", TypeWeight: 3, Aliases: []string{"Harbour Party"}},
			[]Candidate{{ent(11, "Harbour Party", "organization"), true}}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Align(c.m, c.cands, hashed); got != c.want {
				t.Fatalf("Align = %d, want %d", got, c.want)
			}
		})
	}
}

func TestDescriptionAliases(t *testing.T) {
	for _, c := range []struct{ name, desc, want string }{
		{"北京", "China's capital (Beijing), a city", "Beijing"},
		{"Beijing", "The capital of China, also known as Peking.", "Peking"},
		{"中华人民共和国民法典", "简称民法典，2020年通过", "民法典"},
		{"IRS", "the US tax agency (for example, audits)", ""},
		{"IRS", "", ""},
	} {
		if got := strings.Join(DescriptionAliases(c.name, c.desc), "|"); got != c.want {
			t.Errorf("DescriptionAliases(%q, %q) = %q, want %q", c.name, c.desc, got, c.want)
		}
	}
}

func sample() kb.Graph {
	src := kb.Source{DocID: 1, ChunkID: 2, PageStart: 3, PageEnd: 3, CharStart: 10, CharEnd: 20}
	return kb.Graph{
		Entities: []kb.Entity{
			{ID: 1, Name: "AT&T <Corp>", Type: "organization", Description: "a \"phone\" company\x01", Aliases: []string{"Ma Bell"}, Mentions: []kb.Source{src}},
			{ID: 2, Name: "北京", Type: "location", Mentions: []kb.Source{src}},
		},
		Relations: []kb.Relation{{ID: 9, Subject: 1, Predicate: "based in", Object: 2, Statement: "AT&T is in 北京.", Confidence: 0.5, Sources: []kb.Source{src}}},
	}
}

// TestGraphML parses the output back against the GraphML structure: keys
// declared before use, every edge between declared nodes, data keys known.
func TestGraphML(t *testing.T) {
	var b bytes.Buffer
	if err := WriteGraphML(&b, sample()); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName xml.Name `xml:"graphml"`
		Keys    []struct {
			ID   string `xml:"id,attr"`
			For  string `xml:"for,attr"`
			Name string `xml:"attr.name,attr"`
			Type string `xml:"attr.type,attr"`
		} `xml:"key"`
		Graph struct {
			EdgeDefault string `xml:"edgedefault,attr"`
			Nodes       []struct {
				ID   string `xml:"id,attr"`
				Data []struct {
					Key   string `xml:"key,attr"`
					Value string `xml:",chardata"`
				} `xml:"data"`
			} `xml:"node"`
			Edges []struct {
				ID     string `xml:"id,attr"`
				Source string `xml:"source,attr"`
				Target string `xml:"target,attr"`
				Data   []struct {
					Key   string `xml:"key,attr"`
					Value string `xml:",chardata"`
				} `xml:"data"`
			} `xml:"edge"`
		} `xml:"graph"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("not well-formed: %v\n%s", err, b.String())
	}
	if doc.XMLName.Space != GraphMLNS || doc.Graph.EdgeDefault != "directed" {
		t.Fatalf("namespace %q edgedefault %q", doc.XMLName.Space, doc.Graph.EdgeDefault)
	}
	keys := map[string]string{}
	for _, k := range doc.Keys {
		if k.ID == "" || (k.For != "node" && k.For != "edge") || k.Name == "" {
			t.Fatalf("bad key %+v", k)
		}
		keys[k.ID] = k.For
	}
	nodes := map[string]bool{}
	for _, n := range doc.Graph.Nodes {
		nodes[n.ID] = true
		for _, d := range n.Data {
			if keys[d.Key] != "node" {
				t.Fatalf("node data with undeclared key %q", d.Key)
			}
		}
	}
	if len(nodes) != 2 || len(doc.Graph.Edges) != 1 {
		t.Fatalf("%d nodes %d edges", len(nodes), len(doc.Graph.Edges))
	}
	e := doc.Graph.Edges[0]
	if !nodes[e.Source] || !nodes[e.Target] {
		t.Fatalf("edge %+v between unknown nodes", e)
	}
	if doc.Graph.Nodes[0].Data[0].Value != "AT&T <Corp>" {
		t.Fatalf("name round trip: %q", doc.Graph.Nodes[0].Data[0].Value)
	}
}

func TestExportJSONShape(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, kb.Graph{}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(strings.Fields(b.String()), "") != `{"entities":[],"relations":[]}` {
		t.Fatalf("empty graph exports as %s", b.String())
	}
	b.Reset()
	WriteJSON(&b, sample())
	for _, k := range []string{`"id"`, `"name"`, `"type"`, `"description"`, `"aliases"`, `"mentions"`, `"subject"`, `"predicate"`, `"object"`, `"statement"`, `"confidence"`, `"sources"`, `"doc_id"`, `"chunk_id"`, `"page_start"`, `"page_end"`, `"char_start"`, `"char_end"`} {
		if !strings.Contains(b.String(), k) {
			t.Fatalf("export lacks %s", k)
		}
	}
	if strings.Contains(b.String(), "semantic_type") || strings.Contains(b.String(), "subject_name") {
		t.Fatal("export has fields outside the documented format")
	}
}
