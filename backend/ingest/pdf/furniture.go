package pdf

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Page furniture: running headers and footers, page numbers and printer's
// marks. A paragraph is furniture when it sits in the top or bottom band
// of its page (by its box, or, for pages read without geometry, as one of
// the first or last two paragraphs) and either reads as a page number or
// repeats, numbers masked, in the same band of at least three pages (both
// pages of a two-page document). A repeat placed by geometry must also
// run as a header or footer does (runningPages): at one distance from
// the page's edge, on pages near one another; a note or a link that
// several pages happen to begin or end with is text; so is a repeat with
// the page's own text between it and the page's edge (a statement's
// "(in millions)" under its title: a header runs at the edge, nothing of
// the page's own before it). A numbered caption ("TABLE II", "Figure 3")
// is no furniture though its words repeat, numbers masked, at the top of
// several pages: successive tables set at their pages' tops. Furniture is
// kept as page metadata, out of the text; a page number found there
// becomes the page's label.

const (
	furnitureBand     = 0.12 // share of the page height (centre of the paragraph) at the top and at the bottom
	furnitureMaxRunes = 200
	furnitureMinPages = 3
)

// pageNumberRE matches a paragraph that is only a page number, in the
// usual dressings: "7", "- 7 -", "Page 7", "Page 7 of 48", "7/48", "iv",
// "第 3 页", "第 3 页 共 20 页", "共 20 页 第 3 页".
var pageNumberRE = regexp.MustCompile(`^(?i)[\s\-–—|]*(?:(?:page|p\.|pg\.?|seite|página|pagina)\s*)?(\d{1,6}|[ivxlc]{1,7})(?:\s*(?:of|/|de|von|sur)\s*\d{1,5})?[\s\-–—|]*$|^第\s*(\d{1,4})\s*页(?:\s*[,，]?\s*共\s*\d{1,5}\s*页)?$|^共\s*\d{1,5}\s*页\s*[,，]?\s*第\s*(\d{1,4})\s*页$|^-\s*(\d{1,4})\s*-$`)

// edgeNumberRE finds the page number that opens or closes a running
// header or footer ("2 Row and Column Access Control", "Rules and
// Regulations 56123").
var edgeNumberRE = regexp.MustCompile(`^(\d{1,5})\s+\pL.*\pL$|^\pL.*\pL\s+(\d{1,5})$`)

// pageWordRE finds "Page 7" inside a running header or footer.
var pageWordRE = regexp.MustCompile(`(?i)\b(?:page|p\.)\s*(\d{1,4}|[ivxlc]{1,7})\b|第\s*(\d{1,4})\s*页`)

// furnitureKey is a paragraph's text as compared across pages: lower case,
// spaces collapsed, every number (arabic or roman) as '#'.
func furnitureKey(text string) string {
	var b strings.Builder
	for _, w := range strings.Fields(strings.ToLower(text)) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if romanRE.MatchString(w) {
			b.WriteByte('#')
			continue
		}
		inNum := false
		for _, r := range w {
			if unicode.IsDigit(r) {
				if !inNum {
					b.WriteByte('#')
				}
				inNum = true
				continue
			}
			inNum = false
			b.WriteRune(r)
		}
	}
	return b.String()
}

var romanRE = regexp.MustCompile(`^[ivxlc]{1,7}[.,]?$`)

// bandOf says whether paragraph i of page p is in the top (1) or bottom
// (2) band of its page, above (3) or below (4) its visible part (the
// CropBox), turned along its left (5) or right (6) edge, or none of these
// (0). Only bands 3 and 4 are furniture without repeating.
func bandOf(p *pageOut, i int) int {
	q := &p.paras[i]
	if q.table || q.runes > furnitureMaxRunes || q.lines > 3 {
		return 0
	}
	if q.hasBox && p.hasBox {
		h := p.box[3] - p.box[1]
		if h <= 0 {
			return 0
		}
		w := p.box[2] - p.box[0]
		switch cy := (q.box[1] + q.box[3]) / 2; {
		case cy > p.box[3]:
			return 3 // above the visible page: a printer's slug
		case cy < p.box[1]:
			return 4 // below it
		case !q.upright && q.box[2] <= p.box[0]+furnitureBand*w:
			return 5 // turned along the left edge (a slug, an arXiv stamp)
		case !q.upright && q.box[0] >= p.box[2]-furnitureBand*w:
			return 6 // along the right edge
		case cy >= p.box[3]-furnitureBand*h:
			return 1
		case cy <= p.box[1]+furnitureBand*h:
			return 2
		}
		return 0
	}
	if q.runes > 120 || q.lines > 2 {
		return 0
	}
	switch {
	case i < 2:
		return 1
	case i >= len(p.paras)-2:
		return 2
	}
	return 0
}

