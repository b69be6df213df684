package ingest

import (
	"fmt"

	"cairn/backend/ingest/docx"
	"cairn/backend/ingest/parsed"
	"cairn/backend/ingest/pdf"
	"cairn/backend/ingest/plaintext"
)

// Read sniffs data and hands it to the matching reader (pdf.Read,
// docx.Read, plaintext.Read). name is the file name the user gave; it only
// picks Markdown over plain text and, when its extension disagrees with the
// content, adds a warning ("named .docx but is a PDF; read as PDF").
// Failures are *parsed.Error values. A reader panic is recovered and
// reported as CodeCrashed; faults recover() cannot catch (out of memory)
// are what ReadIsolated is for.
func Read(data []byte, name string, opt parsed.Options) (doc *parsed.Document, err error) {
	kind, err := Sniff(data, name)
	if err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			doc = nil
			err = parsed.Errorf(parsed.CodeCrashed, "The %s reader failed on this file (%v).", kindLabel(kind), r)
		}
	}()
	switch kind {
	case parsed.KindPDF:
		doc, err = pdf.Read(data, opt)
	case parsed.KindDOCX:
		doc, err = docx.Read(data, opt)
	default:
		if int64(len(data)) > 2*textLimit { // UTF-16 halves; nothing else shrinks
			return nil, tooMuchText(int64(len(data)))
		}
		doc, err = plaintext.Read(data, kind)
	}
	if err != nil {
		return nil, err
	}
	if n := textBytes(doc); n > textLimit {
		return nil, tooMuchText(n)
	}
	if doc.Kind == "" {
		doc.Kind = kind
	}
	if w := mismatchWarning(name, kind); w != "" {
		doc.Warnings = append([]string{w}, doc.Warnings...)
	}
	return doc, nil
}

// MaxTextBytes is the most text one document may hold once read, whatever
// its format: 64 MiB, about 20,000 densely printed pages. Indexing holds a
// document's text a few times over in memory (passages, lexical rows,
// embedding input), so this bounds the app's memory as the reader process's
// cap bounds the reader's.
const MaxTextBytes = 64 << 20

// textLimit is MaxTextBytes; tests lower it.
var textLimit int64 = MaxTextBytes

func textBytes(doc *parsed.Document) int64 {
	var n int64
	for _, b := range doc.Blocks {
		n += int64(len(b.Text))
	}
	return n
}

func tooMuchText(n int64) error {
	return parsed.Errorf(parsed.CodeTooLarge, "This file holds about %d MiB of text; Cairn reads documents of up to %d MiB of text (about 20,000 pages). Split it into smaller files and import those.", (n+(1<<20)-1)>>20, textLimit>>20)
}

// extKinds maps file extensions to the kind they promise. ".doc" promises a
// Word file of either generation.
var extKinds = map[string]parsed.Kind{
	".pdf":  parsed.KindPDF,
	".docx": parsed.KindDOCX, ".docm": parsed.KindDOCX, ".dotx": parsed.KindDOCX, ".doc": parsed.KindDOCX,
	".txt": parsed.KindTXT, ".text": parsed.KindTXT,
	".md": parsed.KindMD, ".markdown": parsed.KindMD, ".mdown": parsed.KindMD, ".mkd": parsed.KindMD, ".mkdn": parsed.KindMD,
}

// mismatchWarning explains a file whose extension promises another kind
// than its content. Unknown extensions (".log", none) get no warning.
func mismatchWarning(name string, kind parsed.Kind) string {
	ext := extOf(name)
	want, ok := extKinds[ext]
	if !ok || want == kind {
		return ""
	}
	if (want == parsed.KindTXT || want == parsed.KindMD) && (kind == parsed.KindTXT || kind == parsed.KindMD) {
		return ""
	}
	what := map[parsed.Kind]string{
		parsed.KindPDF:  "a PDF",
		parsed.KindDOCX: "a Word (.docx) document",
		parsed.KindTXT:  "plain text",
		parsed.KindMD:   "Markdown text",
	}[kind]
	return fmt.Sprintf("named %s but is %s; read as %s", ext, what, kindLabel(kind))
}

func kindLabel(k parsed.Kind) string {
	switch k {
	case parsed.KindPDF:
		return "PDF"
	case parsed.KindDOCX:
		return "Word"
	case parsed.KindMD:
		return "Markdown"
	}
	return "text"
}
