package search

import "cairn/backend/kb"

// Pages spread: the first results of a search are what a person reads, and
// two passages of one page (the two halves of a balance sheet, a heading
// and the paragraph under it) show one place where they could show two. A
// passage whose pages all lie under passages ranked above it moves after
// the passages of pages not yet shown, keeping its order among the moved
// ones: like a web search showing one result per site before a site's
// second. The answer pipeline reads passages in rank order (package
// retrieve); only search results are spread.

// spreadPages orders hits (best first) so that passages on pages not yet
// shown come before passages whose every page is shown already. A
// document whose passages among hits all lie on one page (a text file, one
// long page) is left in rank order: there the page tells nothing apart.
func spreadPages(hits []kb.Hit) []kb.Hit {
	type place struct {
		doc  int64
		page int
	}
	first := map[int64]int{}
	paged := map[int64]bool{}
	for _, h := range hits {
		if p, ok := first[h.DocID]; !ok {
			first[h.DocID] = h.PageStart
		} else if p != h.PageStart || h.PageEnd != h.PageStart {
			paged[h.DocID] = true
		}
		if h.PageEnd != h.PageStart {
			paged[h.DocID] = true
		}
	}
	shown := map[place]bool{}
	out := make([]kb.Hit, 0, len(hits))
	var later []kb.Hit
	for _, h := range hits {
		if !paged[h.DocID] || h.PageStart <= 0 {
			out = append(out, h)
			continue
		}
		fresh := false
		for p := h.PageStart; p <= max(h.PageStart, h.PageEnd); p++ {
			if !shown[place{h.DocID, p}] {
				fresh = true
				shown[place{h.DocID, p}] = true
			}
		}
		if fresh {
			out = append(out, h)
		} else {
			later = append(later, h)
		}
	}
	return append(out, later...)
}
