package cli

import (
	"cairn/backend/llm"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"cairn/backend/kb"
	"cairn/backend/pagetext"
	"cairn/backend/project"
)

func openProject(env *Env, dir string) (*project.Project, int) {
	if dir == "" {
		return nil, env.fail(errNoProject)
	}
	p, err := project.Open(dir)
	if err != nil {
		return nil, env.fail(err)
	}
	if n := p.Notice(); n != "" {
		fmt.Fprintln(env.Stderr, "note:", n)
	}
	if p.ReadOnly() {
		fmt.Fprintln(env.Stderr, "note: the project folder is read-only: it can be read, not changed")
	}
	return p, 0
}

func cmdImport(ctx context.Context, env *Env, args []string) int {
	fs := env.flags("import")
	dir := fs.String("project", "", "project folder (created if missing)")
	asJSON := fs.Bool("json", false, "one JSON object per file")
	password := fs.String("password", "", "password for encrypted PDFs")
	noIndex := fs.Bool("no-index", false, "do not run pending indexing (knowledge graph, mind maps) after importing")
	paths, ok := env.parse(fs, args)
	if !ok {
		return 2
	}
	if len(paths) == 0 {
		fmt.Fprintln(env.Stderr, "usage: cairn import --project DIR [--json] PATH...")
		return 2
	}
	p, code := openProject(env, *dir)
	if p == nil {
		return code
	}
	defer p.Close()
	// A file named on the command line that fails makes the exit code 1; a
	// failure of a file found inside a folder is that file's result (printed,
	// counted in the summary) and the import still exits 0.
	named := map[string]bool{}
	for _, a := range paths {
		named[a] = true
	}
	failed := false
	tally := map[kb.DocStatus]int{}
	print := func(r project.ImportResult) {
		tally[r.Status]++
		if r.Status == kb.StatusFailed && named[r.File] {
			failed = true
		}
		if *asJSON {
			json.NewEncoder(env.Stdout).Encode(r)
			return
		}
		line := fmt.Sprintf("%-15s %s", r.Status, r.File)
		if r.DocID != 0 {
			line += fmt.Sprintf("  (doc %d, %d pages, %d chunks)", r.DocID, r.Pages, r.Chunks)
		}
		if r.Error != "" {
			line += "\n                " + kb.OneLine(r.Error)
		}
		if r.OCRPages > 0 {
			line += fmt.Sprintf("\n                %d scanned pages await OCR; indexing reads them page by page (cairn index) and each is searchable once read", r.OCRPages)
		}
		fmt.Fprintln(env.Stdout, line)
	}
	_, err := p.ImportWith(ctx, paths, project.ImportOptions{Password: *password}, func(pr project.Progress) {
		if pr.Stage == "waiting" {
			fmt.Fprintln(env.Stderr, pr.File)
		}
		if pr.Result != nil {
			print(*pr.Result)
		}
	})
	if n := len(tally); n > 0 {
		fmt.Fprintln(env.Stderr, importSummary(tally))
	}
	if err != nil {
		// Once interrupted, an error of the work torn down (a transaction
		// rolled back under a statement: "sql: statement is closed") is
		// the interruption's.
		if errors.Is(err, context.Canceled) || ctx.Err() != nil {
			fmt.Fprintln(env.Stderr, "cairn: import interrupted; what finished is kept. A document that was being read stays pending and is read again from its stored copy by the next cairn import or cairn index (cairn check lists it)")
			return 130
		}
		return env.fail(err)
	}
	if !*noIndex {
		// indexing reports on stderr: stdout stays one result per file
		rep, err := runIndex(ctx, env, p, env.Stderr, false)
		printIndexReport(env.Stderr, rep, false)
		if errors.Is(err, context.Canceled) || err != nil && ctx.Err() != nil {
			return 130 // the report said it was interrupted and how to resume
		}
		if err != nil {
			return env.fail(fmt.Errorf("indexing: %w", err))
		}
	}
	if failed {
		return 1
	}
	return 0
}

