package mindmap

import (
	"math"
	"regexp"
	"sort"
	"strings"

	"cairn/backend/chunk"
	"cairn/backend/embed"
	"cairn/backend/kb"
	"cairn/backend/vecindex"
)

// Doc is what a builder needs of a document: its chunks (text, heading
// paths, spans) and pages (to turn byte offsets into page numbers).
type Doc struct {
	ID     int64
	Title  string
	Chunks []kb.Chunk
	Pages  []kb.Page
	// IDF weights words ("w:"+stem keys) for key phrases and salience; nil:
	// an IDF over the document's own chunks.
	IDF IDF
}

// Options tune the offline builder.
type Options struct {
	FactsPerChunk int // salient sentences kept per chunk (at least one)
	MaxFacts      int // per document
	MaxRoutes     int // clusters when the document has no usable headings
	SubRoutes     int // key-phrase sub-routes per route, at most
	LabelBytes    int // fact labels are cut to this length (the span stays whole)
}

// DefaultOptions are the offline builder's defaults.
func DefaultOptions() Options {
	return Options{FactsPerChunk: 3, MaxFacts: 600, MaxRoutes: 12, SubRoutes: 4, LabelBytes: 280}
}

// FactSpan is a fact with provenance: a chunk, a byte span in the document
// text and the pages it covers.
type FactSpan struct {
	ChunkID            int64
	Text               string
	CharStart, CharEnd int
	PageStart, PageEnd int
	section            int // offline section index
	score              float64
}

var (
	pageHeader  = regexp.MustCompile(`(?i)\bpage\s+\d+\s+of\s+\d+\b`)
	timeStamp   = regexp.MustCompile(`\b\d{1,2}:\d{2}\s*-\s*\d{1,2}-[A-Za-z]{3}-\d{4}\b`)
	onlySymbols = regexp.MustCompile(`^[\W\d_]*$`)
)

// cleanTitle strips running-header noise (page counters, print stamps) from a title.
func cleanTitle(t string) string {
	t = pageHeader.ReplaceAllString(t, " ")
	t = timeStamp.ReplaceAllString(t, " ")
	t = strings.Join(strings.Fields(t), " ")
	return strings.Trim(t, " -–—:|")
}

// junkHeading: a running header, a page counter or a heading with no letters.
func junkHeading(h, title string) bool {
	h = strings.TrimSpace(h)
	return h == "" || pageHeader.MatchString(h) || onlySymbols.MatchString(h) || len(h) > 160 ||
		strings.EqualFold(h, title)
}

// section is a run of chunks that becomes one route.
type section struct {
	label  string
	sub    map[int]string // chunk index → sub-heading (heading-derived sub-routes)
	chunks []int
}

// Offline builds a document's mind map from its structure and text.
func Offline(d Doc, o Options) Tree {
	if o.FactsPerChunk <= 0 {
		o = DefaultOptions()
	}
	texts := make([]string, len(d.Chunks))
	for i, c := range d.Chunks {
		texts[i] = c.Text
	}
	idf := d.IDF
	if idf == nil {
		idf = localIDF(texts)
	}
	topic, secs := sections(d, idf, o)
	var t Tree
	root := t.add(0, kb.MindNode{Kind: kb.MindTopic, Label: topic, DocID: d.ID})
	facts := salient(d, secs, idf, o)
	usedLabels := map[string]bool{}
	for si, s := range secs {
		label := s.label
		if label == "" || usedLabels[strings.ToLower(label)] {
			label = sectionLabel(d, s, idf, usedLabels)
		}
		usedLabels[strings.ToLower(label)] = true
		route := t.add(root, kb.MindNode{Kind: kb.MindRoute, Label: label, DocID: d.ID})
		var mine []FactSpan
		for _, f := range facts {
			if f.section == si {
				mine = append(mine, f)
			}
		}
		placeFacts(&t, d, route, label, s, mine, idf, o)
	}
	t.prune()
	return t
}

// dominantShare (tenths): a heading over this share of the chunks that
// have one at its level is the document's, not one of its sections.
const dominantShare = 7

