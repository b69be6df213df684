package project

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"cairn/backend/embed"
	"cairn/backend/extract"
	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/llm/fakeollama"
)

// Model faults during indexing (issue 8), each injected into the fake
// Ollama server while the real client (llm.Auto over llm.Ollama, as the app
// and the CLI use it) indexes real documents. For every fault the test
// checks that the run ends without an error and with a clear warning when
// the model was given up on, that no chunk is recorded as extracted by the
// model without a valid reply from it, that every chunk keeps an
// extraction (the offline one stands in), and that once the model is
// healthy again the next run redoes exactly what was left and ends in the
// same knowledge graph as a run that never saw a fault.

// witness is the app's provider with a record of the extraction replies
// that came back valid: the proof that a chunk recorded as extracted by
// the model really got a model reply.
type witness struct {
	*llm.Auto
	mu    sync.Mutex
	valid []string // the user message of every valid extraction reply
}

func (w *witness) ChatJSON(ctx context.Context, req llm.JSONRequest) (llm.JSONReply, error) {
	r, err := w.Auto.ChatJSON(ctx, req)
	if err == nil && req.Task == "extract" {
		w.mu.Lock()
		w.valid = append(w.valid, req.Messages[len(req.Messages)-1].Content)
		w.mu.Unlock()
	}
	return r, err
}

func (w *witness) answered(chunkText string) bool {
	text := strings.TrimSpace(strings.ReplaceAll(chunkText, kb.PageSeparator, "\n"))
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, m := range w.valid {
		if strings.Contains(m, text) {
			return true
		}
	}
	return false
}

