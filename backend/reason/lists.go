package reason

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"cairn/backend/analyze"
	"cairn/backend/answerspan"
	"cairn/backend/lexicon"
	"cairn/backend/question"
)

// Lists: "What are the uses of the kettle's timer?", "List the crops the
// farm grows", "What speakers can the kettle pair with?" ask for the
// items of a list a passage sets out: bullets or numbered lines under the
// paragraph that introduces them ("… pairs with the following kinds of
// speaker:"), or short item titles each over its own paragraph under an
// introduction ending in a colon ("We advise farms across 3 areas:"). The list whose introduction (with the passage's heading)
// holds most of the question's words answers, its items each cited.

// listFound is a list of a passage: its introduction and items (byte
// spans in the passage text).
type listFound struct {
	ev    int // index into the evidence
	intro [2]int
	items []listItem // the items shown (at most maxListItems)
	count int        // how many items the list has
	score float64
}

// listItem is one item of a list: the words the answer gives (its label
// before a colon, else its first sentence) and its line span.
type listItem struct {
	text       string
	start, end int
}

const (
	// minListItems is how few items make a list.
	minListItems = 2
	// maxListItems is the most items an answer gives.
	maxListItems = 12
	// maxItemLabelWords is the longest label before a colon given as an
	// item ("Wall panel: Hold the pair button …" gives "Wall
	// panel").
	maxItemLabelWords = 6
	// maxItemTitleWords is the longest line read as an item's title over
	// its paragraph.
	maxItemTitleWords = 6
	// maxItemRunes is the longest item text given whole.
	maxItemRunes = 120
	// minListCover is the least part of the question's weight the
	// introduction and heading must hold.
	minListCover = 0.4
)

// listAnswer finds the list the question asks for among the best
// passages (maxCellPassages); nil when the question asks for no list or
// no list's introduction holds enough of its words.
func (u *run) listAnswer(ctx context.Context, ev []Evidence) (*listFound, error) {
	if !asksForList(u.q.Kind) && !countsListItems(u.q) {
		return nil, nil
	}
	var found []listFound
	for i, e := range ev {
		if i >= maxCellPassages {
			break
		}
		for _, l := range listsIn(e.Hit.Text) {
			l.ev = i
			found = append(found, l)
		}
	}
	if len(found) == 0 {
		return nil, nil
	}
	terms, err := u.r.Retriever.TermStats(ctx, u.q.AskWords)
	if err != nil {
		return nil, err
	}
	// A question counting a list's items names them ("steps"): the list's
	// introduction need not, it names what they are steps of.
	itemNouns := map[string]bool{}
	if countsListItems(u.q) {
		for _, n := range lexicon.English().Words("list_item_nouns") {
			itemNouns["w:"+analyze.Stem(n)] = true
		}
	}
	var total float64
	asked := map[string]bool{}
	for _, w := range u.q.AskWords {
		if !asked[w] && !itemNouns[w] {
			asked[w] = true
			total += terms.PlainIDF(w)
		}
	}
	if total == 0 {
		return nil, nil
	}
	var best *listFound
	for i := range found {
		l := &found[i]
		h := ev[l.ev].Hit
		seen := map[string]bool{}
		for _, w := range tableWords(lastHeading(h.HeadingPath) + " " + h.Text[l.intro[0]:l.intro[1]]) {
			if asked[w] && !seen[w] {
				seen[w] = true
				l.score += terms.PlainIDF(w)
			}
		}
		if l.score >= minListCover*total && (best == nil || l.score > best.score) {
			best = l
		}
	}
	return best, nil
}

// countsListItems reports whether a question counts the items of a list
// or procedure: "how many" and a noun naming such items (lexicon
// list_item_nouns: "How many steps are required to replace the filter?").
// Its answer is how many items the list its other words introduce has.
func countsListItems(q *question.Question) bool {
	if q.Kind.Kind != answerspan.Number || q.Lang != "en" {
		return false
	}
	nouns := lexicon.English().Set("list_item_nouns")
	var words []string
	for _, t := range q.Tokens {
		words = append(words, strings.ToLower(t.Text))
	}
	for i := 0; i+2 < len(words); i++ {
		if words[i] == "how" && words[i+1] == "many" && nouns[words[i+2]] {
			return true
		}
	}
	return false
}

