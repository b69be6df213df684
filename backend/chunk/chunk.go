// Package chunk cuts a parsed document into passages ("chunks"), the unit of
// retrieval and provenance. It follows the document's structure (a heading
// starts a new chunk; paragraphs are kept whole when they fit; long ones are
// cut at sentence ends, CJK included), aims at a token budget with overlap,
// and gives every chunk its page span, its byte span in the document text
// and its heading path. Written by the spine's integrator; pure functions.
package chunk

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"cairn/backend/analyze"
	"cairn/backend/ingest/parsed"
	"cairn/backend/kb"
	"cairn/backend/tables"
)

// Options size the chunks. Zero values take the defaults.
type Options struct {
	Target  int // tokens a chunk aims at (default 300)
	Max     int // hard ceiling in tokens (default 450)
	Overlap int // tokens repeated from the previous chunk, in whole sentences (default 45)
}

func (o Options) withDefaults() Options {
	if o.Target <= 0 {
		o.Target = 300
	}
	if o.Max < o.Target {
		o.Max = o.Target * 3 / 2
	}
	if o.Overlap < 0 || o.Overlap >= o.Target {
		o.Overlap = 0
	} else if o.Overlap == 0 {
		o.Overlap = o.Target * 15 / 100
	}
	return o
}

// CountTokens approximates an LLM tokenizer: one per Latin word (one more
// per 12 letters of a long run such as a URL or base64), one per CJK
// character, and a third for each punctuation mark. Used for chunk sizes and
// prompt budgets.
func CountTokens(s string) int {
	n := 0
	punct := 0
	inWord := false
	run := 0
	for _, r := range s {
		switch {
		case analyze.IsCJK(r) || unicode.Is(unicode.Hangul, r) && !inWord:
			n++
			inWord = false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if !inWord {
				n++
				inWord, run = true, 0
			}
			if run++; run%12 == 0 {
				n++
			}
		default:
			inWord = false
			if unicode.IsPunct(r) || unicode.IsSymbol(r) {
				punct++
			}
		}
	}
	return n + (punct+2)/3
}

// span is a piece of the document text: [start, end) bytes, on page.
type span struct {
	start, end int
	page       int
	tokens     int
	heading    bool
	path       []string // heading path in force for this piece
	// tableHeader is, for a table row below its table's header row, that
	// header row's text.
	tableHeader string
	// barrier marks the edge of a page without a text layer: no chunk
	// crosses it, so the page's text can be replaced later (by OCR) with
	// its own chunks alone.
	barrier bool
	// captioned marks a table row whose path ends with its table's caption
	// (see Caption).
	captioned bool
}

// Split lays the document's blocks out as page texts (blocks joined by "\n",
// pages by kb.PageSeparator) and cuts that text into chunks.
func Split(doc *parsed.Document, opt Options) ([]kb.Page, []kb.Chunk) {
	opt = opt.withDefaults()
	pages, text, pieces := layout(doc)
	return pages, assemble(text, pieces, opt)
}

