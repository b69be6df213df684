// Package plaintext reads plain-text (.txt) and Markdown (.md) files into a
// parsed.Document: the text is decoded (UTF-8, or UTF-16 with a byte-order
// mark), split into paragraphs on blank lines and, for Markdown, into
// headings, list items, table rows and code blocks. Text files have one
// page.
package plaintext

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"cairn/backend/ingest/parsed"
)

// Engine is the PageInfo.Engine value for pages read by this package.
const Engine = "text"

// Read parses a text file as kind (parsed.KindMD for Markdown; anything
// else is read as plain text). Zero bytes fail with CodeEmpty, text with
// nothing but whitespace with CodeNoText.
func Read(data []byte, kind parsed.Kind) (*parsed.Document, error) {
	if len(data) == 0 {
		return nil, parsed.Errorf(parsed.CodeEmpty, "The file is empty.")
	}
	text, warnings := Decode(data)
	if strings.TrimSpace(text) == "" {
		return nil, parsed.Errorf(parsed.CodeNoText, "The file contains no text, only blank space.")
	}
	doc := &parsed.Document{
		Kind:     parsed.KindTXT,
		Pages:    []parsed.PageInfo{{Number: 1, Engine: Engine}},
		Warnings: warnings,
	}
	lines := strings.Split(text, "\n")
	if kind == parsed.KindMD {
		doc.Kind = parsed.KindMD
		doc.Blocks, doc.Title = markdown(lines)
	} else {
		doc.Blocks = paragraphs(lines)
	}
	if len(doc.Blocks) == 0 {
		return nil, parsed.Errorf(parsed.CodeNoText, "The file contains no readable text.")
	}
	return doc, nil
}

// Decode turns file bytes into clean text: a UTF-8 byte-order mark is
// stripped, UTF-16 with a byte-order mark is decoded, invalid UTF-8 becomes
// U+FFFD, line ends become "\n", and control characters other than tab and
// newline are removed (form feed and vertical tab become newlines: "\f" is
// the page separator of the document text downstream).
func Decode(data []byte) (string, []string) {
	var warnings []string
	switch {
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		data = data[3:]
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}), bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		return decodeUTF16(data[2:], data[0] == 0xFE, warnings)
	}
	if be, ok := UTF16WithoutBOM(data); ok {
		order := map[bool]string{false: "little-endian", true: "big-endian"}[be]
		warnings = append(warnings, "UTF-16 text without a byte-order mark; read as UTF-16 ("+order+")")
		return decodeUTF16(data, be, warnings)
	}
	return decodeUTF8(data, warnings)
}

// UTF16WithoutBOM recognises UTF-16 text that lacks a byte-order mark by its
// zero bytes: text written mostly in ASCII (English, most European
// languages, code) has a zero high byte in nearly every code unit, so one byte position of each pair is mostly zero
// and the other almost never. be says which (big-endian: the even bytes).
// Judged on the first 64 KiB; at least 8 code units.
func UTF16WithoutBOM(data []byte) (be, ok bool) {
	sample := data[:min(len(data), 64<<10)]
	pairs := len(sample) / 2
	if pairs < 8 {
		return false, false
	}
	evenZero, oddZero := 0, 0
	for i := 0; i+1 < len(sample); i += 2 {
		if sample[i] == 0 {
			evenZero++
		}
		if sample[i+1] == 0 {
			oddZero++
		}
	}
	switch {
	case oddZero*10 >= pairs*6 && evenZero*50 <= pairs:
		be = false
	case evenZero*10 >= pairs*6 && oddZero*50 <= pairs:
		be = true
	default:
		return false, false
	}
	// The decoded units must look like text: few controls besides white space.
	controls := 0
	for i := 0; i+1 < len(sample); i += 2 {
		u := uint16(sample[i+1])<<8 | uint16(sample[i])
		if be {
			u = uint16(sample[i])<<8 | uint16(sample[i+1])
		}
		if u < 0x20 && u != '\t' && u != '\n' && u != '\r' && u != '\f' {
			controls++
		}
	}
	return be, controls*100 <= pairs
}

func decodeUTF16(body []byte, be bool, warnings []string) (string, []string) {
	if len(body)%2 == 1 {
		body = body[:len(body)-1]
		warnings = append(warnings, "the UTF-16 text ends with half a character; it was dropped")
	}
	u := make([]uint16, len(body)/2)
	for i := range u {
		if be {
			u[i] = uint16(body[2*i])<<8 | uint16(body[2*i+1])
		} else {
			u[i] = uint16(body[2*i+1])<<8 | uint16(body[2*i])
		}
	}
	return clean(string(utf16.Decode(u)), warnings)
}

func decodeUTF8(data []byte, warnings []string) (string, []string) {
	var s string
	if !utf8.Valid(data) {
		bad := 0
		for i := 0; i < len(data); {
			r, n := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && n == 1 {
				bad++
			}
			i += n
		}
		warnings = append(warnings, fmt.Sprintf("%d byte(s) that are not valid UTF-8 were replaced; if the text looks wrong, the file may use an older encoding (Windows-1252, GBK, Shift-JIS): save it as UTF-8 and import it again", bad))
		s = strings.ToValidUTF8(string(data), "\uFFFD")
	} else {
		s = string(data)
	}
	return clean(s, warnings)
}

func clean(s string, warnings []string) (string, []string) {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	b.Grow(len(s))
	removed := 0
	for _, r := range s {
		switch {
		case r == '\r', r == '\f', r == '\v', r == '\u2028', r == '\u2029', r == '\u0085':
			b.WriteByte('\n')
		case r == '\t', r == '\n':
			b.WriteRune(r)
		case r < 0x20, r == 0x7F, r == '\uFEFF':
			removed++
		default:
			b.WriteRune(r)
		}
	}
	if removed > 0 {
		warnings = append(warnings, fmt.Sprintf("%d control character(s) were removed", removed))
	}
	return b.String(), warnings
}

// paragraphs splits plain text on blank lines. Lines inside a paragraph
// keep their breaks (hard-wrapped text stays as written).
func paragraphs(lines []string) []parsed.Block {
	var out []parsed.Block
	var cur []string
	flush := func() {
		if t := strings.TrimSpace(strings.Join(cur, "\n")); t != "" {
			out = append(out, parsed.Block{Page: 1, Kind: parsed.BlockParagraph, Text: t})
		}
		cur = cur[:0]
	}
	for _, line := range lines {
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		cur = append(cur, strings.TrimRight(line, " \t"))
	}
	flush()
	return out
}
