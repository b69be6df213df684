package docx

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"cairn/backend/ingest/parsed"
)

const (
	// maxDepth bounds the element nesting the walker recurses into; deeper
	// subtrees are skipped (iteratively, by the decoder) so a hostile file
	// cannot exhaust the stack.
	maxDepth = 200
	// MaxTextBytes caps the extracted text of one document.
	MaxTextBytes = 128 << 20
	// maxFields bounds the open complex-field stack.
	maxFields = 256
)

// para is a paragraph being collected.
type para struct {
	b       strings.Builder
	page    int
	hasText bool
}

// rowState is a table row being collected.
type rowState struct {
	cells   []string
	page    int
	hasPage bool
	// Page tracking: every cell of a row that spans a page turn carries its
	// own rendered page break, so each cell starts from the row's page and
	// the row ends on the furthest page any cell reached.
	startPage int
	startText bool
	endPage   int
	endText   bool
}

// container is where finished paragraphs go when they are not top-level
// blocks: a table cell or a text box.
type container struct {
	box   bool
	row   *rowState // for cells
	parts []string  // cell paragraphs
}

// walker streams one WordprocessingML part (document, header, footnotes)
// into blocks.
type walker struct {
	d  *xml.Decoder
	ss *styleSheet
	nb *numbering

	body           bool // the main part: page breaks count
	page           int
	textSinceBreak bool

	blocks     []parsed.Block
	pendingBox []parsed.Block // text-box paragraphs, emitted after the enclosing top-level element
	stack      []*container
	rows       []*rowState
	fields     []bool // open complex fields; true while in the instruction part
	fieldsLost int    // pushes beyond maxFields, to keep pops balanced
	depth      int
	textBytes  *int
	err        error
}

func newWalker(r io.Reader, ss *styleSheet, nb *numbering, textBytes *int) *walker {
	d := xml.NewDecoder(r)
	return &walker{d: d, ss: ss, nb: nb, page: 1, textBytes: textBytes}
}

// next returns the next token, recording the first error.
func (w *walker) next() (xml.Token, bool) {
	if w.err != nil {
		return nil, false
	}
	tok, err := w.d.Token()
	if err != nil {
		w.err = err
		return nil, false
	}
	return tok, true
}

func (w *walker) skip() {
	if w.err != nil {
		return
	}
	if err := w.d.Skip(); err != nil {
		w.err = err
	}
}

// root reads up to the root element and returns its local name.
func (w *walker) root() (xml.StartElement, bool) {
	for {
		tok, ok := w.next()
		if !ok {
			return xml.StartElement{}, false
		}
		if se, ok := tok.(xml.StartElement); ok {
			return se, true
		}
	}
}

// children walks the child elements of the element just opened, in
// paragraph p (nil outside a paragraph), until its end tag.
func (w *walker) children(p *para) {
	for {
		tok, ok := w.next()
		if !ok {
			return
		}
		switch t := tok.(type) {
		case xml.StartElement:
			w.elem(t, p)
			if w.err != nil {
				return
			}
		case xml.EndElement:
			return
		}
	}
}

