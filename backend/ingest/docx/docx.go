// Package docx reads Word (.docx, OOXML WordprocessingML) files into a
// parsed.Document: headings (by outline level), list items with their
// rendered labels, table rows, text-box text, then header/footer and
// footnote/endnote text, with approximate page numbers taken from Word's
// rendered page breaks.
//
// It reads the package itself with archive/zip and encoding/xml. The design
// card's github.com/nguyenthenguyen/docx is deliberately not used: it is a
// template find-and-replace tool that inflates whole parts with no size cap
// (a 1 MB zip bomb kills the process), assumes word/document.xml (Office 365
// writes document2.xml) and exposes only raw XML (research/parsers.md).
package docx

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"cairn/backend/ingest/parsed"
)

// Engine is the PageInfo.Engine value for pages read by this package.
const Engine = "docx"

var (
	zipMagic = []byte("PK\x03\x04")
	oleMagic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}
)

// Read parses a .docx file. Failures are *parsed.Error values:
// CodeEmpty, CodeLegacyDoc / CodePasswordRequired (an OLE2 file),
// CodeCorrupt (not a zip, damaged XML with no text), CodeNotDocx (a zip but
// no Word main part), CodeTooLarge (size caps, zip bombs), CodeNoText.
// Options are accepted for symmetry with the PDF reader; none apply.
func Read(data []byte, opt parsed.Options) (*parsed.Document, error) {
	_ = opt
	if len(data) == 0 {
		return nil, parsed.Errorf(parsed.CodeEmpty, "The file is empty.")
	}
	if IsOLE2(data) {
		return nil, ExplainOLE2(data)
	}
	if !bytes.HasPrefix(data, []byte("PK")) {
		return nil, parsed.Errorf(parsed.CodeCorrupt, "not a Word (OOXML) document: the file is not a zip package")
	}
	p, err := openPackage(data)
	if err != nil {
		return nil, err
	}
	main, err := mainPart(p)
	if err != nil {
		return nil, err
	}
	doc := &parsed.Document{Kind: parsed.KindDOCX}
	warn := func(format string, args ...any) { doc.Warnings = append(doc.Warnings, fmt.Sprintf(format, args...)) }

	mainRels, err := p.readRels(main)
	if err != nil {
		return nil, err
	}
	relTarget := func(suffix, fallback string) string {
		for _, r := range mainRels {
			if !r.External && relType(r.Type, suffix) {
				return r.Target
			}
		}
		if p.has(fallback) {
			return fallback
		}
		return ""
	}

	ss := newStyleSheet()
	if name := relTarget("/styles", path.Join(path.Dir(main), "styles.xml")); name != "" {
		if rc, err := p.open(name); err == nil {
			s, perr := parseStyles(rc)
			rc.Close()
			if perr != nil {
				return nil, perr
			}
			ss = s
		} else if pe := asParsed(err); pe != nil && pe.Code == parsed.CodeTooLarge {
			return nil, pe
		} else {
			warn("styles could not be read (%v); headings may be missed", err)
		}
	}
	nb := newNumbering()
	if name := relTarget("/numbering", path.Join(path.Dir(main), "numbering.xml")); name != "" {
		if rc, err := p.open(name); err == nil {
			n, perr := parseNumbering(rc)
			rc.Close()
			if perr != nil {
				return nil, perr
			}
			nb = n
		} else if pe := asParsed(err); pe != nil && pe.Code == parsed.CodeTooLarge {
			return nil, pe
		} else {
			warn("list numbering could not be read (%v); list labels are bullets", err)
		}
	}

	textBytes := 0
	rc, err := p.open(main)
	if err != nil {
		if err == errNoPart {
			return nil, missingMain(main)
		}
		return nil, err
	}
	w := newWalker(rc, ss, nb, &textBytes)
	w.body = true
	rootEl, ok := w.root()
	if ok {
		switch rootEl.Name.Local {
		case "document":
			w.children(nil)
		case "workbook", "presentation":
			rc.Close()
			return nil, notWord(main)
		default:
			rc.Close()
			return nil, parsed.Errorf(parsed.CodeNotDocx, "not a Word document: its main part %s holds <%s>, not a Word document body", main, rootEl.Name.Local)
		}
	}
	rc.Close()
	if pe, msg := walkError(w.err, main); pe != nil {
		if pe.Code != parsed.CodeCorrupt || len(w.blocks) == 0 {
			return nil, pe
		}
		warn("%s", msg)
	}
	doc.Blocks = w.blocks
	pages := w.page

	// Header, footer, footnote and endnote text: after the body, as "other"
	// blocks, each distinct text once (a long document repeats the same
	// running header in dozens of parts), page numbers alone dropped.
	lastPage := pages
	seen := map[string]bool{}
	for _, kind := range []string{"/header", "/footer", "/footnotes", "/endnotes"} {
		for _, name := range partsOf(mainRels, kind) {
			blocks, err := readAside(p, name, ss, nb, &textBytes)
			if err != nil {
				if pe := asParsed(err); pe != nil && pe.Code == parsed.CodeTooLarge {
					return nil, pe
				}
				warn("%v", err)
			}
			for _, b := range blocks {
				if !hasLetter(b.Text) || seen[b.Text] {
					continue
				}
				seen[b.Text] = true
				doc.Blocks = append(doc.Blocks, parsed.Block{Page: lastPage, Kind: parsed.BlockOther, Text: b.Text})
			}
		}
	}

	doc.Title = coreTitle(p)
	doc.MetaTitle = doc.Title
	if doc.Title == "" {
		for _, b := range doc.Blocks {
			if b.Kind == parsed.BlockHeading {
				doc.Title = b.Text
				break
			}
		}
	}
	for i := 1; i <= pages; i++ {
		doc.Pages = append(doc.Pages, parsed.PageInfo{Number: i, Engine: Engine})
	}
	if len(doc.Blocks) == 0 {
		return nil, parsed.Errorf(parsed.CodeNoText, "This Word document contains no text (it may hold only images).")
	}
	return doc, nil
}

