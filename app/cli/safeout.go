package cli

import (
	"fmt"
	"io"
	"sync"
	"unicode/utf8"
)

// Terminal output carries text from documents and file names, which may
// hold escape sequences built to rewrite the screen, hide lines or set the
// window title. Every byte the CLI prints goes through safeWriter: control
// characters other than newline and tab (C0, DEL, C1) and the bidirectional
// overrides are printed as \uXXXX, bytes that are not UTF-8 as \xNN. JSON
// output is unchanged by this (encoding/json already escapes C0, and \uXXXX
// is JSON's own escape for the rest), so --json stays parseable.

// safeWriter escapes control characters on their way to w. An incomplete
// UTF-8 sequence at the end of a write waits for the next one.
type safeWriter struct {
	mu    sync.Mutex // serve and eval write from several goroutines
	w     io.Writer
	carry []byte
}

func (s *safeWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	buf := p
	if len(s.carry) > 0 {
		buf = append(s.carry, p...)
		s.carry = nil
	}
	end := len(buf)
	for k := 1; k <= utf8.UTFMax-1 && k <= len(buf); k++ {
		if i := len(buf) - k; utf8.RuneStart(buf[i]) {
			if !utf8.FullRune(buf[i:]) {
				end = i
			}
			break
		}
	}
	if end < len(buf) {
		s.carry = append([]byte(nil), buf[end:]...)
	}
	if _, err := s.w.Write(escapeControls(buf[:end])); err != nil {
		return 0, err
	}
	return len(p), nil
}

// flush writes a trailing incomplete sequence, escaped.
func (s *safeWriter) flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.carry) > 0 {
		s.w.Write(escapeControls(s.carry))
		s.carry = nil
	}
}

// escapeControls returns b with control characters escaped (b itself when
// there are none).
func escapeControls(b []byte) []byte {
	clean := true
	for _, c := range b {
		if (c < 0x20 && c != '\n' && c != '\t') || c >= 0x7F {
			clean = false
			break
		}
	}
	if clean {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			out = fmt.Appendf(out, `\x%02x`, b[i])
		case unsafeRune(r):
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			out = append(out, b[i:i+n]...)
		}
		i += n
	}
	return out
}

// unsafeRune reports control characters (except newline and tab) and the
// bidirectional embedding, override and isolate characters.
func unsafeRune(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || (r >= 0x7F && r <= 0x9F):
		return true
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// printable is escapeControls for one string (a line written to the raw
// terminal, such as a progress line).
func printable(s string) string { return string(escapeControls([]byte(s))) }
