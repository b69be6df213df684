package pdf

import (
	"strconv"
	"strings"

	lp "github.com/ledongthuc/pdf"

	"cairn/backend/ingest/numerals"
)

// Page labels: the catalog's /PageLabels number tree gives the numbers a
// document prints on its pages ("i", "ii", …, "1", "2", "A-1"). They are
// the pages' printed labels when present; otherwise the labels come from
// page numbers found among the running headers and footers.

const maxLabelRanges = 10000

// pageLabels returns the label of each of the first n pages from the
// document's /PageLabels, or nil when it has none.
func pageLabels(r *lp.Reader, n int) (labels []string) {
	defer func() {
		if recover() != nil {
			labels = nil
		}
	}()
	tree := key(key(r.Trailer(), "Root"), "PageLabels")
	if tree.Kind() != lp.Dict {
		return nil
	}
	type rng struct {
		start  int
		style  string
		prefix string
		first  int
	}
	var rs []rng
	var walk func(node lp.Value, depth int)
	walk = func(node lp.Value, depth int) {
		if depth > 16 || len(rs) > maxLabelRanges {
			return
		}
		nums := key(node, "Nums")
		for i := 0; i+1 < nums.Len() && len(rs) <= maxLabelRanges; i += 2 {
			at, ok := num(index(nums, i))
			d := index(nums, i+1)
			if !ok || at < 0 || d.Kind() != lp.Dict {
				continue
			}
			first := 1
			if st, ok := num(key(d, "St")); ok && st >= 1 && st < 1e6 {
				first = int(st)
			}
			rs = append(rs, rng{start: int(at), style: key(d, "S").Name(), prefix: key(d, "P").Text(), first: first})
		}
		kids := key(node, "Kids")
		for i := 0; i < kids.Len() && i < 1000; i++ {
			walk(index(kids, i), depth+1)
		}
	}
	walk(tree, 0)
	if len(rs) == 0 {
		return nil
	}
	labels = make([]string, n)
	for i := range labels {
		cur := -1
		for j, x := range rs {
			if x.start <= i && (cur < 0 || x.start >= rs[cur].start) {
				cur = j
			}
		}
		if cur < 0 {
			continue
		}
		x := rs[cur]
		labels[i] = x.prefix + formatLabel(x.style, x.first+i-x.start)
	}
	return labels
}

// formatLabel writes page number k in a /PageLabels style: D decimal, R/r
// roman, A/a letters (A..Z, AA..ZZ, …); no style is the prefix alone.
func formatLabel(style string, k int) string {
	switch style {
	case "D":
		return strconv.Itoa(k)
	case "R":
		return numerals.Roman(k)
	case "r":
		return strings.ToLower(numerals.Roman(k))
	case "A", "a":
		if k < 1 {
			return ""
		}
		return numerals.Letters(k, rune(style[0]))
	}
	return ""
}