// markFurniture flags the furniture paragraphs of every page and records
// them, and the printed page number, in the page's info.
func markFurniture(pages []pageOut) {
	stripPlainFurniture(pages)
	type slot struct {
		band int
		key  string
	}
	seen := map[slot]map[int]bool{}
	placed := map[slot][]edgeMark{} // top and bottom band repeats placed by geometry
	for pi := range pages {
		p := &pages[pi]
		for i := range p.paras {
			b := bandOf(p, i)
			if b == 0 {
				continue
			}
			k := slot{b, furnitureKey(p.paras[i].text)}
			if k.key == "" || k.key == "#" {
				continue
			}
			if seen[k] == nil {
				seen[k] = map[int]bool{}
			}
			seen[k][pi] = true
			if q := &p.paras[i]; (b == 1 || b == 2) && q.hasBox && p.hasBox {
				d := p.box[3] - q.box[3] // a header's distance from the top
				if b == 2 {
					d = q.box[1] - p.box[1] // a footer's from the bottom
				}
				placed[k] = append(placed[k], edgeMark{pi, d, p.box[3] - p.box[1]})
			}
		}
	}
	need := furnitureMinPages
	if len(pages) == 2 {
		need = 2
	}
	for k, marks := range placed {
		run := runningPages(marks, need)
		for _, m := range marks {
			if !run[m.page] {
				delete(seen[k], m.page)
			}
		}
	}
	for pi := range pages {
		p := &pages[pi]
		for i := range p.paras {
			q := &p.paras[i]
			b := bandOf(p, i)
			if b == 0 {
				continue
			}
			t := strings.TrimSpace(q.text)
			num := pageNumberRE.FindStringSubmatch(t)
			k := slot{b, furnitureKey(t)}
			if num == nil && (len(seen[k]) < need || !seen[k][pi]) && (b < 3 || b > 4) && !((b == 5 || b == 6) && onlyTurnedInMargin(p)) {
				continue
			}
			if num == nil && pi == 0 && (b == 1 || b == 2) && !pageWordRE.MatchString(t) {
				continue // the first page's title, which a running header repeats
			}
			if num == nil && (b == 1 || b == 2) && captionRE.MatchString(t) {
				continue // a numbered caption ("TABLE II") heading a table at the page's top: each page's another
			}
			if num == nil && (b == 1 || b == 2) && ownTextOutside(p, i, b, func(j int) bool {
				k := slot{bandOf(p, j), furnitureKey(strings.TrimSpace(p.paras[j].text))}
				return len(seen[k]) >= need && seen[k][pi]
			}) {
				continue // the page's own text stands between it and the edge
			}
			q.furniture = true
			p.info.Furniture = append(p.info.Furniture, strings.Join(strings.Fields(t), " "))
			if p.info.Label != "" {
				continue
			}
			if num != nil {
				p.info.Label = firstNonEmpty(num[1:])
			} else if m := pageWordRE.FindStringSubmatch(t); m != nil {
				p.info.Label = firstNonEmpty(m[1:])
			}
		}
		keepAlone(p)
	}
	sequencedNumbers(pages, need)
	printedLabels(pages)
}

// bareNumberRE matches a paragraph that is a number alone, bare or in
// parentheses ("12", "(1)").
var bareNumberRE = regexp.MustCompile(`^\(?(\d{1,4})\)?$`)

