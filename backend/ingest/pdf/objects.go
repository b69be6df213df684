package pdf

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	lp "github.com/ledongthuc/pdf"
)

// guard runs f and turns a panic raised inside the PDF library (it reports
// most syntax errors by panicking) into an error.
func guard(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok {
				err = fmt.Errorf("malformed PDF: %w", e)
			} else {
				err = fmt.Errorf("malformed PDF: %v", r)
			}
		}
	}()
	f()
	return nil
}

// key resolves v[k] under recover; a damaged object yields a null Value.
func key(v lp.Value, k string) (out lp.Value) {
	guard(func() { out = v.Key(k) })
	return out
}

// index resolves v[i] under recover.
func index(v lp.Value, i int) (out lp.Value) {
	guard(func() { out = v.Index(i) })
	return out
}

// num returns a number value (integer or real) and whether v is one.
func num(v lp.Value) (float64, bool) {
	switch v.Kind() {
	case lp.Integer, lp.Real:
		return v.Float64(), true
	}
	return 0, false
}

// objectID returns the object number and generation of an indirect object
// (a value fetched through a reference), packed into one integer, or 0 when
// v has no identity. The library keeps this in an unexported field, so it
// is read with reflection; if the library's layout ever changes the result
// is 0 and callers fall back to identity-free behaviour.
func objectID(v lp.Value) uint64 {
	defer func() { recover() }()
	rv := reflect.ValueOf(v)
	p := rv.FieldByName("ptr")
	if !p.IsValid() || p.Kind() != reflect.Struct || p.NumField() < 2 {
		return 0
	}
	id, gen := p.Field(0), p.Field(1)
	if !id.CanUint() || !gen.CanUint() {
		return 0
	}
	if id.Uint() == 0 {
		return 0
	}
	return id.Uint()<<16 | gen.Uint()&0xffff
}

var errStreamTooLarge = errors.New("stream is larger than the decompression limit")

// readStream returns the decoded bytes of stream v, at most limit bytes.
// Unsupported filters and damaged data become errors, never panics.
func readStream(v lp.Value, limit int64) (data []byte, err error) {
	if v.Kind() != lp.Stream {
		return nil, errors.New("not a stream")
	}
	var readErr error
	err = guard(func() {
		rc := v.Reader()
		defer rc.Close()
		data, readErr = io.ReadAll(io.LimitReader(rc, limit+1))
	})
	if err == nil {
		err = readErr
	}
	if int64(len(data)) > limit {
		return data[:limit], errStreamTooLarge
	}
	if err != nil && len(data) > 0 && (errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)) {
		err = nil // truncated compressed stream: keep what was decoded
	}
	return data, err
}

// refsOf returns, for a dictionary, the object numbers of its entries
// that are indirect references, without resolving them (resolving an
// object that sits in an object stream means inflating that stream). It
// reads the library's String form, "<</F1 5 0 R /F2 <<...>>>>", and keys
// each reference as object<<16 | generation, like objectID.
func refsOf(v lp.Value) map[string]uint64 {
	out := map[string]uint64{}
	if v.Kind() != lp.Dict {
		return out
	}
	var s string
	if guard(func() { s = v.String() }) != nil {
		return out
	}
	return refsFromString(s)
}

// refsFromString parses the library's String form of a dictionary.
func refsFromString(s string) map[string]uint64 {
	out := map[string]uint64{}
	if !strings.HasPrefix(s, "<<") {
		return out
	}
	s = s[2:]
	for len(s) > 0 {
		s = strings.TrimLeft(s, " ")
		if !strings.HasPrefix(s, "/") {
			break
		}
		end := strings.IndexByte(s, ' ')
		if end < 0 {
			break
		}
		k := s[1:end]
		s = s[end+1:]
		var id, gen uint64
		if n, err := fmt.Sscanf(s, "%d %d R", &id, &gen); err == nil && n == 2 {
			out[k] = id<<16 | gen&0xffff
		}
		s = skipValue(s)
	}
	return out
}

// skipValue skips one value of the library's String form.
func skipValue(s string) string {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			// strconv.Quote form: skip to the closing unescaped quote.
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case c == '<' && i+1 < len(s) && s[i+1] == '<', c == '[':
			depth++
			if c == '<' {
				i++
			}
		case c == '>' && i+1 < len(s) && s[i+1] == '>' || c == ']':
			if depth == 0 {
				return s[i:] // end of the enclosing dictionary
			}
			depth--
			if c == '>' {
				i++
			}
		case c == ' ' && depth == 0:
			// "N G R" is one value with inner spaces.
			rest := s[i+1:]
			if strings.HasPrefix(rest, "/") {
				return rest
			}
		}
	}
	return ""
}
