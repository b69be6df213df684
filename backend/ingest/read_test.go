package ingest

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/ingest/parsed"
)

func readCorpus(t *testing.T, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(sharedDocs(t), rel))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestReadDispatch(t *testing.T) {
	cases := []struct {
		file    string
		kind    parsed.Kind
		code    parsed.Code
		warning string // prefix of the first warning
		text    string
	}{
		{file: "real/en-word-lists-nested.docx", kind: parsed.KindDOCX, text: "Test Document"},
		{file: "bad/docx-named-as.pdf", kind: parsed.KindDOCX, warning: "named .pdf but is a Word (.docx) document; read as Word", text: "Test Document"},
		{file: "bad/not-a-zip.docx", kind: parsed.KindTXT, warning: "named .docx but is plain text; read as text"},
		{file: "bad/empty.docx", code: parsed.CodeEmpty},
		{file: "bad/empty.pdf", code: parsed.CodeEmpty},
		{file: "bad/random-bytes.pdf", code: parsed.CodeUnsupported},
		{file: "bad/legacy-doc-renamed.docx", code: parsed.CodeLegacyDoc},
		{file: "bad/missing-document-xml.docx", code: parsed.CodeNotDocx},
		{file: "bad/zip-bomb-1GiB.docx", code: parsed.CodeTooLarge},
		{file: "bad/zip-bomb-overlap-4GiB.docx", code: parsed.CodeTooLarge},
		{file: "real/zh-civil-code.docx", kind: parsed.KindDOCX, text: "民事主体"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			doc, err := Read(readCorpus(t, c.file), filepath.Base(c.file), parsed.Options{})
			if c.code != "" {
				if parsed.CodeOf(err) != c.code || doc != nil {
					t.Fatalf("got %v, want %s", err, c.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if doc.Kind != c.kind {
				t.Errorf("kind %q", doc.Kind)
			}
			if c.warning != "" && (len(doc.Warnings) == 0 || !strings.HasPrefix(doc.Warnings[0], c.warning)) {
				t.Errorf("warnings %q, want %q first", doc.Warnings, c.warning)
			}
			if c.warning == "" && len(doc.Warnings) > 0 && strings.HasPrefix(doc.Warnings[0], "named ") {
				t.Errorf("unexpected warning %q", doc.Warnings[0])
			}
			if c.text != "" {
				var all strings.Builder
				for _, b := range doc.Blocks {
					all.WriteString(b.Text + "\n")
				}
				if !strings.Contains(all.String(), c.text) {
					t.Errorf("text lacks %q", c.text)
				}
			}
		})
	}
}

// TestReadPDF covers the PDF route once; the PDF reader has its own tests.
func TestReadPDF(t *testing.T) {
	if testing.Short() {
		t.Skip("PDF reader in -short mode")
	}
	doc, err := Read(readCorpus(t, "bad/pdf-named-as.docx"), "pdf-named-as.docx", parsed.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if doc.Kind != parsed.KindPDF || len(doc.Pages) != 2 {
		t.Errorf("kind %q pages %d", doc.Kind, len(doc.Pages))
	}
	if len(doc.Warnings) == 0 || doc.Warnings[0] != "named .docx but is a PDF; read as PDF" {
		t.Errorf("warnings %q", doc.Warnings)
	}
	var all strings.Builder
	for _, b := range doc.Blocks {
		all.WriteString(b.Text + " ")
	}
	if !strings.Contains(all.String(), "Passage") {
		t.Errorf("text lacks the paper's words: %.200q", all.String())
	}
}

func TestReadText(t *testing.T) {
	doc, err := Read([]byte("# Title\n\nBody text.\n"), "notes.md", parsed.Options{})
	if err != nil || doc.Kind != parsed.KindMD || doc.Title != "Title" || len(doc.Warnings) != 0 {
		t.Fatalf("got %+v %v", doc, err)
	}
	doc, err = Read([]byte("# Title\n"), "notes.txt", parsed.Options{})
	if err != nil || doc.Kind != parsed.KindTXT || doc.Blocks[0].Kind != parsed.BlockParagraph {
		t.Fatalf("got %+v %v", doc, err)
	}
	// Markdown content in a .txt file is text, with no mismatch warning.
	if len(doc.Warnings) != 0 {
		t.Errorf("warnings %q", doc.Warnings)
	}
	if _, err := Read([]byte("  \n\n "), "blank.txt", parsed.Options{}); parsed.CodeOf(err) != parsed.CodeNoText {
		t.Errorf("blank: %v", err)
	}
}

func TestMismatchWarning(t *testing.T) {
	cases := []struct {
		name string
		kind parsed.Kind
		want string
	}{
		{"a.pdf", parsed.KindPDF, ""},
		{"a.PDF", parsed.KindDOCX, "named .pdf but is a Word (.docx) document; read as Word"},
		{"a.docx", parsed.KindPDF, "named .docx but is a PDF; read as PDF"},
		{"a.doc", parsed.KindDOCX, ""},
		{"a.txt", parsed.KindMD, ""},
		{"a.md", parsed.KindTXT, ""},
		{"a.log", parsed.KindTXT, ""},
		{"README", parsed.KindTXT, ""},
		{"a.md", parsed.KindPDF, "named .md but is a PDF; read as PDF"},
	}
	for _, c := range cases {
		if got := mismatchWarning(c.name, c.kind); got != c.want {
			t.Errorf("%s/%s: %q, want %q", c.name, c.kind, got, c.want)
		}
	}
}

// Item 9 of issue 21: a document's text is capped whatever its format, so
// indexing it cannot grow the app's memory without bound.
func TestTextCapped(t *testing.T) {
	defer func(l int64) { textLimit = l }(textLimit)
	textLimit = 1 << 20
	line := []byte("The harbour master of Port Alder logged a calm tide.\n")
	for _, c := range []struct {
		name string
		size int
	}{{"under.txt", 900 << 10}, {"over.txt", 1100 << 10}, {"far-over.md", 3 << 20}} {
		data := bytes.Repeat(line, c.size/len(line))
		doc, err := Read(data, c.name, parsed.Options{})
		if c.size < 1<<20 {
			if err != nil || doc == nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		var pe *parsed.Error
		if !errors.As(err, &pe) || pe.Code != parsed.CodeTooLarge || !strings.Contains(pe.Msg, "MiB of text") {
			t.Errorf("%s: want too_large, got %v", c.name, err)
		}
	}
}

// Issue 21, item 12: a reader crash is told in words, never as a Go source
// line or goroutine dump.
func TestCrashWords(t *testing.T) {
	stackDump := "runtime: goroutine stack exceeds 1000000000-byte limit\nruntime: sp=0xc020160388 stack=[0xc020160000, 0xc040160000]\nfatal error: stack overflow\n\nruntime stack:\nruntime.throw({0x8d1f4f?, 0x0?})\n\t/usr/local/go/src/runtime/panic.go:1101 +0x48\n"
	for _, c := range []struct {
		stderr string
		want   string
	}{
		{stackDump, "ran out of stack space"},
		{"panic: runtime error: index out of range [5] with length 3\n\ngoroutine 1 [running]:\nmain.f()\n\t/x/y.go:12 +0x1d\n", "internal error (runtime error: index out of range [5] with length 3)"},
		{"unexpected fault address 0x0\nfatal error: fault\n[signal SIGSEGV: segmentation violation]\n", "invalid memory access"},
		{"fatal error: concurrent map writes\n\ngoroutine 7:\n/usr/local/go/src/runtime/map.go:1 +0x1\n", "fatal error (concurrent map writes)"},
		{"", "returned no result"},
	} {
		got := crashWords(c.stderr, nil)
		if !strings.Contains(got, c.want) || strings.Contains(got, ".go:") || strings.Contains(got, "goroutine") {
			t.Errorf("crashWords(%.40q) = %q, want %q", c.stderr, got, c.want)
		}
	}
}
