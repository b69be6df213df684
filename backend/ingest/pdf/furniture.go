package pdf

import (
	"regexp"
	"strings"
	"unicode"
)

// Page furniture: running headers and footers, page numbers and printer's
// marks. A paragraph is furniture when it sits in the top or bottom band
// of its page (by its box, or, for pages read without geometry, as one of
// the first or last two paragraphs) and either reads as a page number or
// repeats, numbers masked, in the same band of at least three pages (both
// pages of a two-page document). Furniture is kept as page metadata, out
// of the text; a page number found there becomes the page's label.

const (
	furnitureBand     = 0.12 // share of the page height (centre of the paragraph) at the top and at the bottom
	furnitureMaxRunes = 200
	furnitureMinPages = 3
)

// pageNumberRE matches a paragraph that is only a page number, in the
// usual dressings: "7", "- 7 -", "Page 7", "Page 7 of 48", "7/48", "iv",
// "第 3 页", "第 3 页 共 20 页", "共 20 页 第 3 页".
var pageNumberRE = regexp.MustCompile(`^(?i)[\s\-–—|]*(?:(?:page|p\.|pg\.?|seite|página|pagina)\s*)?(\d{1,6}|[ivxlc]{1,7})(?:\s*(?:of|/|de|von|sur)\s*\d{1,5})?[\s\-–—|]*$|^第\s*(\d{1,4})\s*页(?:\s*[,，]?\s*共\s*\d{1,5}\s*页)?$|^共\s*\d{1,5}\s*页\s*[,，]?\s*第\s*(\d{1,4})\s*页$|^-\s*(\d{1,4})\s*-$`)

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
	type slot struct {
		band int
		key  string
	}
	seen := map[slot]map[int]bool{}
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
		}
	}
	need := furnitureMinPages
	if len(pages) == 2 {
		need = 2
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
			if num == nil && len(seen[k]) < need && (b < 3 || b > 4) {
				continue
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
