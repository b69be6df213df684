package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/evalset"
	"cairn/backend/ingest"
	"cairn/backend/testshared"
)

func TestMain(m *testing.M) {
	ingest.MaybeRunWorker()
	MaybeRunChild()
	os.Exit(m.Run())
}

// headLines copies the first n lines of src to dst.
func headLines(t *testing.T, src, dst string, n int) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		testshared.Missing(t, fmt.Sprintf("eval data not present: %v", err))
	}
	defer in.Close()
	var b strings.Builder
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for i := 0; i < n && sc.Scan(); i++ {
		b.WriteString(sc.Text() + "\n")
	}
	if err := os.WriteFile(dst, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// smokeConfig is a tiny corpus: two sample documents (a PDF and a DOCX),
// 50 passages and 10 questions of each eval set.
func smokeConfig(t *testing.T) Config {
	root, _ := filepath.Abs("../..")
	docs := t.TempDir()
	for _, f := range []string{"en-report-dmca-summary.pdf", "zh-civil-code.docx"} {
		b, err := os.ReadFile(filepath.Join(root, "assets", "sample", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(docs, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	eval := t.TempDir()
	for _, ds := range scaleDatasets {
		os.MkdirAll(filepath.Join(eval, ds), 0o755)
		src := filepath.Join(root, "..", "shared", "eval", ds)
		headLines(t, filepath.Join(src, "corpus.jsonl"), filepath.Join(eval, ds, "corpus.jsonl"), 50)
		headLines(t, filepath.Join(src, "questions.jsonl"), filepath.Join(eval, ds, "questions.jsonl"), 10)
	}
	return Config{Root: root, DocsDir: docs, EvalDir: eval, CacheDir: t.TempDir(), Quick: true, Runs: 1,
		Scales: []int{50, 120}, Queries: 5, GraphMaxChunks: 120, FuseMaxChunks: 120,
		LLMDocs: []string{filepath.Join(docs, "en-report-dmca-summary.pdf")}}
}

// TestSuiteSmoke runs every measurement once on the tiny corpus and checks
// the figures and both reports.
func TestSuiteSmoke(t *testing.T) {
	cfg := smokeConfig(t)
	if testing.Verbose() {
		cfg.Log = os.Stderr
	}
	ctx := context.Background()
	res, err := Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if testing.Verbose() {
		t.Log(Markdown(res))
	}
	if len(res.Failures) > 0 {
		t.Fatalf("failures: %v", res.Failures)
	}
	byID := map[string]Figure{}
	for _, f := range res.Figures {
		if _, dup := byID[f.ID]; dup {
			t.Errorf("figure id %s twice", f.ID)
		}
		byID[f.ID] = f
		if len(f.Runs) == 0 || f.Median != Summarise(f.Runs).Median {
			t.Errorf("%s: runs %v, median %v", f.ID, f.Runs, f.Median)
		}
		if !strings.Contains(f.Command, "cairnbench") || f.Unit == "" || f.Group == "" {
			t.Errorf("%s: command %q unit %q group %q", f.ID, f.Command, f.Unit, f.Group)
		}
		if f.Reference != nil && f.Reference.Median > 0 && f.Ratio != f.Median/f.Reference.Median {
			t.Errorf("%s: ratio %v", f.ID, f.Ratio)
		}
	}
	positive := []string{
		"import.pdf.pages_per_s", "import.pdf.isolated_pages_per_s", "import.docx.mb_per_s",
		"index.e2e.pages_per_s", "index.peak_rss_mb", "index.pipeline.chunks_per_s",
		"index.scale.50.chunks_per_s", "index.scale.120.chunks_per_s", "index.scale.120.index_chunks_per_s",
		"query.search.50.p50_ms", "query.search.120.p95_ms", "query.hybrid.120.p50_ms", "query.lexical.120.p50_ms",
		"vector.bandwidth_gb_s", "vector.vec0.120.p50_ms", "vector.vec0.120.p95_ms", "vector.goscan.120.median_ms",
		"llm.index.calls_per_500tok_chunk", "llm.index.prompt_per_1k", "llm.ask.deep.calls", "llm.ask.deep.prompt_tokens",
		"app.ttft.deep_ms", "app.answer.deep_ms",
		"storage.120.mb_per_1k_chunks", "storage.120.share.chunk_vectors", "storage.realdocs.mb_per_1k_chunks",
	}
	for _, id := range positive {
		f, ok := byID[id]
		if !ok {
			t.Errorf("missing figure %s", id)
			continue
		}
		if f.Median <= 0 {
			t.Errorf("%s = %v, want > 0", id, f.Median)
		}
	}
	if f := byID["index.peak_rss_mb"]; f.Median < 5 || f.Median > 4096 {
		t.Errorf("peak RSS %v MiB is implausible", f.Median)
	}
	vec := byID["storage.120.share.chunk_vectors"].Median + byID["storage.120.share.graph_vectors"].Median + byID["storage.120.share.mind_map_vectors"].Median
	if vec < 20 || vec > 99 {
		t.Errorf("vectors' share %v%% is implausible for 1024-dim float vectors", vec)
	}
	if f := byID["import.docx.mb_per_s"]; f.Reference == nil || f.Ratio <= 0 {
		t.Errorf("DOCX figure has no reference: %+v", f)
	}
	// The scale corpora are cached: a second environment builds nothing.
	env := &Env{Config: cfg, Tmp: t.TempDir(), scales: map[int]*scaleCorpus{}}
	scales, err := env.scaleCorpora(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range scales {
		if s.Added != 0 || s.Indexed != 0 {
			t.Errorf("%d-chunk corpus rebuilt (%d added, indexed in %s) instead of reused", s.Chunks, s.Added, s.Indexed)
		}
	}
	dir := t.TempDir()
	if err := WriteJSON(filepath.Join(dir, "results.json"), res); err != nil {
		t.Fatal(err)
	}
	var back Results
	b, _ := os.ReadFile(filepath.Join(dir, "results.json"))
	if err := json.Unmarshal(b, &back); err != nil || len(back.Figures) != len(res.Figures) || back.Machine.Cores == 0 {
		t.Errorf("results.json does not round-trip: %v", err)
	}
	md := Markdown(res)
	for _, want := range []string{"# Cairn benchmark results", "Quick subset", "## 1. Import", "## 2. Offline indexing", "## 4. Query latency", "## 5. Storage", "**Machine:**", "**Machine load:**"} {
		if !strings.Contains(md, want) {
			t.Errorf("RESULTS.md lacks %q", want)
		}
	}
}

func TestScalePassages(t *testing.T) {
	base := []evalset.Passage{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	got := ScalePassages(base, 2, 7)
	want := []string{"c", "a~copy1", "b~copy1", "c~copy1", "a~copy2"}
	if len(got) != len(want) {
		t.Fatalf("got %d passages", len(got))
	}
	for i, p := range got {
		if p.ID != want[i] {
			t.Errorf("passage %d = %s, want %s", i, p.ID, want[i])
		}
	}
}

func TestRecallAt(t *testing.T) {
	cases := []struct {
		approx, exact []int64
		k             int
		want          float64
	}{
		{[]int64{1, 2, 3}, []int64{1, 2, 3}, 3, 1},
		{[]int64{3, 2, 1}, []int64{1, 2, 3}, 3, 1},
		{[]int64{1, 9, 8}, []int64{1, 2, 3}, 3, 1.0 / 3},
		{[]int64{1, 2}, []int64{1, 2, 3, 4}, 2, 1},
		{[]int64{1}, []int64{2, 1}, 1, 0},
		{nil, nil, 5, 0},
	}
	for _, c := range cases {
		if got := RecallAt(c.approx, c.exact, c.k); got != c.want {
			t.Errorf("RecallAt(%v, %v, %d) = %v, want %v", c.approx, c.exact, c.k, got, c.want)
		}
	}
}

func TestBruteForce(t *testing.T) {
	ids := []int64{10, 20, 30, 40}
	flat := []float32{
		1, 0,
		0, 1,
		0.8, 0.6,
		-1, 0,
	}
	got := BruteForce(ids, flat, 2, []float32{1, 0}, 3)
	want := []int64{10, 30, 20}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("BruteForce = %v, want %v", got, want)
		}
	}
	if got := BruteForce(ids, flat, 2, []float32{0, 1}, 10); len(got) != 4 || got[0] != 20 || got[3] != 40 {
		t.Errorf("BruteForce k > n = %v", got)
	}
}

func TestStoragePart(t *testing.T) {
	cases := map[string]string{
		"chunks_vec_vector_chunks00":         "chunk vectors",
		"sqlite_autoindex_chunks_vec_info_1": "chunk vectors",
		"entities_vec_rowids":                "graph vectors",
		"relations_vec_chunks":               "graph vectors",
		"mind_vec_vector_chunks00":           "mind-map vectors",
		"chunks_fts_data":                    "chunk lexical index (FTS5)",
		"mind_fts_idx":                       "mind-map lexical index (FTS5)",
		"chunks":                             "chunks",
		"sqlite_autoindex_chunks_1":          "chunks",
		"term_df":                            "term frequencies",
		"pages":                              "pages",
		"mentions_chunk":                     "knowledge graph tables",
		"relation_sources":                   "knowledge graph tables",
		"entity_aliases":                     "knowledge graph tables",
		"concept_isa_parent":                 "knowledge graph tables",
		"mind_nodes":                         "mind-map tables",
		"supernode_members":                  "mind-map tables",
		"sqlite_schema":                      "other (schema, meta, answers, ...)",
	}
	for name, want := range cases {
		if got := StoragePart(name); got != want {
			t.Errorf("StoragePart(%q) = %q, want %q", name, got, want)
		}
	}
	if got := partSlug("mind-map vectors (vec0)"); got != "mind_map_vectors" {
		t.Errorf("partSlug = %q", got)
	}
}

func TestRawDocxText(t *testing.T) {
	b, err := os.ReadFile("../../assets/sample/zh-civil-code.docx")
	if err != nil {
		t.Fatal(err)
	}
	txt, err := RawDocxText(b)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(txt, "民事主体") || strings.Count(txt, "\n") < 10 {
		t.Errorf("raw walk text looks wrong (%d bytes): %.200q", len(txt), txt)
	}
	if _, err := RawDocxText([]byte("not a zip")); err == nil {
		t.Error("raw walk accepted a non-zip")
	}
}

func TestMemoryBandwidth(t *testing.T) {
	bw := MemoryBandwidth(1)
	if bw < 1e8 || bw > 1e12 {
		t.Errorf("bandwidth %.3g B/s is implausible", bw)
	}
}