// faultAuto is llm.Auto with the short budgets a test can afford: a 400 ms
// call timeout, two retries 5 ms apart.
func faultAuto(t *testing.T, srv *fakeollama.Server, chatModel string) *witness {
	t.Helper()
	a, err := llm.NewAuto(llm.AutoConfig{
		Ollama: llm.OllamaConfig{Host: srv.URL(), ChatModel: chatModel, CallTimeout: 400 * time.Millisecond,
			ProbeTimeout: 300 * time.Millisecond, Retries: 2, Backoff: 5 * time.Millisecond},
		Offline:    llm.Offline{Embedder: embed.NewHashed(embed.DefaultDim)},
		ProbeEvery: 30 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return &witness{Auto: a}
}

// mindMapModel places every fact it is given under one route (the mind-map
// stage's model call).
func mindMapModel(r fakeollama.Request) string {
	ids := []int{}
	for _, line := range strings.Split(r.Messages[len(r.Messages)-1].Content, "\n") {
		if k := strings.Index(line, ": "); k > 0 {
			if id, err := strconv.Atoi(line[:k]); err == nil {
				ids = append(ids, id)
			}
		}
	}
	b, _ := json.Marshal(map[string]any{"topic": "Summary", "routes": []any{map[string]any{"path": []string{"Main points"}, "facts": ids}}})
	return string(b)
}

// extractModel answers an extraction request (or its repair round, from
// the passage of the first user message) as plausibleModel does.
func extractModel(r fakeollama.Request) string {
	if len(r.Messages) > 2 {
		r.Messages = r.Messages[:2]
	}
	return fitReply(plausibleModel(r))
}

// fitReply trims each passage's answer of a plausible extraction reply
// (its lists, from the end) to at most passageReplyTokens, as a real model
// writing within its budget would: the fake server, like a real one, cuts
// a reply at num_predict. The trim depends on the passage alone, so a
// chunk gets the same answer in any pack.
func fitReply(reply string) string {
	var m map[string]map[string][]json.RawMessage
	if json.Unmarshal([]byte(reply), &m) != nil {
		return reply
	}
	for id, p := range m {
		for {
			b, _ := json.Marshal(p)
			if fakeollama.CountTokens(string(b)) <= passageReplyTokens {
				break
			}
			trimmed := false
			for _, k := range []string{"facts", "relations", "entities"} {
				if l := p[k]; len(l) > 1 {
					p[k] = l[:len(l)*3/4]
					trimmed = true
				}
			}
			if !trimmed {
				break
			}
		}
		m[id] = p
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// passageReplyTokens bounds one passage's answer from the test model: a
// pack of six fits extract.MaxPackReplyTokens.
const passageReplyTokens = 700

func healthy(srv *fakeollama.Server) {
	srv.On(fakeollama.Rule{Schema: "extract", Func: extractModel})
	srv.On(fakeollama.Rule{Schema: "mindmap", Func: mindMapModel})
}

// graphContent is what the knowledge graph holds, without ids: every
// mention span, every fact, every relation (keyed by predicate and source
// spans, with its two names) and every entity name. Entity alignment
// depends on the order chunks are extracted in (a chunk redone last may
// make "DMCA" an alias of "Digital Millennium Copyright Act"), so two runs
// are compared by content: sameContent.
type graphContent struct {
	mentions, facts map[string]bool
	rels            map[string][2]string
	names           []string
}

func contentOf(t *testing.T, p *Project) graphContent {
	t.Helper()
	ctx := context.Background()
	g, err := p.Graph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c := graphContent{mentions: map[string]bool{}, facts: map[string]bool{}, rels: map[string][2]string{}}
	span := func(s kb.Source) string { return fmt.Sprintf("%d:%d-%d", s.ChunkID, s.CharStart, s.CharEnd) }
	for _, e := range g.Entities {
		c.names = append(c.names, e.Name)
		for _, m := range e.Mentions {
			c.mentions[span(m)] = true
		}
	}
	for _, r := range g.Relations {
		var ss []string
		for _, s := range r.Sources {
			ss = append(ss, span(s))
		}
		sort.Strings(ss)
		c.rels[r.Predicate+"|"+strings.Join(ss, ",")] = [2]string{r.SubjectName, r.ObjectName}
	}
	docs, _ := p.Documents(ctx)
	for _, d := range docs {
		fs, err := p.Facts(ctx, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fs {
			c.facts[span(f.Source)+" "+f.Text] = true
		}
	}
	return c
}

// sameContent says what p's graph lacks of want's: a mention span, a fact,
// an entity (found by name or alias), or a relation (unless its two ends
// are now one entity).
func sameContent(t *testing.T, p *Project, want graphContent) string {
	t.Helper()
	ctx := context.Background()
	got := contentOf(t, p)
	var problems []string
	diff := func(what string, a, b map[string]bool) {
		for k := range b {
			if !a[k] {
				problems = append(problems, what+" lost: "+k)
			}
		}
		for k := range a {
			if !b[k] {
				problems = append(problems, what+" added: "+k)
			}
		}
	}
	diff("mention", got.mentions, want.mentions)
	diff("fact", got.facts, want.facts)
	for _, n := range want.names {
		if _, _, err := p.Entity(ctx, n); err != nil {
			problems = append(problems, "entity lost: "+n)
		}
	}
	merged := 0
	for k, ends := range want.rels {
		if _, ok := got.rels[k]; ok {
			continue
		}
		a, _, err1 := p.Entity(ctx, ends[0])
		b, _, err2 := p.Entity(ctx, ends[1])
		if err1 == nil && err2 == nil && a.ID == b.ID {
			merged++
			continue
		}
		problems = append(problems, fmt.Sprintf("relation lost: %s —%s", ends, k))
	}
	if len(problems) > 5 {
		problems = append(problems[:5], fmt.Sprintf("… %d more", len(problems)-5))
	}
	if merged > 0 {
		t.Logf("%d relations joined two names now aligned as one entity", merged)
	}
	return strings.Join(problems, "; ")
}

// chunkTexts maps chunk id → text for the whole project.
func chunkTexts(t *testing.T, p *Project) map[int64]string {
	t.Helper()
	ctx := context.Background()
	docs, err := p.Documents(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]string{}
	for _, d := range docs {
		cs, err := p.store.ChunksOfDocument(ctx, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			out[c.ID] = c.Text
		}
	}
	return out
}

// indexRun is one p.Index call as the app and CLI see it.
type indexRun struct {
	err      error
	warnings []string
	fired    bool
}

func runIndexWith(ctx context.Context, p *Project, during func(done int) bool) indexRun {
	var r indexRun
	r.err = p.Index(ctx, func(pr IndexProgress) {
		if pr.Warning != "" {
			r.warnings = append(r.warnings, pr.Warning)
		}
		if pr.Stage == "graph" && during != nil && !r.fired && pr.Done > 0 {
			r.fired = during(pr.Done)
		}
	})
	return r
}

// faultRow is one injected fault.
type faultRow struct {
	name  string
	model string // configured chat model ("" the default)
	// setup runs before the provider first probes the server (rules added
	// here answer before the healthy ones).
	setup func(srv *fakeollama.Server)
	// during runs after each graph chunk of the faulted run until it
	// returns true (the fault strikes mid-job).
	during func(srv *fakeollama.Server, done int) bool
	// priorOffline: the project was indexed offline before (as the app
	// does while Ollama is away); the chunks then keep that extraction.
	priorOffline bool

	wantOffline bool            // the faulted run has no model at all
	wantStop    llm.FailureKind // the run gives the model up with this kind
	wantFailed  int             // chunks failed (kind wantKind) when the run does not stop
	wantKind    llm.FailureKind
	wantWarn    []string // words the warning must hold
	wantDropped int      // connections the server dropped (retried)
	wantRepairs int      // repair calls made

	// recover makes the model healthy again and returns the chat model the
	// recovery run uses ("" the same provider, following the server).
	recover func(t *testing.T, srv *fakeollama.Server, w *witness) string
}

func TestModelFaultsIndexing(t *testing.T) {
	ctx := context.Background()
	sample, _ := filepath.Abs("../../assets/sample")
	src := open(t)
	importAll(t, src, filepath.Join(sample, "en-report-dmca-summary.pdf"), filepath.Join(sample, "zh-civil-code.docx"))
	imported := filepath.Join(t.TempDir(), "imported.zip")
	if err := src.Export(ctx, imported); err != nil {
		t.Fatal(err)
	}
	fresh := func(t *testing.T) *Project {
		p, err := Restore(ctx, imported, filepath.Join(t.TempDir(), "p"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		return p
	}

	// how the chunks are packed into extraction calls (the same in every
	// row: offline extractions do not count as the model's)
	packs := modelPacks(t, fresh(t))
	callOf := func(chunk int) int { // the call (1-based) that extracts a chunk (1-based)
		n := 0
		for i, pk := range packs {
			if n += len(pk); chunk <= n {
				return i + 1
			}
		}
		return len(packs)
	}
	// span says which chunks the calls a to b (1-based) extracted, as a
	// stop warning words it
	span := func(a, b int) string {
		from, to := 1, 0
		for i, pk := range packs[:b] {
			if i < a-1 {
				from += len(pk)
			}
			to += len(pk)
		}
		if from == to {
			return fmt.Sprintf("at chunk %d of", from)
		}
		return fmt.Sprintf("for chunks %d–%d of", from, to)
	}
	if len(packs) < 4 || len(packs[0]) < 2 {
		t.Fatalf("the test needs packs of several chunks: %d packs, the first of %d", len(packs), len(packs[0]))
	}

	// the run that never sees a fault
	var want graphContent
	total := 0
	{
		srv := fakeollama.Start(t)
		healthy(srv)
		p := fresh(t)
		w := faultAuto(t, srv, "")
		w.Probe(ctx)
		p.SetProvider(w)
		if r := runIndexWith(ctx, p, nil); r.err != nil || len(r.warnings) > 0 {
			t.Fatalf("healthy run: %v %v", r.err, r.warnings)
		}
		c, _ := p.ExtractionCounts(ctx)
		total = c["ok"] + c["empty"]
		if c["failed"] != 0 || c["pending"] != 0 || total < 8 {
			t.Fatalf("healthy run counts %v", c)
		}
		want = contentOf(t, p)
		t.Logf("healthy run: %d chunks, %d entities, %d mentions, %d relations, %d facts", total, len(want.names), len(want.mentions), len(want.rels), len(want.facts))
	}

	const qwen = llm.DefaultChatModel
	rows := []faultRow{
		{name: "down at start", setup: func(srv *fakeollama.Server) { srv.Stop() },
			wantOffline: true,
			recover: func(t *testing.T, srv *fakeollama.Server, w *witness) string {
				if err := srv.Restart(); err != nil {
					t.Fatal(err)
				}
				return ""
			}},
		{name: "away for two requests mid-job (retried)",
			during: func(srv *fakeollama.Server, done int) bool {
				if done == 3 {
					srv.Down(2)
				}
				return done >= 3
			},
			wantDropped: 2},
		{name: "away mid-job, back later", priorOffline: true,
			during: func(srv *fakeollama.Server, done int) bool {
				if done == 3 {
					srv.Stop()
				}
				return done >= 3
			},
			wantStop: llm.FailUnreachable, wantWarn: []string{"Ollama stopped responding " + span(callOf(3)+1, callOf(3)+1), "kept their offline extraction", "redone with " + qwen + " when it is back"},
			recover: func(t *testing.T, srv *fakeollama.Server, w *witness) string {
				if err := srv.Restart(); err != nil {
					t.Fatal(err)
				}
				return ""
			}},
		{name: "away mid-job on a fresh project",
			during: func(srv *fakeollama.Server, done int) bool {
				if done == 2 {
					srv.Stop()
				}
				return done >= 2
			},
			wantStop: llm.FailUnreachable, wantWarn: []string{"Ollama stopped responding " + span(callOf(2)+1, callOf(2)+1), "extracted offline just now"},
			recover: func(t *testing.T, srv *fakeollama.Server, w *witness) string {
				if err := srv.Restart(); err != nil {
					t.Fatal(err)
				}
				return ""
			}},
		{name: "slow beyond the timeout",
			setup:    func(srv *fakeollama.Server) { srv.On(fakeollama.Rule{Schema: "extract", Delay: 2 * time.Second}) },
			wantStop: llm.FailTimeout, wantWarn: []string{"did not answer in time", "400ms", span(1, 3), "smaller model or a longer timeout"}},
		{name: "HTTP 500 once (retried)",
			setup: func(srv *fakeollama.Server) { srv.Fail("/api/chat", fakeollama.FaultHTTP500) }},
		{name: "HTTP 500 on every call",
			setup: func(srv *fakeollama.Server) {
				srv.On(fakeollama.Rule{Schema: "extract", Fault: fakeollama.FaultHTTP500})
			},
			wantStop: llm.FailHTTP, wantWarn: []string{"Ollama kept returning errors", "HTTP 500", span(1, 3)}},
		{name: "malformed JSON once (repaired)",
			setup: func(srv *fakeollama.Server) {
				srv.On(fakeollama.Rule{Schema: "extract", Fault: fakeollama.FaultMalformed, Times: 1})
			},
			wantRepairs: 1},
		{name: "malformed JSON, repair malformed too",
			setup: func(srv *fakeollama.Server) {
				srv.On(fakeollama.Rule{Schema: "extract", Fault: fakeollama.FaultMalformed, Times: 2})
			},
			wantFailed: len(packs[0]), wantKind: llm.FailMalformed, wantRepairs: 1},
		{name: "valid JSON violating the schema",
			setup: func(srv *fakeollama.Server) {
				srv.On(fakeollama.Rule{Schema: "extract", Reply: `{"entities":"none","relations":[],"facts":[]}`, Times: 2})
			},
			wantFailed: len(packs[0]), wantKind: llm.FailSchema, wantRepairs: 1},
		{name: "reply cut midway once (retried)",
			setup: func(srv *fakeollama.Server) {
				srv.On(fakeollama.Rule{Schema: "extract", Fault: fakeollama.FaultCut, Times: 1})
			},
			wantDropped: 1},
		{name: "reply cut midway on every call",
			setup:    func(srv *fakeollama.Server) { srv.On(fakeollama.Rule{Schema: "extract", Fault: fakeollama.FaultCut}) },
			wantStop: llm.FailCut, wantWarn: []string{"breaking off midway", span(1, 3)}},
		{name: "unknown model configured (an installed one stands in)", model: "llama3.1:8b"},
		{name: "no chat model installed", setup: func(srv *fakeollama.Server) { srv.RemoveModel(qwen) },
			wantOffline: true,
			recover: func(t *testing.T, srv *fakeollama.Server, w *witness) string {
				srv.AddModel(fakeollama.DefaultModels()[0])
				return ""
			}},
		{name: "model removed mid-job",
			during: func(srv *fakeollama.Server, done int) bool {
				if done == 3 {
					srv.RemoveModel(qwen)
				}
				return done >= 3
			},
			wantStop: llm.FailUnknownModel, wantWarn: []string{"the model " + qwen + " is not installed", span(callOf(3)+1, callOf(3)+1), "cairn pull " + qwen},
			recover: func(t *testing.T, srv *fakeollama.Server, w *witness) string {
				srv.AddModel(fakeollama.DefaultModels()[0])
				return ""
			}},
		// A model whose window cannot hold Cairn's prompts is not chosen
		// (llm.Pick says why: "its context holds 1024 tokens"); with no
		// other chat model the run is offline.
		{name: "context window too small",
			setup: func(srv *fakeollama.Server) {
				m := fakeollama.DefaultModels()[0]
				m.ContextLength = 1024
				srv.AddModel(m)
			},
			wantOffline: true,
			recover: func(t *testing.T, srv *fakeollama.Server, w *witness) string {
				m := fakeollama.DefaultModels()[0]
				m.Name = "qwen2.5:14b-instruct"
				srv.AddModel(m)
				return m.Name
			}},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			srv := fakeollama.Start(t)
			p := fresh(t)
			if row.priorOffline {
				p.SetProvider(llm.Offline{Embedder: embed.NewHashed(embed.DefaultDim)})
				if r := runIndexWith(ctx, p, nil); r.err != nil {
					t.Fatal(r.err)
				}
			}
			if row.setup != nil {
				row.setup(srv)
			}
			healthy(srv)
			w := faultAuto(t, srv, row.model)
			st := w.Probe(ctx)
			p.SetProvider(w)
			model := st.ChatModel
			if row.wantOffline != (st.Mode == llm.ModeOffline) {
				t.Fatalf("mode %s (%s)", st.Mode, st.Reason)
			}
			if row.name == "context window too small" && !strings.Contains(st.Reason, "its context holds 1024 tokens") {
				t.Fatalf("offline without saying why: %q", st.Reason)
			}
			if row.model != "" && (st.ChatModel == row.model || len(st.Notes) == 0) {
				t.Fatalf("configured %s is not installed: status %+v", row.model, st)
			}
			if model == "" {
				model = w.Ollama().Config().ChatModel
			}
			var during func(int) bool
			if row.during != nil {
				during = func(done int) bool { return row.during(srv, done) }
			}
			texts := chunkTexts(t, p)

			r := runIndexWith(ctx, p, during)
			if r.err != nil {
				t.Fatalf("faulted run: %v", r.err)
			}
			sts, err := p.store.ExtractionStatuses(ctx, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(sts) != total {
				t.Fatalf("%d chunks have an extraction, %d exist: a chunk was left with none", len(sts), total)
			}
			byModel, failed := 0, 0
			for _, s := range sts {
				switch {
				case s.Extractor == model:
					byModel++
					if s.Status == kb.ExtractFailed || !w.answered(texts[s.ChunkID]) {
						t.Fatalf("chunk %d recorded %s by %s without a valid reply from it", s.ChunkID, s.Status, model)
					}
				case s.Status == kb.ExtractFailed:
					failed++
					if s.Extractor != extract.Fallback || s.Reason == "" {
						t.Fatalf("failed chunk without the offline fallback or a reason: %+v", s)
					}
					if row.wantKind != "" && !strings.HasPrefix(s.Reason, string(row.wantKind)) {
						t.Fatalf("failed chunk %d: %q, want a %s failure", s.ChunkID, s.Reason, row.wantKind)
					}
				case s.Extractor != extract.Offline:
					t.Fatalf("chunk %d extracted by %q", s.ChunkID, s.Extractor)
				}
			}
			for _, q := range srv.RequestsTo("/api/chat") {
				if q.Truncated {
					t.Fatalf("a prompt of %d tokens was sent in a %d-token window", q.PromptTokens, q.NumCtx)
				}
			}
			dropped, repairs := 0, 0
			for _, q := range srv.Requests() {
				if q.Path == "/api/chat" && q.Status == 0 {
					dropped++
				}
				if q.Path == "/api/chat" && q.SchemaTitle == "extract" && len(q.Messages) > 2 {
					repairs++
				}
			}
			gotModel, pending, err := p.ModelPending(ctx)
			if err != nil || gotModel != model {
				t.Fatalf("ModelPending: %q %v, want %q", gotModel, err, model)
			}
			warning := strings.Join(r.warnings, " | ")
			switch {
			case row.wantOffline:
				if byModel != 0 || len(srv.RequestsTo("/api/chat")) != 0 || pending != total || warning != "" {
					t.Fatalf("offline run: %d by the model, %d chat calls, %d pending for %s, warning %q", byModel, len(srv.RequestsTo("/api/chat")), pending, model, warning)
				}
			case row.wantStop != "":
				if byModel >= total || pending != total-byModel || len(r.warnings) != 1 {
					t.Fatalf("stopped run: %d of %d by the model, %d pending, warnings %q", byModel, total, pending, r.warnings)
				}
				for _, wnt := range row.wantWarn {
					if !strings.Contains(warning, wnt) {
						t.Errorf("warning %q lacks %q", warning, wnt)
					}
				}
				if !strings.Contains(warning, fmt.Sprintf("; %d chunks kept their offline extraction", total-byModel)) {
					t.Errorf("warning %q does not count the %d chunks left", warning, total-byModel)
				}
			default:
				if warning != "" || failed != row.wantFailed || byModel != total-row.wantFailed || pending != row.wantFailed {
					t.Fatalf("run: warning %q, %d failed (want %d), %d by the model of %d, %d pending", warning, failed, row.wantFailed, byModel, total, pending)
				}
			}
			if dropped < row.wantDropped || repairs != row.wantRepairs {
				t.Errorf("%d dropped/cut chat requests (want ≥ %d), %d repairs (want %d)", dropped, row.wantDropped, repairs, row.wantRepairs)
			}
			check(t, p)
			mm, _ := p.MindMapStatuses(ctx)
			docs, _ := p.Documents(ctx)
			var modes []string
			for _, d := range docs {
				m, err := p.MindMap(ctx, d.ID)
				if err != nil || len(m.Nodes) == 0 {
					t.Fatalf("document %d has no mind map after the faulted run: %v", d.ID, err)
				}
				modes = append(modes, mm[d.ID].Mode)
			}
			t.Logf("faulted run: %d of %d chunks by %s, %d failed, %d pending, %d dropped, %d repairs, mind maps %v; warning: %s",
				byModel, total, model, failed, pending, dropped, repairs, modes, warning)

			// the model comes back: the next run redoes exactly what is left
			if row.recover == nil && row.wantStop == "" && !row.wantOffline && row.wantFailed == 0 {
				if lost := sameContent(t, p, want); lost != "" {
					t.Fatalf("the graph differs from the healthy run's: %s", lost)
				}
				return
			}
			srv.Reset()
			healthy(srv)
			next := w
			if row.recover != nil {
				if m := row.recover(t, srv, w); m != "" {
					next = faultAuto(t, srv, m)
					next.Probe(ctx)
					model = m
					p.SetProvider(next)
				}
			}
			if next == w {
				// the app's probe loop notices the server is healthy again
				w.Start(ctx)
				deadline := time.Now().Add(5 * time.Second)
				for w.Mode() != llm.ModeOllama || w.Status().ChatModel != model {
					if time.Now().After(deadline) {
						t.Fatalf("the provider did not come back: %+v", w.Status())
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
			left, err := p.store.PendingExtraction(ctx, model, 0)
			if err != nil || len(left) != pending {
				t.Fatalf("%d chunks pending for %s, %d counted (%v)", len(left), model, pending, err)
			}
			// chunks that failed with the model before go alone (retries
			// that learn); the rest in packs
			tries, _ := p.store.ExtractionAttempts(ctx, model)
			leftCalls, run := 0, []kb.Chunk{}
			for _, c := range left {
				if _, retried := tries[c.ID]; retried {
					leftCalls += len(extract.Pack(run, extract.DefaultPack)) + 1
					run = run[:0]
					continue
				}
				run = append(run, c)
			}
			leftCalls += len(extract.Pack(run, extract.DefaultPack))
			before := len(srv.RequestsTo("/api/chat"))
			r = runIndexWith(ctx, p, nil)
			if r.err != nil || len(r.warnings) > 0 {
				t.Fatalf("recovery run: %v %v", r.err, r.warnings)
			}
			extractCalls := 0
			for _, q := range srv.RequestsTo("/api/chat")[before:] {
				if q.SchemaTitle == "extract" {
					extractCalls++
				}
			}
			if model == llm.DefaultChatModel && extractCalls != leftCalls {
				t.Errorf("recovery run made %d extraction calls for %d chunks left in %d packs", extractCalls, pending, leftCalls)
			}
			if _, left, _ := p.ModelPending(ctx); left != 0 {
				t.Fatalf("%d chunks still wait for %s after recovery", left, model)
			}
			if lost := sameContent(t, p, want); lost != "" {
				t.Fatalf("after recovery the graph differs from the healthy run's: %s", lost)
			}
			check(t, p)
			mm, _ = p.MindMapStatuses(ctx)
			modes = modes[:0]
			for _, d := range docs {
				modes = append(modes, mm[d.ID].Mode)
			}
			t.Logf("recovery run: %d extraction calls, mind maps %v", extractCalls, modes)
		})
	}
}
