package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"cairn/backend/chunk"
	"cairn/backend/embed"
	"cairn/backend/ingest"
	"cairn/backend/ingest/parsed"
	"cairn/backend/kb"
	"cairn/backend/project"
	"cairn/backend/search"
	"cairn/backend/store"
)

// Offline indexing is measured twice:
//   - end to end in a child process: project.Import of the text PDFs and
//     DOCX (reader processes, chunking, FTS, built-in embedding, SQLite)
//     then project.Index (every registered stage, offline provider); the
//     child's peak RSS (with its reader processes) comes from wait4's rusage;
//   - the steps after reading alone, in this process: chunk.Split, the
//     lexical rows and embedding text, the built-in embedder and
//     store.SaveContent — what project.importFile does once a reader returned.

// childEnv selects a child job in MaybeRunChild.
const childEnv = "CAIRN_BENCH_CHILD"

// MaybeRunChild runs a benchmark child job and exits when this process was
// started as one; call it first in main (after ingest.MaybeRunWorker) and
// in TestMain.
func MaybeRunChild() {
	switch os.Getenv(childEnv) {
	case "":
		return
	case "index":
		// CAIRN_BENCH_CHILD_CPUPROFILE=FILE profiles the child's run
		// (import and every index stage), which the parent's -cpuprofile
		// does not see.
		if path := os.Getenv(childEnv + "_CPUPROFILE"); path != "" {
			if f, err := os.Create(path); err == nil {
				pprof.StartCPUProfile(f)
				defer f.Close()
			}
		}
		err := runIndexChild(os.Stdout)
		pprof.StopCPUProfile()
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench child:", err)
			os.Exit(1)
		}
		os.Exit(0)
	default:
		fmt.Fprintln(os.Stderr, "bench child: unknown job", os.Getenv(childEnv))
		os.Exit(2)
	}
}

type indexChildArgs struct {
	Project string   `json:"project"`
	Files   []string `json:"files"`
}

type stageTime struct {
	Name    string  `json:"name"`
	Seconds float64 `json:"seconds"`
}

type indexChildResult struct {
	Files       int         `json:"files"`
	Failed      []string    `json:"failed"`
	Pages       int         `json:"pages"`
	Chunks      int         `json:"chunks"`
	ChunkTokens int         `json:"chunk_tokens"`
	ImportS     float64     `json:"import_s"`
	IndexS      float64     `json:"index_s"`
	Stages      []stageTime `json:"stages"`
	StageNames  []string    `json:"stage_names"`
	DBBytes     int64       `json:"db_bytes"`
}

func runIndexChild(out *os.File) error {
	var a indexChildArgs
	if err := json.Unmarshal([]byte(os.Getenv(childEnv+"_ARGS")), &a); err != nil {
		return err
	}
	ctx := context.Background()
	p, err := project.Open(a.Project)
	if err != nil {
		return err
	}
	defer p.Close()
	var r indexChildResult
	t0 := time.Now()
	res, err := p.Import(ctx, a.Files, nil)
	if err != nil {
		return err
	}
	r.ImportS = time.Since(t0).Seconds()
	for _, x := range res {
		r.Files++
		if x.Status != kb.StatusOK && x.Status != kb.StatusNeedsOCR {
			r.Failed = append(r.Failed, fmt.Sprintf("%s: %s %s", filepath.Base(x.File), x.Status, x.Error))
		}
		r.Pages += x.Pages
		r.Chunks += x.Chunks
	}
	if r.ChunkTokens, err = p.Store().ChunkTokens(ctx); err != nil {
		return err
	}
	// Per-stage time: stages report progress after doing work, so a stage
	// runs from the previous stage's last report (or the start) to its own
	// last report; the last stage ends with Index.
	r.StageNames = project.IndexStages()
	t1 := time.Now()
	lastAt := map[string]time.Time{}
	var order []string
	err = p.Index(ctx, func(pr project.IndexProgress) {
		if _, seen := lastAt[pr.Stage]; !seen {
			order = append(order, pr.Stage)
		}
		lastAt[pr.Stage] = time.Now()
	})
	if err != nil {
		return err
	}
	end := time.Now()
	prev := t1
	for i, name := range order {
		at := lastAt[name]
		if i == len(order)-1 {
			at = end
		}
		r.Stages = append(r.Stages, stageTime{name, at.Sub(prev).Seconds()})
		prev = at
	}
	r.IndexS = time.Since(t1).Seconds()
	if err := p.Close(); err != nil {
		return err
	}
	r.DBBytes = fileBytes(filepath.Join(a.Project, project.DBName))
	return json.NewEncoder(out).Encode(r)
}

