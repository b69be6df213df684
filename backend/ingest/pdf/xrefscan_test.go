package pdf

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"cairn/backend/ingest/parsed"
	"cairn/backend/testshared"
)

// selfContainedObjStm builds a PDF whose cross-reference stream lists its
// object stream (4) inside itself, or, with pair, objects 3 and 4 inside
// each other. flate compresses the cross-reference stream with PNG Up
// predictors, as real writers do.
func selfContainedObjStm(pair, flate bool) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.5\n%\xe2\xe3\xcf\xd3\n")
	cat := "<< /Type /Catalog /Pages 2 0 R >>\n"
	body := fmt.Sprintf("1 0 2 %d ", len(cat))
	first := len(body)
	body += cat + "<< /Type /Pages /Kids [] /Count 0 >>\n"
	fmt.Fprintf(&b, "4 0 obj\n<< /Type /ObjStm /N 2 /First %d /Length %d >>\nstream\n%sendstream\nendobj\n", first, len(body), body)
	off5 := b.Len()
	ent := func(t, f2, f3 int) []byte { return []byte{byte(t), byte(f2 >> 8), byte(f2), byte(f3)} }
	rows := [][]byte{ent(0, 0, 255), ent(2, 4, 0), ent(2, 4, 1), ent(0, 0, 0), ent(2, 4, 2), ent(1, off5, 0)}
	if pair {
		rows[3], rows[4] = ent(2, 4, 3), ent(2, 3, 0)
	}
	var x []byte
	dict := "/Type /XRef /Size 6 /W [1 2 1] /Root 1 0 R"
	if flate {
		var raw, prev []byte
		prev = make([]byte, 4)
		for _, r := range rows {
			raw = append(raw, 2)
			for i := range r {
				raw = append(raw, r[i]-prev[i])
			}
			prev = r
		}
		var z bytes.Buffer
		zw := zlib.NewWriter(&z)
		zw.Write(raw)
		zw.Close()
		x = z.Bytes()
		dict += " /Filter /FlateDecode /DecodeParms << /Columns 4 /Predictor 12 >>"
	} else {
		x = bytes.Join(rows, nil)
	}
	fmt.Fprintf(&b, "5 0 obj\n<< %s /Length %d >>\nstream\n", dict, len(x))
	b.Write(x)
	fmt.Fprintf(&b, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", off5)
	return b.Bytes()
}

// Issue 21, item 12: an object stream inside itself used to overflow the
// first reader's stack (a crash no recover() catches); it is now caught
// before that reader opens the file, and the file fails alone with a
// message, in this process.
func TestSelfContainedObjectStreamIsCaught(t *testing.T) {
	for _, c := range []struct {
		name        string
		pair, flate bool
	}{{"self", false, false}, {"self, flate + PNG predictor", false, true}, {"pair", true, false}, {"pair, flate", true, true}} {
		t.Run(c.name, func(t *testing.T) {
			data := selfContainedObjStm(c.pair, c.flate)
			if !nestedObjectStreams(data) {
				t.Fatal("nesting not found")
			}
			_, err := Read(data, parsed.Options{})
			if err == nil {
				t.Log("read without error")
			} else {
				t.Logf("fails alone: %v", err)
			}
		})
	}
}

// No real PDF nests object streams: the scan never sends one to PDFium.
func TestRealPDFsHaveNoNestedObjectStreams(t *testing.T) {
	files, _ := filepath.Glob("../../../../shared/docs/real/*.pdf")
	if len(files) == 0 {
		testshared.Missing(t, "../shared/docs/real not present")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if nestedObjectStreams(data) {
			t.Errorf("%s: nested object streams reported", filepath.Base(f))
		}
	}
}