// elem handles one element and its subtree.
func (w *walker) elem(se xml.StartElement, p *para) {
	w.depth++
	defer func() { w.depth-- }()
	if w.depth > maxDepth {
		w.skip()
		return
	}
	switch se.Name.Local {
	case "p":
		w.paragraph()
	case "tr":
		w.row()
	case "tc":
		if len(w.rows) == 0 {
			w.children(p)
			return
		}
		w.cell()
	case "txbxContent":
		w.stack = append(w.stack, &container{box: true})
		w.children(nil)
		w.stack = w.stack[:len(w.stack)-1]
	case "AlternateContent":
		// Take the first mc:Choice and skip mc:Fallback, so text-box text
		// (DrawingML choice + VML fallback) is kept once.
		taken := false
		for {
			tok, ok := w.next()
			if !ok {
				return
			}
			switch t := tok.(type) {
			case xml.StartElement:
				switch {
				case t.Name.Local == "Choice" && !taken, t.Name.Local == "Fallback" && !taken:
					taken = true
					w.children(p)
				default:
					w.skip()
				}
			case xml.EndElement:
				return
			}
			if w.err != nil {
				return
			}
		}
	case "t":
		s := w.charData()
		w.text(p, s)
	case "tab", "ptab":
		w.text(p, "\t")
		w.skip()
	case "br":
		if attr(se, "type") == "page" {
			w.pageBreak()
		}
		w.text(p, "\n")
		w.skip()
	case "cr":
		w.text(p, "\n")
		w.skip()
	case "noBreakHyphen":
		w.text(p, "-")
		w.skip()
	case "lastRenderedPageBreak":
		w.pageBreak()
		w.skip()
	case "fldChar":
		w.fieldChar(attr(se, "fldCharType"))
		w.skip()
	case "instrText", "delText", "delInstrText", "moveFrom", "rPr", "pPr", "sectPr",
		"tblPr", "tblGrid", "trPr", "tcPr", "tblPrEx", "sdtPr", "sdtEndPr", "binData",
		"fldData", "footnoteRef", "endnoteRef", "footnoteReference", "endnoteReference",
		"commentReference", "annotationRef", "rt", "pPrChange", "rPrChange", "numPr",
		"docPr", "cNvPr", "bookmarkStart", "bookmarkEnd", "proofErr", "sym":
		// Field instructions, deletions, ruby guides and properties carry no
		// reading text.
		w.skip()
	default:
		w.children(p)
	}
}

// charData collects the text of the element just opened.
func (w *walker) charData() string {
	var b strings.Builder
	for {
		tok, ok := w.next()
		if !ok {
			return b.String()
		}
		switch t := tok.(type) {
		case xml.CharData:
			b.Write(t)
		case xml.StartElement:
			w.skip()
		case xml.EndElement:
			return b.String()
		}
	}
}

// text appends s to paragraph p, unless we are inside a field instruction.
func (w *walker) text(p *para, s string) {
	if p == nil || s == "" {
		return
	}
	for _, instr := range w.fields {
		if instr {
			return
		}
	}
	*w.textBytes += len(s)
	if *w.textBytes > MaxTextBytes {
		w.err = errBomb("more than 128 MiB of text")
		return
	}
	p.b.WriteString(s)
	if strings.TrimSpace(s) != "" {
		if !p.hasText {
			p.hasText = true
			p.page = w.page
		}
		if w.body {
			w.textSinceBreak = true
		}
	}
}

// pageBreak moves to the next page. Breaks with no text since the previous
// one are merged: Word writes both an explicit break and a
// lastRenderedPageBreak for the same page turn.
func (w *walker) pageBreak() {
	if !w.body || w.inBox() || !w.textSinceBreak {
		return
	}
	w.page++
	w.textSinceBreak = false
}

func (w *walker) inBox() bool {
	for _, c := range w.stack {
		if c.box {
			return true
		}
	}
	return false
}

func (w *walker) fieldChar(typ string) {
	switch typ {
	case "begin":
		if len(w.fields) >= maxFields {
			w.fieldsLost++
			return
		}
		w.fields = append(w.fields, true)
	case "separate":
		if w.fieldsLost == 0 && len(w.fields) > 0 {
			w.fields[len(w.fields)-1] = false
		}
	case "end":
		if w.fieldsLost > 0 {
			w.fieldsLost--
		} else if len(w.fields) > 0 {
			w.fields = w.fields[:len(w.fields)-1]
		}
	}
}

// pprops are the paragraph properties the walker uses.
type pprops struct {
	style        string
	outline      int // -1 unset
	num          numRef
	ilvlSet      bool
	pageBreak    int // -1 unset
	sectionBreak bool
}

// readPPr reads the <w:pPr> just opened.
func (w *walker) readPPr() pprops {
	pp := pprops{outline: -1, pageBreak: -1}
	depth := 0
	inNum := false
	for {
		tok, ok := w.next()
		if !ok {
			return pp
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			switch t.Name.Local {
			case "pStyle":
				pp.style = attr(t, "val")
			case "outlineLvl":
				pp.outline = atoi(attr(t, "val"), -1)
			case "pageBreakBefore":
				pp.pageBreak = 0
				if onOff(t) {
					pp.pageBreak = 1
				}
			case "numPr":
				inNum = true
				pp.num.set = true
			case "numId":
				if inNum {
					pp.num.numID = attr(t, "val")
				}
			case "ilvl":
				if inNum {
					pp.num.ilvl = atoi(attr(t, "val"), 0)
					pp.ilvlSet = true
				}
			case "sectPr":
				// A section ends with this paragraph; every section type
				// except "continuous" starts a new page.
				pp.sectionBreak = w.sectionStartsPage()
				depth--
			case "rPr", "pPrChange", "tabs", "framePr", "pBdr", "shd", "ind", "spacing":
				w.skip()
				depth--
			}
		case xml.EndElement:
			if depth == 0 {
				return pp
			}
			depth--
			if t.Name.Local == "numPr" {
				inNum = false
			}
		}
	}
}

