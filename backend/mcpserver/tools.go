package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/project"
	"cairn/backend/reason"
	"cairn/backend/store"
)

// Bounds of the tools' numeric arguments.
const (
	maxSearchK     = 50
	defaultSearchK = 10
	maxAskK        = 20
	maxNeighbours  = 5
	maxMentions    = 20
	maxRelations   = 50
)

func readOnly(title string) *mcp.ToolAnnotations {
	f := false
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &f}
}

func (s *Server) addTools() {
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "search", Annotations: readOnly("Search passages"),
		Description: "Hybrid passage search (BM25 + vectors, fused) over the project's documents. Returns passages with document, page, printed page when known, and character span."},
		s.search)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "ask", Annotations: readOnly("Ask the documents"),
		Description: "Answer a question from the project's documents: the answer with [n] citations (document, page, span, quoted text) and the reasoning paths through the knowledge graph. Declines (declined: true) when the documents do not answer. Uses the local model when the project has one (Ollama), else answers extractively offline."},
		s.ask)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "get_passage", Annotations: readOnly("Read a passage"),
		Description: "One passage by id, with the passages just before and after it in its document for context."},
		s.getPassage)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "list_documents", Annotations: readOnly("List documents"),
		Description: "The project's documents: id, title, file name, type, status, pages, passages, and their resource URIs."},
		s.listDocuments)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "document_outline", Annotations: readOnly("Outline a document"),
		Description: "A document's mind map (topic, routes, facts with pages) or its heading tree, as Markdown and as items with provenance."},
		s.outline)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "entity", Annotations: readOnly("Look up an entity"),
		Description: "An entity of the knowledge graph by name, alias or id: type, aliases, classes, the passages that mention it, its relations with their sources, and its neighbours one hop away."},
		s.entity)
	if s.opt.AllowImport {
		f := false
		mcp.AddTool(s.mcp, &mcp.Tool{Name: "import",
			Annotations: &mcp.ToolAnnotations{Title: "Import files", DestructiveHint: &f, OpenWorldHint: &f},
			Description: "Import files or folders that are inside the project folder (PDF, DOCX, TXT, Markdown), then index them. Paths outside the project folder are refused."},
			s.importFiles)
	}
}

// --- search ---------------------------------------------------------------

func (s *Server) search(ctx context.Context, _ *mcp.CallToolRequest, in SearchIn) (*mcp.CallToolResult, SearchOut, error) {
	q := strings.TrimSpace(in.Query)
	if q == "" {
		return nil, SearchOut{}, errors.New("query is empty")
	}
	k := in.K
	if k == 0 {
		k = defaultSearchK
	}
	if k < 1 || k > maxSearchK {
		return nil, SearchOut{}, fmt.Errorf("k must be between 1 and %d (got %d)", maxSearchK, in.K)
	}
	// A project embedded by an Ollama model embeds the query with it.
	if err := s.waitModel(ctx); err != nil {
		return nil, SearchOut{}, err
	}
	docs := in.Documents
	if in.DocID != 0 {
		docs = append([]int64{in.DocID}, docs...)
	}
	for _, id := range docs {
		if _, err := s.document(ctx, id); err != nil {
			return nil, SearchOut{}, err
		}
	}
	hits, _, err := s.p.SearchIn(ctx, q, k, docs)
	if err != nil {
		return nil, SearchOut{}, err
	}
	out := SearchOut{Notice: DataNotice, Passages: []Passage{}}
	for _, h := range hits {
		out.Passages = append(out.Passages, s.passage(h))
		if len(out.Passages) == k {
			break
		}
	}
	return textResult(renderPassages(fmt.Sprintf("%d passages for %q", len(out.Passages), q), out.Passages)), out, nil
}

// --- ask ------------------------------------------------------------------

