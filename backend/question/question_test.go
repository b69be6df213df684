package question

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"cairn/backend/analyze"
	"cairn/backend/answerspan"
	"cairn/backend/embed"
)

// TestNew pins what New holds for a made-up question: its text, language,
// tokens (lower-cased, "'s" cut), the word keys of embed.Words, the kind
// answerspan.Classify gives, the years it names (a span's years inside
// it) and its name-like spans.
func TestNew(t *testing.T) {
	const text = "Who chaired Velmora Quarry's board from FY2019 to FY2021?"
	q := New(text)
	if q.Text != text {
		t.Errorf("Text = %q", q.Text)
	}
	if q.Lang != "en" {
		t.Errorf("Lang = %q, want en", q.Lang)
	}
	var toks []string
	for _, tk := range q.Tokens {
		toks = append(toks, tk.Text)
	}
	if want := []string{"who", "chaired", "velmora", "quarry", "board", "from", "fy2019", "to", "fy2021"}; !slices.Equal(toks, want) {
		t.Errorf("Tokens = %q, want %q", toks, want)
	}
	if !slices.Equal(q.Fields, strings.Fields(text)) {
		t.Errorf("Fields = %q", q.Fields)
	}
	if want := embed.Words(text); !slices.Equal(q.Words, want) {
		t.Errorf("Words = %q, want embed.Words = %q", q.Words, want)
	}
	if q.Kind.Kind != answerspan.Person || q.Kind.Text != text {
		t.Errorf("Kind = %+v, want a who-question of the text", q.Kind)
	}
	if want := []int{2019, 2020, 2021}; !slices.Equal(q.Years, want) {
		t.Errorf("Years = %v, want %v", q.Years, want)
	}
	if want := []string{"Velmora Quarry's", "FY2019", "FY2021"}; !slices.Equal(q.Names, want) {
		t.Errorf("Names = %q, want %q", q.Names, want)
	}
	if want := []string{"Velmora", "Quarry"}; !slices.Equal(q.DocWords, want) {
		t.Errorf("DocWords = %q, want %q", q.DocWords, want)
	}
	if q.Period != 2021 {
		t.Errorf("Period = %d, want 2021", q.Period)
	}
}

// TestPeriod: the latest year in any of its forms, short ones included.
func TestPeriod(t *testing.T) {
	for text, want := range map[string]int{
		"What did Orrin Mills earn in FY18?":          2018,
		"How did sales move from 2019 to Q2'23?":      2023,
		"What changed in Q22024 at Orrin Mills?":      2024,
		"Who founded Orrin Mills?":                    0,
		"Which X9-like firm reported FY2017 and 2016": 2017,
	} {
		if got := New(text).Period; got != want {
			t.Errorf("Period of %q = %d, want %d", text, got, want)
		}
	}
}

// TestMoved: the way the text asks a figure moved, the whole text read
// (an opening phrase's word counts too).
func TestMoved(t *testing.T) {
	for text, want := range map[string]int{
		"Has Orrin Mills' debt increased since 2019?":                1,
		"Did the ferry tolls fall in 2021?":                          -1,
		"Looking at the decline in fares, did the ferry tolls rise?": 0,
		"Who runs the Orrin Mills ferry?":                            0,
	} {
		if got := New(text).Moved; got != want {
			t.Errorf("Moved of %q = %d, want %d", text, got, want)
		}
	}
}

// TestNewOtherScripts: a Chinese question is cut into a CJK run (a name
// span of its own) and classified as Chinese; a German one is detected as
// German and left unread (no lexicon).
func TestNewOtherScripts(t *testing.T) {
	zh := New("石桥镇的渡船何时启用？")
	if zh.Lang != "zh" || zh.Kind.Lang != "zh" {
		t.Errorf("zh: Lang %q, Kind.Lang %q", zh.Lang, zh.Kind.Lang)
	}
	if len(zh.Tokens) != 1 || !zh.Tokens[0].CJK {
		t.Errorf("zh: Tokens = %+v, want one CJK run", zh.Tokens)
	}
	if !slices.Contains(zh.Names, zh.Tokens[0].Text) {
		t.Errorf("zh: Names = %q, want the CJK run", zh.Names)
	}
	de := New("Wann wurde die Fähre von Altmoor gebaut?")
	if de.Lang != "de" || !de.Kind.NoLexicon {
		t.Errorf("de: Lang %q, NoLexicon %v", de.Lang, de.Kind.NoLexicon)
	}
}

