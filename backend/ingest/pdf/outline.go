package pdf

import (
	"os"
	"strings"
	"unicode"

	lp "github.com/ledongthuc/pdf"

	"cairn/backend/ingest/parsed"
)

// The document outline (bookmarks): the author's own table of contents,
// each entry a title, a depth and a destination page. Where an entry's
// title matches a paragraph on its page, that paragraph is a heading of
// the entry's depth, whatever its size or weight; the layout rules still
// find the headings the outline leaves out.

const (
	maxOutlineEntries = 5000
	maxOutlineDepth   = 16
	maxNameTreeNodes  = 20000
)

// outlineSwitchedOff reports whether CAIRN_PDF_OUTLINE=0 leaves the
// outline unused, so that headings come from the layout rules alone: a
// switch for measuring those rules against the bookmarks (tools/
// corpuscheck), not for users.
func outlineSwitchedOff() bool { return os.Getenv("CAIRN_PDF_OUTLINE") == "0" }

// Bookmark is one entry of a PDF's outline: its title (white space
// collapsed), its depth (1 for the top level) and the page it points to
// (1-based).
type Bookmark struct {
	Title string
	Depth int
	Page  int
}

// Bookmarks reads a PDF's outline, in document order, keeping the entries
// whose destination is a page of the file. A file without an outline, or
// one the first reader cannot open, has none (the error says why it could
// not be opened).
func Bookmarks(data []byte, password string) ([]Bookmark, error) {
	if err := sniff(data); err != nil {
		return nil, err
	}
	r, err := openLP(normalise(data), password)
	if err != nil {
		return nil, err
	}
	var out []Bookmark
	err = guard(func() {
		tree := enumeratePages(r, parsed.DefaultMaxPages)
		pageIndex := make(map[uint64]int, len(tree.pages))
		for i, p := range tree.pages {
			if id := objectID(p.v); id != 0 {
				pageIndex[id] = i
			}
		}
		for _, e := range outlineEntries(r, pageIndex) {
			out = append(out, Bookmark{Title: e.title, Depth: e.depth, Page: e.page + 1})
		}
	})
	return out, err
}

// outlineEntry is one bookmark: its title, depth (1 for the top level)
// and the index of the page it points to.
type outlineEntry struct {
	title string
	depth int
	page  int
}

// outlineEntries reads the catalog's /Outlines. pageIndex maps page
// object ids to page indexes; entries whose destination is not a known
// page are dropped. A damaged outline yields what could be read.
func outlineEntries(r *lp.Reader, pageIndex map[uint64]int) (out []outlineEntry) {
	defer func() {
		if recover() != nil {
			out = nil
		}
	}()
	root := key(r.Trailer(), "Root")
	first := key(key(root, "Outlines"), "First")
	if first.Kind() != lp.Dict {
		return nil
	}
	names := &destNames{root: root}
	seen := map[uint64]bool{}
	var walk func(item lp.Value, depth int)
	walk = func(item lp.Value, depth int) {
		for n := 0; item.Kind() == lp.Dict && n < maxOutlineEntries && len(out) < maxOutlineEntries; n++ {
			if id := objectID(item); id != 0 {
				if seen[id] {
					return
				}
				seen[id] = true
			}
			if page, ok := pageIndex[objectID(names.page(destOf(item)))]; ok {
				if t := strings.Join(strings.Fields(key(item, "Title").Text()), " "); t != "" {
					out = append(out, outlineEntry{title: t, depth: depth, page: page})
				}
			}
			if depth < maxOutlineDepth {
				walk(key(item, "First"), depth+1)
			}
			item = key(item, "Next")
		}
	}
	walk(first, 1)
	return out
}

// destOf is an outline item's destination: /Dest, or the /D of a GoTo
// action.
func destOf(item lp.Value) lp.Value {
	if d := key(item, "Dest"); d.Kind() != lp.Null {
		return d
	}
	if a := key(item, "A"); key(a, "S").Name() == "GoTo" {
		return key(a, "D")
	}
	return lp.Value{}
}

// destNames resolves named destinations through the catalog's /Dests
// dictionary (PDF 1.1) or its /Names /Dests name tree.
type destNames struct {
	root  lp.Value
	tree  map[string]lp.Value
	built bool
}

// page returns the page object a destination points to: the first
// element of an explicit destination array, after resolving a name.
func (d *destNames) page(dest lp.Value) lp.Value {
	for range 2 {
		switch dest.Kind() {
		case lp.Array:
			return index(dest, 0)
		case lp.Dict: // a destination dictionary holds the array in /D
			dest = key(dest, "D")
		case lp.Name, lp.String:
			name := dest.Name()
			if dest.Kind() == lp.String {
				name = dest.RawString()
			}
			dest = d.lookup(name)
		default:
			return lp.Value{}
		}
	}
	if dest.Kind() == lp.Array {
		return index(dest, 0)
	}
	return lp.Value{}
}

// lookup finds a named destination.
func (d *destNames) lookup(name string) lp.Value {
	if v := key(key(d.root, "Dests"), name); v.Kind() != lp.Null {
		return v
	}
	if !d.built {
		d.built = true
		d.tree = map[string]lp.Value{}
		nodes := 0
		var walk func(n lp.Value, depth int)
		walk = func(n lp.Value, depth int) {
			if depth > maxOutlineDepth || nodes > maxNameTreeNodes {
				return
			}
			nodes++
			names := key(n, "Names")
			for i := 0; i+1 < names.Len() && len(d.tree) < maxNameTreeNodes; i += 2 {
				d.tree[index(names, i).RawString()] = index(names, i+1)
			}
			kids := key(n, "Kids")
			for i := 0; i < kids.Len(); i++ {
				walk(index(kids, i), depth+1)
			}
		}
		walk(key(key(d.root, "Names"), "Dests"), 0)
	}
	return d.tree[name]
}

// markOutlineHeadings sets the outline depth of the paragraphs whose
// text is an outline entry's title, on the entry's page (or the next,
// for destinations that point just above the heading).
func markOutlineHeadings(pages []pageOut, entries []outlineEntry) {
	for _, e := range entries {
		want := headingKey(e.title)
		if want == "" {
			continue
		}
	pages:
		for p := e.page; p < len(pages) && p <= e.page+1; p++ {
			for i := range pages[p].paras {
				q := &pages[p].paras[i]
				if q.outline == 0 && !q.table && !q.furniture && !q.contents && headingKey(q.text) == want {
					q.outline = e.depth
					break pages
				}
			}
		}
	}
}

// headingKey is a title as compared with page text: letters and digits
// only, lower case.
func headingKey(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}
