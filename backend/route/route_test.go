package route

import (
	"reflect"
	"testing"

	"cairn/backend/question"
)

// library is a made-up library: two companies with several reports each,
// one single-report company, and one one-passage note.
var library = []Doc{
	{ID: 1, Title: "Lanternworks, Inc. — Form 7-R FY2018", Organisation: "Lanternworks, Inc.", Period: "FY2018", FileName: "LANTERN_2018.pdf", Chunks: 300},
	{ID: 2, Title: "Lanternworks, Inc. — Form 7-R FY2022", Organisation: "Lanternworks, Inc.", Period: "FY2022", FileName: "LANTERN_2022.pdf", Chunks: 280},
	{ID: 3, Title: "Orrin Mills Corporation — Form 7-R FY2019", Organisation: "Orrin Mills Corporation", Period: "FY2019", FileName: "orrin.pdf", Chunks: 200},
	{ID: 4, Title: "Northern Velden Kettle Co. — Form 7-Q Q2 2023", Organisation: "Northern Velden Kettle Co.", Period: "Q2 2023", FileName: "NVK_2023Q2.pdf", Chunks: 90},
	{ID: 5, Title: "Northern Velden Kettle Co. — Form 7-Q Q1 2021", Organisation: "Northern Velden Kettle Co.", Period: "Q1 2021", FileName: "NVK_2021Q1.pdf", Chunks: 95},
	{ID: 6, Title: "Orrin", Organisation: "", FileName: "note.txt", Chunks: 1},
}

func TestQuestion(t *testing.T) {
	for _, c := range []struct {
		q    string
		docs []int64
	}{
		{"What was Lanternworks' FY2018 capital expenditure?", []int64{1}},
		{"How did revenue change from FY2020 to FY2022 for Lanternworks?", []int64{2}},
		{"Is Lanternworks a capital-intensive business?", []int64{1, 2}},
		{"What did Orrin Mills report as inventory?", []int64{3}},
		{"Which NVK segment had the lowest revenue in Q22023?", []int64{4}},              // initials, a quarter against its year
		{"Which segment of Northern Velden had the most income in 2021 Q1?", []int64{5}}, // words of the name
		{"What is the capital of the country where the kettle was made?", nil},           // no name of a document
		{"What is the FY2018 capital expenditure?", []int64{1}},                          // a period one report of five covers
		{"What was the revenue in Q1 2021?", []int64{5}},
		{"What happened in 2023?", []int64{4}},
		{"What happened in 1999?", nil},                                         // no document covers it
		{"Compare Lanternworks and Orrin Mills on inventory", []int64{1, 2, 3}}, // a comparison names both
		{"What is the Company's inventory?", nil},                               // a legal form names no one
	} {
		got := Question(question.New(c.q), library)
		if !reflect.DeepEqual(got.Docs, c.docs) {
			t.Errorf("%q: routed to %v (because %v), want %v", c.q, got.Docs, got.Because, c.docs)
		}
	}
}

// TestPeriodAloneNeedsFewDocuments: a year that many documents of the
// library cover routes nowhere.
func TestPeriodAloneNeedsFewDocuments(t *testing.T) {
	var docs []Doc
	for i := int64(1); i <= 8; i++ {
		y := "2022"
		if i > 3 {
			y = "2019"
		}
		docs = append(docs, Doc{ID: i, Title: "Report " + y, Period: "FY" + y, FileName: "r.pdf", Chunks: 10})
	}
	if got := Question(question.New("What changed in FY2022?"), docs); got.Docs != nil {
		t.Errorf("3 of 8 documents cover 2022: routed to %v", got.Docs)
	}
}

func TestOnePassageDocumentsAreNotRouted(t *testing.T) {
	docs := []Doc{{ID: 1, Title: "Mara Okafor", Chunks: 1}, {ID: 2, Title: "Harbor Bridge", Chunks: 1}, {ID: 3, Title: "Lagos", Chunks: 1}}
	if got := Question(question.New("Who designed Harbor Bridge?"), docs); got.Docs != nil {
		t.Errorf("routed to %v", got.Docs)
	}
}

