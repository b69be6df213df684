package cli

import (
	"encoding/json"
	"encoding/xml"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestMindMapCommand imports the sample project and checks the three
// formats of `cairn mindmap`: JSON with exactly the fields (facts
// always with chunk and pages), a Markdown outline, and OPML 2.0 that parses
// back into the same tree.
func TestMindMapCommand(t *testing.T) {
	sample, _ := filepath.Abs("../../assets/sample")
	proj := filepath.Join(t.TempDir(), "p")
	if code, _, errs := run(t, "", "import", "--project", proj, filepath.Join(sample, "en-report-dmca-summary.pdf"), filepath.Join(sample, "README.md")); code != 0 {
		t.Fatalf("import: %d %s", code, errs)
	}
	code, out, errs := run(t, "", "mindmap", "--project", proj, "--doc", "1", "--format", "json")
	if code != 0 {
		t.Fatalf("mindmap json: %d %s", code, errs)
	}
	var m struct {
		Nodes      []map[string]json.RawMessage `json:"nodes"`
		Supernodes []map[string]json.RawMessage `json:"supernodes"`
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{"id": true, "parent": true, "kind": true, "label": true, "doc_id": true, "supernode": true,
		"chunk_id": true, "page_start": true, "page_end": true, "char_start": true, "char_end": true}
	facts := 0
	for _, n := range m.Nodes {
		for k := range n {
			if !allowed[k] {
				t.Errorf("unexpected node field %q", k)
			}
		}
		for _, k := range []string{"id", "parent", "kind", "label", "doc_id"} {
			if _, ok := n[k]; !ok {
				t.Fatalf("node without %q: %v", k, n)
			}
		}
		if string(n["kind"]) == `"fact"` {
			facts++
			for _, k := range []string{"chunk_id", "page_start", "page_end"} {
				if _, ok := n[k]; !ok {
					t.Fatalf("fact without %q", k)
				}
			}
		}
	}
	if facts == 0 || m.Supernodes == nil {
		t.Fatalf("%d facts, supernodes %v", facts, m.Supernodes)
	}

	code, md, errs := run(t, "", "mindmap", "--project", proj, "--doc", "1", "--format", "md")
	if code != 0 || !strings.HasPrefix(md, "# ") || !strings.Contains(md, "\n- **") || !strings.Contains(md, "\n    - ") {
		t.Fatalf("markdown: %d %s\n%s", code, errs, md)
	}

	code, out, errs = run(t, "", "mindmap", "--project", proj, "--fused", "--format", "opml")
	if code != 0 {
		t.Fatalf("opml: %d %s", code, errs)
	}
	type outline struct {
		Text     string    `xml:"text,attr"`
		Kind     string    `xml:"kind,attr"`
		NodeID   string    `xml:"nodeId,attr"`
		Outlines []outline `xml:"outline"`
	}
	var doc struct {
		XMLName xml.Name  `xml:"opml"`
		Version string    `xml:"version,attr"`
		Title   string    `xml:"head>title"`
		Body    []outline `xml:"body>outline"`
	}
	if err := xml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("OPML does not parse: %v\n%s", err, out)
	}
	if doc.Version != "2.0" || doc.Title == "" {
		t.Fatalf("OPML version %q title %q", doc.Version, doc.Title)
	}
	topics := 0
	for _, o := range doc.Body {
		if o.Kind == "topic" {
			topics++
			if _, err := strconv.Atoi(o.NodeID); err != nil || o.Text == "" {
				t.Errorf("topic outline %+v", o)
			}
		}
	}
	if topics != 2 {
		t.Errorf("fused OPML has %d topics, want 2", topics)
	}

	if code, _, _ := run(t, "", "mindmap", "--project", proj, "--doc", "1", "--fused"); code != 2 {
		t.Errorf("--doc with --fused: exit %d, want 2", code)
	}
	if code, _, _ := run(t, "", "mindmap", "--project", proj, "--doc", "1", "--format", "pdf"); code != 2 {
		t.Errorf("--format pdf: exit %d, want 2", code)
	}
	if code, _, _ := run(t, "", "mindmap", "--project", proj, "--doc", "99"); code != 1 {
		t.Errorf("unknown document: exit %d, want 1", code)
	}
}
