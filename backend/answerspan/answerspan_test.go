package answerspan

import (
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	cases := []struct {
		q       string
		kind    Kind
		options []string
	}{
		{"Who directed the film that was shot in Dunmarrow in 1986?", Person, nil},
		{"When did the country containing Velkaro leave the Osterran Empire?", Date, nil},
		{"What is the date of death of Edwin Tallow's father?", Date, nil},
		{"Where was the director of film Oruvandi Thaazhvaaram born?", Place, nil},
		{"What is the place of birth of the director of film The Lantern 19?", Place, nil},
		{"How many Brindel stores are in the state?", Number, nil},
		{"What nationality is Mirela Oskand's husband?", Demonym, nil},
		{"Which film came out first, 4 Lanterns or Hollow Saint?", Choice, []string{"4 Lanterns", "Hollow Saint"}},
		{"Was Bram Tolliver or Juan Esteban Arrizú born first?", Choice, []string{"Bram Tolliver", "Juan Esteban Arrizú"}},
		{"Who was born first out of Tarvo Kiilmaa and Andy Kestrel?", Choice, []string{"Tarvo Kiilmaa", "Andy Kestrel"}},
		{"Are Corin Halvard and Tavish Omondi both film directors?", YesNo, []string{"Corin Halvard", "Tavish Omondi"}},
		{"Does Corin Halvard (Sculptor) have the same nationality as Tavish Omondi (Poet)?", YesNo, []string{"Corin Halvard (Sculptor)", "Tavish Omondi (Poet)"}},
		{"Is Lake Varn in the same county as Tessel Falls?", YesNo, []string{"Lake Varn", "Tessel Falls"}},
		{"What does section 1201 prohibit?", Define, nil},
		{"Which Kestrian doom metal band from Varnholm released a compilation album?", Thing, nil},
		{"What is the name of the waterfall in the country where the Tessel River is found?", Thing, nil},
		{"In which city is the R. T. Ambery Stadium?", Place, nil},
		{"Who must file Form 1040NR?", Unknown, nil},
		{"What is the standard deduction?", Unknown, nil},
		{"What is the capital of France?", Thing, nil},
		{"Who is required to sign the return?", Unknown, nil},
		{"Who signed the return?", Person, nil},
	}
	for _, c := range cases {
		got := Classify(c.q)
		if got.Kind != c.kind {
			t.Errorf("%q: kind %q, want %q", c.q, got.Kind, c.kind)
		}
		if c.options != nil && strings.Join(got.Options, "|") != strings.Join(c.options, "|") {
			t.Errorf("%q: options %q, want %q", c.q, got.Options, c.options)
		}
	}
}