// IsOLE2 reports whether data starts with the OLE2 compound-file magic
// (legacy .doc/.xls/.ppt, and password-protected Office files).
func IsOLE2(data []byte) bool { return bytes.HasPrefix(data, oleMagic) }

// ExplainOLE2 explains why an OLE2 compound file cannot be read: either a
// password-protected .docx (Office wraps encrypted OOXML in OLE2 with an
// "EncryptedPackage" stream; CodePasswordRequired) or a legacy binary
// Word 97-2003 .doc (CodeLegacyDoc).
func ExplainOLE2(data []byte) *parsed.Error {
	if bytes.Contains(data, utf16le("EncryptedPackage")) {
		return parsed.Errorf(parsed.CodePasswordRequired, "This Word document is password-protected. Remove the password in Word (File > Info > Protect Document), save it, then import it again.")
	}
	if !bytes.Contains(data, utf16le("WordDocument")) {
		switch {
		case bytes.Contains(data, utf16le("Workbook")):
			return parsed.Errorf(parsed.CodeUnsupported, "This is a legacy Excel workbook (.xls), not a PDF, Word (.docx), text or Markdown file.")
		case bytes.Contains(data, utf16le("PowerPoint Document")):
			return parsed.Errorf(parsed.CodeUnsupported, "This is a legacy PowerPoint presentation (.ppt), not a PDF, Word (.docx), text or Markdown file.")
		}
	}
	return parsed.Errorf(parsed.CodeLegacyDoc, "This is a legacy Word 97–2003 .doc file; open it in Word or LibreOffice and save it as .docx, then import that.")
}

func utf16le(s string) []byte {
	out := make([]byte, 0, 2*len(s))
	for i := 0; i < len(s); i++ {
		out = append(out, s[i], 0)
	}
	return out
}

