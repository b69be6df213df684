// Package mindmap builds Cairn's per-document mind maps and fuses them
// across documents into a pseudo-graph (PG-RAG, ../shared/research/pgrag.md).
//
// A mind map is a tree: one topic (the document), routes (headings, or key
// phrases of clusters of passages; 1–3 levels) and facts as leaves. Every fact
// keeps its chunk, page span and byte span in the document text, so the map
// opens the page a fact came from.
//
// Two builders share one tree shape: Offline derives the tree from the
// document's structure and text with no model (headings or passage clusters
// as routes, key phrases as sub-routes, salient sentences as facts); LLM asks
// a language model, in one schema-constrained call per document (per section
// for long ones), to organise already-grounded facts under routes, and drops
// anything it cannot trace to a given fact. Fuse clusters similar nodes of
// different documents under supernodes. These cores are pure functions;
// index.go runs them against a project store.
package mindmap

import (
	"strings"

	"cairn/backend/kb"
)

// Tree is a mind map under construction. Node IDs are local: position+1;
// Parent is the local id of the parent (0 for the topic). Parents always come
// before their children.
type Tree struct {
	Nodes []kb.MindNode
}

// add appends a node under parent and returns its local id.
func (t *Tree) add(parent int64, n kb.MindNode) int64 {
	n.ID = int64(len(t.Nodes) + 1)
	n.Parent = parent
	t.Nodes = append(t.Nodes, n)
	return n.ID
}

// PathSep joins the labels of a node's path context.
const PathSep = " › "

// Paths returns each node's path labels from the topic down to it.
func (t Tree) Paths() [][]string {
	return Paths(t.Nodes)
}

// Paths returns each node's path labels from its root down to it, for nodes
// given parents-first with Parent naming another node's ID (0: root).
func Paths(nodes []kb.MindNode) [][]string {
	byID := make(map[int64]int, len(nodes))
	out := make([][]string, len(nodes))
	for i, n := range nodes {
		byID[n.ID] = i
		var p []string
		if j, ok := byID[n.Parent]; ok && n.Parent != 0 {
			p = append(p, out[j]...)
		}
		out[i] = append(p, n.Label)
	}
	return out
}

// PathText is the path context embedded for a node: topic › route › … › node.
func PathText(labels []string) string { return strings.Join(labels, PathSep) }

// Depth is the number of levels of the tree (a topic alone: 1).
func (t Tree) Depth() int {
	d := 0
	for _, p := range t.Paths() {
		d = max(d, len(p))
	}
	return d
}

// prune removes routes that end with no fact below them, keeping ids dense
// and parents first.
func (t *Tree) prune() {
	hasFact := map[int64]bool{}
	parent := map[int64]int64{}
	for _, n := range t.Nodes {
		parent[n.ID] = n.Parent
	}
	for _, n := range t.Nodes {
		if n.Kind == kb.MindFact {
			for p := n.Parent; p != 0 && !hasFact[p]; p = parent[p] {
				hasFact[p] = true
			}
		}
	}
	var keep []kb.MindNode
	remap := map[int64]int64{}
	for _, n := range t.Nodes {
		if n.Kind == kb.MindRoute && !hasFact[n.ID] {
			continue
		}
		old := n.ID
		n.ID = int64(len(keep) + 1)
		n.Parent = remap[n.Parent]
		remap[old] = n.ID
		keep = append(keep, n)
	}
	t.Nodes = keep
}
