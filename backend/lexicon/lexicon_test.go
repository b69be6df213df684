package lexicon

import (
	"slices"
	"strings"
	"testing"
)

func TestDetect(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Which river flows through the capital of the country where the painter was born?", "en"},
		{"Who was born first, Anna Varga or Piet de Vries?", "en"},
		{"Is the Die Glocke bell older than the town hall?", "en"},
		{"When did the ferry service between the two islands start?", "en"},
		{"2019?", ""},
		{"劳动合同的试用期最长是多久？", "zh"},
		{"用人单位应当在多少日内订立书面劳动合同?", "zh"},
		{"Wie lange darf die Probezeit in einem Arbeitsvertrag sein?", "de"},
		{"Was ist die Kündigungsfrist für den Arbeitgeber?", "de"},
		{"Quelle est la durée maximale de la période d'essai ?", "fr"},
		{"¿Cuál es la duración del periodo de prueba?", "es"},
		{"試用期間はどのくらいですか", "ja"},
		{"수습 기간은 얼마나 됩니까", "ko"},
	} {
		if got := Detect(c.text); got != c.want {
			t.Errorf("Detect(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestFiles checks every lexicon: named after its language, a doc for it
// and every category, no empty word (a word list may be empty only where
// its doc says so), no word listed twice in one list except where the doc
// says why.
func TestFiles(t *testing.T) {
	langs := Languages()
	if strings.Join(langs, ",") != "en,ja,zh" {
		t.Fatalf("languages %v", langs)
	}
	for _, lang := range langs {
		l := Of(lang)
		if l.Doc == "" || l.Name == "" {
			t.Errorf("%s: no doc or name", lang)
		}
		for cat, w := range l.WordLists {
			if w.Doc == "" {
				t.Errorf("%s/%s: no doc", lang, cat)
			}
			if len(w.Words) == 0 && !strings.Contains(w.Doc, "none") {
				t.Errorf("%s/%s: empty", lang, cat)
			}
			seen := map[string]bool{}
			for _, x := range w.Words {
				if x == "" {
					t.Errorf("%s/%s: an empty word", lang, cat)
				}
				if seen[x] && !strings.Contains(w.Doc, "twice") {
					t.Errorf("%s/%s: %q twice", lang, cat, x)
				}
				seen[x] = true
			}
		}
		for cat, p := range l.PairLists {
			if p.Doc == "" || len(p.Pairs) == 0 {
				t.Errorf("%s/%s: no doc or no pairs", lang, cat)
			}
		}
		for cat, g := range l.GroupSets {
			if g.Doc == "" || len(g.Groups) == 0 {
				t.Errorf("%s/%s: no doc or no groups", lang, cat)
			}
		}
	}
	if Of("de") != nil {
		t.Error("German has a lexicon")
	}
	if Name("de") != "German" || Name("xx") != "xx" {
		t.Errorf("names: %q %q", Name("de"), Name("xx"))
	}
	if !English().Answers || !Of("zh").Answers || Of("ja").Answers {
		t.Error("Answers: English and Chinese answer, Japanese does not")
	}
}

func TestAccessors(t *testing.T) {
	en := English()
	if m := en.Map("demonyms"); m["france"] != "french" || m["usa"] != "american" {
		t.Errorf("demonyms: %v", m["france"])
	}
	if !en.Set("months")["May"] || en.Set("months")["may"] {
		t.Error("months are capitalised")
	}
	if a := en.Alt("month_abbreviations"); !strings.HasPrefix(a, `Jan\.|`) {
		t.Errorf("Alt quotes: %s", a)
	}
	if g := en.Group("question_kinds", "who"); strings.Join(g, " ") != "who whom whose" {
		t.Errorf("who: %v", g)
	}
	if en.Has("no such category") || !en.Has("demonyms") {
		t.Error("Has")
	}
	defer func() {
		if recover() == nil {
			t.Error("a missing category does not panic")
		}
	}()
	en.Words("no such category")
}

// WordNet's first-sense synonyms of a noun and of a noun phrase, any case
// and spacing; none for a word it gives none for.
func TestSynonyms(t *testing.T) {
	for _, c := range []struct {
		noun string
		want string
	}{
		{"expenditure", "spending"},
		{"Net  Profit", "net income"},
		{"profit", "earnings"},
	} {
		if got := Synonyms(c.noun); !slices.Contains(got, c.want) {
			t.Errorf("Synonyms(%q) = %q, want it to hold %q", c.noun, got, c.want)
		}
	}
	if got := Synonyms("zzzz"); got != nil {
		t.Errorf("Synonyms(zzzz) = %q", got)
	}
}
