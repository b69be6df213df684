package pdf

import (
	lp "github.com/ledongthuc/pdf"
)

// pageRef is one leaf of the page tree with its inherited attributes.
type pageRef struct {
	v         lp.Value
	resources lp.Value
	box       [4]float64 // MediaBox (llx lly urx ury)
	hasBox    bool
	crop      [4]float64 // CropBox: the part of the page a reader sees
	hasCrop   bool
}

// area is the page's area in default user space units, or a Letter page
// if the box is missing or degenerate.
func (p pageRef) area() float64 {
	w, h := p.box[2]-p.box[0], p.box[3]-p.box[1]
	a := abs(w * h)
	if a < 1 {
		return 612 * 792
	}
	return a
}

// visibleBox is the part of the page a reader sees: the CropBox within the
// MediaBox, or the MediaBox.
func (p pageRef) visibleBox() [4]float64 {
	if !p.hasCrop {
		return p.box
	}
	b := [4]float64{max(p.box[0], p.crop[0]), max(p.box[1], p.crop[1]), min(p.box[2], p.crop[2]), min(p.box[3], p.crop[3])}
	if b[2]-b[0] < 10 || b[3]-b[1] < 10 {
		return p.box
	}
	return b
}

// pageTree is the result of enumerating the page tree.
type pageTree struct {
	pages     []pageRef
	truncated bool // stopped at the page cap
	declared  int  // the root's /Count (may lie)
	damaged   int  // nodes that could not be read
}

const maxTreeDepth = 64

// treeFrame is a pending node: kids[idx] of a parent (resolved only when
// popped, so a huge /Kids array costs nothing beyond the page cap), or the
// root itself when kids is null.
type treeFrame struct {
	node      lp.Value
	kids      lp.Value
	idx       int
	resources lp.Value
	box       [4]float64
	hasBox    bool
	crop      [4]float64
	hasCrop   bool
	depth     int
}

// enumeratePages walks /Root /Pages depth-first in document order. It
// never trusts /Count, skips nodes it has already visited (cycles, shared
// subtrees), bounds the depth and the number of nodes visited, and stops
// after maxPages pages.
func enumeratePages(r *lp.Reader, maxPages int) pageTree {
	var t pageTree
	var root lp.Value
	guard(func() { root = key(key(r.Trailer(), "Root"), "Pages") })
	if c, ok := num(key(root, "Count")); ok {
		t.declared = int(c)
	}
	visited := map[uint64]bool{}
	maxNodes := 4*maxPages + 1000
	nodes := 0
	stack := []treeFrame{{node: root}}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f.kids.Kind() == lp.Array {
			f.node = index(f.kids, f.idx)
		}
		nodes++
		if nodes > maxNodes {
			t.truncated = true
			break
		}
		if id := objectID(f.node); id != 0 {
			if visited[id] {
				continue
			}
			visited[id] = true
		}
		if f.node.Kind() != lp.Dict {
			t.damaged++
			continue
		}
		if res := key(f.node, "Resources"); res.Kind() == lp.Dict {
			f.resources = res
		}
		// The MediaBox, as pdftotext uses by default: the CropBox may hide
		// printer's marks that are still part of the page's text.
		if b, ok := readBox(key(f.node, "MediaBox")); ok {
			f.box, f.hasBox = b, true
		}
		if b, ok := readBox(key(f.node, "CropBox")); ok {
			f.crop, f.hasCrop = b, true
		}
		kids := key(f.node, "Kids")
		typ := key(f.node, "Type").Name()
		if typ == "Page" || typ != "Pages" && kids.Kind() != lp.Array {
			if len(t.pages) >= maxPages {
				t.truncated = true
				break
			}
			t.pages = append(t.pages, pageRef{v: f.node, resources: f.resources, box: f.box, hasBox: f.hasBox, crop: f.crop, hasCrop: f.hasCrop})
			continue
		}
		if f.depth >= maxTreeDepth {
			t.damaged++
			continue
		}
		// Push kids in reverse so they pop in document order.
		n := kids.Len()
		for i := n - 1; i >= 0; i-- {
			stack = append(stack, treeFrame{
				kids: kids, idx: i, resources: f.resources,
				box: f.box, hasBox: f.hasBox, crop: f.crop, hasCrop: f.hasCrop, depth: f.depth + 1,
			})
		}
		if len(stack) > maxNodes {
			stack = stack[len(stack)-maxNodes:]
			t.truncated = true
		}
	}
	return t
}

// readBox reads a rectangle array.
func readBox(v lp.Value) ([4]float64, bool) {
	var b [4]float64
	if v.Kind() != lp.Array || v.Len() != 4 {
		return b, false
	}
	for i := range b {
		x, ok := num(index(v, i))
		if !ok {
			return b, false
		}
		b[i] = x
	}
	if b[0] > b[2] {
		b[0], b[2] = b[2], b[0]
	}
	if b[1] > b[3] {
		b[1], b[3] = b[3], b[1]
	}
	return b, true
}