func TestSpans(t *testing.T) {
	s := "Hugo de Varnell was born on 9 June 1934 in Port Sallow and earned $3.5 million, 12% of the total."
	want := map[string]Type{"Hugo de Varnell": TName, "9 June 1934": TDate, "Port Sallow": TName, "$3.5 million": TNumber}
	got := map[string]Type{}
	for _, sp := range Spans(s) {
		if s[sp.Start:sp.End] != sp.Text {
			t.Fatalf("span %q does not match its offsets", sp.Text)
		}
		got[sp.Text] = sp.Type
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("span %q: type %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
	if _, ok := got["May"]; ok {
		t.Errorf("a month alone is not a name")
	}
}

func idf(string) float64 { return 1 }

func passage(title, text string) Passage {
	var sents [][2]int
	start := 0
	for i := 0; i < len(text); i++ {
		if text[i] == '.' && (i+1 == len(text) || text[i+1] == ' ') {
			sents = append(sents, [2]int{start, i + 1})
			start = i + 2
		}
	}
	return Passage{Title: title, Text: text, Sentences: sents}
}

func TestFindTwoHop(t *testing.T) {
	ps := []Passage{
		passage("Nuits de Verre", "Nuits de Verre is a 1976 film directed by Hugo de Varnell. It was shot in Calder Bay."),
		passage("Unrelated", "Paris is the capital of France. It lies on the Seine."),
		passage("Hugo de Varnell", "Hugo de Varnell was an American director. He was born in Port Sallow and died in Ostley County."),
	}
	cs := Find(Classify("Where was the director of film Nuits De Verre born?"), ps, idf)
	if len(cs) == 0 || cs[0].Text != "Port Sallow" {
		t.Fatalf("best %+v, want Port Sallow", cs)
	}
	c := cs[0]
	if c.Bridge != "Hugo de Varnell" || c.Subject != "Nuits de Verre" || len(c.Chain) != 2 || c.Chain[0].Passage != 0 || c.Chain[1].Passage != 2 {
		t.Errorf("chain %+v, bridge %q, subject %q", c.Chain, c.Bridge, c.Subject)
	}
	if c.Score < MinScore {
		t.Errorf("score %.3f under MinScore", c.Score)
	}
	who := Find(Classify("Who directed Nuits de Verre?"), ps, idf)
	if len(who) == 0 || who[0].Text != "Hugo de Varnell" {
		t.Errorf("who: %+v", who)
	}
}

func TestFindChoice(t *testing.T) {
	ps := []Passage{
		passage("4 Lanterns", "4 Lanterns is a 2013 Malayalam film directed by Renjivan."),
		passage("Hollow Saint", "Hollow Saint is a 2008 horror film."),
	}
	cs := Find(Classify("Which film came out first, 4 Lanterns or Hollow Saint?"), ps, idf)
	if len(cs) == 0 || cs[0].Text != "Hollow Saint" {
		t.Fatalf("got %+v, want Hollow Saint", cs)
	}
}

func TestFindYesNoSame(t *testing.T) {
	ps := []Passage{
		passage("Tomas O'Rell", "Tomas O'Rell is an American novelist."),
		passage("Mira Castellan", "Mira Castellan is an American novelist and poet."),
	}
	cs := Find(Classify("Are Tomas O'Rell and Mira Castellan of the same nationality?"), ps, idf)
	if len(cs) == 0 || cs[0].Text != "yes" {
		t.Fatalf("got %+v, want yes", cs)
	}
	if len(cs[0].Items) != 2 || cs[0].Items[0].Item != "Tomas O'Rell" || cs[0].Items[0].Value != "American" || cs[0].Items[1].Item != "Mira Castellan" || cs[0].Items[1].Value != "American" {
		t.Errorf("compared items %+v, want each with American", cs[0].Items)
	}
	r := cs[0].Items[1].Ref
	if got := ps[r.Passage].Text[r.Start:r.End]; got != "Mira Castellan is an American novelist and poet." {
		t.Errorf("value's sentence %q", got)
	}
}

func TestFindDefine(t *testing.T) {
	ps := []Passage{passage("DMCA", "Finally, the prohibitions contained in section 1201 are subject to exceptions. Section 1201 does not prohibit fair use. The provision prohibits circumventing technological measures that control access to works.")}
	cs := Find(Classify("What does section 1201 prohibit?"), ps, idf)
	if len(cs) == 0 || !strings.HasPrefix(cs[0].Text, "circumventing technological measures") {
		t.Fatalf("got %+v", cs)
	}
}

func TestHops(t *testing.T) {
	for q, want := range map[string]int{
		"Where was the director of film X born?":       2,
		"Who is the father of the director of film X?": 2,
		"Who directed X?":                              0,
		"Who is the paternal grandfather of X?":        3,
		"What nationality is Mirela Oskand's husband?": 2,
	} {
		if got := Hops(Classify(q)); got != want {
			t.Errorf("%q: %d hops, want %d", q, got, want)
		}
	}
}

// A question that describes its bridge without a relation word: the
// bridge's own passage states more of the question than the sentence
// naming it, so the answer is sought there.
func TestFindDescribedBridge(t *testing.T) {
	ps := []Passage{
		passage("Owen Farrant", "Owen Farrant was an American journalist and biographer. He wrote a biography of Lucas Drevin."),
		passage("Lucas Drevin (criminal)", "Lucas Drevin was an American contract killer. He was associated with members of the Marbrook crime family."),
	}
	cs := Find(Classify("Owen Farrant was a biographer for an American contract killer who was associated with members of what crime family?"), ps, idf)
	if len(cs) == 0 || cs[0].Text != "Marbrook crime family" {
		t.Fatalf("got %+v, want Marbrook crime family first", cs)
	}
	if cs[0].Bridge != "Lucas Drevin (criminal)" {
		t.Errorf("bridge %q", cs[0].Bridge)
	}
}

func TestTitleKey(t *testing.T) {
	for in, want := range map[string]string{
		"Dane Morrow (political consultant)": "dane morrow",
		"The Velvet Larks":                   "velvet larks",
		"m(q)":                               "m q",
	} {
		if got := titleKey(in); got != want {
			t.Errorf("titleKey(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSpansNumber(t *testing.T) {
	s := "In 1948, their house had 40 rooms."
	var nums []string
	for _, sp := range Spans(s) {
		if sp.Type == TNumber {
			nums = append(nums, sp.Text)
		}
	}
	if strings.Join(nums, "|") != "1948|40 rooms" {
		t.Errorf("numbers %q", nums)
	}
}

func TestFindYearOnly(t *testing.T) {
	ps := []Passage{passage("Jane Roe", "Jane Roe (born June 14, 1967) is an American journalist. She hosted The Open Hour.")}
	cs := Find(Classify("In what year was the journalist who hosted The Open Hour born?"), ps, idf)
	if len(cs) == 0 || cs[0].Text != "1967" {
		t.Fatalf("got %+v, want 1967", cs)
	}
	cs = Find(Classify("On which date was Jane Roe born?"), ps, idf)
	if len(cs) == 0 || cs[0].Text != "June 14, 1967" {
		t.Fatalf("got %+v, want the full date", cs)
	}
}

func TestFocusFit(t *testing.T) {
	for _, c := range []struct {
		name, focus string
		want        float64
	}{
		{"Harlan Voss Stadium", "stadium", 1.4},
		{"Tessel Falls", "waterfall", 1.4},
		{"North Brindle High School", "county", 0.6},
		{"Carrow County", "county", 1.4},
		{"Ostwick State", "stadium", 0.6},
		{"Helen Marsh", "stadium", 1},
	} {
		if got := focusFit(c.name, c.focus); got != c.want {
			t.Errorf("focusFit(%q, %q) = %g, want %g", c.name, c.focus, got, c.want)
		}
	}
}

func TestRoleSpans(t *testing.T) {
	for s, want := range map[string]string{
		"Edith Carrow CBE was a pioneering English aviator who flew solo.":                          "aviator",
		"Zeca is a Portuguese professional footballer who plays as a central defender for Vilamar.": "central defender",
		"Dell Harker is an American writer and aviator known for his novels.":                       "writer",
		"He was a Tolkari silversmith.":                                                             "silversmith",
	} {
		found := false
		var all []string
		for _, sp := range RoleSpans(s) {
			all = append(all, sp.Text)
			if sp.Text == want && s[sp.Start:sp.End] == want {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: roles %q, want %q", s, all, want)
		}
	}
	ps := []Passage{passage("Edith Carrow", "Edith Carrow CBE was a pioneering English aviator who flew solo from Harrowby to Port Teller.")}
	cs := Find(Classify("What was the profession of Edith Carrow?"), ps, idf)
	if len(cs) == 0 || cs[0].Text != "aviator" {
		t.Errorf("got %+v, want aviator", cs)
	}
}

func TestFindPlaceOfEvent(t *testing.T) {
	ps := []Passage{passage("Ann Lee", "Ann Lee was a Scottish driver who raced in Italy. She was born in Kelloch and died in Strathavel. She spoke English and Spanish.")}
	cs := Find(Classify("Where was Ann Lee born?"), ps, idf)
	if len(cs) == 0 || cs[0].Text != "Kelloch" {
		t.Fatalf("born: got %+v", cs)
	}
	cs = Find(Classify("Where did Ann Lee die?"), ps, idf)
	if len(cs) == 0 || cs[0].Text != "Strathavel" {
		t.Fatalf("died: got %+v", cs)
	}
	for _, c := range cs {
		if c.Text == "English and Spanish" {
			t.Errorf("languages offered as a place: %+v", c)
		}
	}
}

func TestRelatedBy(t *testing.T) {
	for q, want := range map[string]string{
		"Which film has the director born first, Bess Ar'Ly or Ek Sapna Dhoop?": "director",
		"Which composer was born first, Antonín Hrubec or Giuseppe Varanzi?":    "",
		"Who is the father of the director of film X?":                          "father director",
		"What nationality is Mirela Oskand's husband?":                          "husband",
	} {
		if got := strings.Join(relatedBy(q), " "); got != want {
			t.Errorf("%q: %q, want %q", q, got, want)
		}
	}
}

func TestClassifyEventOptions(t *testing.T) {
	q := Classify("Which came first the forming of The Velvet Larks or the birth of Robert Tamsin?")
	if q.Kind != Choice || strings.Join(q.Options, "|") != "The Velvet Larks|Robert Tamsin" {
		t.Errorf("%+v", q)
	}
	if q := Classify(`\When was the aviation pioneer born?`); q.Kind != Date {
		t.Errorf("%+v", q)
	}
}

// "The provision" is the section the text last named: the statement about
// section 1201(k) does not answer for section 1201, nor one about a
// subsection of another section.
func TestFindDefineReferent(t *testing.T) {
	ps := []Passage{
		passage("DMCA", "Section 1201 divides technological measures into two categories. The provision prohibits circumventing the first category of technological measures."),
		passage("DMCA", "Section 1201(k) mandates one technology. The provision prohibits rightholders from applying these technologies to free television. Subsection (a) prohibits the knowing provision of false CMI."),
	}
	ps[1], ps[0] = ps[0], ps[1] // the wrong one ranked first
	cs := Find(Classify("What does section 1201 prohibit?"), ps, idf)
	if len(cs) == 0 || !strings.HasPrefix(cs[0].Text, "circumventing the first category") {
		t.Fatalf("got %+v", cs)
	}
}

func TestDateSpans(t *testing.T) {
	cases := []struct {
		s    string
		want []string
	}{
		{"Radomir IV (1352 – 14 February 1421) was a duke.", []string{"1352", "14 February 1421"}},
		{"Walter Bessing (1693-12 March 1761) was a bishop.", []string{"1693", "12 March 1761"}},
		{"He served from 1939–45 and died on 3 May 1950.", []string{"1939–45", "3 May 1950"}},
		{"The 1990s began in 1990.", []string{"1990s", "1990"}},
		{"Born June 5, 1901 – died 1980.", []string{"June 5, 1901", "1980"}},
	}
	for _, tc := range cases {
		var got []string
		for _, sp := range dateSpans(tc.s) {
			if tc.s[sp.Start:sp.End] != sp.Text {
				t.Fatalf("%q: span %q does not match its offsets", tc.s, sp.Text)
			}
			got = append(got, sp.Text)
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%q: dates %q, want %q", tc.s, got, tc.want)
		}
	}
}

// A name followed by the question's focus noun takes it ("what crime
// family" -> "Lomarra crime family"), a possessive does not; a count drops
// the unit the question names ("how many records" -> "150 million").
func TestFindFocusAndUnit(t *testing.T) {
	cases := []struct{ q, text, want string }{
		{"Which crime family was Vito Carrel the boss of?", "Vito Carrel was the boss of the Lomarra crime family in Port Sallow.", "Lomarra crime family"},
		{"What band did Arnav Deshmane found?", "Arnav Deshmane founded Meridiana, India's pop band.", "Meridiana"},
		{"How many records has Tobias Wendrell sold?", "Tobias Wendrell has sold more than 150 million records worldwide.", "150 million"},
		{"How many people live in Dunmarrow?", "Dunmarrow had 13,527 residents in 2010.", "13,527 residents"},
	}
	for _, tc := range cases {
		cs := Find(Classify(tc.q), []Passage{passage("Doc", tc.text)}, idf)
		if len(cs) == 0 || cs[0].Text != tc.want {
			var got []string
			for _, c := range cs {
				got = append(got, c.Text)
			}
			t.Errorf("%q: candidates %q, want %q first", tc.q, got, tc.want)
		}
	}
}

func TestConvertedAmount(t *testing.T) {
	q := Classify("How much snow falls in Harrowgate in a year?")
	if q.Kind != Number {
		t.Fatalf("kind %q, want %q", q.Kind, Number)
	}
	text := "Mean yearly snowfall, as recorded at Harrowgate Field, is 6.8 inches (17.3 cm)."
	ps := []Passage{{Title: "Harrowgate", Text: text, Sentences: [][2]int{{0, len(text)}}}}
	cs := Find(q, ps, func(string) float64 { return 1 })
	if len(cs) == 0 || cs[0].Text != "6.8 inches" {
		t.Errorf("best %v, want 6.8 inches", cs)
	}
}

// TestFindYesNoPlaces: a first name that reads like a demonym is no
// nationality, a US state or a country stands for its nationality when
// nationalities are compared, and "the same state" compares the states.
func TestFindYesNoPlaces(t *testing.T) {
	cases := []struct {
		q    string
		a, b Passage
		want string
	}{
		{"Did Marian Ostrowe and Silas Arden Talbrook share the same nationality?",
			passage("Marian Ostrowe", "Marian Ostrowe is a French philosopher and theologian."),
			passage("Silas Arden Talbrook", "Silas Arden Talbrook was a politician. Born in Corrow Falls, France, he attended the common schools."), "yes"},
		{"Are Jean Dupont and Anna Weber of the same nationality?",
			passage("Jean Dupont", "Jean Dupont was a painter. He was born in Vaurelle, France."),
			passage("Anna Weber", "Anna Weber is a German painter."), "no"},
		{"Are Fenwick Airport and Marrowgate Airport both airports in the same state?",
			passage("Fenwick Airport", "Fenwick Airport is an airport in Fenwick, New York."),
			passage("Marrowgate Airport", "Marrowgate Airport is an airport in Marrowgate, Louisiana."), "no"},
	}
	for _, c := range cases {
		cs := Find(Classify(c.q), []Passage{c.a, c.b}, idf)
		if len(cs) == 0 || cs[0].Text != c.want {
			t.Errorf("%s: got %+v, want %s", c.q, cs, c.want)
		}
	}
}

func TestValueKeys(t *testing.T) {
	for in, want := range map[string]string{"France": "french", "Alabama": "alabama", "U.S.": "american", "Scotland": "british", "Vaurelle": "vaurelle", "German": "german"} {
		if got := demonymKey(in); got != want {
			t.Errorf("demonymKey(%q) = %q, want %q", in, got, want)
		}
	}
	if !asksSmallerPlace("Are both airports in the same state?") || asksSmallerPlace("Are they of the same nationality?") {
		t.Error("asksSmallerPlace")
	}
	if !inTitleWords("Marian", "Marian Ostrowe") || inTitleWords("American", "Marian Ostrowe") {
		t.Error("inTitleWords")
	}
}
