package bench

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"cairn/backend/embed"
	"cairn/backend/graph"
	"cairn/backend/kb"
	"cairn/backend/project"
	"cairn/backend/relphrase"
	"cairn/backend/search"
	"cairn/backend/store"
)

// The Graph view at library scale (issue 28): how long the view takes to
// open, expand a node and search on a project of 50,000 entities. The
// project is generated (graph.SyntheticSkeleton: preferential attachment,
// one relation in ten stated) and stored through the real store
// (SaveChunkGraphs, with alignment, triggers and vectors), once, under the
// bench cache; BENCH_GRAPH_PROJECT=DIR also times a real project.

const (
	graphBenchEntities = 50000
	graphBenchDocs     = 30
	graphBenchChunks   = 100 // per document
)

func measureGraph(ctx context.Context, env *Env) ([]Figure, error) {
	dir := filepath.Join(env.CacheDir, fmt.Sprintf("graph-%d-v1", graphBenchEntities))
	if _, err := os.Stat(filepath.Join(dir, project.DBName)); err != nil {
		if err := buildGraphBench(ctx, env, dir); err != nil {
			return nil, err
		}
	}
	group := "Graph view at library scale"
	figs, err := graphFigures(ctx, env, dir, fmt.Sprintf("generated project of %d entities", graphBenchEntities), "graph.50k", group)
	if err != nil {
		return nil, err
	}
	if real := os.Getenv("BENCH_GRAPH_PROJECT"); real != "" {
		more, err := graphFigures(ctx, env, real, "project "+filepath.Base(real), "graph.project", group)
		if err != nil {
			return figs, err
		}
		for i := range more {
			more[i].Command = "BENCH_GRAPH_PROJECT=" + real + " " + env.Command()
		}
		figs = append(figs, more...)
	}
	return figs, nil
}

// graphFigures times, env.Runs times each: opening the project and its
// overview from nothing cached (what opening the Graph view costs the first
// time), the overview again, a document-scoped overview, a node's
// neighbours and a search.
func graphFigures(ctx context.Context, env *Env, dir, what, id, group string) ([]Figure, error) {
	var cold, coldCPU, warm, scoped, neigh, find []float64
	var ents, shown, rels int
	ms := func(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }
	for r := 0; r < env.Runs; r++ {
		t0, c0 := time.Now(), cpuSeconds()
		p, err := project.Open(dir)
		if err != nil {
			return nil, err
		}
		v, err := p.GraphOverview(ctx, graph.Scope{}, 200, nil)
		if err != nil {
			p.Close()
			return nil, err
		}
		cold = append(cold, ms(t0))
		coldCPU = append(coldCPU, 1000*(cpuSeconds()-c0))
		ents, shown, rels = v.Total, len(v.Entities), len(v.Relations)
		if shown == 0 {
			p.Close()
			return nil, fmt.Errorf("%s: the overview is empty", dir)
		}
		t0 = time.Now()
		if _, err = p.GraphOverview(ctx, graph.Scope{}, 200, nil); err != nil {
			p.Close()
			return nil, err
		}
		warm = append(warm, ms(t0))
		docs := []int64{}
		for _, d := range v.Docs[:min(3, len(v.Docs))] {
			docs = append(docs, d.Doc)
		}
		t0 = time.Now()
		if _, err = p.GraphOverview(ctx, graph.Scope{Docs: docs}, 200, nil); err != nil {
			p.Close()
			return nil, err
		}
		scoped = append(scoped, ms(t0))
		t0 = time.Now()
		if _, err = p.GraphNeighbours(ctx, v.Entities[0].ID, graph.Scope{}, 30); err != nil {
			p.Close()
			return nil, err
		}
		neigh = append(neigh, ms(t0))
		q := strings.Fields(v.Entities[len(v.Entities)-1].Name)[0]
		t0 = time.Now()
		if _, err = p.GraphSearch(ctx, q, graph.Scope{}, 20); err != nil {
			p.Close()
			return nil, err
		}
		find = append(find, ms(t0))
		if err := p.Close(); err != nil {
			return nil, err
		}
	}
	return []Figure{
		{ID: id + ".open_ms", Group: group, Unit: "ms", Stat: Stat{Runs: cold}, Target: "< 2 s (issue 28)",
			Name: fmt.Sprintf("Graph view opening on a %s (%d entities): open the project, read the skeleton, rank it, load the %d most central entities and %d relations", what, ents, shown, rels)},
		{ID: id + ".open_cpu_ms", Group: group, Unit: "ms", Stat: Stat{Runs: coldCPU}, Name: "  of which CPU time of this process (user + system; what the opening costs on a machine not shared)"},
		{ID: id + ".overview_warm_ms", Group: group, Unit: "ms", Stat: Stat{Runs: warm}, Name: "  the same overview again (skeleton and ranking kept)"},
		{ID: id + ".overview_3docs_ms", Group: group, Unit: "ms", Stat: Stat{Runs: scoped}, Name: "  the overview of 3 documents (a new scope ranked)"},
		{ID: id + ".neighbours_ms", Group: group, Unit: "ms", Stat: Stat{Runs: neigh}, Name: "  a node's 30 heaviest neighbours (expand on click)"},
		{ID: id + ".search_ms", Group: group, Unit: "ms", Stat: Stat{Runs: find}, Name: "  a name search over the whole scope (20 hits)"},
	}, nil
}

