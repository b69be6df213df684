package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"cairn/backend/extract"
	"cairn/backend/graph"
	"cairn/backend/kb"
	"cairn/backend/llm/fakeollama"
	"cairn/backend/project"
	"cairn/backend/store"
)

// A child process of this test binary runs one CLI command (the resume test
// kills it); init runs before TestMain.
func init() {
	if a := os.Getenv("CAIRN_CLI_CHILD_ARGS"); a != "" {
		var args []string
		if err := json.Unmarshal([]byte(a), &args); err != nil {
			os.Exit(3)
		}
		env := &Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
		os.Exit(env.Run(context.Background(), args))
	}
}

func sampleDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.Abs("../../assets/sample")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestGraphCommands(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "p")
	code, _, errOut := run(t, "", "import", "--offline", "--project", proj, filepath.Join(sampleDir(t), "en-report-dmca-summary.pdf"))
	if code != 0 || !strings.Contains(errOut, "knowledge graph:") || !strings.Contains(errOut, "0 pending") {
		t.Fatalf("import (with indexing): %d %s", code, errOut)
	}
	code, out, _ := run(t, "", "index", "--offline", "--project", proj, "--json")
	lines := jsonLines(t, out)
	last := lines[len(lines)-1]
	if code != 0 || last["event"] != "done" || last["counts"].(map[string]any)["pending"].(float64) != 0 || last["counts"].(map[string]any)["ok"].(float64) == 0 {
		t.Fatalf("index: %d %v", code, last)
	}

	code, out, _ = run(t, "", "graph", "--project", proj, "--format", "json")
	var x graph.Export
	if err := json.Unmarshal([]byte(out), &x); err != nil || code != 0 {
		t.Fatalf("graph json: %v %d", err, code)
	}
	if len(x.Entities) == 0 || len(x.Relations) == 0 {
		t.Fatalf("empty export: %d entities %d relations", len(x.Entities), len(x.Relations))
	}
	for _, r := range x.Relations {
		if len(r.Sources) == 0 || r.Sources[0].PageStart < 1 || r.Sources[0].ChunkID == 0 {
			t.Fatalf("relation without a paged source: %+v", r)
		}
	}
	var raw map[string][]map[string]any
	json.Unmarshal([]byte(out), &raw)
	for _, k := range []string{"id", "name", "type", "description", "aliases", "mentions"} {
		if _, ok := raw["entities"][0][k]; !ok {
			t.Fatalf("entity lacks %q", k)
		}
	}
	if len(raw["entities"][0]) != 6 || len(raw["relations"][0]) != 7 {
		t.Fatalf("export fields: %v / %v", raw["entities"][0], raw["relations"][0])
	}

	code, out, _ = run(t, "", "graph", "--project", proj, "--format", "graphml")
	if code != 0 {
		t.Fatal("graphml export failed")
	}
	dec := xml.NewDecoder(strings.NewReader(out))
	nodes, edges := 0, 0
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("graphml not well-formed: %v", err)
			}
			break
		}
		if se, ok := tok.(xml.StartElement); ok {
			switch se.Name.Local {
			case "node":
				nodes++
			case "edge":
				edges++
			}
		}
	}
	if nodes != len(x.Entities) || edges != len(x.Relations) {
		t.Fatalf("graphml has %d nodes %d edges, json %d/%d", nodes, edges, len(x.Entities), len(x.Relations))
	}
	if _, err := exec.LookPath("xmllint"); err == nil {
		cmd := exec.Command("xmllint", "--noout", "-")
		cmd.Stdin = strings.NewReader(out)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("xmllint: %v %s", err, b)
		}
	}

	// the entity with the most mentions, by name and by id
	best := x.Entities[0]
	for _, e := range x.Entities {
		if len(e.Mentions) > len(best.Mentions) {
			best = e
		}
	}
	code, out, _ = run(t, "", "entity", "--project", proj, "--json", strings.ToUpper(best.Name))
	var ent struct {
		Entity    kb.Entity     `json:"entity"`
		Relations []kb.Relation `json:"relations"`
	}
	if err := json.Unmarshal([]byte(out), &ent); err != nil || code != 0 || ent.Entity.ID != best.ID || len(ent.Entity.Mentions) != len(best.Mentions) {
		t.Fatalf("entity %q: %d %v %+v", best.Name, code, err, ent.Entity)
	}
	code, out, _ = run(t, "", "entity", "--project", proj, best.Name)
	if code != 0 || !strings.Contains(out, best.Name) || !strings.Contains(out, "mentioned") {
		t.Fatalf("entity text: %d %s", code, out)
	}
	if code, _, errOut := run(t, "", "entity", "--project", proj, "No Such Thing Anywhere"); code != 1 || !strings.Contains(errOut, "no such entity") {
		t.Fatalf("unknown entity: %d %s", code, errOut)
	}
	if code, _, _ := run(t, "", "graph", "--project", proj, "--format", "dot"); code != 2 {
		t.Fatal("unknown format accepted")
	}
}