// sequencedNumbers takes page numbers printed inside the page's text
// frame, below the furniture bands (a hearing transcript's small pages
// set on letter paper: "2" over the text, "(1)" under the first page's):
// a number alone that opens or closes its page's text is the page's
// number when it follows the page order in a run of at least need pages
// (sequenceRuns; an exhibit numbered from 1 again is a run of its own). A
// page whose first line happens to be a number follows no such run.
func sequencedNumbers(pages []pageOut, need int) {
	type cand struct{ page, para, n int }
	var cands []cand
	for pi := range pages {
		p := &pages[pi]
		first, last := -1, -1
		for i := range p.paras {
			if !p.paras[i].furniture {
				if first < 0 {
					first = i
				}
				last = i
			}
		}
		ends := []int{first, last}
		if first == last {
			ends = ends[:1]
		}
		for _, i := range ends {
			if i < 0 || p.paras[i].table {
				continue
			}
			if m := bareNumberRE.FindStringSubmatch(strings.TrimSpace(p.paras[i].text)); m != nil {
				n, _ := strconv.Atoi(m[1])
				cands = append(cands, cand{pi, i, n})
			}
		}
	}
	offs := make([]int, len(cands))
	pageOf := make([]int, len(cands))
	for k, c := range cands {
		offs[k], pageOf[k] = c.n-c.page, c.page
	}
	keep := sequenceRuns(pageOf, offs, need)
	for k, c := range cands {
		p := &pages[c.page]
		if !keep[k] || p.paras[c.para].furniture {
			continue
		}
		p.paras[c.para].furniture = true
		p.info.Furniture = append(p.info.Furniture, strconv.Itoa(c.n))
		keepAlone(p)
	}
}

// ownTextOutside reports whether paragraph i, a repeat in the top (band
// 1) or bottom (2) band of page p, has some of the page's own text
// between it and that edge: a paragraph above it (below it, for band 2)
// across its width that is no repeat (repeated says whether paragraph j
// repeats as furniture does) and no page number. A header runs at the
// page's edge; a line under the page's own title is part of the page.
func ownTextOutside(p *pageOut, i, band int, repeated func(j int) bool) bool {
	q := &p.paras[i]
	if !q.hasBox || !p.hasBox {
		return false
	}
	for j := range p.paras {
		o := &p.paras[j]
		if j == i || !o.hasBox || o.box[0] >= q.box[2] || o.box[2] <= q.box[0] {
			continue
		}
		if band == 1 && o.box[1] < q.box[3] || band == 2 && o.box[3] > q.box[1] {
			continue // not wholly above (below) it
		}
		t := strings.TrimSpace(o.text)
		if t == "" || pageNumberRE.MatchString(t) || repeated(j) {
			continue
		}
		return true
	}
	return false
}

// printedLabels chooses each page's printed number among the numbers its
// furniture holds: the one that follows the page order with the offset
// most pages share, so a chart's axis "0" or a year in a footer is not
// taken for the page number. A page whose numbers all break the order
// gets none; words ("iv", "A-3") are taken when the page has no number.
func printedLabels(pages []pageOut) {
	cands := make([][]string, len(pages))
	edges := make([][]int, len(pages))
	offsets := map[int]int{}
	for i, p := range pages {
		seen := map[int]bool{}
		for _, f := range p.info.Furniture {
			m := pageWordRE.FindStringSubmatch(f)
			if m == nil {
				m = pageNumberRE.FindStringSubmatch(f)
			}
			edge := false
			if m == nil {
				m, edge = edgeNumberRE.FindStringSubmatch(f), true
			}
			if m == nil {
				continue
			}
			l := firstNonEmpty(m[1:])
			if l == "" || strings.TrimLeft(l, "0") == "" {
				continue
			}
			n, err := strconv.Atoi(l)
			if edge {
				// a number at a header's edge ("Annual report 2020") is a
				// label only where it follows the page order (below)
				edges[i] = append(edges[i], n)
			} else {
				cands[i] = append(cands[i], l)
			}
			if err == nil && !seen[n-i] {
				seen[n-i] = true
				offsets[n-i]++
			}
		}
	}
	best, bestN := 0, 0
	for off, n := range offsets {
		if n > bestN || n == bestN && off < best {
			best, bestN = off, n
		}
	}
	// Numbers that run in the page order over three pages or more hold
	// though another run is longer: an exhibit numbered from 1 again.
	type pageNum struct{ page, n int }
	var found []pageNum
	for i, ls := range cands {
		for _, l := range ls {
			if n, err := strconv.Atoi(l); err == nil {
				found = append(found, pageNum{i, n})
			}
		}
	}
	pagesOf, offs := make([]int, len(found)), make([]int, len(found))
	for k, f := range found {
		pagesOf[k], offs[k] = f.page, f.n-f.page
	}
	inRun := map[pageNum]bool{}
	for k, ok := range sequenceRuns(pagesOf, offs, furnitureMinPages) {
		if ok {
			inRun[found[k]] = true
		}
	}
	for i := range pages {
		label, numeric := "", false
		for _, l := range cands[i] {
			n, err := strconv.Atoi(l)
			switch {
			case err != nil:
				if label == "" && !numeric {
					label = l
				}
			case bestN < 2 || n-i == best || inRun[pageNum{i, n}]:
				if !numeric {
					label, numeric = l, true
				}
			}
		}
		if !numeric && bestN >= 2 {
			for _, n := range edges[i] {
				if n-i == best {
					label = strconv.Itoa(n)
					break
				}
			}
		}
		pages[i].info.Label = label
	}
}

