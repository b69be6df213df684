package docx

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"

	"cairn/backend/ingest/parsed"
)

// Size caps. A part is an entry of the zip package (word/document.xml,
// word/styles.xml, ...). Only parts we actually parse are inflated, and each
// is read through a limit, so memory stays bounded whatever the headers say.
const (
	// MaxPartBytes caps the uncompressed size of one part.
	MaxPartBytes = 256 << 20
	// MaxTotalBytes caps the uncompressed bytes inflated over all parts read.
	MaxTotalBytes = 512 << 20
	// ratioFloor and maxRatio: a part larger than ratioFloor bytes that
	// expands more than maxRatio times is treated as a zip bomb. Real
	// WordprocessingML deflates 5-20x.
	ratioFloor = 10 << 20
	maxRatio   = 100
	// maxEntries caps the number of entries in the central directory.
	maxEntries = 20000
)

// errBomb is the one message for every size-cap failure.
func errBomb(detail string) *parsed.Error {
	return parsed.Errorf(parsed.CodeTooLarge, "document too large or a zip bomb (%s)", detail)
}

// pkg is an opened OOXML package (zip) with the caps applied.
type pkg struct {
	files map[string]*zip.File // by lower-cased part name, no leading slash
	total int64                // bytes inflated so far
}

// openPackage opens data as a zip and rejects archives built to expand:
// entries whose data overlap (several names sharing one local header),
// too many entries.
func openPackage(data []byte) (*pkg, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, parsed.Errorf(parsed.CodeCorrupt, "not a Word (OOXML) document: the file is not a readable zip package (%v)", err)
	}
	if zr == nil {
		return nil, parsed.Errorf(parsed.CodeCorrupt, "not a Word (OOXML) document: the file is not a readable zip package")
	}
	if len(zr.File) > maxEntries {
		return nil, errBomb(fmt.Sprintf("%d entries in the package", len(zr.File)))
	}
	type span struct{ off, end int64 }
	spans := make([]span, 0, len(zr.File))
	p := &pkg{files: make(map[string]*zip.File, len(zr.File))}
	for _, f := range zr.File {
		if off, err := f.DataOffset(); err == nil {
			spans = append(spans, span{off, off + int64(f.CompressedSize64)})
		}
		name := strings.ToLower(strings.TrimPrefix(f.Name, "/"))
		if _, dup := p.files[name]; !dup {
			p.files[name] = f
		}
	}
	// Overlapping entries: two central-directory records pointing at the
	// same (or intersecting) compressed data. No legitimate writer produces
	// this; it is the "overlapping files" zip bomb.
	sort.Slice(spans, func(i, j int) bool { return spans[i].off < spans[j].off })
	for i := 1; i < len(spans); i++ {
		if spans[i].off == spans[i-1].off || spans[i].off < spans[i-1].end {
			return nil, errBomb("zip entries overlap")
		}
	}
	return p, nil
}

// has reports whether the package has part name.
func (p *pkg) has(name string) bool {
	_, ok := p.files[strings.ToLower(strings.TrimPrefix(name, "/"))]
	return ok
}

// open returns a reader for part name that fails with a CodeTooLarge error
// once the part or the package total passes its cap. Declared sizes are
// checked before anything is inflated.
func (p *pkg) open(name string) (io.ReadCloser, error) {
	f, ok := p.files[strings.ToLower(strings.TrimPrefix(name, "/"))]
	if !ok {
		return nil, errNoPart
	}
	size, csize := f.UncompressedSize64, f.CompressedSize64
	if size > MaxPartBytes {
		return nil, errBomb(fmt.Sprintf("part %s declares %d bytes", f.Name, size))
	}
	if size > ratioFloor && (csize == 0 || size/csize > maxRatio) {
		return nil, errBomb(fmt.Sprintf("part %s expands %d to %d bytes", f.Name, csize, size))
	}
	if p.total+int64(size) > MaxTotalBytes {
		return nil, errBomb("the parts add up to more than the cap")
	}
	rc, err := f.Open()
	if err != nil {
		return nil, parsed.Errorf(parsed.CodeCorrupt, "the Word document is damaged: part %s cannot be opened (%v)", f.Name, err)
	}
	// archive/zip already refuses to inflate past the declared size; the
	// limit is a second fence that does not depend on that.
	limit := int64(size)
	if limit > MaxPartBytes {
		limit = MaxPartBytes
	}
	return &capReader{r: rc, left: limit, p: p, name: f.Name}, nil
}

