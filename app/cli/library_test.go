package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/kb"
)

// writeReport writes a made-up annual report as Markdown: a cover naming
// the organisation and its fiscal year, and sections long enough for
// several passages.
func writeReport(t *testing.T, dir, file, org, year string, lanterns int) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "# NATIONAL REGISTRY OF FILINGS\n\nANNUAL FILING\n\nFor the fiscal year ended December 31, %s\n\n%s\n\n", year, org)
	fmt.Fprintf(&b, "## Business\n\n%s makes lanterns and kettles. %s sells them in harbour towns. ", org, org)
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "In %s the workshop number %d cast brass fittings for the northern market. ", year, i)
	}
	fmt.Fprintf(&b, "\n\n## Statement of Cash Flows\n\nPurchases of property and equipment were %d thousand in %s. ", lanterns, year)
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "Cash from operations line %d was steady through the year. ", i)
	}
	b.WriteString("\n")
	p := filepath.Join(dir, file)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// threeReports writes a library of three made-up reports (two years of
// one company, one of another) and returns the project folder to import
// them into and their files.
func threeReports(t *testing.T) (string, []string) {
	t.Helper()
	src := t.TempDir()
	return filepath.Join(t.TempDir(), "p"), []string{
		writeReport(t, src, "a.md", "Lanternworks, Inc.", "2018", 1577),
		writeReport(t, src, "b.md", "Lanternworks, Inc.", "2022", 1749),
		writeReport(t, src, "c.md", "Orrin Mills Corporation", "2019", 310),
	}
}

// TestLibraryTitlesScopeRoutingRename: a library of three reports gets
// three distinct titles naming their organisations; search and ask keep to
// --doc; a question naming a company and year is routed to that report
// (and says so); a rename shows in citations without reading the file.
func TestLibraryTitlesScopeRoutingRename(t *testing.T) {
	proj, files := threeReports(t)
	if code, _, errs := run(t, "", append([]string{"import", "--offline", "--project", proj}, files...)...); code != 0 {
		t.Fatalf("import: %d %s", code, errs)
	}
	_, out, _ := run(t, "", "docs", "--project", proj, "--json")
	docs := jsonLines(t, out)
	titles := map[string]bool{}
	for _, d := range docs {
		titles[d["title"].(string)] = true
		if d["organisation"] == "" {
			t.Errorf("document %v has no organisation: %v", d["id"], d)
		}
	}
	if len(titles) != 3 {
		t.Fatalf("titles not distinct: %v", titles)
	}
	for _, want := range []string{"Lanternworks, Inc. — FY2018", "Orrin Mills Corporation — FY2019"} {
		if !titles[want] {
			t.Errorf("no title %q among %v", want, titles)
		}
	}

	// Scoped search: every passage from document 3.
	code, out, errs := run(t, "", "search", "--offline", "--project", proj, "--json", "--doc", "3", "purchases of property and equipment")
	if code != 0 {
		t.Fatalf("search: %d %s", code, errs)
	}
	hits := jsonLines(t, out)
	if len(hits) == 0 {
		t.Fatal("scoped search found nothing")
	}
	for _, h := range hits {
		if h["doc_id"].(float64) != 3 {
			t.Errorf("hit from document %v outside --doc 3", h["doc_id"])
		}
	}

	// Routing: the company and year pick the 2018 report first.
	code, out, errs = run(t, "", "search", "--offline", "--project", proj, "--json", "What were Lanternworks' FY2018 purchases of property and equipment?")
	if code != 0 || !strings.Contains(errs, "routed to Lanternworks, Inc. — FY2018") {
		_, dd, _ := run(t, "", "docs", "--project", proj)
		t.Log(dd)
		t.Fatalf("search: %d, stderr %q", code, errs)
	}
	if hits = jsonLines(t, out); len(hits) == 0 || hits[0]["doc_id"].(float64) != 1 {
		t.Fatalf("routed search: %v", hits)
	}

	// Scoped ask: citations from the chosen documents, the scope recorded.
	code, out, errs = run(t, "", "ask", "--offline", "--project", proj, "--json", "--doc", "2", "--doc", "3", "What did the company make?")
	if code != 0 {
		t.Fatalf("ask: %d %s", code, errs)
	}
	var a kb.Answer
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if a.Scope == nil || len(a.Scope.Docs) != 2 || a.Scope.Routed {
		t.Errorf("scope %+v", a.Scope)
	}
	for _, c := range a.Citations {
		if c.DocID != 2 && c.DocID != 3 {
			t.Errorf("citation from document %d outside the scope", c.DocID)
		}
	}

	// The graph of one document: only what it states.
	code, out, errs = run(t, "", "graph", "--project", proj, "--doc", "3")
	if code != 0 {
		t.Fatalf("graph: %d %s", code, errs)
	}
	var g struct {
		Entities []struct {
			Mentions []struct {
				DocID int64 `json:"doc_id"`
			} `json:"mentions"`
		} `json:"entities"`
	}
	if err := json.Unmarshal([]byte(out), &g); err != nil || len(g.Entities) == 0 {
		t.Fatalf("graph --doc 3: %v, %d entities", err, len(g.Entities))
	}
	for _, e := range g.Entities {
		for _, m := range e.Mentions {
			if m.DocID != 3 {
				t.Errorf("graph --doc 3 has a mention in document %d", m.DocID)
			}
		}
	}

	// Rename: the new title shows in search results, and survives a
	// library change (retitling leaves the user's title alone).
	if code, _, errs := run(t, "", "rename", "--project", proj, "3", "Orrin", "annual", "2019"); code != 0 {
		t.Fatalf("rename: %d %s", code, errs)
	}
	if code, _, errs := run(t, "", "remove", "--project", proj, "2"); code != 0 {
		t.Fatalf("remove: %d %s", code, errs)
	}
	_, out, _ = run(t, "", "search", "--offline", "--project", proj, "--json", "--doc", "3", "cash from operations")
	for _, h := range jsonLines(t, out) {
		if h["doc_title"] != "Orrin annual 2019" {
			t.Errorf("hit titled %v after the rename", h["doc_title"])
		}
	}
	if code, _, errs := run(t, "", "search", "--offline", "--project", proj, "--doc", "99", "cash"); code == 0 || !strings.Contains(errs, "not in this project") {
		t.Errorf("--doc 99: %d %q", code, errs)
	}
}