// layout builds the page texts and the sentence-level pieces with their
// heading paths.
func layout(doc *parsed.Document) ([]kb.Page, string, []span) {
	nPages := len(doc.Pages)
	for _, b := range doc.Blocks {
		nPages = max(nPages, b.Page)
	}
	if nPages == 0 {
		nPages = 1
	}
	byPage := make([][]parsed.Block, nPages+1)
	for _, b := range doc.Blocks {
		p := max(b.Page, 1)
		byPage[p] = append(byPage[p], b)
	}
	info := map[int]parsed.PageInfo{}
	for _, pi := range doc.Pages {
		info[pi.Number] = pi
	}
	var sb strings.Builder
	var pages []kb.Page
	var pieces []span
	var path []string
	var levels []int
	header := ""          // the header row of the table being laid out, if any
	caption := ""         // the caption of the table being laid out, if any
	inHeads := false      // the last block was one of the table's header rows
	var prev parsed.Block // the block laid out before this one on the page
	var years []string    // the years of the year-only paragraphs just laid out
	for p := 1; p <= nPages; p++ {
		if p > 1 {
			sb.WriteString(kb.PageSeparator)
		}
		pageStart := sb.Len()
		first := true
		prev, years = parsed.Block{}, nil
		var blocks []kb.PageBlock
		pi := info[p]
		if pi.NoText {
			pieces = append(pieces, span{barrier: true})
		}
		for _, b := range byPage[p] {
			t := cleanBlock(b.Text)
			if t == "" {
				continue
			}
			if !first {
				sb.WriteByte('\n')
			}
			first = false
			start := sb.Len()
			sb.WriteString(t)
			pb := kb.PageBlock{Kind: string(b.Kind), Level: b.Level, Start: start - pageStart, End: sb.Len() - pageStart, Header: b.Header}
			if b.Box != nil {
				box := [4]float64(*b.Box)
				pb.Box = &box
			}
			blocks = append(blocks, pb)
			if b.Kind != parsed.BlockTableRow {
				header, caption, inHeads = "", "", false // any other block ends the table
				if ys := tables.YearsOnly(t); b.Kind == parsed.BlockParagraph && len(ys) > 0 {
					years = append(years, ys...)
				} else {
					years = nil
				}
			} else if prev.Kind == parsed.BlockParagraph {
				// A table opens here: the short lines just above it
				// are its caption, or, when they are years alone (in
				// one paragraph or several), the heads of its figure
				// columns.
				if len(years) >= 2 {
					header = " | " + strings.Join(years, " | ")
				} else {
					caption = Caption(cleanBlock(prev.Text))
				}
				years = nil
			}
			prev = b
			if b.Kind == parsed.BlockHeading {
				lvl := max(b.Level, 1)
				for len(levels) > 0 && levels[len(levels)-1] >= lvl {
					levels, path = levels[:len(levels)-1], path[:len(path)-1]
				}
				levels = append(levels, lvl)
				path = append(path[:len(path):len(path)], kb.OneLine(t))
				pieces = append(pieces, span{start: start, end: sb.Len(), page: p, tokens: CountTokens(t), heading: true, path: path})
				continue
			}
			if b.Kind == parsed.BlockTableRow {
				// A table row is never cut between its cells. Rows below a
				// header row (on this page or, for a table carried over,
				// an earlier one) remember it.
				sp := span{start: start, end: sb.Len(), page: p, tokens: CountTokens(t), path: path}
				if caption != "" {
					sp.path = append(path[:len(path):len(path)], caption)
					sp.captioned = true
				}
				// Header rows follow one another: the first after a
				// figure row starts the heads of a table set below the
				// last ("Assets | Capital Expenditures" under a sales
				// table), and rows carried over keep all of them.
				if (b.Header || tables.IsHeadRow(t)) && !yearHeads(header) {
					if inHeads {
						header += "\n" + kb.OneLine(t)
					} else {
						header = kb.OneLine(t)
					}
					inHeads = true
				} else {
					sp.tableHeader = header
					inHeads = false
				}
				pieces = append(pieces, sp)
				continue
			}
			for _, s := range Sentences(t) {
				pieces = append(pieces, span{start: start + s[0], end: start + s[1], page: p, tokens: CountTokens(t[s[0]:s[1]]), path: path})
			}
		}
		if pi.NoText {
			pieces = append(pieces, span{barrier: true})
			header, caption, inHeads = "", "", false
		}
		pages = append(pages, kb.Page{Number: p, CharStart: pageStart, Text: sb.String()[pageStart:], NoText: pi.NoText, OCR: pi.OCR,
			PageLayout: kb.PageLayout{Label: pi.Label, Furniture: pi.Furniture, Width: pi.Width, Height: pi.Height, Blocks: blocks}})
	}
	return pages, sb.String(), pieces
}