// TestIndexResumeAfterKill runs `index` in a child process, SIGKILLs it
// part-way, checks the database, resumes, and compares the graph with an
// uninterrupted run over the same imports.
func TestIndexResumeAfterKill(t *testing.T) {
	dir := sampleDir(t)
	files := []string{filepath.Join(dir, "en-report-dmca-summary.pdf"), filepath.Join(dir, "en-report-tables-irs-i1040nr.pdf"), filepath.Join(dir, "zh-civil-code.docx")}
	ref := filepath.Join(t.TempDir(), "ref")
	killed := filepath.Join(t.TempDir(), "killed")
	for _, p := range []string{ref, killed} {
		if code, _, errOut := run(t, "", append([]string{"import", "--offline", "--no-index", "--project", p}, files...)...); code != 0 {
			t.Fatalf("import: %s", errOut)
		}
	}
	var total int
	st, err := store.Open(filepath.Join(killed, project.DBName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, total, _ = st.Counts(context.Background())

	args, _ := json.Marshal([]string{"index", "--offline", "--project", killed})
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "CAIRN_CLI_CHILD_ARGS="+string(args))
	var childErr bytes.Buffer
	cmd.Stderr = &childErr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := 0
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		done, _ = st.ExtractedChunks(context.Background())
		if done >= total/4 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	done, _ = st.ExtractedChunks(context.Background())
	if done == 0 || done >= total {
		t.Fatalf("kill did not land mid-way: %d of %d chunks extracted (%s)", done, total, childErr.String())
	}
	t.Logf("killed after %d of %d chunks", done, total)
	if code, out, _ := run(t, "", "check", "--project", killed); code != 0 {
		t.Fatalf("check after kill: %s", out)
	}
	code, out, _ := run(t, "", "index", "--offline", "--json", "--project", killed)
	lines := jsonLines(t, out)
	first := lines[0]
	if code != 0 || int(first["total"].(float64)) != total-done {
		t.Fatalf("resume: %d, first event %v (want %d pending)", code, first, total-done)
	}
	if code, _, _ := run(t, "", "index", "--offline", "--project", ref); code != 0 {
		t.Fatal("reference index failed")
	}
	graphOf := func(dir string) []string {
		p, err := project.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		g, err := p.Graph(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return graph.Content(g)
	}
	a, b := graphOf(ref), graphOf(killed)
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Fatalf("resumed graph differs from the uninterrupted one (%d vs %d lines)", len(a), len(b))
	}
	if code, out, _ := run(t, "", "check", "--project", killed); code != 0 {
		t.Fatalf("check after resume: %s", out)
	}
}

// TestIndexWithModel: `cairn index` against the fake Ollama server makes one
// extraction call per pack of chunks and reports the usage.
func TestIndexWithModel(t *testing.T) {
	srv := fakeollama.Start(t)
	srv.On(fakeollama.Rule{Schema: "extract", Func: func(r fakeollama.Request) string {
		ids, _ := extract.Passages(r.Messages[1].Content)
		reply := map[string]any{}
		for _, id := range ids {
			reply[id] = json.RawMessage(`{"entities":[{"name":"DMCA","type":"law","description":"the Digital Millennium Copyright Act"}],"relations":[],"facts":[]}`)
		}
		b, _ := json.Marshal(reply)
		return string(b)
	}})
	proj := filepath.Join(t.TempDir(), "p")
	if code, _, errOut := run(t, "", "import", "--offline", "--no-index", "--project", proj, filepath.Join(sampleDir(t), "en-report-dmca-summary.pdf")); code != 0 {
		t.Fatal(errOut)
	}
	code, out, errOut := run(t, "", "index", "--ollama", srv.URL(), "--json", "--project", proj)
	lines := jsonLines(t, out)
	rep := lines[len(lines)-1]
	chats := 0
	for _, r := range srv.RequestsTo("/api/chat") {
		if r.SchemaTitle == "extract" {
			chats++
		}
	}
	chunks := int(rep["chunks"].(float64))
	if code != 0 || rep["calls"].(float64) != float64(chats) || chats >= chunks || chats*extract.DefaultPack.Chunks < chunks || rep["prompt_tokens"].(float64) == 0 {
		t.Fatalf("index with a model: %d %v (%d chat requests) %s", code, rep, chats, errOut)
	}
	counts := rep["counts"].(map[string]any)
	if counts["pending"].(float64) != 0 || counts["ok"].(float64)+counts["failed"].(float64)+counts["empty"].(float64) != float64(chunks) {
		t.Fatalf("counts %v", counts)
	}
	if !strings.Contains(errOut, "mode: ollama") {
		t.Fatalf("mode line: %s", errOut)
	}
}
