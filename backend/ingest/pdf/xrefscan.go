package pdf

import (
	"bytes"
	"compress/zlib"
	"io"
	"regexp"
	"strconv"
)

// A PDF 1.5 cross-reference stream says, for each object kept inside an
// object stream, which stream holds it. The spec forbids an object stream
// inside another, and the first reader's resolver follows that chain by
// recursion: an object stream listed inside itself (or two inside each
// other) recursed until the Go stack overflowed, which no recover() catches.
// nestedObjectStreams finds such files from the raw bytes before that
// reader opens them; they go to PDFium instead.

var (
	xrefType    = regexp.MustCompile(`/Type\s*/XRef\b`)
	xrefW       = regexp.MustCompile(`/W\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s*\]`)
	xrefIndex   = regexp.MustCompile(`/Index\s*\[([\d\s]*)\]`)
	xrefSize    = regexp.MustCompile(`/Size\s+(\d+)`)
	xrefPred    = regexp.MustCompile(`/Predictor\s+(\d+)`)
	xrefColumns = regexp.MustCompile(`/Columns\s+(\d+)`)
	xrefFilter  = regexp.MustCompile(`/Filter\s*\[?\s*/(\w+)`)
)

// Bounds of the scan: it looks at the first 64 cross-reference streams and
// inflates at most 64 MiB from each.
const (
	maxXrefStreams   = 64
	maxXrefInflated  = 64 << 20
	xrefDictLookback = 4096
	// entries remembered in all (a 10M-entry cross-reference stream must
	// not make the scan itself the memory problem)
	maxInStreamEntries = 1 << 21
)

// nestedObjectStreams reports whether data's cross-reference streams place
// an object stream inside an object stream (itself included).
func nestedObjectStreams(data []byte) bool {
	inStream := map[uint64]uint64{} // object → the object stream holding it
	rest, base := data, 0
	for n := 0; n < maxXrefStreams; n++ {
		loc := xrefType.FindIndex(rest)
		if loc == nil {
			break
		}
		at := base + loc[0]
		base += loc[1]
		rest = rest[loc[1]:]
		dict, body, ok := streamAround(data, at)
		if !ok {
			continue
		}
		collectInStream(dict, body, inStream)
	}
	for _, holder := range inStream {
		if _, nested := inStream[holder]; nested {
			return true
		}
	}
	return false
}

// streamAround finds the dictionary around position at (from the "obj"
// before it to the "stream" keyword after it) and the stream's raw bytes.
func streamAround(data []byte, at int) (dict, body []byte, ok bool) {
	from := max(0, at-xrefDictLookback)
	objAt := bytes.LastIndex(data[from:at], []byte("obj"))
	if objAt < 0 {
		return nil, nil, false
	}
	start := from + objAt
	kw := bytes.Index(data[at:], []byte("stream"))
	if kw < 0 {
		return nil, nil, false
	}
	dict = data[start : at+kw]
	bodyStart := at + kw + len("stream")
	if bodyStart < len(data) && data[bodyStart] == '\r' {
		bodyStart++
	}
	if bodyStart < len(data) && data[bodyStart] == '\n' {
		bodyStart++
	}
	end := bytes.Index(data[bodyStart:], []byte("endstream"))
	if end < 0 {
		return nil, nil, false
	}
	return dict, data[bodyStart : bodyStart+end], true
}

func atoi(b []byte) int {
	n, err := strconv.Atoi(string(b))
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// collectInStream records the type-2 entries (object in object stream) of
// one cross-reference stream.
func collectInStream(dict, body []byte, into map[uint64]uint64) {
	m := xrefW.FindSubmatch(dict)
	if m == nil {
		return
	}
	w := [3]int{atoi(m[1]), atoi(m[2]), atoi(m[3])}
	if w[0] > 8 || w[1] > 8 || w[2] > 8 {
		return
	}
	row := w[0] + w[1] + w[2]
	if row == 0 {
		return
	}
	if f := xrefFilter.FindSubmatch(dict); f != nil {
		if string(f[1]) != "FlateDecode" {
			return // a filter the scan does not decode: nothing learned
		}
		zr, err := zlib.NewReader(bytes.NewReader(body))
		if err != nil {
			return
		}
		inflated, _ := io.ReadAll(io.LimitReader(zr, maxXrefInflated))
		body = inflated
	}
	if p := xrefPred.FindSubmatch(dict); p != nil && atoi(p[1]) >= 10 {
		cols := row
		if c := xrefColumns.FindSubmatch(dict); c != nil {
			cols = atoi(c[1])
		}
		body = unpredictPNG(body, cols)
	}
	var ranges []int
	if ix := xrefIndex.FindSubmatch(dict); ix != nil {
		for _, f := range bytes.Fields(ix[1]) {
			ranges = append(ranges, atoi(f))
		}
	} else if s := xrefSize.FindSubmatch(dict); s != nil {
		ranges = []int{0, atoi(s[1])}
	}
	field := func(b []byte) uint64 {
		var v uint64
		for _, c := range b {
			v = v<<8 | uint64(c)
		}
		return v
	}
	pos := 0
	for i := 0; i+1 < len(ranges); i += 2 {
		for k := 0; k < ranges[i+1]; k++ {
			if pos+row > len(body) {
				return
			}
			e := body[pos : pos+row]
			pos += row
			typ := uint64(1)
			if w[0] > 0 {
				typ = field(e[:w[0]])
			}
			obj := uint64(ranges[i] + k)
			switch {
			case typ == 2 && len(into) < maxInStreamEntries:
				into[obj] = field(e[w[0] : w[0]+w[1]])
			case typ != 2:
				delete(into, obj) // a later section (an update) redefines it
			}
		}
	}
}

// unpredictPNG undoes the PNG row filters of a FlateDecode stream with
// /Predictor ≥ 10: rows of cols bytes, each after a filter-type byte.
func unpredictPNG(b []byte, cols int) []byte {
	if cols <= 0 {
		return nil
	}
	var out []byte
	prev := make([]byte, cols)
	for len(b) >= cols+1 {
		ft, row := b[0], append([]byte(nil), b[1:cols+1]...)
		b = b[cols+1:]
		for i := range row {
			var left, upLeft byte
			if i > 0 {
				left, upLeft = row[i-1], prev[i-1]
			}
			up := prev[i]
			switch ft {
			case 1:
				row[i] += left
			case 2:
				row[i] += up
			case 3:
				row[i] += byte((int(left) + int(up)) / 2)
			case 4:
				row[i] += paeth(left, up, upLeft)
			}
		}
		out = append(out, row...)
		prev = row
	}
	return out
}

func paeth(a, b, c byte) byte {
	p := int(a) + int(b) - int(c)
	pa, pb, pc := iabs(p-int(a)), iabs(p-int(b)), iabs(p-int(c))
	switch {
	case pa <= pb && pa <= pc:
		return a
	case pb <= pc:
		return b
	}
	return c
}

func iabs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
