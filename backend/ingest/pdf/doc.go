// Package pdf reads the text of a PDF file page by page for Cairn's import
// pipeline.
//
// Read tries two engines. The first is a content-stream walker written here
// on top of github.com/ledongthuc/pdf's low-level object API (Value, Font,
// Interpret): it enumerates pages itself, decodes fonts (ToUnicode CMaps,
// simple encodings, CID widths), positions every glyph and rebuilds words,
// lines and paragraphs from the glyph geometry. Each page's text is then
// judged (replacement and control characters, letters, Latin-1 mojibake,
// glued words, undecodable CID fonts). Pages that fail, and whole files the
// library cannot open (damaged framing, broken xref, AES-256, PDF 2.0, ...),
// are re-read with PDFium compiled to WebAssembly
// (github.com/klippa-app/go-pdfium/webassembly, no cgo), which is started
// lazily, once per process, with an on-disk wazero compilation cache.
// Image-only pages are flagged and, when the tesseract binary is installed,
// rendered with PDFium and OCRed.
//
// All work is capped (pages, operators, nesting, decompressed bytes) and
// every call into the PDF library runs under recover, so malformed input
// yields a typed *parsed.Error or a partial document with warnings, never a
// panic. Process-level limits (time, memory) are the caller's job.
package pdf
