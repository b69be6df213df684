// Package ingest turns a user's file into a parsed.Document: Sniff decides
// what the bytes are (by content, never by the file name), Read dispatches
// to the PDF, Word or text reader, and the isolation layer runs readers in a
// child process so a hostile file cannot take the app down.
package ingest

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"cairn/backend/ingest/docx"
	"cairn/backend/ingest/parsed"
	"cairn/backend/ingest/plaintext"
)

// sniffWindow is how far into the file the sniffer looks: PDF viewers
// accept a header within the first 1024 bytes; text is judged on the first
// 64 KiB.
const (
	pdfWindow  = 1024
	textWindow = 64 << 10
)

// Sniff says what kind of document data holds, from its bytes:
//
//   - "%PDF-" at the very start: a PDF (whatever the name says); further in
//     (within the first 1024 bytes, where PDF viewers accept it) only with
//     PDF structure after it — a version, an object ("1 0 obj") soon after —
//     and a body that is not text, or ends in a PDF trailer: a Markdown note
//     that mentions "%PDF-" is text;
//   - a zip ("PK\x03\x04"): a Word document (the reader checks it is OOXML);
//   - an OLE2 compound file: CodeLegacyDoc (Word 97-2003 .doc), or
//     CodePasswordRequired for a password-protected .docx;
//   - UTF-8 or UTF-16 text (with a byte-order mark, or without one when
//     its zero bytes say so): Markdown when the name ends in .md/.markdown,
//     else plain text;
//   - zero bytes: CodeEmpty; anything else: CodeUnsupported.
//
// name is used only to choose between text and Markdown.
func Sniff(data []byte, name string) (parsed.Kind, error) {
	if len(data) == 0 {
		return "", parsed.Errorf(parsed.CodeEmpty, "The file is empty.")
	}
	switch {
	case isPDF(data):
		return parsed.KindPDF, nil
	case bytes.HasPrefix(data, []byte("PK\x03\x04")), bytes.HasPrefix(data, []byte("PK\x05\x06")):
		return parsed.KindDOCX, nil
	case docx.IsOLE2(data):
		return "", docx.ExplainOLE2(data)
	case bytes.HasPrefix(data, []byte(`{\rtf`)):
		return "", parsed.Errorf(parsed.CodeUnsupported, "This is a Rich Text (.rtf) file, not a PDF, Word (.docx), text or Markdown file; open it in Word or LibreOffice and save it as .docx, then import that.")
	}
	switch textClass(data) {
	case isText:
		if isMarkdownName(name) {
			return parsed.KindMD, nil
		}
		return parsed.KindTXT, nil
	case legacyText:
		return "", parsed.Errorf(parsed.CodeUnsupported, "This looks like text, but not in UTF-8 or UTF-16; save it as UTF-8 (for example in Notepad or TextEdit) and import it again.")
	}
	if what := knownBinary(data); what != "" {
		return "", parsed.Errorf(parsed.CodeUnsupported, "This is %s, not a PDF, Word (.docx), text or Markdown file.", what)
	}
	return "", parsed.Errorf(parsed.CodeUnsupported, "This file is not a PDF, Word (.docx), text or Markdown file.")
}

var (
	pdfVersion = regexp.MustCompile(`^%PDF-[0-9]\.[0-9]`)
	pdfObject  = regexp.MustCompile(`[0-9]+[ \t\r\n]+[0-9]+[ \t\r\n]+obj\b`)
)

// isPDF: the header at the start, or a header a little further in with PDF
// structure after it (see Sniff).
func isPDF(data []byte) bool {
	if bytes.HasPrefix(data, []byte("%PDF-")) {
		return true
	}
	head := data[:min(len(data), pdfWindow)]
	i := bytes.Index(head, []byte("%PDF-"))
	if i < 0 || !pdfVersion.Match(data[i:min(len(data), i+16)]) {
		return false
	}
	if !pdfObject.Match(data[i:min(len(data), i+4096)]) {
		return false
	}
	if textClass(data) != isText {
		return true // junk before a binary PDF
	}
	tail := data[max(0, len(data)-1024):]
	return bytes.Contains(tail, []byte("%%EOF")) && bytes.Contains(data, []byte("startxref"))
}

func isMarkdownName(name string) bool {
	switch extOf(name) {
	case ".md", ".markdown", ".mdown", ".mkd", ".mkdn":
		return true
	}
	return false
}

// extOf returns the lower-cased extension of a file name given with either
// slash convention.
func extOf(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	return strings.ToLower(filepath.Ext(name))
}

type textKind int

const (
	notText textKind = iota
	isText
	legacyText // no NULs or stray controls, but not UTF-8: an 8-bit or DBCS code page
)

// textClass judges the first 64 KiB. Text has a UTF-8/UTF-16 byte-order
// mark, or no NUL bytes, almost no control characters and (nearly) valid
// UTF-8. A few invalid bytes are tolerated (the reader replaces them and
// warns).
func textClass(data []byte) textKind {
	if bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}) ||
		bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}) {
		return isText
	}
	if _, ok := plaintext.UTF16WithoutBOM(data); ok {
		return isText
	}
	sample := data
	truncated := false
	if len(sample) > textWindow {
		sample, truncated = sample[:textWindow], true
	}
	controls, invalid, high := 0, 0, 0
	for i := 0; i < len(sample); {
		c := sample[i]
		if c < utf8.RuneSelf {
			switch {
			case c == 0:
				return notText
			case c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != 0x1B:
				controls++
			case c == 0x7F:
				controls++
			}
			i++
			continue
		}
		high++
		r, n := utf8.DecodeRune(sample[i:])
		if r == utf8.RuneError && n == 1 {
			if truncated && !utf8.FullRune(sample[i:]) {
				break // a character cut by the window
			}
			invalid++
		}
		i += n
	}
	if controls*100 > len(sample) {
		return notText
	}
	if invalid*20 > len(sample) || (invalid >= 8 && invalid*2 > high && invalid*100 > len(sample)) {
		// More than 5% of the bytes, or most of the (several) non-ASCII
		// bytes (and over 1% of all), are not UTF-8: a legacy code page (Windows-1252, GBK,
		// Shift-JIS), unless it is really binary. A handful of stray bytes
		// in UTF-8 text are replaced by the reader instead.
		if controls == 0 || controls*1000 < len(sample) {
			return legacyText
		}
		return notText
	}
	return isText
}

// knownBinary names a few common non-document formats for a clearer
// message.
func knownBinary(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG")):
		return "a PNG image"
	case bytes.HasPrefix(data, []byte{0xFF, 0xD8, 0xFF}):
		return "a JPEG image"
	case bytes.HasPrefix(data, []byte("GIF8")):
		return "a GIF image"
	case bytes.HasPrefix(data, []byte("II*\x00")), bytes.HasPrefix(data, []byte("MM\x00*")):
		return "a TIFF image"
	case bytes.HasPrefix(data, []byte{0x1F, 0x8B}):
		return "a gzip archive"
	case bytes.HasPrefix(data, []byte("7z\xBC\xAF\x27\x1C")):
		return "a 7-Zip archive"
	case bytes.HasPrefix(data, []byte("Rar!")):
		return "a RAR archive"
	case bytes.HasPrefix(data, []byte("\x7FELF")), bytes.HasPrefix(data, []byte("MZ")):
		return "a program"
	}
	return ""
}