// assemble groups pieces into chunks under the token budget.
func assemble(text string, pieces []span, opt Options) []kb.Chunk {
	var chunks []kb.Chunk
	var cur []span
	tokens := 0
	// emit closes the current chunk. Trailing headings belong to the next
	// chunk and are returned (at the very end they stay: a final heading is
	// text too).
	emit := func(final bool) (carry []span) {
		for !final && len(cur) > 0 && cur[len(cur)-1].heading {
			carry = append([]span{cur[len(cur)-1]}, carry...)
			cur = cur[:len(cur)-1]
		}
		if len(cur) == 0 {
			return carry
		}
		first, last := cur[0], cur[len(cur)-1]
		c := kb.Chunk{
			Ordinal: len(chunks), PageStart: first.page, PageEnd: last.page,
			CharStart: first.start, CharEnd: last.end, Text: text[first.start:last.end],
			HeadingPath: append([]string(nil), captionedPath(cur)...),
		}
		if first.heading {
			// A chunk opening with a run of headings (a title and its
			// subtitle, a chapter and its first section) belongs under
			// the last of them.
			lead := first
			for _, p := range cur[1:] {
				if !p.heading {
					break
				}
				lead = p
			}
			c.HeadingPath = append([]string(nil), lead.path...)
		}
		if first.tableHeader != "" { // the chunk starts inside a table, below its header row
			c.TableHeader = first.tableHeader
		}
		c.Tokens = CountTokens(c.Text)
		chunks = append(chunks, c)
		return carry
	}
	for i, p := range pieces {
		if p.barrier {
			emit(true)
			cur, tokens = nil, 0
			continue
		}
		startsSection := p.heading && (i == 0 || !pieces[i-1].heading)
		over := tokens > 0 && tokens+p.tokens > opt.Target
		headingsOnly := len(cur) > 0 && onlyHeadings(cur)
		if len(cur) >= opt.Max || (headingsOnly && tokens+p.tokens > opt.Max) {
			// Bounded whatever the structure: a run of headings with no
			// text between them (250k setext headings), or of pieces
			// without tokens, becomes chunks of its own at the ceiling
			// instead of one ever-growing chunk (which was also quadratic).
			emit(true)
			cur, tokens = nil, 0
		} else if (startsSection || over) && len(cur) > 0 && !headingsOnly {
			prev := cur
			carry := emit(false)
			if len(carry) > 0 {
				cur = carry
			} else {
				cur = overlapTail(prev, opt.Overlap, startsSection)
			}
			tokens = 0
			for _, c := range cur {
				tokens += c.tokens
			}
		}
		if p.tokens > opt.Max {
			// One sentence longer than a chunk: cut it at word boundaries.
			for _, part := range cutLong(text, p, opt.Target) {
				if tokens > 0 && tokens+part.tokens > opt.Target && !onlyHeadings(cur) {
					cur, tokens = emit(false), 0
					for _, c := range cur {
						tokens += c.tokens
					}
				}
				cur = append(cur, part)
				tokens += part.tokens
			}
			continue
		}
		cur = append(cur, p)
		tokens += p.tokens
	}
	emit(true)
	return chunks
}

// captionedPath is the heading path of a chunk made of the pieces cur: the
// last piece's, or, when the chunk holds rows of a captioned table that end
// before it does (the text after the table is under the same heading), the
// path of those rows, caption included.
func captionedPath(cur []span) []string {
	last := cur[len(cur)-1]
	if last.captioned {
		return last.path
	}
	for i := len(cur) - 1; i >= 0; i-- {
		p := cur[i]
		if p.captioned && len(p.path) == len(last.path)+1 && slices.Equal(p.path[:len(last.path)], last.path) {
			return p.path
		}
	}
	return last.path
}

// yearHeads says a table's carried header is years taken from the lines
// above it (see tables.YearsOnly): the first row under them is a row of figures,
// whatever the reader marked it.
func yearHeads(header string) bool { return strings.HasPrefix(header, " | ") }