func (s *Server) ask(ctx context.Context, _ *mcp.CallToolRequest, in AskIn) (*mcp.CallToolResult, AskOut, error) {
	q := strings.TrimSpace(in.Question)
	if q == "" {
		return nil, AskOut{}, errors.New("question is empty")
	}
	deep := false
	switch in.Mode {
	case "", "quick":
	case "deep":
		deep = true
	default:
		return nil, AskOut{}, fmt.Errorf("mode must be quick or deep (got %q)", in.Mode)
	}
	if in.K < 0 || in.K > maxAskK {
		return nil, AskOut{}, fmt.Errorf("k must be between 1 and %d (got %d)", maxAskK, in.K)
	}
	if err := s.waitModel(ctx); err != nil {
		return nil, AskOut{}, err
	}
	// Answered like the app's Ask, but not stored: the MCP server does not
	// write to the project (the user's question history stays theirs).
	prov := s.p.Provider()
	for _, id := range in.Documents {
		if _, err := s.document(ctx, id); err != nil {
			return nil, AskOut{}, err
		}
	}
	aq, err := s.p.Analyse(ctx, q)
	if err != nil {
		return nil, AskOut{}, err
	}
	r, err := s.p.Reasoner(ctx, aq, in.Documents)
	if err != nil {
		return nil, AskOut{}, err
	}
	if in.K > 0 {
		r.Settings.K = in.K
	}
	var a kb.Answer
	if deep {
		a, err = r.DeepAnalysed(ctx, aq, nil)
	} else {
		a, err = r.QuickAnalysed(ctx, aq, nil)
	}
	if err != nil {
		return nil, AskOut{}, err
	}
	titles, err := s.titles(ctx)
	if err != nil {
		return nil, AskOut{}, err
	}
	out := AskOut{Notice: DataNotice, Answer: a.Answer, Declined: a.Declined, Outcome: a.Outcome, Mode: a.Mode, Model: modelName(prov),
		Citations: []Citation{}, Paths: []ReasoningPath{}, Formula: a.Formula}
	for _, c := range a.Cells {
		out.Cells = append(out.Cells, TableCell(c))
	}
	var tr reason.Trace
	if json.Unmarshal(a.Trace, &tr) == nil {
		out.Fallback = strings.TrimSpace(strings.Join(nonEmpty(tr.Fallback, tr.AnswerFallback), "; "))
		if tr.AnswerBy == "extractive" && out.Model != "offline" {
			out.Model += " (extractive answer)"
		}
	}
	for _, c := range a.Citations {
		out.Citations = append(out.Citations, Citation{N: c.N, Source: s.source(c.Source, titles), Text: c.Text})
	}
	for _, p := range a.Paths {
		rp := ReasoningPath{Score: p.Score, Chosen: p.Chosen, Nodes: p.Nodes, Steps: []PathStep{}}
		if rp.Nodes == nil {
			rp.Nodes = []string{}
		}
		for _, e := range p.Edges {
			rp.Steps = append(rp.Steps, PathStep{From: e.From, Predicate: e.Predicate, To: e.To, Source: s.source(e.Source, titles)})
		}
		out.Paths = append(out.Paths, rp)
	}
	return textResult(renderAnswer(out)), out, nil
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// modelName says who answers: the Ollama chat model, or "offline".
func modelName(lp llm.Provider) string {
	if lp == nil || lp.Mode() == llm.ModeOffline {
		return "offline"
	}
	switch m := lp.(type) {
	case *llm.Auto:
		if st := m.Status(); st.ChatModel != "" {
			return "ollama " + st.ChatModel
		}
	case *llm.Ollama:
		if c := m.Config(); c.ChatModel != "" {
			return "ollama " + c.ChatModel
		}
	}
	return string(lp.Mode())
}

// --- get_passage ----------------------------------------------------------

func (s *Server) getPassage(ctx context.Context, _ *mcp.CallToolRequest, in PassageIn) (*mcp.CallToolResult, PassageOut, error) {
	if in.PassageID <= 0 {
		return nil, PassageOut{}, fmt.Errorf("passage_id must be a positive passage id (got %d)", in.PassageID)
	}
	n := 1
	if in.Neighbours != nil {
		n = *in.Neighbours
	}
	if n < 0 || n > maxNeighbours {
		return nil, PassageOut{}, fmt.Errorf("neighbours must be between 0 and %d (got %d)", maxNeighbours, n)
	}
	hits, err := s.p.Store().ChunksAround(ctx, in.PassageID, n, n)
	if errors.Is(err, store.ErrNoChunk) {
		return nil, PassageOut{}, fmt.Errorf("no passage %d in this project (ids come from search, ask or entity)", in.PassageID)
	}
	if err != nil {
		return nil, PassageOut{}, err
	}
	out := PassageOut{Notice: DataNotice, Before: []Passage{}, After: []Passage{}}
	seen := false
	for _, h := range hits {
		switch {
		case h.ID == in.PassageID:
			out.Passage, seen = s.passage(h), true
		case !seen:
			out.Before = append(out.Before, s.passage(h))
		default:
			out.After = append(out.After, s.passage(h))
		}
	}
	all := append(append(append([]Passage{}, out.Before...), out.Passage), out.After...)
	return textResult(renderPassages(fmt.Sprintf("passage %d with %d before and %d after", in.PassageID, len(out.Before), len(out.After)), all)), out, nil
}

// --- list_documents -------------------------------------------------------

func (s *Server) listDocuments(ctx context.Context, _ *mcp.CallToolRequest, _ NoInput) (*mcp.CallToolResult, DocumentsOut, error) {
	docs, err := s.p.Documents(ctx)
	if err != nil {
		return nil, DocumentsOut{}, err
	}
	out := DocumentsOut{Project: filepath.Base(s.p.Dir()), Documents: []DocumentInfo{}}
	var b strings.Builder
	fmt.Fprintf(&b, "%d documents in project %s:\n", len(docs), out.Project)
	for _, d := range docs {
		out.Documents = append(out.Documents, DocumentInfo{DocID: d.ID, Title: d.Title, FileName: d.FileName, Kind: d.Kind,
			Status: string(d.Status), Pages: d.Pages, Passages: d.Chunks, Error: d.Error, Warnings: d.Warnings,
			TextURI: textURI(d.ID), MapURI: mapURI(d.ID)})
		fmt.Fprintf(&b, "- doc %d: %s (%s, %s, %d pages, %d passages)\n", d.ID, kb.OneLine(d.Title), d.Kind, d.Status, d.Pages, d.Chunks)
	}
	return textResult(b.String()), out, nil
}

// --- entity ---------------------------------------------------------------

func (s *Server) entity(ctx context.Context, _ *mcp.CallToolRequest, in EntityIn) (*mcp.CallToolResult, EntityOut, error) {
	name := strings.TrimSpace(in.Name)
	if name == "" {
		return nil, EntityOut{}, errors.New("name is empty")
	}
	e, rels, err := s.p.Entity(ctx, name)
	if errors.Is(err, project.ErrNoEntity) {
		return nil, EntityOut{}, fmt.Errorf("no entity named %q in this project's knowledge graph (try search)", name)
	}
	if err != nil {
		return nil, EntityOut{}, err
	}
	concepts, err := s.p.EntityConcepts(ctx, e.ID)
	if err != nil {
		return nil, EntityOut{}, err
	}
	titles, err := s.titles(ctx)
	if err != nil {
		return nil, EntityOut{}, err
	}
	out := EntityOut{Notice: DataNotice, ID: e.ID, Name: e.Name, Type: e.Type, SemanticType: e.SemanticType, Description: e.Description,
		Aliases: e.Aliases, Concepts: concepts, MentionCount: len(e.Mentions), Mentions: []Source{}, Relations: []EntityRelation{}, Neighbours: []Neighbour{}}
	if out.Aliases == nil {
		out.Aliases = []string{}
	}
	if out.Concepts == nil {
		out.Concepts = []string{}
	}
	for i, m := range e.Mentions {
		if i == maxMentions {
			break
		}
		out.Mentions = append(out.Mentions, s.source(m, titles))
	}
	for i, r := range rels {
		if i == maxRelations {
			break
		}
		er := EntityRelation{Subject: r.SubjectName, Predicate: r.Predicate, Object: r.ObjectName, Statement: r.Statement, Confidence: r.Confidence, Sources: []Source{}}
		for _, src := range r.Sources {
			er.Sources = append(er.Sources, s.source(src, titles))
		}
		out.Relations = append(out.Relations, er)
	}
	if g, err := s.p.Neighbourhood(ctx, e.ID, 1, maxRelations+1); err == nil {
		for _, n := range g.Entities {
			if n.ID != e.ID {
				out.Neighbours = append(out.Neighbours, Neighbour{ID: n.ID, Name: n.Name, Type: n.Type})
			}
		}
	}
	return textResult(renderEntity(out)), out, nil
}

// --- import ---------------------------------------------------------------

func (s *Server) importFiles(ctx context.Context, _ *mcp.CallToolRequest, in ImportIn) (*mcp.CallToolResult, ImportOut, error) {
	if len(in.Paths) == 0 {
		return nil, ImportOut{}, errors.New("paths is empty")
	}
	paths := make([]string, 0, len(in.Paths))
	for _, p := range in.Paths {
		abs, err := s.insideProject(p)
		if err != nil {
			return nil, ImportOut{}, err
		}
		paths = append(paths, abs)
	}
	res, err := s.p.Import(ctx, paths, nil)
	if err != nil {
		return nil, ImportOut{}, err
	}
	out := ImportOut{Results: []ImportResult{}}
	var b strings.Builder
	for _, r := range res {
		rel, _ := filepath.Rel(s.root, r.File)
		if rel == "" || strings.HasPrefix(rel, "..") {
			rel = filepath.Base(r.File)
		}
		out.Results = append(out.Results, ImportResult{File: rel, DocID: r.DocID, Status: string(r.Status), Pages: r.Pages, Chunks: r.Chunks, Error: r.Error})
		fmt.Fprintf(&b, "%s %s (doc %d)\n", r.Status, rel, r.DocID)
	}
	if err := s.p.Index(ctx, nil); err != nil {
		out.Error = err.Error()
	} else {
		out.Indexed = true
	}
	s.syncResources(ctx)
	return textResult(b.String()), out, nil
}

// --- helpers --------------------------------------------------------------

// document returns one document, with a sentence for an unknown id.
func (s *Server) document(ctx context.Context, id int64) (kb.Document, error) {
	if id <= 0 {
		return kb.Document{}, fmt.Errorf("doc_id must be a positive document id (got %d)", id)
	}
	d, err := s.p.Store().Document(ctx, id)
	if err != nil {
		return d, fmt.Errorf("no document %d in this project (see list_documents)", id)
	}
	return d, nil
}

func (s *Server) titles(ctx context.Context) (map[int64]string, error) {
	docs, err := s.p.Documents(ctx)
	if err != nil {
		return nil, err
	}
	m := make(map[int64]string, len(docs))
	for _, d := range docs {
		m[d.ID] = d.Title
	}
	return m, nil
}

func (s *Server) source(src kb.Source, titles map[int64]string) Source {
	return Source{DocID: src.DocID, DocTitle: titles[src.DocID], ChunkID: src.ChunkID, PageStart: src.PageStart, PageEnd: src.PageEnd,
		PrintedPage: s.printedPage(src.DocID, src.PageStart), CharStart: src.CharStart, CharEnd: src.CharEnd}
}

func (s *Server) passage(h kb.Hit) Passage {
	return Passage{Source: Source{DocID: h.DocID, DocTitle: h.DocTitle, ChunkID: h.ID, PageStart: h.PageStart, PageEnd: h.PageEnd,
		PrintedPage: s.printedPage(h.DocID, h.PageStart), CharStart: h.CharStart, CharEnd: h.CharEnd},
		HeadingPath: h.HeadingPath, TableHeader: h.TableHeader, Score: h.Score, Text: h.Text}
}

// printedPage is the page number printed on a physical page (found by the
// PDF reader among the page's running headers and footers), or "" when the
// page prints none.
// A document's labels are loaded once and kept.
func (s *Server) printedPage(docID int64, page int) string {
	s.labelMu.Lock()
	defer s.labelMu.Unlock()
	labels, ok := s.labels[docID]
	if !ok {
		labels = map[int]string{}
		if pages, err := s.p.Pages(context.Background(), docID, 0); err == nil {
			for _, pg := range pages {
				if pg.Label != "" {
					labels[pg.Number] = pg.Label
				}
			}
		}
		if s.labels == nil {
			s.labels = map[int64]map[int]string{}
		}
		s.labels[docID] = labels
	}
	return labels[page]
}

func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func pagesText(a, b int) string {
	if a == b {
		return "p. " + strconv.Itoa(a)
	}
	return fmt.Sprintf("pp. %d-%d", a, b)
}