// TestVector: the first call makes the vector, later calls (also from
// other goroutines) under the same key get it without making it again; a
// failed call keeps nothing; another key is made anew.
func TestVector(t *testing.T) {
	q := New("How long is the Velmora ferry?")
	if _, err := q.Vector("k", func() ([]float32, error) { return nil, errors.New("down") }); err == nil {
		t.Fatal("want the error")
	}
	made := 0
	var mu sync.Mutex
	mk := func() ([]float32, error) {
		mu.Lock()
		made++
		mu.Unlock()
		return []float32{1, 2}, nil
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if v, err := q.Vector("k", mk); err != nil || !slices.Equal(v, []float32{1, 2}) {
				t.Errorf("Vector = %v, %v", v, err)
			}
		}()
	}
	wg.Wait()
	if made != 1 {
		t.Errorf("made %d times, want 1", made)
	}
	if _, err := q.Vector("other", mk); err != nil || made != 2 {
		t.Errorf("another key: made %d, err %v", made, err)
	}
}

// TestNameSpans pins the spans that vector linking tries: quoted strings
// first (straight, curly and single quotes), then runs of capitalised
// words joined across "of", "and", ... (a trailing joiner cut, a comma
// ending the run, a question word opening the question left out, a digit
// continuing a run), each at least two characters, each once.
func TestNameSpans(t *testing.T) {
	for _, tc := range []struct {
		name, question string
		want           []string
	}{
		{"quoted title", `Where was the author of "The Glass Orchard" born?`, []string{"The Glass Orchard"}},
		{"curly quotes", "Who painted “the tin lantern”?", []string{"the tin lantern"}},
		{"single quotes", "Who wrote 'glass orchard' and when?", []string{"glass orchard"}},
		{"multi-word name", "Whom did Ivo Brant marry?", []string{"Ivo Brant"}},
		{"joined across of", "Who founded the Museum of Maritime Art in Drelmouth?", []string{"Museum of Maritime Art in Drelmouth"}},
		{"trailing joiner cut", "Was Ivo Brant of the school?", []string{"Ivo Brant"}},
		{"comma ends a run", "Are Ostravel, Drelmouth and Kelbridge towns?", []string{"Ostravel", "Drelmouth and Kelbridge"}},
		{"first word kept when not a question word", "Kelbridge lies where?", []string{"Kelbridge"}},
		{"digit continues a run", "When did Apollo 11 land?", []string{"Apollo 11"}},
		{"too short", `Is "X" a letter?`, nil},
		{"unclosed quote", `What is "Drelmouth?`, []string{"Drelmouth"}},
		{"lower case only", "which village has quillwort meadows?", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := NameSpans(tc.question); !slices.Equal(got, tc.want) {
				t.Errorf("NameSpans(%q) = %q, want %q", tc.question, got, tc.want)
			}
		})
	}
}

// TestQuotedSpans pins quotedSpans: the text between each pair of straight,
// curly or single quotes, empty pairs and spans of 120 bytes or more left
// out, an unclosed quote ignored.
func TestQuotedSpans(t *testing.T) {
	long := strings.Repeat("x", 120)
	for _, tc := range []struct {
		name, q string
		want    []string
	}{
		{"two straight", `"a b" and "c"`, []string{"a b", "c"}},
		{"kinds in order straight, curly, single", `'s' “c” "d"`, []string{"d", "c", "s"}},
		{"empty pair", `"" x`, nil},
		{"too long", `"` + long + `"`, nil},
		{"just short enough", `"` + long[:119] + `"`, []string{long[:119]}},
		{"unclosed", `say "hello`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := quotedSpans(tc.q); !slices.Equal(got, tc.want) {
				t.Errorf("quotedSpans(%q) = %q, want %q", tc.q, got, tc.want)
			}
		})
	}
}

// TestAnchors pins the words a question names what it asks about by: names
// and years, not the words that open a sentence, acronyms of a field,
// periods, pages, units, date formats, measures or ordinals, and nothing
// in a question written in capitals.
func TestAnchors(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"According to the ledger, Tamsin Orrel belongs to which guild?", []string{"Tamsin", "Orrel"}},
		{"What was Norcell's output from 2002 to 2023?", []string{"Norcell", "2002", "2023"}},
		{"What is the FY2018 capital spending (in USD millions) for X9?", []string{"2018", "X9"}},
		{"What were Kestria's sales?Round to two places.", []string{"Kestria"}},
		{"What is the FY2016 COGS and the P&L of Fair Oak?", []string{"2016", "Fair", "Oak"}},
		{"As of Q2'2023, is Norcell selling a unit? As of FY2023Q1?", []string{"Norcell"}},
		{"What date is on page(1)? Format it as YYYY-MM-DD.", nil},
		{"On Slide 4, what is the 2nd item of the 30-second survey?", nil},
		{"How many links are in the Section on Milling and in Appendix B?", []string{"Milling"}},
		{"How many trams stop at the Quay Square/Harbour Street stop?", []string{"Quay", "Square", "Harbour", "Street"}},
		{"WHAT IS THE 2nd OBJECTIVE OF THE GUILD?", nil},
		{"Which model, the M250 or the Wi-Fi unit?", []string{"M250", "Wi-Fi"}},
		{"Which of the top2 items has URLs? List them as [\"p1\"].", nil},
	} {
		if got := Anchors(tc.q); !slices.Equal(got, tc.want) {
			t.Errorf("Anchors(%q) = %q, want %q", tc.q, got, tc.want)
		}
	}
}

