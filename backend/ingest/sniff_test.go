package ingest

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/ingest/parsed"
	"cairn/backend/testshared"
)

// sharedDocs finds the shared corpus (/work/shared/docs) or skips.
func sharedDocs(t testing.TB) string {
	t.Helper()
	for _, rel := range []string{"../../shared", "../../../shared", "../../../../shared"} {
		dir := filepath.Join(rel, "docs")
		if st, err := os.Stat(filepath.Join(dir, "PROVENANCE.md")); err == nil && !st.IsDir() {
			return dir
		}
	}
	testshared.Missing(t, "shared test corpus not found")
	return ""
}

func TestSniffCorpus(t *testing.T) {
	dir := sharedDocs(t)
	special := map[string]parsed.Code{
		"bad/empty.pdf":               parsed.CodeEmpty,
		"bad/empty.docx":              parsed.CodeEmpty,
		"bad/random-bytes.pdf":        parsed.CodeUnsupported,
		"bad/legacy-doc-renamed.docx": parsed.CodeLegacyDoc,
	}
	kinds := map[string]parsed.Kind{
		"bad/docx-named-as.pdf":      parsed.KindDOCX,
		"bad/pdf-named-as.docx":      parsed.KindPDF,
		"bad/not-a-zip.docx":         parsed.KindTXT,
		"bad/junk-before-header.pdf": parsed.KindPDF,
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*"))
	if len(files) < 50 {
		t.Fatalf("only %d corpus files", len(files))
	}
	for _, f := range files {
		rel := filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f)
		if strings.HasSuffix(f, ".md") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		kind, err := Sniff(data, filepath.Base(f))
		if code, ok := special[rel]; ok {
			if parsed.CodeOf(err) != code || kind != "" {
				t.Errorf("%s: got %q %v, want %s", rel, kind, err, code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		want, ok := kinds[rel]
		if !ok {
			want = parsed.Kind(strings.TrimPrefix(filepath.Ext(f), "."))
		}
		if kind != want {
			t.Errorf("%s: sniffed %q, want %q", rel, kind, want)
		}
	}
}

func TestSniff(t *testing.T) {
	utf16 := []byte{0xFF, 0xFE, 'h', 0, 'i', 0}
	cases := []struct {
		name string
		data []byte
		kind parsed.Kind
		code parsed.Code
		msg  string
	}{
		{"a.pdf", nil, "", parsed.CodeEmpty, "The file is empty."},
		{"a.pdf", []byte("%PDF-1.7\n"), parsed.KindPDF, "", ""},
		{"a.txt", append(bytes.Repeat([]byte{'x'}, 1000), "%PDF-1.4"...), parsed.KindTXT, "", ""},
		{"note.md", []byte("# PDF notes\n\nEvery PDF starts with `%PDF-1.7`; a reader looks for that header first.\n"), parsed.KindMD, "", ""},
		{"note.md", []byte("# PDF notes\n\n%PDF-1.4 marks the version, and 1 0 obj starts an object.\n"), parsed.KindMD, "", ""},
		{"junk.pdf", append([]byte{0xCF, 0x89, 0x00, 0x13, 0xFE, '\n'}, "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n"...), parsed.KindPDF, "", ""},
		{"mail.pdf", []byte("From: a@b\n\n%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\nxref\ntrailer\n<<>>\nstartxref\n9\n%%EOF\n"), parsed.KindPDF, "", ""},
		{"u16le.txt", []byte("h\x00e\x00l\x00l\x00o\x00 \x00w\x00o\x00r\x00l\x00d\x00\n\x00"), parsed.KindTXT, "", ""},
		{"u16be.md", []byte("\x00#\x00 \x00T\x00i\x00t\x00l\x00e\x00\n\x00b\x00o\x00d\x00y"), parsed.KindMD, "", ""},
		{"few-bad-long.txt", append(bytes.Repeat([]byte("A long English note about the harbour. "), 50), bytes.Repeat([]byte{0xff, ' '}, 10)...), parsed.KindTXT, "", ""},
		{"a.txt", append(bytes.Repeat([]byte{'x'}, 1020), "%PDF-1.4"...), parsed.KindTXT, "", ""},
		{"a.docx", []byte("PK\x03\x04rest"), parsed.KindDOCX, "", ""},
		{"notes.md", []byte("# Hi\n"), parsed.KindMD, "", ""},
		{"NOTES.MARKDOWN", []byte("# Hi\n"), parsed.KindMD, "", ""},
		{`C:\docs\readme.md`, []byte("# Hi\n"), parsed.KindMD, "", ""},
		{"notes.txt", []byte("# Hi\n"), parsed.KindTXT, "", ""},
		{"noext", []byte("plain words"), parsed.KindTXT, "", ""},
		{"u16.md", utf16, parsed.KindMD, "", ""},
		{"bom.txt", []byte("\xEF\xBB\xBFtext"), parsed.KindTXT, "", ""},
		{"cjk.txt", []byte("中文文本，日本語のテキスト"), parsed.KindTXT, "", ""},
		{"few-bad.txt", []byte("mostly fine text with one bad byte \xff here"), parsed.KindTXT, "", ""},
		{"latin1.txt", bytes.Repeat([]byte("caf\xe9 cr\xe8me br\xfbl\xe9e "), 20), "", parsed.CodeUnsupported, "UTF-8"},
		{"bin.pdf", []byte{1, 2, 3, 0, 4, 5}, "", parsed.CodeUnsupported, "not a PDF, Word (.docx), text or Markdown file"},
		{"img.pdf", []byte("\x89PNG\r\n\x1a\n\x00\x00"), "", parsed.CodeUnsupported, "PNG image"},
		{"a.rtf", []byte(`{\rtf1\ansi hello}`), "", parsed.CodeUnsupported, "Rich Text"},
		{"old.doc", append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 100)...), "", parsed.CodeLegacyDoc,
			"This is a legacy Word 97–2003 .doc file; open it in Word or LibreOffice and save it as .docx, then import that."},
	}
	for _, c := range cases {
		kind, err := Sniff(c.data, c.name)
		if c.code != "" {
			var pe *parsed.Error
			if !errors.As(err, &pe) || pe.Code != c.code || !strings.Contains(pe.Msg, c.msg) {
				t.Errorf("%s: got %q %v, want %s %q", c.name, kind, err, c.code, c.msg)
			}
			continue
		}
		if err != nil || kind != c.kind {
			t.Errorf("%s: got %q %v, want %q", c.name, kind, err, c.kind)
		}
	}
}

func FuzzSniff(f *testing.F) {
	f.Add([]byte("%PDF-1.4"), "a.docx")
	f.Add([]byte("PK\x03\x04"), "a.pdf")
	f.Add([]byte("# md\n"), "a.md")
	f.Add([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, "a.doc")
	f.Add([]byte{0xFF, 0xFE, 0, 0}, "x")
	f.Add([]byte("caf\xe9"), "x.txt")
	f.Fuzz(func(t *testing.T, data []byte, name string) {
		kind, err := Sniff(data, name)
		if err != nil {
			var pe *parsed.Error
			if !errors.As(err, &pe) || pe.Msg == "" || kind != "" {
				t.Fatalf("bad error %v (kind %q)", err, kind)
			}
			if len(data) == 0 && pe.Code != parsed.CodeEmpty {
				t.Fatalf("empty input gave %s", pe.Code)
			}
			return
		}
		switch kind {
		case parsed.KindPDF, parsed.KindDOCX, parsed.KindTXT, parsed.KindMD:
		default:
			t.Fatalf("kind %q", kind)
		}
		head := data
		if len(head) > 1024 {
			head = head[:1024]
		}
		if kind == parsed.KindPDF && !bytes.Contains(head, []byte("%PDF-")) {
			t.Fatalf("PDF without its marker")
		}
		if bytes.HasPrefix(data, []byte("%PDF-")) && kind != parsed.KindPDF {
			t.Fatalf("a file starting with %%PDF- read as %q", kind)
		}
		if kind2, err2 := Sniff(data, name); kind2 != kind || err2 != nil {
			t.Fatalf("not deterministic")
		}
	})
}