// edgeMark is one page's repeat of a header or footer candidate: the
// page, the paragraph's distance from the page's top (headers) or bottom
// (footers) edge, and the page's height.
type edgeMark struct {
	page           int
	edge, pageSize float64
}

// runningPages returns the pages on which a repeated header or footer
// candidate runs as furniture does: among the repeats that stand at one
// distance from the page's edge (within 1.5 % of the page height, at
// least 3 points) there are at least need pages, and at least need of
// them have another such page within two pages (every page, or every
// other page of a spread). A note that begins four pages scattered over
// a manual, or the last link of a list that ends wherever its text
// ends, does not run.
func runningPages(marks []edgeMark, need int) map[int]bool {
	run := map[int]bool{}
	for _, m := range marks {
		if run[m.page] {
			continue
		}
		tol := max(3, 0.015*m.pageSize)
		in := map[int]bool{}
		for _, o := range marks {
			if d := o.edge - m.edge; d <= tol && d >= -tol {
				in[o.page] = true
			}
		}
		near := 0
		for g := range in {
			if in[g-1] || in[g+1] || in[g-2] || in[g+2] {
				near++
			}
		}
		if len(in) < need || near < need {
			continue
		}
		for g := range in {
			run[g] = true
		}
	}
	return run
}

// onlyTurnedInMargin reports whether every turned (not upright) paragraph
// of the page lies in a side margin: a lone stamp along the edge (an arXiv
// identifier, a "downloaded from" notice) is furniture even on one page,
// while a table set sideways has turned text across the page.
func onlyTurnedInMargin(p *pageOut) bool {
	for i := range p.paras {
		if q := &p.paras[i]; !q.upright && q.hasBox {
			if b := bandOf(p, i); b != 5 && b != 6 {
				return false
			}
		}
	}
	return true
}

// keepAlone unmarks the furniture of a page that has nothing else: a page
// whose only text is "Page 7" says just that.
func keepAlone(p *pageOut) {
	for _, q := range p.paras {
		if !q.furniture {
			return
		}
	}
	for i := range p.paras {
		p.paras[i].furniture = false
	}
	p.info.Furniture, p.info.Label = nil, ""
}

