package reason_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"cairn/backend/evalset"
	"cairn/backend/kb"
	"cairn/backend/llm"
	"cairn/backend/reason"
)

// outcomeCorpus is a made-up town's notes: a passage that answers who
// founded its mill, one about its ferry that gives no date or figure, and
// an open section on how the library lends books.
var outcomeCorpus = []evalset.Passage{
	{ID: "mill", Title: "Alderbrook mill", Text: "The Alderbrook mill was founded by Oren Vasek, a carpenter from the valley. It ground grain for the farms along the river for a century."},
	{ID: "ferry", Title: "Alderbrook ferry", Text: "The Alderbrook ferry crosses the wide river below the town. The ferry carries carts, cattle and travellers between the banks, and the ferryman lives in the stone house by the landing."},
	{ID: "library", Title: "Alderbrook library lending", Text: "The Alderbrook library lends books to every resident of the town. A borrower may keep a book for three weeks and renew it once at the desk."},
	{ID: "bakery", Title: "Alderbrook bakery", Text: "The bakery on the square sells rye bread and honey cakes. It opens before dawn on market days."},
	{ID: "accounts", Title: "Alderbrook mill accounts", Text: "At the end of 2021 the Alderbrook mill held current assets of 840 crowns against current liabilities of 420 crowns."},
}

// The three outcomes of an offline answer, told apart: an answer formed
// (a short answer, or the sentences answering an open question), evidence
// only (passages about a question that asks for a figure or a date, none
// stated: not declined, the text says so and where, the passages cited),
// and declined (nothing in the project answers it).
func TestOutcomesOffline(t *testing.T) {
	st := corpusStore(t, outcomeCorpus)
	cases := []struct {
		name, question, outcome, lead string
		short                         bool
	}{
		{"short answer", "Who founded the Alderbrook mill?", kb.OutcomeAnswer, "", true},
		{"open question", "How does the Alderbrook library lend books?", kb.OutcomeAnswer, reason.NoShortText, false},
		{"evidence only", "In what year did the Alderbrook ferry first cross the river?", kb.OutcomeEvidence, "Evidence only: the passages on p. 1 of Alderbrook ferry", false},
		// A yes/no question no sentence decides is not answered "yes" by
		// default: its passages are the evidence.
		{"evidence only: yes or no undecided", "Does the Alderbrook ferry carry cattle?", kb.OutcomeEvidence, "Evidence only: the passages on p. 1 of Alderbrook ferry", false},
		// A figure worked out from others: the passages need not say
		// "ratio", only the figures it is worked out from.
		{"evidence only: a computed figure", "What was the current ratio of the Alderbrook mill in 2021?", kb.OutcomeEvidence, "Evidence only:", false},
		{"declined", "What is the melting point of tungsten carbide?", kb.OutcomeDeclined, reason.DeclineText, false},
		// The question's words are all there but one name: the notes
		// never mention Brannoch, so nothing in them answers it.
		{"declined: a name never mentioned", "Who founded the Brannoch mill by the river?", kb.OutcomeDeclined, reason.DeclineText, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, deep := range []bool{false, true} {
				r := newReasoner(st, llm.Offline{})
				var streamed strings.Builder
				ask := r.Quick
				if deep {
					ask = r.Deep // offline: falls back to quick mode
				}
				a, err := ask(context.Background(), c.question, func(s string) { streamed.WriteString(s) })
				if err != nil {
					t.Fatal(err)
				}
				if a.Outcome != c.outcome || a.Declined != (c.outcome == kb.OutcomeDeclined) || (a.Short != nil) != c.short {
					t.Fatalf("deep %v: outcome %q declined %v short %+v, want %q: %q", deep, a.Outcome, a.Declined, a.Short, c.outcome, a.Answer)
				}
				if strings.Contains(c.question, "Brannoch") != strings.Contains(a.Answer, "Nothing there mentions “Brannoch”") {
					t.Errorf("deep %v: answer %q: says what is never mentioned only when a name is", deep, a.Answer)
				}
				if c.lead != "" && !strings.HasPrefix(a.Answer, c.lead) {
					t.Errorf("deep %v: answer %q, want it to start %q", deep, a.Answer, c.lead)
				}
				if streamed.String() != a.Answer {
					t.Errorf("deep %v: streamed %q, answer %q", deep, streamed.String(), a.Answer)
				}
				if len(a.Citations) == 0 {
					t.Errorf("deep %v: no citations", deep)
				}
				var tr reason.Trace
				if err := json.Unmarshal(a.Trace, &tr); err != nil || tr.Outcome != c.outcome {
					t.Errorf("deep %v: trace outcome %q (%v)", deep, tr.Outcome, err)
				}
				checkProvenance(t, st, a)
			}
		})
	}
}

