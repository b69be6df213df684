// Package pdf reads the text of a PDF file page by page for Cairn's import
// pipeline.
//
// Read tries two engines. The first is a content-stream walker written here
// on top of github.com/ledongthuc/pdf's low-level object API (Reader,
// Value and stream decoding). The walker enumerates pages itself (walking
// /Kids with a visited set and a page cap) and tokenises content streams
// with its own bounded lexer. It decodes fonts itself: ToUnicode CMaps,
// simple encodings with /Differences, Type 1 built-in encodings, CID widths,
// and Adobe CJK collections through the system's CID-to-Unicode tables when
// they are installed. It positions every glyph, follows Form XObjects, and
// rebuilds words, lines and paragraphs from the glyph geometry. The
// library's own Font and Interpret helpers are not used: Font ignores
// ToUnicode when a font has an /Encoding, and Interpret can neither be
// bounded nor skip inline images.
//
// Each page's text is then judged for replacement and control characters,
// few letters, Latin-1 mojibake, words run together, and CJK glyphs with no
// Unicode mapping. Pages that fail are re-read with PDFium compiled to
// WebAssembly (github.com/klippa-app/go-pdfium/webassembly, no cgo). So are
// whole files the library cannot open or decrypts wrongly: damaged framing,
// broken xref, AES-256, 40-bit RC4. PDFium starts lazily, once per process,
// with an on-disk wazero compilation cache. Image-only pages are flagged
// (parsed.PageInfo.NoText) and not OCRed while reading: OpenOCR renders
// them with PDFium and reads them with tesseract, page by page, for the
// import's "ocr" indexing stage (scans.go).
//
// All work is capped (pages, operators, nesting, decompressed bytes), and
// every call into the PDF library runs under recover. Malformed input
// yields a typed *parsed.Error or a partial document with warnings, never a
// panic. Process-level limits (time, memory) are the caller's job.
package pdf
