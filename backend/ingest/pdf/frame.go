package pdf

import (
	"bytes"

	"cairn/backend/ingest/parsed"
)

// headerWindow is how far into the file the "%PDF-" header may start, as
// in Acrobat and poppler.
const headerWindow = 1024

// sniff rejects input that is not a PDF at all, with an error a person
// understands.
func sniff(data []byte) error {
	if len(data) == 0 {
		return parsed.Errorf(parsed.CodeEmpty, "The file is empty (0 bytes).")
	}
	if headerOffset(data) >= 0 {
		return nil
	}
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		return parsed.Errorf(parsed.CodeUnsupported, "This file is not a PDF: it is a zip archive (perhaps a Word .docx file with a .pdf name).")
	case bytes.HasPrefix(data, []byte{0xD0, 0xCF, 0x11, 0xE0}):
		return parsed.Errorf(parsed.CodeUnsupported, "This file is not a PDF: it is a legacy Microsoft Office file.")
	}
	return parsed.Errorf(parsed.CodeUnsupported, "This file is not a PDF (no PDF header found).")
}

// headerOffset returns where "%PDF-" starts within the header window, or -1.
func headerOffset(data []byte) int {
	return bytes.Index(data[:min(len(data), headerWindow)], []byte("%PDF-"))
}

// normalise repairs the file framing problems that the first reader
// rejects but every mainstream reader accepts: bytes before the header
// (offsets are then relative to the header), a header version other than
// 1.0-1.7 (PDF 2.0 is read the same way for text), a header not followed
// by an end of line, and bytes after the last %%EOF. It returns data
// itself when nothing needed fixing.
func normalise(data []byte) []byte {
	off := headerOffset(data)
	if off < 0 {
		return data
	}
	out := data[off:]
	// Trailing garbage: cut after the last %%EOF unless it is already
	// (nearly) at the end.
	if i := bytes.LastIndex(out, []byte("%%EOF")); i >= 0 {
		end := i + len("%%EOF")
		if len(bytes.TrimRight(out[end:], "\r\n\t \x00")) > 0 {
			out = out[:end]
		}
	}
	// The first reader wants exactly "%PDF-1.x" + EOL at byte 0.
	if len(out) >= 9 {
		okVersion := out[5] == '1' && out[6] == '.' && out[7] >= '0' && out[7] <= '7'
		okEOL := out[8] == '\r' || out[8] == '\n'
		if !okVersion || !okEOL {
			fixed := make([]byte, len(out))
			copy(fixed, out)
			// Overwrite the version, keeping the length so offsets stay valid.
			copy(fixed[5:8], "1.7")
			if !okEOL {
				fixed[8] = '\n'
			}
			out = fixed
		}
	}
	return out
}

// looksTruncated reports whether the file has no end-of-file marker or no
// cross-reference pointer at all: it ends early.
func looksTruncated(data []byte) bool {
	tail := data[max(0, len(data)-2048):]
	return !bytes.Contains(tail, []byte("%%EOF")) && !bytes.Contains(tail, []byte("startxref"))
}
