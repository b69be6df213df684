package plaintext

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"cairn/backend/ingest/parsed"
	"cairn/backend/testshared"
)

func render(doc *parsed.Document) string {
	var out []string
	for _, b := range doc.Blocks {
		s := string(b.Kind)
		if b.Level > 0 {
			s += string(rune('0' + b.Level))
		}
		out = append(out, s+":"+b.Text)
	}
	return strings.Join(out, "\n")
}

func TestPlainText(t *testing.T) {
	in := "First line\r\nsecond line   \r\n\r\n  \t \nNext paragraph\rwith CR\n\n\n# not a heading in txt\n"
	doc, err := Read([]byte(in), parsed.KindTXT)
	if err != nil {
		t.Fatal(err)
	}
	want := "paragraph:First line\nsecond line\nparagraph:Next paragraph\nwith CR\nparagraph:# not a heading in txt"
	if got := render(doc); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if doc.Kind != parsed.KindTXT || len(doc.Pages) != 1 || doc.Pages[0].Number != 1 || doc.Title != "" {
		t.Errorf("doc %+v", doc)
	}
}

func TestEncodings(t *testing.T) {
	utf16le := func(s string, be bool) []byte {
		out := []byte{0xFF, 0xFE}
		if be {
			out = []byte{0xFE, 0xFF}
		}
		for _, r := range s {
			var units []uint16
			if r > 0xFFFF {
				r -= 0x10000
				units = []uint16{uint16(0xD800 + (r >> 10)), uint16(0xDC00 + (r & 0x3FF))}
			} else {
				units = []uint16{uint16(r)}
			}
			for _, u := range units {
				if be {
					out = append(out, byte(u>>8), byte(u))
				} else {
					out = append(out, byte(u), byte(u>>8))
				}
			}
		}
		return out
	}
	cases := []struct {
		name     string
		data     []byte
		want     string
		warnings int
	}{
		{"utf8 bom", []byte("\xEF\xBB\xBFhello 世界"), "hello 世界", 0},
		{"utf16le", utf16le("中文 text 😀\r\nline", false), "中文 text 😀\nline", 0},
		{"utf16be", utf16le("Grüße", true), "Grüße", 0},
		{"invalid utf8", []byte("caf\xe9 ok"), "caf\uFFFD ok", 1},
		{"controls", []byte("a\x00b\x07c\fd"), "abc\nd", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc, err := Read(c.data, parsed.KindTXT)
			if err != nil {
				t.Fatal(err)
			}
			got := doc.Blocks[0].Text
			if got != c.want {
				t.Errorf("text %q, want %q", got, c.want)
			}
			if len(doc.Warnings) != c.warnings {
				t.Errorf("warnings %q", doc.Warnings)
			}
		})
	}
}

func TestEmpty(t *testing.T) {
	for _, c := range []struct {
		data []byte
		code parsed.Code
	}{
		{nil, parsed.CodeEmpty},
		{[]byte{}, parsed.CodeEmpty},
		{[]byte(" \n\t\r\n "), parsed.CodeNoText},
		{[]byte("\xEF\xBB\xBF"), parsed.CodeNoText},
		{[]byte{0xFF, 0xFE}, parsed.CodeNoText},
		{[]byte("\x00\x00"), parsed.CodeNoText},
		{[]byte("---\n\n***\n"), parsed.CodeNoText},
	} {
		kind := parsed.KindMD
		_, err := Read(c.data, kind)
		if parsed.CodeOf(err) != c.code {
			t.Errorf("%q: got %v, want %s", c.data, err, c.code)
		}
	}
}