// TestAnchorsEnglishOnly: a German question capitalises every noun, so New
// reads anchors from English text only.
func TestAnchorsEnglishOnly(t *testing.T) {
	if got := New("Wie hoch ist die Miete der Wohnung in der Altstadt?").Anchors; got != nil {
		t.Errorf("German question: anchors %q, want none", got)
	}
	if got := New("Who founded the Brannoch mill?").Anchors; !slices.Equal(got, []string{"Brannoch"}) {
		t.Errorf("English question: anchors %q, want [Brannoch]", got)
	}
}

// TestAskWords: the words support weighs are those of the sentence that
// asks, not a role set before it or the answer's form asked after it
// (also when no space follows the question mark), a fiscal year read as
// its year, initials and titles ("Mr. J.B. Arden") inside it; a text of
// one sentence,
// or none that asks, keeps all its words.
func TestAskWords(t *testing.T) {
	for _, tc := range []struct{ text, ask string }{
		{"Assume you are a clerk. What did the Brannoch mill grind? Round to two places.", "What did the Brannoch mill grind?"},
		{"What did the Brannoch mill grind?Answer in tonnes.", "What did the Brannoch mill grind?"},
		{"Acting as a clerk: what did the mill grind?", "Acting as a clerk: what did the mill grind?"},
		{"Name the mill's grain. Give it in tonnes.", "Name the mill's grain. Give it in tonnes."},
		{"What did the mill grind in FY2021? Round to two places.", "What did the mill grind in 2021?"},
		// initials and titles written without vowels end no sentence
		{"How many mills do Mr. J.B. Arden and Dr. K. Moss own? Answer in int format.", "How many mills do Mr. J.B. Arden and Dr. K. Moss own?"},
	} {
		want := embed.WordsOf(analyze.Tokens(tc.ask))
		if got := New(tc.text).AskWords; !slices.Equal(got, want) {
			t.Errorf("%q: ask words %q, want %q", tc.text, got, want)
		}
	}
}

// A question asking what a short form stands for names it; one that only
// names a short form, names two, or is written in capitals asks none.
func TestLongFormOf(t *testing.T) {
	for _, c := range []struct{ q, want string }{
		{"What does QRTL stand for?", "QRTL"},
		{"What is QRTL stand for in this document?", "QRTL"},
		{"What is the full form of SRC?", "SRC"},
		{"What does the abbreviation PP&E mean in the report?", "PP&E"},
		{"QRTL is short for what?", "QRTL"},
		{"How many staff does QRTL employ?", ""},
		{"What does QRTL say about SRC?", ""},
		{"Does QRTL mean the same as SRC?", ""},
		{"WHAT DOES QRTL STAND FOR?", ""},
		{"What does the red light mean?", ""},
		{"What does seal stand for in the operator of the list of classes of the USS Tringa?", ""},
	} {
		if got := LongFormOf(c.q); got != c.want {
			t.Errorf("LongFormOf(%q) = %q, want %q", c.q, got, c.want)
		}
	}
}

func TestPeriodSpans(t *testing.T) {
	for _, c := range []struct {
		q                   string
		quarter, year, part bool
	}{
		{"What was the FY2023 operating cash flow?", false, true, false},
		{"What was revenue in fiscal 2022?", false, true, false},
		{"How did sales change in Q2 of FY2024?", true, true, false},
		{"What were sales in the three months ended June 30?", true, false, false},
		{"What did the second quarter report say about margins?", true, false, false},
		{"What were sales in the six months ended June 30?", false, false, true},
		{"What is the annual dividend?", false, true, false},
		{"Who founded the mill in 1902?", false, false, false},
		{"How many Qatari riyals were paid?", false, false, false},
	} {
		if q, y, p := PeriodSpans(c.q); q != c.quarter || y != c.year || p != c.part {
			t.Errorf("PeriodSpans(%q) = %v, %v, %v; want %v, %v, %v", c.q, q, y, p, c.quarter, c.year, c.part)
		}
	}
}

// The words that name a figure worked out from others are told apart
// from the rest of what a question asks: support does not weigh them.
func TestComputedWords(t *testing.T) {
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"What was the current ratio of the Alderbrook mill in 2021?", []string{"w:ratio"}},
		{"What was the average price of rye in 2020?", embed.WordsOf(analyze.Tokens("average"))},
		{"Who founded the Alderbrook mill?", nil},
	} {
		if got := New(c.q).Computed; !slices.Equal(got, c.want) {
			t.Errorf("%q: computed %q, want %q", c.q, got, c.want)
		}
	}
}