// sectionStartsPage reads the <w:sectPr> just opened.
func (w *walker) sectionStartsPage() bool {
	newPage := true
	depth := 0
	for {
		tok, ok := w.next()
		if !ok {
			return newPage
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if t.Name.Local == "type" && attr(t, "val") == "continuous" {
				newPage = false
			}
		case xml.EndElement:
			if depth == 0 {
				return newPage
			}
			depth--
		}
	}
}

// paragraph walks the <w:p> just opened and emits it.
func (w *walker) paragraph() {
	p := &para{page: w.page}
	pp := pprops{outline: -1, pageBreak: -1}
	for {
		tok, ok := w.next()
		if !ok {
			break
		}
		if se, ok := tok.(xml.StartElement); ok {
			if se.Name.Local == "pPr" {
				pp = w.readPPr()
				if w.pageBreakBefore(pp) {
					w.pageBreak()
				}
				p.page = w.page
				continue
			}
			w.elem(se, p)
			if w.err != nil {
				break
			}
			continue
		}
		if _, ok := tok.(xml.EndElement); ok {
			break
		}
	}
	// A field instruction never spans paragraphs: drop any left open so a
	// broken field cannot swallow the rest of the document.
	kept := w.fields[:0]
	for _, instr := range w.fields {
		if !instr {
			kept = append(kept, false)
		}
	}
	w.fields = kept

	w.emitParagraph(p, pp)
	if pp.sectionBreak {
		w.pageBreak()
	}
}

func (w *walker) pageBreakBefore(pp pprops) bool {
	if pp.pageBreak >= 0 {
		return pp.pageBreak == 1
	}
	return w.ss.pageBreakBefore(w.styleOf(pp))
}

func (w *walker) styleOf(pp pprops) string {
	if pp.style != "" {
		return pp.style
	}
	return w.ss.defaultPara
}

// emitParagraph classifies a finished paragraph (heading, list item,
// paragraph) and sends it to the innermost container or the block list.
func (w *walker) emitParagraph(p *para, pp pprops) {
	st := w.styleOf(pp)
	level := 0
	switch {
	case pp.outline >= 0 && pp.outline <= 8:
		level = pp.outline + 1
	case pp.outline > 8:
		level = 0
	default:
		level = w.ss.headingLevel(st)
	}
	num := w.ss.numbering(st)
	if pp.num.set {
		if pp.num.numID != "" {
			num.numID = pp.num.numID
		}
		if pp.ilvlSet {
			num.ilvl = pp.num.ilvl
		}
		num.set = true
	}
	listed := num.set && num.numID != "" && num.numID != "0"
	label, known := "", false
	if listed {
		// Counters advance even for empty items, as Word numbers them.
		label, known = w.nb.label(num.numID, num.ilvl, w.ss)
	}
	text := strings.TrimSpace(p.b.String())
	if text == "" {
		w.flushBoxes()
		return
	}
	page := p.page
	kind := parsed.BlockParagraph
	switch {
	case level > 0:
		kind = parsed.BlockHeading
		text = strings.Join(strings.Fields(text), " ")
		if listed && label != "" && label != "•" {
			text = label + " " + text
		}
	case listed:
		kind = parsed.BlockListItem
		if !known {
			label = "•"
		}
		if label != "" {
			text = label + " " + text
		}
		level = num.ilvl + 1
		if level < 1 || level > 9 {
			level = 1
		}
	}
	if n := len(w.stack); n > 0 {
		c := w.stack[n-1]
		if c.box {
			w.pendingBox = append(w.pendingBox, parsed.Block{Page: page, Kind: parsed.BlockOther, Text: text})
			return
		}
		c.parts = append(c.parts, text)
		if c.row != nil && !c.row.hasPage {
			c.row.page, c.row.hasPage = page, true
		}
		return
	}
	w.blocks = append(w.blocks, parsed.Block{Page: page, Kind: kind, Level: level, Text: text})
	w.flushBoxes()
}