func TestMarkdown(t *testing.T) {
	in := strings.Join([]string{
		"---",
		"title: \"Front Title\"",
		"tags: [a]",
		"---",
		"# Main heading #",
		"",
		"Intro paragraph",
		"continues here.",
		"",
		"Setext Two",
		"----------",
		"",
		"Setext One",
		"===",
		"",
		"- bullet one",
		"  lazy continuation",
		"* bullet two",
		"  - nested",
		"1. first",
		"2) second",
		"",
		"```go",
		"func main() {",
		"",
		"    # not a heading",
		"}",
		"```",
		"",
		"| Name | Value |",
		"|:-----|------:|",
		"| a    | 1     |",
		"| b \\| c | 2 |",
		"",
		"> quoted text",
		"> ## quoted heading",
		"",
		"***",
		"####### seven hashes",
		"#hashtag",
		"###### six",
		"-notalist",
		"2024. A year.",
		"",
		"~~~",
		"unclosed fence",
	}, "\n")
	doc, err := Read([]byte(in), parsed.KindMD)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"heading1:Main heading",
		"paragraph:Intro paragraph\ncontinues here.",
		"heading2:Setext Two",
		"heading1:Setext One",
		"list_item1:• bullet one\nlazy continuation",
		"list_item1:• bullet two",
		"list_item2:• nested",
		"list_item1:1. first",
		"list_item1:2) second",
		"paragraph:func main() {\n\n    # not a heading\n}",
		"table_row:Name | Value",
		"table_row:a | 1",
		"table_row:b | c | 2",
		"paragraph:quoted text",
		"heading2:quoted heading",
		"paragraph:####### seven hashes\n#hashtag",
		"heading6:six",
		"paragraph:-notalist",
		"list_item1:2024. A year.",
		"paragraph:unclosed fence",
	}, "\n")
	if got := render(doc); got != want {
		t.Errorf("got\n%s\n\nwant\n%s", got, want)
	}
	if doc.Title != "Front Title" || doc.Kind != parsed.KindMD {
		t.Errorf("title %q kind %q", doc.Title, doc.Kind)
	}
	doc, _ = Read([]byte("## Second\n\n# First\n"), parsed.KindMD)
	if doc.Title != "First" {
		t.Errorf("title %q", doc.Title)
	}
}

// TestSharedText reads the text-looking file of the bad corpus.
func TestSharedText(t *testing.T) {
	var data []byte
	for _, rel := range []string{"../../../shared", "../../../../shared"} {
		if d, err := os.ReadFile(filepath.Join(rel, "docs", "bad", "not-a-zip.docx")); err == nil {
			data = d
		}
	}
	if data == nil {
		testshared.Missing(t, "shared corpus not found")
	}
	doc, err := Read(data, parsed.KindTXT)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Blocks) == 0 || len(doc.Warnings) != 0 {
		t.Errorf("blocks %d warnings %q", len(doc.Blocks), doc.Warnings)
	}
}

func FuzzPlaintext(f *testing.F) {
	f.Add([]byte("# T\n\npara\n- a\n1. b\n```\ncode\n```\n| a | b |\n|---|---|\n| 1 | 2 |\n"), true)
	f.Add([]byte("\xFF\xFEa\x00b\x00"), false)
	f.Add([]byte("---\ntitle: x\n---\nSetext\n===\n> quote\n"), true)
	f.Add([]byte("caf\xe9\r\n\r\nx\fy"), false)
	f.Fuzz(func(t *testing.T, data []byte, md bool) {
		kind := parsed.KindTXT
		if md {
			kind = parsed.KindMD
		}
		doc, err := Read(data, kind)
		if err != nil {
			c := parsed.CodeOf(err)
			if c != parsed.CodeEmpty && c != parsed.CodeNoText {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if len(doc.Pages) != 1 || len(doc.Blocks) == 0 {
			t.Fatalf("pages %d blocks %d", len(doc.Pages), len(doc.Blocks))
		}
		for _, b := range doc.Blocks {
			if b.Page != 1 || strings.TrimSpace(b.Text) == "" || !utf8.ValidString(b.Text) || strings.ContainsAny(b.Text, "\f\r\x00") {
				t.Fatalf("bad block %+v", b)
			}
			if b.Kind == parsed.BlockHeading && (b.Level < 1 || b.Level > 6) {
				t.Fatalf("heading level %d", b.Level)
			}
		}
	})
}