// firstNonEmpty returns the first non-empty string.
func firstNonEmpty(ss []string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// plainEdgeLines is how many lines at the top and at the bottom of a page
// read without geometry (the fallback engine, OCR) are furniture candidates.
const plainEdgeLines = 3

// stripPlainFurniture handles pages read without geometry, whose running
// header often shares a paragraph with the text below it: the first and
// last lines of each such page that read as a page number, or repeat
// (numbers masked) at the same edge of enough pages, are taken out of the
// text into the page's furniture, and the rest is split into paragraphs
// again.
func stripPlainFurniture(pages []pageOut) {
	type slot struct {
		top bool
		key string
	}
	lines := make([][]string, len(pages))
	seen := map[slot]map[int]bool{}
	plain := 0
	for pi := range pages {
		p := &pages[pi]
		if p.hasBox || len(p.paras) == 0 || p.paras[0].hasBox {
			continue
		}
		plain++
		for _, q := range p.paras {
			for _, l := range strings.Split(q.text, "\n") {
				if l = strings.TrimSpace(l); l != "" {
					lines[pi] = append(lines[pi], l)
				}
			}
		}
		ls := lines[pi]
		for i, l := range ls {
			top, bottom := i < plainEdgeLines, i >= len(ls)-plainEdgeLines
			for _, t := range []bool{true, false} {
				if t && !top || !t && !bottom {
					continue
				}
				k := slot{t, furnitureKey(l)}
				if k.key == "" || k.key == "#" {
					continue
				}
				if seen[k] == nil {
					seen[k] = map[int]bool{}
				}
				seen[k][pi] = true
			}
		}
	}
	if plain == 0 {
		return
	}
	need := furnitureMinPages
	if len(pages) == 2 {
		need = 2
	}
	// A running header the fallback engine placed among the text (after
	// the footnotes, say) is still furniture when the same line stands at
	// the edge of enough pages and occurs on half the pages or more; on the
	// first page only a line with a number (a counter) goes, since a
	// document's title may also be its running header.
	anywhere := map[string]map[int]bool{}
	variants := map[string]map[string]bool{} // the line as written, per key
	for pi, ls := range lines {
		for _, l := range ls {
			k := furnitureKey(l)
			if anywhere[k] == nil {
				anywhere[k], variants[k] = map[int]bool{}, map[string]bool{}
			}
			anywhere[k][pi] = true
			variants[k][strings.Join(strings.Fields(strings.ToLower(l)), " ")] = true
		}
	}
	// counter: the line carries a number that changes from page to page.
	counter := func(l string) bool {
		return pageWordRE.MatchString(l) || len(variants[furnitureKey(l)]) > 1
	}
	isFurniture := func(pi int, l string, top bool) bool {
		if utf8.RuneCountInString(l) > furnitureMaxRunes {
			return false
		}
		if pageNumberRE.MatchString(l) {
			return true
		}
		// On the first page a repeated line without a number may be the
		// document's title, which its running header repeats: it stays.
		return len(seen[slot{top, furnitureKey(l)}]) >= need && (pi > 0 || counter(l))
	}
	repeated := func(pi int, l string) bool {
		k := furnitureKey(l)
		if k == "" || k == "#" || utf8.RuneCountInString(l) > 120 || len(anywhere[k])*2 < plain || len(anywhere[k]) < need {
			return false
		}
		if len(seen[slot{true, k}]) < need && len(seen[slot{false, k}]) < need {
			return false
		}
		return pi > 0 || counter(l)
	}
	for pi := range pages {
		ls := lines[pi]
		if len(ls) == 0 {
			continue
		}
		p := &pages[pi]
		start, end := 0, len(ls)
		for start < min(plainEdgeLines, end) && isFurniture(pi, ls[start], true) {
			start++
		}
		for end > max(start, len(ls)-plainEdgeLines) && isFurniture(pi, ls[end-1], false) {
			end--
		}
		drop := make([]bool, len(ls))
		n := 0
		for i, l := range ls {
			if i < start || i >= end || repeated(pi, l) {
				drop[i] = true
				n++
			}
		}
		if n == 0 || n == len(ls) {
			continue // nothing to strip, or nothing would be left
		}
		for i, l := range ls {
			if !drop[i] {
				continue
			}
			p.info.Furniture = append(p.info.Furniture, l)
			if p.info.Label != "" {
				continue
			}
			if m := pageWordRE.FindStringSubmatch(l); m != nil {
				p.info.Label = firstNonEmpty(m[1:])
			} else if m := pageNumberRE.FindStringSubmatch(l); m != nil {
				p.info.Label = firstNonEmpty(m[1:])
			}
		}
		p.paras = dropLines(p.paras, drop)
	}
}

// dropLines removes the non-empty lines marked in drop (numbered over
// the whole page) from a page's paragraphs, keeping their boundaries.
func dropLines(paras []para, drop []bool) []para {
	var out []para
	n := 0
	for _, q := range paras {
		var keep []string
		for _, l := range strings.Split(q.text, "\n") {
			if strings.TrimSpace(l) == "" {
				continue
			}
			if n >= len(drop) || !drop[n] {
				keep = append(keep, l)
			}
			n++
		}
		if len(keep) == 0 {
			continue
		}
		q.text = strings.Join(keep, "\n")
		q.lines = len(keep)
		q.runes = utf8.RuneCountInString(q.text)
		out = append(out, q)
	}
	return out
}

// sequenceRuns says which of the numbers found on pages (pages[k], in
// page order, with offset offs[k] = the number - the page's index) follow
// the page order: each number links to the next one at its offset within
// two pages, and a run so linked over at least need numbers counts.
func sequenceRuns(pages, offs []int, need int) []bool {
	parent := make([]int, len(pages))
	for k := range parent {
		parent[k] = k
	}
	var find func(int) int
	find = func(k int) int {
		for parent[k] != k {
			parent[k] = parent[parent[k]]
			k = parent[k]
		}
		return k
	}
	for k := range pages {
		for j := k + 1; j < len(pages) && pages[j]-pages[k] <= 2; j++ {
			if pages[j] > pages[k] && offs[j] == offs[k] {
				parent[find(j)] = find(k)
			}
		}
	}
	size := map[int]int{}
	for k := range pages {
		size[find(k)]++
	}
	out := make([]bool, len(pages))
	for k := range pages {
		out[k] = size[find(k)] >= need
	}
	return out
}