// Caption is the caption a table has when the paragraph just above it is
// one: a few short lines, none of them a sentence ("Consolidated Balance
// Sheets / (In millions, except per share data)", "Table 3: Results by
// region"). The lines are joined by " — "; "" when the paragraph is text.
func Caption(par string) string {
	const maxLines, maxWords, maxLineWords = 4, 28, 12
	lines := strings.Split(strings.TrimSpace(par), "\n")
	if len(lines) == 0 || len(lines) > maxLines {
		return ""
	}
	words, named := 0, 0
	var out []string
	for _, l := range lines {
		l = strings.Join(strings.Fields(l), " ")
		if l == "" {
			continue
		}
		f := strings.Fields(l)
		if len(f) > maxLineWords || endsProse(l) {
			return ""
		}
		for _, w := range f {
			if utf8.RuneCountInString(w) > 1 && strings.IndexFunc(w, unicode.IsLetter) >= 0 {
				named++
			}
		}
		words += len(f)
		out = append(out, l)
	}
	// Words, not figures: "$ 692 $" left over above a table is no caption.
	if len(out) == 0 || words > maxWords || named < 2 || 2*named < words {
		return ""
	}
	return strings.Join(out, " — ")
}

// endsProse says a line ends as prose does: a full stop, question or
// exclamation mark after a word of more than three letters ("… in 2023."
// ends a sentence, "Holdings, Inc." does not).
func endsProse(l string) bool {
	r, _ := utf8.DecodeLastRuneInString(l)
	switch r {
	case '.', '?', '!', '。', '？', '！':
	default:
		return false
	}
	if r != '.' {
		return true
	}
	f := strings.Fields(l)
	w := strings.TrimRight(f[len(f)-1], ".")
	return utf8.RuneCountInString(w) > 3 || strings.IndexFunc(w, unicode.IsDigit) >= 0
}

func onlyHeadings(s []span) bool {
	for _, x := range s {
		if !x.heading {
			return false
		}
	}
	return true
}

// overlapTail returns the last whole sentences of cur worth about n tokens,
// to open the next chunk; nothing across a section boundary.
func overlapTail(cur []span, n int, newSection bool) []span {
	if newSection || n == 0 {
		return nil
	}
	t := 0
	i := len(cur)
	for i > 0 && !cur[i-1].heading && t+cur[i-1].tokens <= n {
		i--
		t += cur[i].tokens
	}
	if i == len(cur) || i == 0 {
		return nil // nothing fits, or everything would repeat
	}
	return append([]span(nil), cur[i:]...)
}

// cutLong splits an over-long piece into parts of about target tokens at spaces.
func cutLong(text string, p span, target int) []span {
	var out []span
	start := p.start
	for start < p.end {
		end := start
		tokens, run := 0, 0
		for end < p.end && tokens < target {
			r, size := utf8.DecodeRuneInString(text[end:])
			end += size
			if analyze.IsCJK(r) || (unicode.IsSpace(r) && end < p.end) {
				tokens++
				run = 0
			} else if run++; run%12 == 0 {
				tokens++ // long runs without spaces are cut too
			}
		}
		if end < p.end {
			if i := strings.LastIndexAny(text[start:end], " \n\t"); i > (end-start)/2 {
				end = start + i
			}
		}
		s := span{start: start, end: end, page: p.page, tokens: CountTokens(text[start:end]), path: p.path}
		if strings.TrimSpace(text[start:end]) != "" {
			out = append(out, s)
		}
		start = end
		for start < p.end && (text[start] == ' ' || text[start] == '\n' || text[start] == '\t') {
			start++
		}
	}
	return out
}

// cleanBlock trims a block and drops the page separator and NULs from it
// (they would break the page arithmetic).
func cleanBlock(s string) string {
	if strings.ContainsAny(s, "\f\x00") {
		s = strings.NewReplacer("\f", " ", "\x00", "").Replace(s)
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return strings.TrimSpace(s)
}
