package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"cairn/backend/kb"
	"cairn/backend/store"
)

func (s *Server) outline(ctx context.Context, _ *mcp.CallToolRequest, in OutlineIn) (*mcp.CallToolResult, OutlineOut, error) {
	if in.Kind != "" && in.Kind != "mindmap" && in.Kind != "headings" {
		return nil, OutlineOut{}, fmt.Errorf("kind must be mindmap or headings (got %q)", in.Kind)
	}
	d, err := s.document(ctx, in.DocID)
	if err != nil {
		return nil, OutlineOut{}, err
	}
	out, err := s.buildOutline(ctx, d, in.Kind)
	if err != nil {
		return nil, OutlineOut{}, err
	}
	text := fmt.Sprintf("%s of doc %d. %s\n%s source=%q>\n%s%s", out.Kind, d.ID, DataNotice, fenceOpen, "doc "+fmt.Sprint(d.ID), defuse(out.Markdown), fenceClose)
	return textResult(text), out, nil
}

// buildOutline returns the document's mind map (kind "" or "mindmap", when
// built; the server never builds one, as it does not write to the project)
// or its heading tree.
func (s *Server) buildOutline(ctx context.Context, d kb.Document, kind string) (OutlineOut, error) {
	titles := map[int64]string{d.ID: d.Title}
	out := OutlineOut{Notice: DataNotice, DocID: d.ID, Title: d.Title, Items: []OutlineItem{}}
	if kind != "headings" {
		m, err := s.p.MindMap(ctx, d.ID)
		switch {
		case err == nil:
			out.Kind = "mindmap"
			s.mindItems(m, titles, &out)
			out.Markdown = itemsMarkdown(out.Items)
			return out, nil
		case errors.Is(err, store.ErrNoMindMap) && kind == "":
			// fall through to the heading tree
		case errors.Is(err, store.ErrNoMindMap):
			return out, fmt.Errorf("document %d has no mind map yet (run `cairn index` on the project, or ask for kind headings)", d.ID)
		default:
			return out, err
		}
	}
	out.Kind = "headings"
	chunks, err := s.p.Store().ChunksOfDocument(ctx, d.ID)
	if err != nil {
		return out, err
	}
	var prev []string
	for _, c := range chunks {
		same := 0
		for same < len(prev) && same < len(c.HeadingPath) && prev[same] == c.HeadingPath[same] {
			same++
		}
		for depth := same; depth < len(c.HeadingPath); depth++ {
			src := s.source(kb.Source{DocID: c.DocID, ChunkID: c.ID, PageStart: c.PageStart, PageEnd: c.PageEnd, CharStart: c.CharStart, CharEnd: c.CharEnd}, titles)
			out.Items = append(out.Items, OutlineItem{Depth: depth, Kind: "heading", Label: c.HeadingPath[depth], Source: &src})
		}
		prev = c.HeadingPath
	}
	out.Markdown = itemsMarkdown(out.Items)
	return out, nil
}

// mindItems lists a mind map's nodes depth first, children in map order.
func (s *Server) mindItems(m kb.MindMap, titles map[int64]string, out *OutlineOut) {
	kids := map[int64][]kb.MindNode{}
	ids := map[int64]bool{}
	for _, n := range m.Nodes {
		ids[n.ID] = true
	}
	var roots []kb.MindNode
	for _, n := range m.Nodes {
		if n.Parent == 0 || !ids[n.Parent] {
			roots = append(roots, n)
		} else {
			kids[n.Parent] = append(kids[n.Parent], n)
		}
	}
	var walk func(n kb.MindNode, depth int)
	walk = func(n kb.MindNode, depth int) {
		it := OutlineItem{Depth: depth, Kind: string(n.Kind), Label: n.Label}
		if n.ChunkID != 0 {
			src := s.source(kb.Source{DocID: n.DocID, ChunkID: n.ChunkID, PageStart: n.PageStart, PageEnd: n.PageEnd, CharStart: n.CharStart, CharEnd: n.CharEnd}, titles)
			it.Source = &src
		}
		out.Items = append(out.Items, it)
		for _, c := range kids[n.ID] {
			walk(c, depth+1)
		}
	}
	for _, r := range roots {
		walk(r, 0)
	}
}

// itemsMarkdown renders an outline as an indented Markdown list, facts and
// headings with their pages and passage ids.
func itemsMarkdown(items []OutlineItem) string {
	var b strings.Builder
	for _, it := range items {
		label := kb.OneLine(it.Label)
		if it.Kind == "topic" {
			label = "**" + label + "**"
		}
		b.WriteString(strings.Repeat("  ", it.Depth) + "- " + label)
		if it.Source != nil {
			fmt.Fprintf(&b, " _(%s, passage %d)_", pagesText(it.Source.PageStart, it.Source.PageEnd), it.Source.ChunkID)
		}
		b.WriteByte('\n')
	}
	if len(items) == 0 {
		b.WriteString("(no headings)\n")
	}
	return b.String()
}