// asksForList reports whether a question asks for several items: a list
// question ("List the …", "What are the …"), or one whose focus noun is
// plural ("What speakers …", "Which breeds …").
func asksForList(k answerspan.Question) bool {
	if k.Kind == answerspan.List {
		return true
	}
	f := k.Focus
	return k.Kind == answerspan.Thing && len(f) > 3 && strings.HasSuffix(f, "s") && !strings.HasSuffix(f, "ss")
}

// listsIn finds the lists of a passage's text: runs of bulleted or
// numbered lines (each with the lines that go on from it) under the
// lines that introduce them, and runs of short title lines under an
// introduction ending in a colon.
func listsIn(text string) []listFound {
	type line struct {
		text       string
		start, end int
	}
	var lines []line
	pos := 0
	for _, l := range strings.SplitAfter(text, "\n") {
		t := strings.TrimRight(l, "\n")
		lines = append(lines, line{t, pos, pos + len(t)})
		pos += len(l)
	}
	var out []listFound
	introStart := 0 // the first line the list's introduction may take
	// introFrom is where the introduction of a list starting at line i
	// begins: at most maxIntroLines lines back, from introStart.
	introFrom := func(i int) int { return max(introStart, i-maxIntroLines) }
	for i := 0; i < len(lines); {
		t := strings.TrimSpace(lines[i].text)
		if t == "" || strings.Contains(t, " | ") {
			i++
			introStart = i
			continue
		}
		if !bulletRE.MatchString(t) {
			// Titles over paragraphs, under a paragraph ending in a colon.
			if strings.HasSuffix(t, ":") && i+1 < len(lines) {
				if items, next := titledItems(len(lines)-i-1, func(j int) (string, int, int) {
					l := lines[i+1+j]
					return l.text, l.start, l.end
				}); len(items) >= minListItems {
					shown, count := countedItems(t, items)
					out = append(out, listFound{intro: [2]int{lines[introFrom(i+1)].start, lines[i].end}, items: shown, count: count})
					i += 1 + next
					introStart = i
					continue
				}
			}
			i++
			continue
		}
		if introStart == i {
			i++ // bullets with no introduction of their own
			introStart = i
			continue
		}
		intro := [2]int{lines[introFrom(i)].start, lines[i-1].end}
		var items []listItem
		for i < len(lines) {
			t := strings.TrimSpace(lines[i].text)
			if t == "" || strings.Contains(t, " | ") {
				break
			}
			n := len(items)
			switch {
			case bulletRE.MatchString(t):
				items = append(items, listItem{start: lines[i].start, end: lines[i].end})
			case n > 0 && (!endsSentence(lines[i-1].text) || unicode.IsLower(firstRune(t))):
				items[n-1].end = lines[i].end // the item goes on
			default:
				n = -1
			}
			if n < 0 {
				break
			}
			i++
		}
		for k := range items {
			items[k].text = itemText(bulletRE.ReplaceAllString(strings.TrimSpace(strings.Join(strings.Fields(text[items[k].start:items[k].end]), " ")), ""))
		}
		if len(items) >= minListItems {
			shown, count := countedItems(text[intro[0]:intro[1]], items)
			out = append(out, listFound{intro: intro, items: shown, count: count})
		}
		introStart = i
	}
	return out
}