// mainPart finds the main document part through _rels/.rels (the
// officeDocument relationship), falling back to word/document.xml when the
// package has no relationships at all.
func mainPart(p *pkg) (string, error) {
	if rc, err := p.open("mimetype"); err == nil {
		var buf [128]byte
		n, _ := rc.Read(buf[:])
		rc.Close()
		mt := strings.TrimSpace(string(buf[:n]))
		switch {
		case strings.HasPrefix(mt, "application/vnd.oasis.opendocument.text"):
			return "", parsed.Errorf(parsed.CodeNotDocx, "This is an OpenDocument text (.odt) file, not a Word document; open it in LibreOffice or Word, save it as .docx, then import that.")
		case mt != "":
			return "", parsed.Errorf(parsed.CodeNotDocx, "not a Word document: this zip package is %q", mt)
		}
	} else if pe := asParsed(err); pe != nil && pe.Code == parsed.CodeTooLarge {
		return "", pe
	}
	rels, err := p.readRels("")
	if err != nil {
		return "", err
	}
	for _, r := range rels {
		if !r.External && relType(r.Type, "/officeDocument") {
			if strings.HasPrefix(strings.ToLower(r.Target), "xl/") || strings.HasPrefix(strings.ToLower(r.Target), "ppt/") {
				return "", notWord(r.Target)
			}
			if !p.has(r.Target) {
				return "", missingMain(r.Target)
			}
			return r.Target, nil
		}
	}
	if p.has("word/document.xml") {
		return "word/document.xml", nil
	}
	if len(rels) > 0 || p.has("[Content_Types].xml") {
		return "", parsed.Errorf(parsed.CodeNotDocx, "not a Word document: the package names no main document part")
	}
	return "", parsed.Errorf(parsed.CodeNotDocx, "not a Word document: this is a zip archive without a Word document inside")
}

func missingMain(name string) *parsed.Error {
	return parsed.Errorf(parsed.CodeNotDocx, "not a Word document: its main part %s is missing (the file is incomplete or damaged)", name)
}

func notWord(target string) *parsed.Error {
	what := "an Office file"
	switch {
	case strings.HasPrefix(strings.ToLower(target), "xl/"):
		what = "an Excel workbook (.xlsx)"
	case strings.HasPrefix(strings.ToLower(target), "ppt/"):
		what = "a PowerPoint presentation (.pptx)"
	}
	return parsed.Errorf(parsed.CodeNotDocx, "not a Word document: this is %s", what)
}

// partsOf lists the internal targets of relationships of one type, in
// natural order (header2 before header10).
func partsOf(rels []rel, suffix string) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range rels {
		if !r.External && relType(r.Type, suffix) && !seen[r.Target] {
			seen[r.Target] = true
			out = append(out, r.Target)
		}
	}
	sort.Slice(out, func(i, j int) bool { return naturalLess(out[i], out[j]) })
	return out
}

// naturalLess compares strings with digit runs compared as numbers.
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := digitPrefix(a), digitPrefix(b)
		if da != "" && db != "" {
			na, _ := strconv.Atoi(da)
			nb, _ := strconv.Atoi(db)
			if na != nb {
				return na < nb
			}
			a, b = a[len(da):], b[len(db):]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digitPrefix(s string) string {
	i := 0
	for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

// readAside walks a header, footer, footnotes or endnotes part.
func readAside(p *pkg, name string, ss *styleSheet, nb *numbering, textBytes *int) ([]parsed.Block, error) {
	rc, err := p.open(name)
	if err == errNoPart {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	w := newWalker(rc, ss, nb, textBytes)
	root, ok := w.root()
	if ok {
		switch root.Name.Local {
		case "footnotes", "endnotes":
			for {
				tok, ok := w.next()
				if !ok {
					break
				}
				if se, ok := tok.(xml.StartElement); ok {
					switch attr(se, "type") {
					case "separator", "continuationSeparator", "continuationNotice":
						w.skip()
					default:
						w.children(nil)
					}
				}
				if _, ok := tok.(xml.EndElement); ok {
					break
				}
			}
		default:
			w.children(nil)
		}
	}
	w.flushBoxes()
	pe, msg := walkError(w.err, name)
	if pe != nil && pe.Code == parsed.CodeTooLarge {
		return nil, pe
	}
	if msg != "" {
		return w.blocks, fmt.Errorf("%s", msg)
	}
	return w.blocks, nil
}

// coreTitle returns dc:title from the core properties part.
func coreTitle(p *pkg) string {
	name := "docProps/core.xml"
	if rels, err := p.readRels(""); err == nil {
		for _, r := range rels {
			if !r.External && relType(r.Type, "/metadata/core-properties") {
				name = r.Target
			}
		}
	}
	rc, err := p.open(name)
	if err != nil {
		return ""
	}
	defer rc.Close()
	d := xml.NewDecoder(rc)
	for {
		tok, err := d.Token()
		if err != nil {
			return ""
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "title" {
			var s string
			if d.DecodeElement(&s, &se) != nil {
				return ""
			}
			s = strings.Join(strings.Fields(s), " ")
			if len(s) > 300 {
				s = strings.ToValidUTF8(s[:300], "")
			}
			return s
		}
	}
}

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}
