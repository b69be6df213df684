package mindmap

import (
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"

	"cairn/backend/kb"
)

// children groups nodes by parent id, keeping their order.
func children(m kb.MindMap) (roots []kb.MindNode, kids map[int64][]kb.MindNode) {
	kids = map[int64][]kb.MindNode{}
	ids := map[int64]bool{}
	for _, n := range m.Nodes {
		ids[n.ID] = true
	}
	for _, n := range m.Nodes {
		if n.Parent == 0 || !ids[n.Parent] {
			roots = append(roots, n)
			continue
		}
		kids[n.Parent] = append(kids[n.Parent], n)
	}
	return roots, kids
}

func pages(n kb.MindNode) string {
	if n.PageStart == 0 {
		return ""
	}
	if n.PageEnd > n.PageStart {
		return fmt.Sprintf("p. %d–%d", n.PageStart, n.PageEnd)
	}
	return fmt.Sprintf("p. %d", n.PageStart)
}

// Export writes a map as a file in format "md" (the Markdown outline under
// the title as its heading) or "opml": what `cairn mindmap --format` prints
// and the app's export buttons save, from this one writer.
func Export(w io.Writer, format, title string, m kb.MindMap) error {
	switch format {
	case "md":
		if _, err := fmt.Fprintf(w, "# %s\n\n", kb.OneLine(title)); err != nil {
			return err
		}
		return WriteMarkdown(w, m)
	case "opml":
		return WriteOPML(w, title, m)
	}
	return fmt.Errorf("mind map export: no format %q (md or opml)", format)
}

// WriteMarkdown writes a map as an indented Markdown outline: one bullet per
// node, facts with their page, supernodes listed after the trees.
func WriteMarkdown(w io.Writer, m kb.MindMap) error {
	roots, kids := children(m)
	var walk func(n kb.MindNode, depth int) error
	walk = func(n kb.MindNode, depth int) error {
		line := strings.Repeat("  ", depth) + "- "
		label := mdEscape(n.Label)
		switch n.Kind {
		case kb.MindTopic:
			line += "**" + label + "**"
		case kb.MindFact:
			line += label
			if p := pages(n); p != "" {
				line += fmt.Sprintf(" _(%s, chunk %d)_", p, n.ChunkID)
			}
		default:
			line += label
		}
		if n.Supernode != 0 {
			line += fmt.Sprintf(" [S%d]", n.Supernode)
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
		for _, c := range kids[n.ID] {
			if err := walk(c, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	for _, r := range roots {
		if err := walk(r, 0); err != nil {
			return err
		}
	}
	if len(m.Supernodes) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "## Shared across documents")
		fmt.Fprintln(w)
		for _, s := range m.Supernodes {
			docs := make([]string, len(s.DocIDs))
			for i, d := range s.DocIDs {
				docs[i] = fmt.Sprint(d)
			}
			if _, err := fmt.Fprintf(w, "- [S%d] %s (%s; %d nodes; documents %s)\n", s.ID, mdEscape(s.Label), s.Kind, len(s.Members), strings.Join(docs, ", ")); err != nil {
				return err
			}
		}
	}
	return nil
}

func mdEscape(s string) string {
	r := strings.NewReplacer("\n", " ", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "`", "\\`")
	return r.Replace(s)
}

// OPML 2.0 document (http://opml.org/spec2.opml).
type opmlDoc struct {
	XMLName xml.Name    `xml:"opml"`
	Version string      `xml:"version,attr"`
	Head    opmlHead    `xml:"head"`
	Body    opmlOutline `xml:"body"`
}

type opmlHead struct {
	Title string `xml:"title"`
}

type opmlOutline struct {
	Text     string        `xml:"text,attr,omitempty"`
	Type     string        `xml:"type,attr,omitempty"`
	Kind     string        `xml:"kind,attr,omitempty"`
	NodeID   int64         `xml:"nodeId,attr,omitempty"`
	DocID    int64         `xml:"docId,attr,omitempty"`
	ChunkID  int64         `xml:"chunkId,attr,omitempty"`
	Pages    string        `xml:"pages,attr,omitempty"`
	Super    int64         `xml:"supernode,attr,omitempty"`
	Outlines []opmlOutline `xml:"outline"`
}

// WriteOPML writes a map as OPML 2.0: one outline per node (text = label,
// with kind, node, document, chunk and page attributes), supernodes as a
// last top-level outline listing their members' labels.
func WriteOPML(w io.Writer, title string, m kb.MindMap) error {
	roots, kids := children(m)
	var build func(n kb.MindNode) opmlOutline
	build = func(n kb.MindNode) opmlOutline {
		o := opmlOutline{Text: n.Label, Kind: string(n.Kind), NodeID: n.ID, DocID: n.DocID, ChunkID: n.ChunkID, Pages: pages(n), Super: n.Supernode}
		for _, c := range kids[n.ID] {
			o.Outlines = append(o.Outlines, build(c))
		}
		return o
	}
	doc := opmlDoc{Version: "2.0", Head: opmlHead{Title: title}}
	for _, r := range roots {
		doc.Body.Outlines = append(doc.Body.Outlines, build(r))
	}
	if len(m.Supernodes) > 0 {
		label := map[int64]string{}
		for _, n := range m.Nodes {
			label[n.ID] = n.Label
		}
		shared := opmlOutline{Text: "Shared across documents"}
		for _, s := range m.Supernodes {
			o := opmlOutline{Text: s.Label, Kind: "supernode", NodeID: s.ID}
			members := append([]int64(nil), s.Members...)
			sort.Slice(members, func(a, b int) bool { return members[a] < members[b] })
			for _, id := range members {
				o.Outlines = append(o.Outlines, opmlOutline{Text: label[id], NodeID: id})
			}
			shared.Outlines = append(shared.Outlines, o)
		}
		doc.Body.Outlines = append(doc.Body.Outlines, shared)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