// buildGraphBench writes the generated project into dir: graphBenchDocs
// documents of graphBenchChunks one-line chunks; each entity is named in a
// chunk of its document, and each relation in its subject's chunk (its
// object named there too).
func buildGraphBench(ctx context.Context, env *Env, dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "building-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	env.Logf("building the %d-entity graph project in %s", graphBenchEntities, dir)
	t0 := time.Now()
	p, err := project.Open(tmp)
	if err != nil {
		return err
	}
	defer p.Close()
	st := p.Store()
	e := embed.NewHashed(embed.DefaultDim)
	if err := st.EnsureVectors(ctx, e.Info()); err != nil {
		return err
	}
	docIDs := make([]int64, graphBenchDocs+1)
	chunks := make([][]int64, graphBenchDocs+1)
	texts := map[int64]string{}
	for d := 1; d <= graphBenchDocs; d++ {
		title := fmt.Sprintf("Generated report %d", d)
		var cs []kb.Chunk
		var pages []kb.Page
		off := 0
		for c := 0; c < graphBenchChunks; c++ {
			t := fmt.Sprintf("Passage %d of generated report %d names some of its entities.", c+1, d)
			cs = append(cs, kb.Chunk{Ordinal: c, PageStart: c + 1, PageEnd: c + 1, CharStart: off, CharEnd: off + len(t), Text: t, Tokens: 10})
			pages = append(pages, kb.Page{Number: c + 1, Text: t})
			off += len(t) + 1
		}
		sum := sha256.Sum256([]byte(title))
		id, err := st.AddDocument(ctx, kb.Document{Title: title, FileName: title + ".txt", Kind: "txt", Hash: hex.EncodeToString(sum[:]), Bytes: int64(off)})
		if err != nil {
			return err
		}
		rows, ts := search.ChunkRows(title, cs)
		vecs, err := e.Embed(ctx, ts)
		if err != nil {
			return err
		}
		for i := range rows {
			rows[i].Vector = vecs[i]
		}
		if err := st.SaveContent(ctx, id, store.Content{Title: title, Kind: "txt", Status: kb.StatusOK, Pages: pages, Chunks: rows}); err != nil {
			return err
		}
		saved, err := st.ChunksOfDocument(ctx, id)
		if err != nil {
			return err
		}
		docIDs[d] = id
		for _, c := range saved {
			chunks[d] = append(chunks[d], c.ID)
			texts[c.ID] = fmt.Sprint(c.PageStart, c.CharStart, c.CharEnd)
		}
	}
	s := graph.SyntheticSkeleton(graphBenchEntities, 2, graphBenchDocs, 1)
	// each entity's chunk: spread over its document's chunks
	home := map[int64]int64{}
	doc := map[int64]int64{}
	for i, n := range s.Nodes {
		d := n.Docs[0].Doc
		doc[n.ID] = docIDs[d]
		home[n.ID] = chunks[d][i%len(chunks[d])]
	}
	byID := map[int64]graph.Node{}
	for _, n := range s.Nodes {
		byID[n.ID] = n
	}
	type cg struct {
		ents map[int64]int
		g    store.ChunkGraph
	}
	gs := map[int64]*cg{}
	src := func(chunk int64, d int64) kb.Source {
		var page, a, b int
		fmt.Sscan(texts[chunk], &page, &a, &b)
		return kb.Source{DocID: d, ChunkID: chunk, PageStart: page, PageEnd: page, CharStart: a, CharEnd: b}
	}
	addEntity := func(chunk int64, n graph.Node, d int64) int {
		c := gs[chunk]
		if c == nil {
			c = &cg{ents: map[int64]int{}, g: store.ChunkGraph{ChunkID: chunk, Status: kb.ExtractOK, Extractor: store.ExtractorOffline}}
			gs[chunk] = c
		}
		if k, ok := c.ents[n.ID]; ok {
			return k
		}
		c.ents[n.ID] = len(c.g.Entities)
		c.g.Entities = append(c.g.Entities, store.GraphEntity{Name: n.Name, Type: n.Type, Mentions: []kb.Source{src(chunk, d)}})
		return c.ents[n.ID]
	}
	for _, n := range s.Nodes {
		addEntity(home[n.ID], n, doc[n.ID])
	}
	for _, r := range s.Edges {
		chunk := home[r.From]
		a := addEntity(chunk, byID[r.From], doc[r.From])
		b := addEntity(chunk, byID[r.To], doc[r.From])
		pred := relphrase.CoOccurs
		if r.Stated {
			pred = "works with"
		}
		c := gs[chunk]
		c.g.Relations = append(c.g.Relations, store.GraphRelation{Subject: a, Object: b, Predicate: pred, Statement: "", Confidence: 0.5, Source: src(chunk, doc[r.From])})
	}
	align := func(e store.GraphEntity, cands []store.Candidate) int64 {
		for _, c := range cands {
			if c.ByName && c.Type == e.Type {
				return c.ID
			}
		}
		return 0
	}
	vec := e.Vector
	batch := []store.ChunkGraph{}
	for d := 1; d <= graphBenchDocs; d++ {
		for _, ch := range chunks[d] {
			if c := gs[ch]; c != nil {
				batch = append(batch, c.g)
			}
			if len(batch) >= 100 {
				if err := st.SaveChunkGraphs(ctx, batch, vec, align); err != nil {
					return err
				}
				batch = batch[:0]
			}
		}
	}
	if err := st.SaveChunkGraphs(ctx, batch, vec, align); err != nil {
		return err
	}
	env.Logf("  built in %s", time.Since(t0).Round(time.Second))
	if err := p.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, dir)
}

// cpuSeconds is the CPU time (user + system) this process has used.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