// fileBytes is the size of a SQLite file with its WAL.
func fileBytes(db string) int64 {
	var n int64
	for _, f := range []string{db, db + "-wal"} {
		if fi, err := os.Stat(f); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// runIndexJob runs the end-to-end job in a child process; maxRSS is the
// largest resident set of the child and its reader processes.
func runIndexJob(ctx context.Context, dir string, files []string) (indexChildResult, int64, error) {
	var r indexChildResult
	exe, err := os.Executable()
	if err != nil {
		return r, 0, err
	}
	args, _ := json.Marshal(indexChildArgs{Project: dir, Files: files})
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(os.Environ(), childEnv+"=index", childEnv+"_ARGS="+string(args), "CAIRN_OCR=0")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return r, 0, fmt.Errorf("index child: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		return r, 0, fmt.Errorf("index child output: %v", err)
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = int64(ru.Maxrss) << 10 // kilobytes on Linux
	}
	return r, rss, nil
}

func measureIndex(ctx context.Context, env *Env) ([]Figure, error) {
	docs, err := loadDocs(env.DocsDir, false)
	if err != nil {
		return nil, err
	}
	files := docs.Text
	files = append(files, docs.Docx...)
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.Path
	}
	const group = "2. Offline indexing"
	var figs []Figure
	var pagesPerS, chunksPerS, importChunksPerS, indexChunksPerS, rssMB []float64
	stageRuns := map[string][]float64{}
	var last indexChildResult
	for r := 0; r < env.Runs; r++ {
		dir := filepath.Join(env.Tmp, fmt.Sprintf("index-%d", r))
		res, rss, err := runIndexJob(ctx, dir, paths)
		os.RemoveAll(dir)
		if err != nil {
			return figs, err
		}
		if len(res.Failed) > 0 {
			return figs, fmt.Errorf("files failed to import: %s", strings.Join(res.Failed, "; "))
		}
		total := res.ImportS + res.IndexS
		pagesPerS = append(pagesPerS, float64(res.Pages)/total)
		chunksPerS = append(chunksPerS, float64(res.Chunks)/total)
		importChunksPerS = append(importChunksPerS, float64(res.Chunks)/res.ImportS)
		if res.IndexS > 0 {
			indexChunksPerS = append(indexChunksPerS, float64(res.Chunks)/res.IndexS)
		}
		for _, s := range res.Stages {
			stageRuns[s.Name] = append(stageRuns[s.Name], s.Seconds)
		}
		rssMB = append(rssMB, float64(rss)/(1<<20))
		last = res
	}
	stages := "none registered"
	if len(last.StageNames) > 0 {
		stages = strings.Join(last.StageNames, ", ")
	}
	what := fmt.Sprintf("%d files (text PDFs + DOCX of %s), %d pages, %d chunks, %d chunk tokens; index stages: %s", last.Files, relDir(env.Root, env.DocsDir), last.Pages, last.Chunks, last.ChunkTokens, stages)
	figs = append(figs,
		Figure{ID: "index.e2e.pages_per_s", Group: group, Name: "import + index end to end, offline (" + what + ")", Unit: "pages/s",
			Stat: Stat{Runs: pagesPerS}, Target: "≥ 20 pages/s on 2 cores"},
		Figure{ID: "index.e2e.chunks_per_s", Group: group, Name: "import + index end to end, offline (same)", Unit: "chunks/s", Stat: Stat{Runs: chunksPerS}},
		Figure{ID: "index.import.chunks_per_s", Group: group, Name: "import alone (read in reader processes, chunk, FTS, embed, store)", Unit: "chunks/s", Stat: Stat{Runs: importChunksPerS}},
		Figure{ID: "index.peak_rss_mb", Group: group, Name: "peak memory of import + index (largest RSS of the process and its reader processes)", Unit: "MiB", Stat: Stat{Runs: rssMB}},
		Figure{ID: "storage.realdocs.mb_per_1k_chunks", Group: "5. Storage", Name: fmt.Sprintf("database size per 1k chunks, the imported docs/real project (%.1f MB for %d chunks, pages included)", float64(last.DBBytes)/1e6, last.Chunks),
			Unit: "MB", Stat: Stat{Runs: []float64{float64(last.DBBytes) / 1e6 / (float64(max(last.Chunks, 1)) / 1000)}}},
	)
	if len(indexChunksPerS) > 0 && len(last.StageNames) > 0 {
		figs = append(figs, Figure{ID: "index.stages.chunks_per_s", Group: group, Name: "project.Index, all stages (" + stages + ")", Unit: "chunks/s", Stat: Stat{Runs: indexChunksPerS}})
		for _, name := range last.StageNames {
			if runs := stageRuns[name]; len(runs) > 0 {
				figs = append(figs, Figure{ID: "index.stage." + name + ".s", Group: group, Name: fmt.Sprintf("  index stage %s, time for the %d chunks", name, last.Chunks), Unit: "s", Stat: Stat{Runs: runs}})
			}
		}
	} else {
		env.Notef("project.Index has no stages registered yet: offline extraction and mind maps are not in the indexing figures")
	}
	more, err := measurePipeline(ctx, env, files, group)
	return append(figs, more...), err
}

// measurePipeline times the steps after reading, in this process.
func measurePipeline(ctx context.Context, env *Env, files []inputFile, group string) ([]Figure, error) {
	var docs []*parsed.Document
	err := withEnv("CAIRN_OCR", "0", func() error {
		for _, f := range files {
			d, err := ingest.Read(f.Data, f.Name, parsed.Options{})
			if err != nil {
				return fmt.Errorf("%s: %w", f.Name, err)
			}
			docs = append(docs, d)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	e := embed.NewHashed(embed.DefaultDim)
	var all, chunkR, embedR, storeR []float64
	nChunks := 0
	for r := 0; r < env.Runs; r++ {
		st, err := store.Open(filepath.Join(env.Tmp, fmt.Sprintf("pipeline-%d.db", r)))
		if err != nil {
			return nil, err
		}
		if err := st.EnsureVectors(ctx, e.Info()); err != nil {
			st.Close()
			return nil, err
		}
		var tChunk, tEmbed, tStore time.Duration
		n := 0
		for i, d := range docs {
			t0 := time.Now()
			pages, chunks := chunk.Split(d, chunk.Options{})
			t1 := time.Now()
			title := files[i].Name
			rows, texts := search.ChunkRows(title, chunks)
			vecs, err := e.Embed(ctx, texts)
			if err != nil {
				st.Close()
				return nil, err
			}
			for j := range rows {
				rows[j].Vector = vecs[j]
			}
			t2 := time.Now()
			id, err := st.AddDocument(ctx, kb.Document{Title: title, FileName: files[i].Name, Kind: string(d.Kind), Hash: fmt.Sprintf("bench-%d-%d", r, i)})
			if err == nil {
				err = st.SaveContent(ctx, id, store.Content{Title: title, Kind: string(d.Kind), Status: kb.StatusOK, Pages: pages, Chunks: rows})
			}
			if err != nil {
				st.Close()
				return nil, err
			}
			tChunk, tEmbed, tStore = tChunk+t1.Sub(t0), tEmbed+t2.Sub(t1), tStore+time.Since(t2)
			n += len(chunks)
		}
		st.Close()
		nChunks = n
		all = append(all, Rate(float64(n), tChunk+tEmbed+tStore))
		chunkR, embedR, storeR = append(chunkR, Rate(float64(n), tChunk)), append(embedR, Rate(float64(n), tEmbed)), append(storeR, Rate(float64(n), tStore))
	}
	return []Figure{
		{ID: "index.pipeline.chunks_per_s", Group: group, Name: fmt.Sprintf("chunk + FTS rows + built-in embedding + SQLite write, after reading (%d chunks)", nChunks), Unit: "chunks/s", Stat: Stat{Runs: all}},
		{ID: "index.pipeline.chunk.chunks_per_s", Group: group, Name: "  of which chunking (chunk.Split)", Unit: "chunks/s", Stat: Stat{Runs: chunkR}},
		{ID: "index.pipeline.embed.chunks_per_s", Group: group, Name: "  of which lexical rows + built-in embedding", Unit: "chunks/s", Stat: Stat{Runs: embedR}},
		{ID: "index.pipeline.store.chunks_per_s", Group: group, Name: "  of which SQLite write (chunks, FTS5, vectors, term_df; one transaction per document)", Unit: "chunks/s", Stat: Stat{Runs: storeR}},
	}, nil
}