// Evidence only: the passages are cited, each [n] of the text is one of
// them, and the text names no short answer.
func TestEvidenceOutcomeCitesThePassages(t *testing.T) {
	st := corpusStore(t, outcomeCorpus)
	a, err := newReasoner(st, llm.Offline{}).Quick(context.Background(), "How many carts can the Alderbrook ferry carry across the river?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Outcome != kb.OutcomeEvidence || a.Declined {
		t.Fatalf("outcome %q declined %v: %q", a.Outcome, a.Declined, a.Answer)
	}
	if !strings.Contains(a.Answer, "no short answer could be formed from them offline") || !strings.Contains(a.Answer, "A model (Ollama) can read them") {
		t.Errorf("answer %q", a.Answer)
	}
	for _, c := range a.Citations {
		if !strings.Contains(a.Answer, "["+itoa(c.N)+"]") {
			t.Errorf("citation %d is not in the text %q", c.N, a.Answer)
		}
		if c.DocTitle != "Alderbrook ferry" {
			t.Errorf("citation %d from %q", c.N, c.DocTitle)
		}
	}
}

// With a model, its answer is an answer; when the model's answer fails,
// the passages answer instead and the outcome is the extractive one's,
// worded for the failed model.
func TestOutcomesWithModel(t *testing.T) {
	st := corpusStore(t, outcomeCorpus)
	f := &fakeProvider{stream: "The ferry's first crossing is not dated in the passages [1]."}
	a, err := newReasoner(st, f).Quick(context.Background(), "In what year did the Alderbrook ferry first cross the river?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Outcome != kb.OutcomeAnswer || a.Answer != f.stream {
		t.Fatalf("model: outcome %q answer %q", a.Outcome, a.Answer)
	}

	broken := &fakeProvider{stream: ""} // an empty answer: the passages answer instead
	a, err = newReasoner(st, broken).Quick(context.Background(), "In what year did the Alderbrook ferry first cross the river?", nil)
	if err != nil {
		t.Fatal(err)
	}
	var tr reason.Trace
	json.Unmarshal(a.Trace, &tr)
	if a.Outcome != kb.OutcomeEvidence || tr.AnswerFallback == "" || tr.Outcome != kb.OutcomeEvidence {
		t.Fatalf("fallback: outcome %q (trace %q, fallback %q): %q", a.Outcome, tr.Outcome, tr.AnswerFallback, a.Answer)
	}
	if !strings.Contains(a.Answer, "without the model (its answer failed)") {
		t.Errorf("fallback answer %q", a.Answer)
	}

	a, err = newReasoner(st, f).Quick(context.Background(), "What is the melting point of tungsten carbide?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Outcome != kb.OutcomeDeclined || !a.Declined {
		t.Fatalf("model, nothing answers: outcome %q declined %v", a.Outcome, a.Declined)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// A line that only names what is asked (a term set as a title) is said
// with the sentence after it: the answer gives the definition, not the
// term alone.
func TestTermLineSaidWithItsDefinition(t *testing.T) {
	st := corpusStore(t, []evalset.Passage{
		{ID: "rules", Title: "Principles of mill design", Text: "Principles of mill design\n\nLaw of good milling.\nGrain must be ground slowly so that the flour stays cool and keeps its taste.\n\nLaw of the open race.\nThe mill race stays free of weeds in every season."},
		{ID: "ferry", Title: "Alderbrook ferry", Text: "The Alderbrook ferry crosses the wide river below the town."},
	})
	r := newReasoner(st, llm.Offline{})
	a, err := r.Quick(context.Background(), "How does this document define the law of good milling?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(a.Answer, "Grain must be ground slowly") {
		t.Errorf("answer %q: the definition after the term is not said", a.Answer)
	}
	checkProvenance(t, st, a)
}

// A question asking the title of labelled parts is answered by the
// headings that label them, wherever in the scope they stand; a lead-in
// line ("Unit 2 Key Assignments:") is no title.
func TestSectionTitles(t *testing.T) {
	st := corpusStore(t, []evalset.Passage{
		{ID: "course-1", Title: "Millwright course outline", Text: "Course content\nUNIT 1: Reading the Grain\nStudents learn the kinds of grain the valley grows.\nUnit 2 Key Assignments:\nA report on the river mills."},
		{ID: "course-2", Title: "Millwright course outline, second term", Text: "UNIT 2: Building the Water Wheel\nStudents build a small wheel and measure its turns."},
		{ID: "ferry", Title: "Alderbrook ferry", Text: "The Alderbrook ferry crosses the wide river below the town."},
	})
	r := newReasoner(st, llm.Offline{})
	a, err := r.Quick(context.Background(), "What are the names of Unit 1 and Unit 2?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Short == nil || a.Short.Text != "Reading the Grain; Building the Water Wheel" {
		t.Fatalf("short %+v, answer %q", a.Short, a.Answer)
	}
	var tr reason.Trace
	if err := json.Unmarshal(a.Trace, &tr); err != nil || len(tr.SectionTitles) != 2 {
		t.Errorf("section_titles %q (%v)", tr.SectionTitles, err)
	}
	checkProvenance(t, st, a)
}