// importSummary is the line after an import's results: "51 files: 50 ok,
// 1 failed".
func importSummary(tally map[kb.DocStatus]int) string {
	total := 0
	var parts []string
	for _, st := range []kb.DocStatus{kb.StatusOK, kb.StatusNeedsOCR, kb.StatusNeedsPassword, kb.StatusDuplicate, kb.StatusFailed, kb.StatusPending} {
		if n := tally[st]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, st))
			total += n
		}
	}
	return fmt.Sprintf("import: %d files: %s", total, strings.Join(parts, ", "))
}

func cmdDocs(ctx context.Context, env *Env, args []string) int {
	fs := env.flags("docs")
	dir := fs.String("project", "", "project folder")
	asJSON := fs.Bool("json", false, "one JSON object per document")
	if _, ok := env.parse(fs, args); !ok {
		return 2
	}
	p, code := openProject(env, *dir)
	if p == nil {
		return code
	}
	defer p.Close()
	docs, err := p.Documents(ctx)
	if err != nil {
		return env.fail(err)
	}
	for _, d := range docs {
		g, gerr := graphOfDoc(ctx, p, d.ID) // knowledge-graph extraction per chunk (cmd_graph.go)
		if gerr != nil {
			return env.fail(gerr)
		}
		if *asJSON {
			json.NewEncoder(env.Stdout).Encode(map[string]any{"id": d.ID, "title": d.Title, "status": d.Status, "pages": d.Pages, "chunks": d.Chunks, "error": d.Error,
				"file": d.FileName, "kind": d.Kind, "error_code": d.ErrorCode, "warnings": d.Warnings, "graph": g,
				"organisation": d.Organisation, "doc_type": d.DocType, "period": d.Period, "title_edited": d.IdentityEdited})
			continue
		}
		fmt.Fprintf(env.Stdout, "%4d  %-14s %4d pages %5d chunks  %s\n", d.ID, d.Status, d.Pages, d.Chunks, d.Title)
		if d.Title != d.FileName {
			fmt.Fprintf(env.Stdout, "      file: %s\n", d.FileName)
		}
		if d.Error != "" {
			fmt.Fprintf(env.Stdout, "      %s\n", kb.OneLine(d.Error))
		}
		if l := g.line(""); l != "" {
			fmt.Fprintf(env.Stdout, "      %s\n", l)
		}
	}
	return 0
}

