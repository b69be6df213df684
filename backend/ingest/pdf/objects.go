package pdf

import (
	"errors"
	"fmt"
	"io"
	"reflect"

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
