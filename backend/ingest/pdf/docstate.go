package pdf

import (
	lp "github.com/ledongthuc/pdf"
)

// docState is shared by the pages of one document: caches keyed by object
// identity (never by resource name, which producers reuse for different
// fonts on different pages).
type docState struct {
	fonts       map[uint64]*font // by font object identity
	res         map[uint64]*resources
	streams     map[uint64][]byte
	streamBytes int64
	fontBudget  int64
	ops, bytes  int64 // work done so far, against maxOpsPerDoc / maxBytesPerDoc
}

// exhausted reports whether the document has used up its work budget.
func (d *docState) exhausted() bool {
	return d.ops > maxOpsPerDoc || d.bytes > maxBytesPerDoc
}

// newDocState returns the empty caches of a new document.
func newDocState() *docState {
	return &docState{fonts: map[uint64]*font{}, res: map[uint64]*resources{}, streams: map[uint64][]byte{}, fontBudget: fontProgramBytes}
}

// resources returns the lookup cache for a resource dictionary, shared by
// every page and form that uses the same dictionary object (a file with
// 100,000 pages usually has one), so its fonts are resolved only once.
func (d *docState) resources(v lp.Value) *resources {
	id := objectID(v)
	if id != 0 {
		if r, ok := d.res[id]; ok {
			return r
		}
	}
	r := newResources(v)
	if id != 0 && len(d.res) < 100000 {
		d.res[id] = r
	}
	return r
}

// stream returns the decoded bytes of a stream, from the cache if the same
// object was decoded before.
func (d *docState) stream(v lp.Value) ([]byte, error) {
	id := objectID(v)
	if id != 0 {
		if b, ok := d.streams[id]; ok {
			return b, nil
		}
	}
	b, err := readStream(v, maxStreamBytes)
	if id != 0 && err == nil && d.streamBytes+int64(len(b)) <= streamCacheBytes {
		d.streams[id] = b
		d.streamBytes += int64(len(b))
	}
	return b, err
}

// resources caches the lookups of one resource dictionary.
type resources struct {
	v       lp.Value
	fonts   lp.Value
	fontRef map[string]uint64 // font name -> object identity (0: direct dict)
	xobjs   lp.Value
	fc      map[string]*font
	xc      map[string]lp.Value
}

// newResources prepares the lookups of one resource dictionary.
func newResources(v lp.Value) *resources {
	fonts := key(v, "Font")
	return &resources{v: v, fonts: fonts, fontRef: refsOf(fonts), xobjs: key(v, "XObject"), fc: map[string]*font{}, xc: map[string]lp.Value{}}
}
