// Package parsed is the contract between Cairn's file readers (pdf, docx,
// plaintext) and the rest of the import pipeline: a parsed Document is the
// file's text as blocks (headings, paragraphs, list items, table rows), each
// tagged with the page it came from, plus typed failures a person
// understands. It is a leaf package: readers and the pipeline both import it.
package parsed

import (
	"errors"
	"fmt"
)

// Kind is a detected file type.
type Kind string

const (
	KindPDF  Kind = "pdf"
	KindDOCX Kind = "docx"
	KindTXT  Kind = "txt"
	KindMD   Kind = "md"
)

// BlockKind says what a block of text is.
type BlockKind string

const (
	BlockHeading   BlockKind = "heading"
	BlockParagraph BlockKind = "paragraph"
	BlockListItem  BlockKind = "list_item"
	BlockTableRow  BlockKind = "table_row"
	BlockOther     BlockKind = "other" // headers/footers, text boxes, footnotes, captions
)

// Block is one unit of text with its page. For headings, Level is 1..9.
type Block struct {
	Page  int       `json:"page"` // 1-based
	Kind  BlockKind `json:"kind"`
	Level int       `json:"level,omitempty"`
	Text  string    `json:"text"`
	// Box is where the block sits on its page, in points from the page's
	// top-left corner: x0, y0 (top), x1, y1 (bottom). Nil when the reader
	// knows no geometry (DOCX, text, OCR, the fallback PDF engine).
	Box *Box `json:"box,omitempty"`
	// Header marks the first row of a table (BlockTableRow).
	Header bool `json:"header,omitempty"`
}

// Box is a rectangle on a page: x0, y0 (top), x1, y1 (bottom), in points
// from the page's top-left corner.
type Box [4]float64

// PageInfo describes one page of the extracted document.
type PageInfo struct {
	Number int    `json:"number"`            // 1-based
	NoText bool   `json:"no_text,omitempty"` // no text layer (image-only): OCR candidate
	OCR    bool   `json:"ocr,omitempty"`     // text obtained by OCR
	Engine string `json:"engine,omitempty"`  // which reader produced the page text (e.g. "walker", "pdfium")
	// Label is the page number printed on the page (or given by the PDF's
	// page labels), when known: "7", "iv", "A-3".
	Label string `json:"label,omitempty"`
	// Furniture holds the running headers, footers, page numbers and
	// printer's marks found on the page; they are kept out of the text.
	Furniture []string `json:"furniture,omitempty"`
	// Width and Height are the page size in points (PDF), when known.
	Width  float64 `json:"width,omitempty"`
	Height float64 `json:"height,omitempty"`
}

// Document is what a reader returns: the document's text as blocks, page by page.
type Document struct {
	Kind  Kind   `json:"kind"`
	Title string `json:"title,omitempty"` // from metadata or first heading; may be empty
	// MetaTitle is the file's own metadata title alone ("" when it has
	// none): one of the cues a library's titles are decided from.
	MetaTitle string     `json:"meta_title,omitempty"`
	Pages     []PageInfo `json:"pages"`  // every page, in order, including empty ones
	Blocks    []Block    `json:"blocks"` // in reading order
	Warnings  []string   `json:"warnings,omitempty"`
}

// Code classifies a failure so the UI and CLI can react (prompt for a
// password, suggest OCR, ...).
type Code string

const (
	CodeEmpty            Code = "empty"             // zero bytes
	CodeUnsupported      Code = "unsupported_type"  // not PDF/DOCX/TXT/MD
	CodeLegacyDoc        Code = "legacy_doc"        // OLE2 Word 97-2003 .doc
	CodeNotDocx          Code = "not_docx"          // a zip, but not a Word document (main part missing)
	CodePasswordRequired Code = "password_required" // encrypted, needs the user password
	CodeWrongPassword    Code = "wrong_password"
	CodeCorrupt          Code = "corrupt"   // damaged beyond recovery
	CodeTruncated        Code = "truncated" // file ends early
	CodeTooLarge         Code = "too_large" // over a size cap (includes zip bombs)
	CodeTimeout          Code = "timeout"   // reader ran past its time limit
	CodeCrashed          Code = "crashed"   // reader process died (out of memory, stack overflow)
	CodeNoText           Code = "no_text"   // nothing readable at all
)

// Error is a typed reader failure. Msg is written for a person.
type Error struct {
	Code Code
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

// Errorf builds a typed error.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// CodeOf returns the failure code of err, or CodeCorrupt for an untyped error.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeCorrupt
}

// Options tune a read.
type Options struct {
	Password string // PDF user password, if the user gave one
	MaxPages int    // 0 = default cap (DefaultMaxPages)
}

// DefaultMaxPages caps how many pages are read from one PDF; the rest are
// skipped with a warning.
const DefaultMaxPages = 20000