// sections splits the document into routes: by headings when it has a
// usable heading structure, else into clusters of consecutive similar chunks.
// It also returns the topic label.
func sections(d Doc, idf IDF, o Options) (string, []section) {
	title := cleanTitle(d.Title)
	// Heading levels: drop junk entries, then the levels one heading
	// dominates (below).
	paths := make([][]string, len(d.Chunks))
	levelValues := map[int]map[string]int{} // level → heading → chunks under it
	for i, c := range d.Chunks {
		var p []string
		for _, h := range c.HeadingPath {
			if !junkHeading(h, title) && !strings.EqualFold(strings.TrimSpace(h), strings.TrimSpace(d.Title)) {
				p = append(p, strings.Join(strings.Fields(h), " "))
			}
		}
		paths[i] = p
		for l, h := range p {
			if levelValues[l] == nil {
				levelValues[l] = map[string]int{}
			}
			levelValues[l][h]++
		}
	}
	skip := 0
	for levelValues[skip] != nil && levelValues[skip+1] != nil {
		// One heading over (nearly) the whole document — its name on the
		// cover over everything after it, a part over most items — says
		// nothing of how the document divides: the routes are below it.
		top, n, all := "", 0, 0
		for h, c := range levelValues[skip] {
			all += c
			if c > n || c == n && h < top {
				top, n = h, c
			}
		}
		if 10*n < dominantShare*all {
			break
		}
		if len(levelValues[skip]) == 1 && (title == "" || strings.Contains(strings.ToLower(title), strings.ToLower(top))) {
			title = top
		}
		skip++
	}
	if title == "" {
		title = "Untitled document"
	}
	var secs []section
	index := map[string]int{}
	covered := 0
	last, lastSub := "", ""
	for i, p := range paths {
		var h, sub string
		if len(p) > skip {
			h = p[skip]
			if len(p) > skip+1 {
				sub = p[skip+1] // the route's own parts; deeper headings fold into them
			}
			covered++
		} else if len(p) > 0 && skip > 0 && levelValues[skip-1][p[len(p)-1]]*10 < dominantShare*len(d.Chunks) {
			// A section beside the one the routes are under ("Part I"
			// beside "Part II"): its own deepest heading is its route.
			h = p[len(p)-1]
			covered++
		} else if len(d.Chunks[i].HeadingPath) > 0 && last != "" {
			h, sub = last, lastSub // only running headers: the section goes on
			covered++
		}
		last, lastSub = h, sub
		si, ok := index[h]
		if !ok {
			si = len(secs)
			index[h] = si
			secs = append(secs, section{label: h, sub: map[int]string{}})
		}
		secs[si].chunks = append(secs[si].chunks, i)
		if sub != "" {
			secs[si].sub[i] = sub
		}
	}
	named := 0
	for _, s := range secs {
		if s.label != "" {
			named++
		}
	}
	if named >= 2 && covered*2 >= len(d.Chunks) {
		return title, secs
	}
	return title, clusters(d, o)
}