// TestSpanOfPeriod: a company's annual and quarterly reports of one year
// are told apart by the span the question names.
func TestSpanOfPeriod(t *testing.T) {
	docs := []Doc{
		{ID: 1, Title: "Brightwell Stores — Form 7-R FY ended Jan 25, 2025", Organisation: "Brightwell Stores", Period: "FY ended Jan 25, 2025", FileName: "bw_2025.pdf", Chunks: 300},
		{ID: 2, Title: "Brightwell Stores — Form 7-Q quarter ended Jul 26, 2025", Organisation: "Brightwell Stores", Period: "quarter ended Jul 26, 2025", FileName: "bw_q2.pdf", Chunks: 80},
		{ID: 3, Title: "Orrin Mills Corporation — Form 7-R FY2019", Organisation: "Orrin Mills Corporation", Period: "FY2019", FileName: "orrin.pdf", Chunks: 200},
	}
	for _, c := range []struct {
		q    string
		docs []int64
		why  []string
	}{
		{"Which activities brought in the most cash for Brightwell in FY2025?", []int64{1}, []string{"Brightwell", "fiscal year"}},
		{"How did Brightwell's sales change in the three months ended July 26, 2025?", []int64{2}, []string{"Brightwell", "quarter"}},
		{"Did Brightwell's cash drop between FY 2025 and Q2 of FY2026?", []int64{1, 2}, []string{"Brightwell"}},
		{"What did Brightwell say about its stores?", []int64{1, 2}, []string{"Brightwell"}},
	} {
		got := Question(question.New(c.q), docs)
		if !reflect.DeepEqual(got.Docs, c.docs) || !reflect.DeepEqual(got.Because, c.why) {
			t.Errorf("%q: routed to %v because %v, want %v because %v", c.q, got.Docs, got.Because, c.docs, c.why)
		}
	}
}

// TestUnowned: a question asking something of a name no document of a
// library of several organisations is about ("Kestrel's") is not routed
// by its period, and the name is given back; a question whose owner is a
// document's organisation, or that names no owner, is routed as before.
func TestUnowned(t *testing.T) {
	for _, c := range []struct {
		q       string
		docs    []int64
		unowned []string
	}{
		{"What was Kestrel's FY2018 capital expenditure?", nil, []string{"Kestrel"}},
		{"What were the Harbour Partners' fees in FY2018?", nil, []string{"Partners"}},
		{"What was Lanternworks' FY2018 capital expenditure?", []int64{1}, nil},
		{"What was NVK's revenue in Q1 2021?", []int64{5}, nil},
		{"What was the Kestrel plant's output in FY2018?", []int64{1}, nil}, // a name, no owner: routed by its period
		{"What is the FY2018 capital expenditure?", []int64{1}, nil},
	} {
		got := Question(question.New(c.q), library)
		if !reflect.DeepEqual(got.Docs, c.docs) || !reflect.DeepEqual(got.Unowned, c.unowned) {
			t.Errorf("%q: routed to %v, unowned %q; want %v, %q", c.q, got.Docs, got.Unowned, c.docs, c.unowned)
		}
	}
	// One organisation's documents: a name the question owns is not
	// another organisation's, it may be a part of the one's.
	one := []Doc{library[0], library[1]}
	if got := Question(question.New("What was Kestrel's FY2018 output?"), one); got.Unowned != nil {
		t.Errorf("one organisation's library: unowned %q", got.Unowned)
	}
}

func TestOwner(t *testing.T) {
	for _, c := range []struct {
		text, name string
		want       bool
	}{
		{"What was Kestrel's revenue?", "Kestrel", true},
		{"What was Kestrel’s revenue?", "Kestrel", true},
		{"What were the Partners' fees?", "Partners", true},
		{"Did Kestrel' sell lamps?", "Kestrel", false},
		{"What did Kestrel sell?", "Kestrel", false},
		{"What did Kestrels sell to Kestrel's rivals?", "Kestrel", true},
		{"What is Kestrel'sville?", "Kestrel", false},
	} {
		if got := owner(c.text, c.name); got != c.want {
			t.Errorf("owner(%q, %q) = %v, want %v", c.text, c.name, got, c.want)
		}
	}
}