func parseIDs(args []string) ([]int64, error) {
	var ids []int64
	for _, a := range args {
		id, err := strconv.ParseInt(a, 10, 64)
		if err != nil || id <= 0 {
			return nil, fmt.Errorf("%q is not a document id (see cairn docs)", a)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func cmdRemove(ctx context.Context, env *Env, args []string) int {
	fs := env.flags("remove")
	dir := fs.String("project", "", "project folder")
	rest, ok := env.parse(fs, args)
	if !ok {
		return 2
	}
	ids, err := parseIDs(rest)
	if err != nil || len(ids) == 0 {
		fmt.Fprintln(env.Stderr, "usage: cairn remove --project DIR DOC_ID...")
		if err != nil {
			return env.fail(err)
		}
		return 2
	}
	p, code := openProject(env, *dir)
	if p == nil {
		return code
	}
	defer p.Close()
	// waits for a running `cairn index` (or the app's indexing) to finish
	removed, err := p.RemoveAfterIndexing(ctx, 0, func(msg string) { fmt.Fprintln(env.Stderr, msg) }, ids...)
	if err != nil {
		return env.fail(err)
	}
	for _, d := range removed {
		fmt.Fprintf(env.Stdout, "removed %d  %s\n", d.ID, d.Title)
	}
	return 0
}

func cmdSearch(ctx context.Context, env *Env, args []string) int {
	fs := env.flags("search")
	dir := fs.String("project", "", "project folder")
	k := fs.Int("k", 10, "number of passages")
	asJSON := fs.Bool("json", false, "one JSON object per passage")
	var docs docList
	fs.Var(&docs, "doc", "search only this document (repeatable, or ids joined by commas); default: the documents the query names, else all")
	rest, ok := env.parse(fs, args)
	if !ok {
		return 2
	}
	q := strings.TrimSpace(strings.Join(rest, " "))
	if q == "" {
		fmt.Fprintln(env.Stderr, "usage: cairn search --project DIR [--k N] [--json] [--doc ID]... QUERY")
		return 2
	}
	p, code := openProject(env, *dir)
	if p == nil {
		return code
	}
	defer p.Close()
	// A project embedded by an Ollama model embeds the query with it (the
	// mode line goes to stderr); search says when it could not.
	if strings.HasPrefix(p.Embedder().Info().Model, llm.EmbedderPrefix) && !env.Offline {
		env.connect(ctx, p)
	}
	hits, info, err := p.SearchIn(ctx, q, *k, docs)
	if err != nil {
		return env.fail(err)
	}
	if sc := info.Scope; sc != nil {
		how := "in"
		if sc.Routed {
			how = "routed to"
		}
		why := ""
		if len(sc.Because) > 0 {
			why = ", because: " + strings.Join(sc.Because, ", ")
		}
		fmt.Fprintf(env.Stderr, "search: %s %s%s\n", how, strings.Join(sc.Titles, "; "), why)
	}
	for _, f := range info.Respelled {
		fmt.Fprintf(env.Stderr, "search: read “%s” as “%s”\n", f.Word, f.As)
	}
	if info.Note != "" {
		fmt.Fprintln(env.Stderr, "search:", info.Note)
	} else if strings.HasPrefix(info.Embedder, llm.EmbedderPrefix) {
		fmt.Fprintln(env.Stderr, "search: query embedded with", strings.TrimPrefix(info.Embedder, llm.EmbedderPrefix))
	}
	for i, h := range hits {
		if *asJSON {
			json.NewEncoder(env.Stdout).Encode(map[string]any{"rank": i + 1, "chunk_id": h.ID, "doc_id": h.DocID, "doc_title": h.DocTitle,
				"page_start": h.PageStart, "page_end": h.PageEnd, "char_start": h.CharStart, "char_end": h.CharEnd,
				"heading_path": h.HeadingPath, "table_header": h.TableHeader, "score": h.Score, "ranks": h.Ranks, "text": h.Text})
			continue
		}
		pages := fmt.Sprintf("p. %d", h.PageStart)
		if h.PageEnd != h.PageStart {
			pages = fmt.Sprintf("pp. %d–%d", h.PageStart, h.PageEnd)
		}
		fmt.Fprintf(env.Stdout, "%2d. %s, %s", i+1, h.DocTitle, pages)
		if len(h.HeadingPath) > 0 {
			fmt.Fprintf(env.Stdout, " — %s", strings.Join(h.HeadingPath, " › "))
		}
		fmt.Fprintf(env.Stdout, "  [doc %d, chunk %d, score %.4f]\n    %s\n", h.DocID, h.ID, h.Score, h.Snippet)
	}
	return 0
}

func cmdText(ctx context.Context, env *Env, args []string) int {
	fs := env.flags("text")
	dir := fs.String("project", "", "project folder")
	page := fs.Int("page", 0, "only this page (1-based)")
	format := fs.String("format", "text", "text, md (Markdown: # headings, pipe tables) or json (one object per page: blocks with kind, level, text, box)")
	rest, ok := env.parse(fs, args)
	if !ok {
		return 2
	}
	ids, err := parseIDs(rest)
	if err != nil || len(ids) != 1 || *format != "text" && *format != "md" && *format != "json" {
		fmt.Fprintln(env.Stderr, "usage: cairn text --project DIR [--page N] [--format text|md|json] DOC_ID")
		if err != nil {
			return env.fail(err)
		}
		return 2
	}
	p, code := openProject(env, *dir)
	if p == nil {
		return code
	}
	defer p.Close()
	pages, err := p.Pages(ctx, ids[0], *page)
	if err != nil {
		return env.fail(err)
	}
	if len(pages) == 0 && *page > 0 {
		return env.fail(fmt.Errorf("document %d has no page %d", ids[0], *page))
	}
	if *format == "json" {
		enc := json.NewEncoder(env.Stdout)
		for _, pg := range pages {
			if err := enc.Encode(pagetext.JSON(pg)); err != nil {
				return env.fail(err)
			}
		}
		return 0
	}
	if err := pagetext.WriteDocument(env.Stdout, pages, *format == "md"); err != nil {
		return env.fail(err)
	}
	return 0
}

func cmdCheck(ctx context.Context, env *Env, args []string) int {
	fs := env.flags("check")
	dir := fs.String("project", "", "project folder")
	repair := fs.Bool("repair", false, "import again the stored originals no document references")
	if _, ok := env.parse(fs, args); !ok {
		return 2
	}
	p, code := openProject(env, *dir)
	if p == nil {
		return code
	}
	defer p.Close()
	if *repair {
		failed := false
		rs, err := p.Repair(ctx, nil)
		for _, r := range rs {
			fmt.Fprintf(env.Stdout, "repair: %s %s", r.Status, r.File)
			if r.DocID != 0 {
				fmt.Fprintf(env.Stdout, "  (doc %d, %d pages, %d chunks)", r.DocID, r.Pages, r.Chunks)
			}
			if r.Error != "" {
				fmt.Fprintf(env.Stdout, "  %s", kb.OneLine(r.Error))
			}
			fmt.Fprintln(env.Stdout)
			failed = failed || r.Status == kb.StatusFailed
		}
		if err != nil {
			return env.fail(err)
		}
		if len(rs) > 0 && !failed {
			// indexing reports on stderr, as after cairn import
			rep, err := runIndex(ctx, env, p, env.Stderr, false)
			printIndexReport(env.Stderr, rep, false)
			if err != nil {
				return env.fail(fmt.Errorf("indexing: %w", err))
			}
		}
	}
	problems, err := p.Check(ctx)
	if err != nil {
		return env.fail(err)
	}
	orphans, err := p.Orphans(ctx)
	if err != nil {
		return env.fail(err)
	}
	for _, o := range orphans {
		problems = append(problems, fmt.Sprintf("%s is a stored original that no document references (its document was lost, or an import was interrupted); cairn check --repair imports it again", o))
	}
	if len(problems) > 0 {
		for _, pr := range problems {
			fmt.Fprintln(env.Stdout, "problem:", pr)
		}
		fmt.Fprintf(env.Stdout, "%d problems\n", len(problems))
		return 1
	}
	docs, chunks, _ := p.Counts(ctx)
	fmt.Fprintf(env.Stdout, "ok: %d documents, %d chunks, indexes and files consistent\n", docs, chunks)
	return 0
}

// cmdRename sets a document's title (and, when given, its organisation,
// kind and period) as the user writes them. The file is not read again;
// the library's retitling leaves an edited document alone until --auto.
func cmdRename(ctx context.Context, env *Env, args []string) int {
	fs := env.flags("rename")
	dir := fs.String("project", "", "project folder")
	org := fs.String("org", "", "the organisation the document is from")
	typ := fs.String("type", "", "the kind of document (\"Form 10-K\", \"Annual Report\")")
	period := fs.String("period", "", "the period it covers (\"FY2018\", \"Q2 2023\")")
	auto := fs.Bool("auto", false, "give the title back to Cairn's own choice")
	rest, ok := env.parse(fs, args)
	if !ok {
		return 2
	}
	if len(rest) < 1 || (!*auto && len(rest) < 2) {
		fmt.Fprintln(env.Stderr, "usage: cairn rename --project DIR [--org O] [--type T] [--period P] DOC_ID TITLE...  (or --auto DOC_ID)")
		return 2
	}
	ids, err := parseIDs(rest[:1])
	if err != nil {
		fmt.Fprintln(env.Stderr, "rename:", err)
		return 2
	}
	p, code := openProject(env, *dir)
	if p == nil {
		return code
	}
	defer p.Close()
	var d kb.Document
	if *auto {
		d, err = p.ResetIdentity(ctx, ids[0])
	} else {
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		old, gerr := p.Store().Document(ctx, ids[0])
		if gerr != nil {
			return env.fail(gerr)
		}
		// A field not given keeps its value.
		if !set["org"] {
			*org = old.Organisation
		}
		if !set["type"] {
			*typ = old.DocType
		}
		if !set["period"] {
			*period = old.Period
		}
		d, err = p.EditIdentity(ctx, ids[0], strings.Join(rest[1:], " "), *org, *typ, *period)
	}
	if err != nil {
		return env.fail(err)
	}
	fmt.Fprintf(env.Stdout, "%d  %s\n", d.ID, d.Title)
	return 0
}