// TestAskOfAnOrganisationNoDocumentIsAbout: a question about a company the
// library has no report of, which one report mentions in passing, is not
// routed by its year to another company's report, gives none of the
// reports' figures as its answer, and says so, citing the passage that
// mentions the name.
func TestAskOfAnOrganisationNoDocumentIsAbout(t *testing.T) {
	proj, files := threeReports(t)
	f, err := os.OpenFile(files[2], os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "\n## Competition\n\nOrrin Mills competes with Kestrel Lamps and with smaller workshops in the harbour towns.\n")
	f.Close()
	if code, _, errs := run(t, "", append([]string{"import", "--offline", "--project", proj}, files...)...); code != 0 {
		t.Fatalf("import: %d %s", code, errs)
	}
	code, out, errs := run(t, "", "ask", "--offline", "--project", proj, "--json", "What were Kestrel's FY2019 purchases of property and equipment?")
	if code != 0 {
		t.Fatalf("ask: %d %s", code, errs)
	}
	var a kb.Answer
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if a.Scope != nil {
		t.Errorf("routed by its year alone: %+v", a.Scope)
	}
	if a.Outcome != kb.OutcomeEvidence || a.Short != nil || !strings.HasPrefix(a.Answer, "Evidence only: No document in this project is about “Kestrel”") {
		t.Errorf("outcome %q, short %+v, answer %q", a.Outcome, a.Short, a.Answer)
	}
	if strings.Contains(a.Answer, "310") {
		t.Errorf("another company's figure given: %q", a.Answer)
	}
	mentions := false
	for _, c := range a.Citations {
		mentions = mentions || strings.Contains(c.Text, "Kestrel")
	}
	if !mentions {
		t.Errorf("no citation mentions Kestrel: %+v", a.Citations)
	}
	// A question about a company the library holds is routed to its
	// report and shows its figure.
	code, out, _ = run(t, "", "ask", "--offline", "--project", proj, "--json", "What were Orrin Mills' FY2019 purchases of property and equipment?")
	if err := json.Unmarshal([]byte(out), &a); code != 0 || err != nil {
		t.Fatalf("ask: %d %v", code, err)
	}
	if a.Scope == nil || !strings.Contains(a.Answer, "310") || strings.Contains(a.Answer, "No document in this project") {
		t.Errorf("Orrin Mills: outcome %q, answer %q", a.Outcome, a.Answer)
	}
}