// titledItems reads items set as short title lines, each over its own
// paragraph ("Soil care" over "Testing the soil of every field …"): a line of at most
// maxItemTitleWords words, opening with a capital and ending in no stop,
// standing first or after a line that ends a sentence. next is how many
// lines it read.
func titledItems(n int, line func(int) (string, int, int)) ([]listItem, int) {
	var items []listItem
	prevEnds := true
	longest := 0 // the longest line of the item's paragraph so far
	j := 0
	for ; j < n; j++ {
		t, start, end := line(j)
		t = strings.TrimSpace(t)
		if t == "" || strings.Contains(t, " | ") {
			break
		}
		words := len(strings.Fields(t))
		if prevEnds && words <= maxItemTitleWords && unicode.IsUpper(firstRune(t)) && !endsSentence(t) {
			items = append(items, listItem{text: t, start: start, end: end})
			prevEnds, longest = false, 0
			continue
		}
		if len(items) == 0 || strings.HasSuffix(t, ":") {
			break // the paragraph opens with no title, or another list begins
		}
		// A paragraph ends on a stop, or on a line well short of its
		// others ("… family business organisations / and multinationals").
		runes := utf8.RuneCountInString(t)
		prevEnds = endsSentence(t) || longest > 0 && float64(runes) < paragraphEndShare*float64(longest)
		longest = max(longest, runes)
	}
	return items, j
}

// paragraphEndShare: a line shorter than this share of its paragraph's
// longest ends the paragraph.
const paragraphEndShare = 0.6

// maxIntroLines is how many lines before a list its introduction may
// take.
const maxIntroLines = 4

// countedItems keeps the first n items when the introduction counts
// them ("across 3 areas:"): how many the list has; of those it shows at
// most maxListItems.
func countedItems(intro string, items []listItem) (shown []listItem, count int) {
	if m := countRE.FindStringSubmatch(intro); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil && n >= minListItems && n < len(items) {
			items = items[:n]
		}
	}
	count = len(items)
	if len(items) > maxListItems {
		items = items[:maxListItems]
	}
	return items, count
}

// itemText is what an item gives: its label before a colon when short,
// else its text up to the first sentence's end, at most maxItemRunes.
func itemText(t string) string {
	if label, _, ok := strings.Cut(t, ":"); ok && len(strings.Fields(label)) <= maxItemLabelWords && strings.TrimSpace(label) != "" {
		return strings.TrimSpace(label)
	}
	if i := strings.Index(t, ". "); i > 0 {
		t = t[:i+1]
	}
	if utf8.RuneCountInString(t) > maxItemRunes {
		t = string([]rune(t)[:maxItemRunes]) + "…"
	}
	return t
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

var (
	// bulletRE opens a list item: a bullet, or an item number or letter
	// with its stop or parenthesis ("3.", "(b)").
	bulletRE = regexp.MustCompile(`^\s*(?:[•◦▪·*‐–—-]|\(?[0-9]{1,2}[.)]|\(?[a-z][.)])\s+`)
	// countRE is a count in an introduction ("across 3 areas:").
	countRE = regexp.MustCompile(`\b([0-9]{1,2})\s+\p{L}+[^0-9]*:?\s*$`)
)

// listCountCandidate is the answer to a question counting a list's items:
// how many there are, with the items ("3 (Line up the tabs; Push to snap
// into place; Close the doors)"), each cited.
func listCountCandidate(l *listFound) answerspan.Candidate {
	c := listCandidate(l)
	if l.count > len(l.items) {
		c.Text += "; …"
	}
	c.Text = fmt.Sprintf("%d (%s)", l.count, c.Text)
	c.Type = answerspan.TNumber
	return c
}

// listCandidate is the answer a list gives: its items, each cited.
func listCandidate(l *listFound) answerspan.Candidate {
	var texts []string
	var chain []answerspan.Ref
	for _, it := range l.items {
		texts = append(texts, it.text)
		chain = append(chain, answerspan.Ref{Passage: l.ev, Start: it.start, End: it.end})
	}
	return answerspan.Candidate{
		Text:  strings.Join(texts, "; "),
		Type:  answerspan.TPhrase,
		Score: longFormScore,
		Span:  answerspan.Ref{Passage: l.ev, Start: l.intro[0], End: l.intro[1]},
		Chain: chain,
	}
}
