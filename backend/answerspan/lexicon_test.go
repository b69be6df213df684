package answerspan

import (
	"strings"
	"testing"
)

// The question's language picks the lexicon: English and Chinese are
// classified, a language without a lexicon is not (and says why).
func TestClassifyLanguage(t *testing.T) {
	for _, c := range []struct {
		q    string
		lang string
		kind Kind
		no   bool
	}{
		{"How many bridges cross the river in Eastbrook?", "en", Number, false},
		{"劳动合同的试用期最长是多久？", "zh", Number, false},
		{"用人单位应当在多少日内支付工资？", "zh", Number, false},
		{"这部法律是哪一年施行的？", "zh", Date, false},
		{"什么是不可抗力？", "zh", Unknown, false},
		{"用人单位为什么要订立书面合同？", "zh", Unknown, false},
		{"谁负责监督劳动合同的履行？", "zh", Unknown, false},
		{"Wie lange darf die Probezeit dauern?", "de", Unknown, true},
		{"試用期間はどのくらいですか", "ja", Unknown, true},
	} {
		q := Classify(c.q)
		if q.Lang != c.lang || q.Kind != c.kind || q.NoLexicon != c.no {
			t.Errorf("%q: lang %q kind %q no lexicon %v, want %q %q %v", c.q, q.Lang, q.Kind, q.NoLexicon, c.lang, c.kind, c.no)
		}
		if r := NoShortReason(q); (r != "") != c.no {
			t.Errorf("%q: reason %q", c.q, r)
		}
	}
	if r := NoShortReason(Classify("Wie lange darf die Probezeit dauern?")); !strings.Contains(r, "German") {
		t.Errorf("reason %q does not name the language", r)
	}
}

func TestZhSpans(t *testing.T) {
	s := "第十九条 试用期最长不得超过六个月，工资在2020年5月1日前支付，每日工作不超过八小时，赔偿为工资的二倍。"
	var got []string
	for _, sp := range zhSpans(s) {
		if s[sp.Start:sp.End] != sp.Text {
			t.Errorf("span %+v: offsets do not match its text", sp)
		}
		got = append(got, string(sp.Type)+":"+sp.Text)
	}
	want := "date:2020年5月1日 number:六个月 number:八小时 number:二倍"
	if strings.Join(got, " ") != want {
		t.Errorf("zhSpans = %q, want %q", strings.Join(got, " "), want)
	}
}

// A Chinese question asking for a period is answered with the period its
// best sentence states (fixture text written for the test).
func TestFindZh(t *testing.T) {
	ps := []Passage{
		zhPassage("示例劳动规定", "第一条 本规定适用于示例市的用人单位。第五条 劳动合同期限一年以上不满三年的，试用期不得超过两个月。第六条 用人单位应当按时支付工资。"),
		zhPassage("其他规定", "第二条 本规定自发布之日起施行。"),
	}
	cs := Find(Classify("劳动合同期限一年以上不满三年的，试用期不得超过多久？"), ps, idf)
	if len(cs) == 0 || cs[0].Text != "两个月" {
		t.Fatalf("best %+v, want 两个月", cs)
	}
	if cs[0].Score < MinScore {
		t.Errorf("score %.3f under MinScore", cs[0].Score)
	}
	if de := Find(Classify("Wie lange dauert die Probezeit?"), ps, idf); len(de) != 0 {
		t.Errorf("a German question got candidates: %+v", de)
	}
}

func FuzzClassify(f *testing.F) {
	for _, s := range []string{"Who was born first, A or B?", "Are X and Y both from the same country?", "劳动合同期限是多久？", "Wie lange dauert die Probezeit?", "", "?", "or or or", "between a and b, which"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		c := Classify(q)
		if c.NoLexicon && c.Kind != Unknown {
			t.Fatalf("%q: no lexicon but kind %q", q, c.Kind)
		}
		if c.Kind == Choice && len(c.Options) != 2 {
			t.Fatalf("%q: a choice of %d options", q, len(c.Options))
		}
	})
}

func FuzzSpans(f *testing.F) {
	for _, s := range []string{"John Smith was born on 3 May 1901 in Paris.", "It cost $4.5 million (about 40 percent).", "试用期不得超过六个月，自2020年5月1日起施行。", "(1356 – 21 January 1426)", "", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, sp := range append(Spans(s), append(zhSpans(s), RoleSpans(s)...)...) {
			if sp.Start < 0 || sp.End > len(s) || sp.Start > sp.End || s[sp.Start:sp.End] != sp.Text {
				t.Fatalf("%q: span %+v outside the text or not its text", s, sp)
			}
		}
	})
}

// zhPassage is a passage of Chinese sentences, each ending at "。".
func zhPassage(title, text string) Passage {
	var sents [][2]int
	start := 0
	for {
		i := strings.Index(text[start:], "。")
		if i < 0 {
			break
		}
		end := start + i + len("。")
		sents = append(sents, [2]int{start, end})
		start = end
	}
	return Passage{Title: title, Text: text, Sentences: sents}
}
