package pdfeval

import (
	"math"
	"strings"
	"testing"

	"cairn/backend/ingest/parsed"
)

func TestTokens(t *testing.T) {
	got := strings.Join(Tokens("Ｈｅｌｌｏ, WORLD! ﬁne e-mail 知识图谱 2024年 한국어"), "|")
	want := "hello|world|fine|e|mail|知|识|图|谱|2024|年|한|국|어"
	if got != want {
		t.Errorf("Tokens = %q, want %q", got, want)
	}
}

func TestF1(t *testing.T) {
	f, p, r := F1([]string{"a", "b", "b", "c"}, []string{"a", "b", "d"})
	if math.Abs(p-0.5) > 1e-9 || math.Abs(r-2.0/3) > 1e-9 || math.Abs(f-4.0/7) > 1e-9 {
		t.Errorf("F1 = %v %v %v", f, p, r)
	}
	if f, _, _ := F1(nil, nil); f != 1 {
		t.Error("empty vs empty")
	}
	if f, _, _ := F1([]string{"x"}, nil); f != 0 {
		t.Error("text vs empty")
	}
}

func TestPageTexts(t *testing.T) {
	doc := &parsed.Document{
		Pages:  []parsed.PageInfo{{Number: 1}, {Number: 2}, {Number: 3}},
		Blocks: []parsed.Block{{Page: 1, Text: "a"}, {Page: 1, Text: "b"}, {Page: 3, Text: "c"}},
	}
	if got := strings.Join(PageTexts(doc), "|"); got != "a\n\nb||c" {
		t.Errorf("PageTexts = %q", got)
	}
}

func TestPageF1(t *testing.T) {
	if f := pageF1([]string{"a b", ""}, []string{"a b", "", "c"}); math.Abs(f-0.5) > 1e-9 {
		t.Errorf("pageF1 = %v", f)
	}
}
