package analyze

import (
	"strings"
	"testing"
)

func TestTokens(t *testing.T) {
	cases := map[string]string{
		"Alû's ring, ＡＢＣ 42": "alû ring abc 42",
		"知识图谱KAG和思维导图":       "知识图谱|kag|和思维导图",
		"東京スカイツリーの最寄り駅":      "東京スカイツリーの最寄り駅",
		"Hello—world...":     "hello world",
		"서울 특별시":             "서울 특별시",
	}
	for in, want := range cases {
		var got []string
		cjk := false
		for _, tk := range Tokens(in) {
			got = append(got, tk.Text)
			cjk = cjk || tk.CJK
		}
		sep := " "
		if cjk {
			sep = "|"
		}
		if strings.Join(got, sep) != want {
			t.Errorf("Tokens(%q) = %q, want %q", in, strings.Join(got, sep), want)
		}
	}
}

func TestBigramsAndStem(t *testing.T) {
	if got := strings.Join(Bigrams("知识图谱"), " "); got != "知识 识图 图谱" {
		t.Errorf("bigrams %q", got)
	}
	if got := CJKBigramText("民法典 and 合同"); got != "民法 法典 合同" {
		t.Errorf("bigram text %q", got)
	}
	if Stem("running") != "run" || Stem("东京") != "东京" {
		t.Errorf("stem: %q %q", Stem("running"), Stem("东京"))
	}
	if !IsStop("the") || IsStop("treaty") {
		t.Error("stop words")
	}
}
