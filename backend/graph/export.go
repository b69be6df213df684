package graph

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"cairn/backend/kb"
)

// Export is the stable graph export format (`cairn graph --format json`,
// documented in docs/design/graph.md, "Export"):
//
//	{"entities":[{"id","name","type","description","aliases","mentions":[SOURCE]}],
//	 "relations":[{"id","subject","predicate","object","statement","confidence","sources":[SOURCE]}]}
//
// with SOURCE = {"doc_id","chunk_id","page_start","page_end","char_start","char_end"};
// subject and object are entity ids.
type Export struct {
	Entities  []ExportEntity   `json:"entities"`
	Relations []ExportRelation `json:"relations"`
}

// ExportEntity is one entity of Export.
type ExportEntity struct {
	ID          int64       `json:"id"`
	Name        string      `json:"name"`
	Type        string      `json:"type"`
	Description string      `json:"description"`
	Aliases     []string    `json:"aliases"`
	Mentions    []kb.Source `json:"mentions"`
}

// ExportRelation is one relation of Export.
type ExportRelation struct {
	ID         int64       `json:"id"`
	Subject    int64       `json:"subject"`
	Predicate  string      `json:"predicate"`
	Object     int64       `json:"object"`
	Statement  string      `json:"statement"`
	Confidence float64     `json:"confidence"`
	Sources    []kb.Source `json:"sources"`
}

// ToExport converts a graph to the export format (never null lists).
func ToExport(g kb.Graph) Export {
	x := Export{Entities: make([]ExportEntity, 0, len(g.Entities)), Relations: make([]ExportRelation, 0, len(g.Relations))}
	for _, e := range g.Entities {
		x.Entities = append(x.Entities, ExportEntity{e.ID, e.Name, e.Type, e.Description, nonNil(e.Aliases), nonNilS(e.Mentions)})
	}
	for _, r := range g.Relations {
		x.Relations = append(x.Relations, ExportRelation{r.ID, r.Subject, r.Predicate, r.Object, r.Statement, r.Confidence, nonNilS(r.Sources)})
	}
	return x
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilS(s []kb.Source) []kb.Source {
	if s == nil {
		return []kb.Source{}
	}
	return s
}

// WriteJSON writes the export format as one JSON document.
func WriteJSON(w io.Writer, g kb.Graph) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(ToExport(g))
}

// GraphML namespace.
const GraphMLNS = "http://graphml.graphdrawing.org/xmlns"

// WriteGraphML writes the graph as GraphML (readable by Gephi, yEd,
// Cytoscape, networkx): one node per entity (name, type, semantic type,
// description, aliases, mentions as JSON), one directed edge per relation
// (predicate, statement, confidence, sources as JSON). XML-invalid
// characters in the text are dropped.
func WriteGraphML(w io.Writer, g kb.Graph) error {
	type key struct{ id, target, name, typ string }
	keys := []key{
		{"n_name", "node", "name", "string"}, {"n_type", "node", "type", "string"}, {"n_semantic_type", "node", "semantic_type", "string"},
		{"n_description", "node", "description", "string"}, {"n_aliases", "node", "aliases", "string"}, {"n_mentions", "node", "mentions", "string"},
		{"e_predicate", "edge", "predicate", "string"}, {"e_statement", "edge", "statement", "string"},
		{"e_confidence", "edge", "confidence", "double"}, {"e_sources", "edge", "sources", "string"},
	}
	var b strings.Builder
	b.WriteString(xml.Header)
	b.WriteString(`<graphml xmlns="` + GraphMLNS + `" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="` + GraphMLNS + ` http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">` + "\n")
	for _, k := range keys {
		fmt.Fprintf(&b, `  <key id="%s" for="%s" attr.name="%s" attr.type="%s"/>`+"\n", k.id, k.target, k.name, k.typ)
	}
	b.WriteString(`  <graph id="cairn" edgedefault="directed">` + "\n")
	data := func(k, v string) {
		if v == "" {
			return
		}
		b.WriteString(`      <data key="` + k + `">`)
		xmlEscape(&b, v)
		b.WriteString("</data>\n")
	}
	js := func(v any) string { bs, _ := json.Marshal(v); return string(bs) }
	for _, e := range g.Entities {
		fmt.Fprintf(&b, `    <node id="n%d">`+"\n", e.ID)
		data("n_name", e.Name)
		data("n_type", e.Type)
		data("n_semantic_type", e.SemanticType)
		data("n_description", e.Description)
		data("n_aliases", js(nonNil(e.Aliases)))
		data("n_mentions", js(nonNilS(e.Mentions)))
		b.WriteString("    </node>\n")
	}
	for _, r := range g.Relations {
		fmt.Fprintf(&b, `    <edge id="e%d" source="n%d" target="n%d">`+"\n", r.ID, r.Subject, r.Object)
		data("e_predicate", r.Predicate)
		data("e_statement", r.Statement)
		data("e_confidence", strconv.FormatFloat(r.Confidence, 'g', -1, 64))
		data("e_sources", js(nonNilS(r.Sources)))
		b.WriteString("    </edge>\n")
	}
	b.WriteString("  </graph>\n</graphml>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func xmlEscape(b *strings.Builder, s string) {
	var clean strings.Builder
	for _, r := range s {
		if r == 0x9 || r == 0xA || r == 0xD || (r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF) {
			clean.WriteRune(r)
		}
	}
	_ = xml.EscapeText(b, []byte(clean.String()))
}

// Content is a graph described without database ids, one line per entity
// and per relation, sorted: two graphs with the same Content hold the same
// knowledge with the same provenance. Chunk ids and doc ids stay (they are
// the provenance) — compare graphs built over the same stored chunks.
func Content(g kb.Graph) []string {
	name := map[int64]string{}
	for _, e := range g.Entities {
		name[e.ID] = e.Type + ":" + e.Name
	}
	src := func(ss []kb.Source) string {
		parts := make([]string, len(ss))
		for i, s := range ss {
			parts[i] = fmt.Sprintf("%d/%d/p%d-%d/%d-%d", s.DocID, s.ChunkID, s.PageStart, s.PageEnd, s.CharStart, s.CharEnd)
		}
		sort.Strings(parts)
		return strings.Join(parts, ",")
	}
	var out []string
	for _, e := range g.Entities {
		al := append([]string(nil), e.Aliases...)
		sort.Strings(al)
		out = append(out, fmt.Sprintf("E %s:%s sem=%q desc=%q aliases=%q mentions=%s", e.Type, e.Name, e.SemanticType, e.Description, al, src(e.Mentions)))
	}
	for _, r := range g.Relations {
		out = append(out, fmt.Sprintf("R %s -%s-> %s stmt=%q conf=%.3f sources=%s", name[r.Subject], r.Predicate, name[r.Object], r.Statement, r.Confidence, src(r.Sources)))
	}
	sort.Strings(out)
	return out
}