var errNoPart = errors.New("part not found")

// capReader reads at most left bytes and then fails with a bomb error
// (rather than a silent EOF, which would hide the truncation).
type capReader struct {
	r    io.ReadCloser
	left int64
	p    *pkg
	name string
}

func (c *capReader) Read(b []byte) (int, error) {
	if c.left <= 0 {
		// One probe byte: a clean EOF here means the part fit exactly.
		var one [1]byte
		n, err := c.r.Read(one[:])
		if n > 0 {
			return 0, errBomb(fmt.Sprintf("part %s is larger than it declares", c.name))
		}
		if err == nil {
			err = io.EOF
		}
		return 0, err
	}
	if int64(len(b)) > c.left {
		b = b[:c.left]
	}
	n, err := c.r.Read(b)
	c.left -= int64(n)
	c.p.total += int64(n)
	if c.p.total > MaxTotalBytes {
		return n, errBomb("the parts add up to more than the cap")
	}
	return n, err
}

func (c *capReader) Close() error { return c.r.Close() }

// rel is one relationship from a .rels part.
type rel struct {
	ID, Type, Target string // Target resolved to a part name
	External         bool
}

// relsPartFor returns the name of the .rels part for source part name
// ("" for the package itself).
func relsPartFor(source string) string {
	if source == "" {
		return "_rels/.rels"
	}
	dir, file := path.Split(source)
	return dir + "_rels/" + file + ".rels"
}

// readRels reads the relationships of source ("" = the package). A missing
// .rels part gives no relationships and no error.
func (p *pkg) readRels(source string) ([]rel, error) {
	rc, err := p.open(relsPartFor(source))
	if err == errNoPart {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	base := path.Dir(source)
	if source == "" {
		base = ""
	}
	var out []rel
	d := xml.NewDecoder(rc)
	for {
		tok, err := d.Token()
		if err != nil {
			if err == io.EOF {
				return out, nil
			}
			if pe := asParsed(err); pe != nil {
				return nil, pe
			}
			return out, nil // damaged rels: keep what we have
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "Relationship" {
			continue
		}
		var r rel
		for _, a := range se.Attr {
			switch a.Name.Local {
			case "Id":
				r.ID = a.Value
			case "Type":
				r.Type = a.Value
			case "Target":
				r.Target = a.Value
			case "TargetMode":
				r.External = strings.EqualFold(a.Value, "External")
			}
		}
		if !r.External {
			r.Target = resolveTarget(base, r.Target)
		}
		out = append(out, r)
	}
}

// resolveTarget turns a relationship target into a part name.
func resolveTarget(base, target string) string {
	target = strings.ReplaceAll(target, "\\", "/")
	if strings.HasPrefix(target, "/") {
		return strings.TrimPrefix(path.Clean(target), "/")
	}
	p := path.Clean(path.Join("/", base, target))
	return strings.TrimPrefix(p, "/")
}

// relType reports whether relationship type t ends with the given suffix
// ("/officeDocument", "/styles"); transitional and strict OOXML use
// different URI prefixes for the same types.
func relType(t, suffix string) bool {
	return strings.HasSuffix(t, suffix)
}

// asParsed returns err as a *parsed.Error if it is (or wraps) one.
func asParsed(err error) *parsed.Error {
	var pe *parsed.Error
	if errors.As(err, &pe) {
		return pe
	}
	return nil
}