// flushBoxes emits waiting text-box paragraphs once we are back at the top
// level.
func (w *walker) flushBoxes() {
	if len(w.stack) > 0 || len(w.pendingBox) == 0 {
		return
	}
	w.blocks = append(w.blocks, w.pendingBox...)
	w.pendingBox = w.pendingBox[:0]
}

// row walks the <w:tr> just opened: one block per row, cells joined with
// " | ". A row of a nested table becomes text of the enclosing cell.
func (w *walker) row() {
	r := &rowState{page: w.page, startPage: w.page, startText: w.textSinceBreak, endPage: w.page, endText: w.textSinceBreak}
	w.rows = append(w.rows, r)
	w.children(nil)
	w.rows = w.rows[:len(w.rows)-1]
	w.page, w.textSinceBreak = r.endPage, r.endText
	cells := r.cells
	for len(cells) > 0 && cells[len(cells)-1] == "" {
		cells = cells[:len(cells)-1]
	}
	if len(cells) == 0 {
		w.flushBoxes()
		return
	}
	text := strings.TrimSpace(strings.Join(cells, " | "))
	if n := len(w.stack); n > 0 {
		c := w.stack[n-1]
		if c.box {
			w.pendingBox = append(w.pendingBox, parsed.Block{Page: r.page, Kind: parsed.BlockOther, Text: text})
			return
		}
		c.parts = append(c.parts, text)
		if c.row != nil && !c.row.hasPage {
			c.row.page, c.row.hasPage = r.page, true
		}
		return
	}
	w.blocks = append(w.blocks, parsed.Block{Page: r.page, Kind: parsed.BlockTableRow, Text: text})
	w.flushBoxes()
}

// cell walks the <w:tc> just opened into the innermost open row.
func (w *walker) cell() {
	r := w.rows[len(w.rows)-1]
	c := &container{row: r}
	w.page, w.textSinceBreak = r.startPage, r.startText
	w.stack = append(w.stack, c)
	continued := false
	for w.err == nil {
		tok, ok := w.next()
		if !ok {
			break
		}
		if se, ok := tok.(xml.StartElement); ok {
			if se.Name.Local == "tcPr" {
				continued = w.vMergeContinue()
				continue
			}
			w.elem(se, nil)
			continue
		}
		if _, ok := tok.(xml.EndElement); ok {
			break
		}
	}
	w.stack = w.stack[:len(w.stack)-1]
	if continued {
		// The lower part of a vertically merged cell: Word shows the
		// first cell's content across the merge and hides this text.
		c.parts = nil
	}
	if w.page > r.endPage || w.page == r.endPage && w.textSinceBreak {
		r.endPage, r.endText = w.page, w.textSinceBreak
	}
	r.cells = append(r.cells, strings.Join(c.parts, " "))
}

// walkError turns a walker error into a typed error, or "" when the part
// simply ended.
func walkError(err error, part string) (*parsed.Error, string) {
	if err == nil || err == io.EOF {
		return nil, ""
	}
	if pe := asParsed(err); pe != nil {
		return pe, ""
	}
	return parsed.Errorf(parsed.CodeCorrupt, "the Word document is damaged: %s cannot be read (%v)", part, err),
		fmt.Sprintf("part %s is damaged (%v); text after the damage is missing", part, err)
}

// vMergeContinue reads the <w:tcPr> just opened and reports whether the
// cell continues a vertical merge (<w:vMerge/> or w:val="continue").
func (w *walker) vMergeContinue() bool {
	cont := false
	depth := 0
	for {
		tok, ok := w.next()
		if !ok {
			return cont
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if t.Name.Local == "vMerge" {
				v := attr(t, "val")
				cont = v == "" || v == "continue"
			}
		case xml.EndElement:
			if depth == 0 {
				return cont
			}
			depth--
		}
	}
}