// clusters cuts the chunks into at most MaxRoutes runs of consecutive
// chunks, at the weakest links between neighbours (TextTiling-like).
func clusters(d Doc, o Options) []section {
	n := len(d.Chunks)
	g := int(math.Round(math.Sqrt(float64(n))))
	g = max(1, min(g, o.MaxRoutes, n))
	if g == 1 {
		s := section{sub: map[int]string{}}
		for i := range d.Chunks {
			s.chunks = append(s.chunks, i)
		}
		return []section{s}
	}
	h := embed.NewHashed(256)
	vecs := make([][]float32, n)
	for i, c := range d.Chunks {
		vecs[i] = h.Vector(c.Text)
	}
	type gap struct {
		at  int
		sim float64
	}
	gaps := make([]gap, 0, n-1)
	for i := 1; i < n; i++ {
		gaps = append(gaps, gap{i, vecindex.Dot(vecs[i-1], vecs[i])})
	}
	sort.SliceStable(gaps, func(a, b int) bool { return gaps[a].sim < gaps[b].sim })
	cuts := map[int]bool{}
	minLen := max(1, n/(2*g))
	for _, gp := range gaps {
		if len(cuts) >= g-1 {
			break
		}
		ok := gp.at >= minLen && n-gp.at >= minLen
		for c := range cuts {
			if abs(c-gp.at) < minLen {
				ok = false
			}
		}
		if ok {
			cuts[gp.at] = true
		}
	}
	var out []section
	cur := section{sub: map[int]string{}}
	for i := 0; i < n; i++ {
		if cuts[i] {
			out = append(out, cur)
			cur = section{sub: map[int]string{}}
		}
		cur.chunks = append(cur.chunks, i)
	}
	return append(out, cur)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sectionText(d Doc, s section) string {
	var b strings.Builder
	for _, i := range s.chunks {
		b.WriteString(d.Chunks[i].Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// sectionLabel names a cluster by its two best key phrases.
func sectionLabel(d Doc, s section, idf IDF, used map[string]bool) string {
	ps := keyPhrases(sectionText(d, s), idf, 4, nil)
	var parts []string
	for _, p := range ps {
		parts = append(parts, titleCase(shorten(p.surface, 60)))
	}
	for n := min(2, len(parts)); n <= len(parts) && n > 0; n++ {
		if l := strings.Join(parts[:n], ", "); !used[strings.ToLower(l)] {
			return l
		}
	}
	base := "Part"
	if len(parts) > 0 {
		base = strings.Join(parts[:min(2, len(parts))], ", ")
	}
	for k := 2; ; k++ {
		if l := base + " (" + itoa(k) + ")"; !used[strings.ToLower(l)] {
			return l
		}
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	return string(b[n:])
}

// salient picks the salient sentences of each chunk: the best FactsPerChunk
// by the summed IDF-weighted section frequency of their words, at least one
// per chunk, at most MaxFacts in the document (best first), in document order.
func salient(d Doc, secs []section, idf IDF, o Options) []FactSpan {
	var all []FactSpan
	var taken spans
	for si, s := range secs {
		tf := map[string]float64{}
		for _, ci := range s.chunks {
			for _, w := range words(d.Chunks[ci].Text) {
				for _, k := range wordKeys(w) {
					tf[k]++
				}
			}
		}
		for _, ci := range s.chunks {
			c := d.Chunks[ci]
			var cands []FactSpan
			for _, sp := range chunk.Sentences(joinLines(c.Text)) {
				text := c.Text[sp[0]:sp[1]]
				ws := words(text)
				seen := map[string]bool{}
				var sum float64
				for _, w := range ws {
					for _, k := range wordKeys(w) {
						if !seen[k] {
							seen[k] = true
							sum += math.Log(1+tf[k]) * idfOf(idf, k)
						}
					}
				}
				score := sum / math.Sqrt(float64(len(seen))+1)
				switch n := len(text); {
				case n < 25:
					score *= 0.3
				case n > 500:
					score *= 0.6
				}
				if letterRatio(text) < 0.55 {
					score *= 0.3
				}
				if len(seen) == 0 {
					continue
				}
				a, b := c.CharStart+sp[0], c.CharStart+sp[1]
				cands = append(cands, FactSpan{ChunkID: c.ID, Text: text, CharStart: a, CharEnd: b,
					PageStart: pageAt(d.Pages, a, c), PageEnd: pageAt(d.Pages, b-1, c), section: si, score: score})
			}
			sort.SliceStable(cands, func(a, b int) bool { return cands[a].score > cands[b].score })
			kept := 0
			for _, f := range cands {
				if kept >= o.FactsPerChunk {
					break
				}
				if taken.overlaps(f.CharStart, f.CharEnd) {
					continue
				}
				taken.add(f.CharStart, f.CharEnd)
				all = append(all, f)
				kept++
			}
		}
	}
	if len(all) > o.MaxFacts {
		// keep each chunk's best, then the best of the rest
		sort.SliceStable(all, func(a, b int) bool { return all[a].score > all[b].score })
		seen := map[int64]bool{}
		var keep, rest []FactSpan
		for _, f := range all {
			if !seen[f.ChunkID] {
				seen[f.ChunkID] = true
				keep = append(keep, f)
			} else {
				rest = append(rest, f)
			}
		}
		if len(keep) < o.MaxFacts {
			keep = append(keep, rest[:min(len(rest), o.MaxFacts-len(keep))]...)
		}
		all = keep
	}
	sort.SliceStable(all, func(a, b int) bool { return all[a].CharStart < all[b].CharStart })
	return all
}

// joinLines turns single line breaks into spaces (same length, so spans
// stay valid): PDF text breaks lines inside sentences; blank lines still
// separate paragraphs.
func joinLines(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c != '\n' || i == 0 || i+1 == len(b) || b[i-1] == '\n' || b[i+1] == '\n' {
			continue
		}
		// keep line structure of tables, lists and headings
		next := strings.TrimLeft(s[i+1:], " \t")
		prev := strings.TrimRight(s[:i], " \t")
		if strings.HasSuffix(prev, "|") || strings.HasSuffix(prev, ":") || strings.HasPrefix(next, "|") || strings.HasPrefix(next, "-") ||
			strings.HasPrefix(next, "*") || strings.HasPrefix(next, "•") || strings.HasPrefix(next, "#") {
			continue
		}
		b[i] = ' '
	}
	return string(b)
}

// spans is a set of byte ranges of the document text already used by facts
// (chunks overlap, so the same sentence shows up in two chunks).
type spans [][2]int

func (s spans) overlaps(a, b int) bool {
	for _, r := range s {
		lo, hi := max(a, r[0]), min(b, r[1])
		if hi-lo > (b-a)/2 || hi-lo > (r[1]-r[0])/2 {
			return true
		}
	}
	return false
}

func (s *spans) add(a, b int) { *s = append(*s, [2]int{a, b}) }

// pageAt is the page holding byte offset off of the document text, kept
// within the chunk's own page span.
func pageAt(pages []kb.Page, off int, c kb.Chunk) int {
	p := c.PageStart
	for _, pg := range pages {
		if pg.CharStart <= off {
			p = pg.Number
		} else {
			break
		}
	}
	return min(max(p, c.PageStart), c.PageEnd)
}

// placeFacts hangs a section's facts under its route: under heading-derived
// sub-routes when the section has them, else under key-phrase sub-routes
// (facts mentioning the phrase), the rest directly under the route.
func placeFacts(t *Tree, d Doc, route int64, routeLabel string, s section, facts []FactSpan, idf IDF, o Options) {
	addFact := func(parent int64, f FactSpan) {
		t.add(parent, kb.MindNode{Kind: kb.MindFact, Label: shorten(f.Text, o.LabelBytes), DocID: d.ID, ChunkID: f.ChunkID,
			PageStart: f.PageStart, PageEnd: f.PageEnd, CharStart: f.CharStart, CharEnd: f.CharEnd})
	}
	chunkIdx := map[int64]int{}
	for _, ci := range s.chunks {
		chunkIdx[d.Chunks[ci].ID] = ci
	}
	if len(s.sub) > 0 {
		subs := map[string]int64{}
		for _, f := range facts {
			sub := s.sub[chunkIdx[f.ChunkID]]
			if sub == "" || strings.EqualFold(sub, routeLabel) {
				addFact(route, f)
				continue
			}
			id, ok := subs[sub]
			if !ok {
				id = t.add(route, kb.MindNode{Kind: kb.MindRoute, Label: shorten(sub, 120), DocID: d.ID})
				subs[sub] = id
			}
			addFact(id, f)
		}
		return
	}
	m := min(o.SubRoutes, max(1, len(facts)/4))
	exclude := map[string]bool{}
	for _, p := range keyPhrases(routeLabel, nil, 4, nil) {
		exclude[p.key] = true
	}
	var text strings.Builder
	for _, f := range facts {
		text.WriteString(f.Text)
		text.WriteByte('\n')
	}
	phrases := keyPhrases(text.String(), idf, m, exclude)
	subIDs := make([]int64, len(phrases))
	var direct []FactSpan
	groups := make([][]FactSpan, len(phrases))
	for _, f := range facts {
		ws := words(f.Text)
		placed := false
		for pi, p := range phrases {
			if containsPhrase(ws, f.Text, p) {
				groups[pi] = append(groups[pi], f)
				placed = true
				break
			}
		}
		if !placed {
			direct = append(direct, f)
		}
	}
	for pi, p := range phrases {
		if len(groups[pi]) == 0 {
			continue
		}
		subIDs[pi] = t.add(route, kb.MindNode{Kind: kb.MindRoute, Label: titleCase(shorten(p.surface, 60)), DocID: d.ID})
		for _, f := range groups[pi] {
			addFact(subIDs[pi], f)
		}
	}
	for _, f := range direct {
		addFact(route, f)
	}
}
