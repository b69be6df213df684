package pdf

import (
	"regexp"
	"strings"

	"cairn/backend/ingest/parsed"
)

// Headings of one style form one level, but a document's structure is
// often in its labels, not its type: a report sets "Part II", "Item 7."
// and "Liquidity and Capital Resources" alike, in bold at the body size,
// and its parts hold items, its items unlabelled sections. Read by style
// alone, every heading was a sibling: a mind map of two hundred branches
// under the report's name, passages under "Liquidity…" without the item
// they belong to. nestUnderLabels reads the structure the labels give.

// headLabelRE matches a heading opened by a label word and its number
// ("Item 1A.", "PART II", "Note 3 –", "Chapter IV:"): a capitalised word
// of two to twelve letters, then digits (with a letter or dotted parts)
// or a Roman numeral, then the end, a period, colon or dash, or a word.
var headLabelRE = regexp.MustCompile(`^(\p{Lu}\p{L}{1,11})\s+(?:\d{1,3}[A-Z]?(?:\.\d{1,2}){0,3}|[IVXLC]{1,6})(?:$|[.:]|\s)`)

// headLabel is the label word of a heading opened by one, lower case.
func headLabel(text string) string {
	m := headLabelRE.FindStringSubmatch(strings.TrimSpace(text))
	if m == nil || captionRE.MatchString(text) {
		return ""
	}
	return strings.ToLower(m[1])
}

// nestUnderLabels sets the levels of the headings of each style level
// that labels structure: of two label words at one level, the one used
// fewer times and first holds the other ("Part" holds "Item"); a heading
// without a label after the level's first labelled one goes one level
// below the labelled heading before it. Headings before the first
// labelled one (a cover's) keep their level, and so do headings with a
// decimal number ("3.1 Setup": its number gives its level) and those
// after them until the next labelled one; so do levels with no label
// word used twice, and documents whose outline gave the levels (the
// caller leaves those alone).
func nestUnderLabels(blocks []parsed.Block) {
	var heads []int
	for i, b := range blocks {
		if b.Kind == parsed.BlockHeading {
			heads = append(heads, i)
		}
	}
	for level := 1; level < maxHeadingLevels; level++ {
		var at []int // the headings set at this level, in order
		for _, i := range heads {
			if blocks[i].Level == level {
				at = append(at, i)
			}
		}
		labels := make([]string, len(at))
		count := map[string]int{}
		for k, i := range at {
			labels[k] = headLabel(blocks[i].Text)
			if labels[k] != "" {
				count[labels[k]]++
			}
		}
		used := false
		for _, n := range count {
			used = used || n >= 2
		}
		if !used {
			continue
		}
		depth := labelDepths(labels, count)
		newLevel := make([]int, len(at))
		last := -1 // the level given to the last labelled heading
		for k, l := range labels {
			switch {
			case decimalNumbered(blocks[at[k]].Text):
				// "3.1 Setup" has its level from its number; what follows
				// it is not under the last labelled heading.
				newLevel[k], last = level, -1
			case l != "":
				last = level + depth[l]
				newLevel[k] = last
			case last < 0:
				newLevel[k] = level
			default:
				newLevel[k] = last + 1
			}
		}
		for k, i := range at {
			blocks[i].Level = min(newLevel[k], maxHeadingLevels)
		}
		// The headings moved down may meet this loop again at their new
		// level: their labels are already read, so nothing moves twice
		// for the same reason.
		heads = without(heads, at)
	}
}

// decimalNumbered reports whether a heading opens with a decimal section
// number ("3", "2.1"), which gives its level of its own.
func decimalNumbered(text string) bool {
	m := sectionNumRE.FindStringSubmatch(strings.TrimSpace(text))
	return m != nil && m[1] != ""
}

// labelDepths gives each label word its depth below the level's own: 0
// for a word no other holds, one more than the deepest word holding it.
// Word a holds word b when every b stands in the section of one a (a
// report's notes inside one of its items), or when a is used fewer times
// than b, and first (a report's parts before its items) or each a is
// followed by a b.
func labelDepths(labels []string, count map[string]int) map[string]int {
	first := map[string]int{}
	for k := len(labels) - 1; k >= 0; k-- {
		if labels[k] != "" {
			first[labels[k]] = k
		}
	}
	// every a is followed by a b before the next a (the last by one
	// after it): "Part II" over the items after it, the part before
	// them not set as a heading.
	over := func(a, b string) bool {
		seen, started := false, false // a b since the last a
		for _, l := range labels {
			switch l {
			case a:
				if started && !seen {
					return false
				}
				started, seen = true, false
			case b:
				seen = true
			}
		}
		return started && seen
	}
	// every b, two or more, stands in the section of one and the same a:
	// the notes all inside "Item 8.", whatever the number of items and
	// notes.
	inside := func(b, a string) bool {
		if count[b] < 2 {
			return false
		}
		lastA, owner := -1, -1
		for k, l := range labels {
			switch {
			case l == a:
				lastA = k
			case l != b:
			case lastA < 0 || owner >= 0 && owner != lastA:
				return false
			default:
				owner = lastA
			}
		}
		return owner >= 0
	}
	holds := func(a, b string) bool {
		if inside(b, a) {
			return true
		}
		return count[a] < count[b] && (first[a] < first[b] || over(a, b)) && !inside(a, b)
	}
	depth := map[string]int{}
	for range count { // at most as many rounds as words
		changed := false
		for a := range count {
			for b := range count {
				if a != b && holds(a, b) && depth[b] < depth[a]+1 {
					depth[b] = depth[a] + 1
					changed = true
				}
			}
		}
		if !changed {
			break
		}
	}
	return depth
}

// without returns xs without the elements of drop (both in order).
func without(xs, drop []int) []int {
	gone := map[int]bool{}
	for _, d := range drop {
		gone[d] = true
	}
	out := xs[:0:0]
	for _, x := range xs {
		if !gone[x] {
			out = append(out, x)
		}
	}
	return out
}
