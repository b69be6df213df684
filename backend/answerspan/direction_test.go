package answerspan

import "testing"

func TestDirection(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"Did the harvest rise in 2020?", 1},
		{"Yields declined by 4 percent.", -1},
		{"Did costs increase or decrease?", 0},
		{"The mill stands by the river.", 0},
	} {
		if got := Direction(c.text); got != c.want {
			t.Errorf("Direction(%q) = %d, want %d", c.text, got, c.want)
		}
	}
}

// A yes/no question after an opening phrase is read as yes/no, and one
// that asks whether a quantity moved is answered by the direction its best
// sentence states.
func TestYesNoDirection(t *testing.T) {
	if q := Classify("Looking at the harvest ledger, did the barley yield fall in 2021?"); q.Kind != YesNo {
		t.Fatalf("kind %q, want yes-no", q.Kind)
	}
	if q := Classify("Looking at the ledger, what did the barley yield?"); q.Kind == YesNo {
		t.Errorf("a wh-question after an opening phrase read as yes/no")
	}
	if q := Classify("In what region of the country where Velkaro lies, is the birthplace of Edwin Tallow?"); q.Kind == YesNo {
		t.Errorf("a question word in the opening phrase read as yes/no")
	}
	// two periods are no two items compared
	if q := Classify("Has Widgetco reported any change in its debt between FY2022 and FY2021?"); q.Kind != YesNo || len(q.Options) != 0 {
		t.Errorf("kind %q options %q, want yes-no about one thing", q.Kind, q.Options)
	}
	ps := []Passage{
		passage("Harvest report", "The barley yield rose by 12 percent in 2021 compared with 2020. Rain was plentiful."),
		passage("Mill notes", "The mill was rebuilt in 1990."),
	}
	cs := Find(Classify("Looking at the harvest ledger, did the barley yield fall in 2021?"), ps, idf)
	if len(cs) == 0 || cs[0].Text != "no" {
		t.Fatalf("best %+v, want no", cs)
	}
	cs = Find(Classify("Did the barley yield rise in 2021?"), ps, idf)
	if len(cs) == 0 || cs[0].Text != "yes" || len(cs[0].Chain) != 1 {
		t.Fatalf("best %+v, want yes from the harvest sentence", cs)
	}
}

// A yes/no question about one thing that no sentence decides is not
// answered "yes" by default: both answers stay under MinScore. One that
// asks which way ("increase or decrease") is not a yes/no it can decide
// either.
func TestYesNoUndecided(t *testing.T) {
	ps := []Passage{
		passage("Harvest report", "The barley harvest was stored in the new granary. Rain was plentiful."),
		passage("Mill notes", "The mill was rebuilt in 1990."),
	}
	for _, q := range []string{
		"Is the barley farm a capital-intensive business?",
		"Did the barley yield increase or decrease in 2021?",
	} {
		cs := Find(Classify(q), ps, idf)
		if len(cs) > 0 && cs[0].Score >= MinScore {
			t.Errorf("%q: best %+v offered, want nothing decided", q, cs[0])
		}
	}
}

// A question asking an amount is asked for a number, and money fits it
// before a count of days.
func TestAmountAsked(t *testing.T) {
	q := Classify("What is the total amount the Alderbrook mill may borrow under its credit agreement?")
	if q.Kind != Number {
		t.Fatalf("kind %q, want a number", q.Kind)
	}
	ps := []Passage{passage("Alderbrook mill credit", "The Alderbrook mill entered into a new $2,750,000 180 day credit line with the valley bank.")}
	cs := Find(q, ps, idf)
	if len(cs) == 0 || cs[0].Text != "$2,750,000" {
		t.Errorf("best %+v, want the sum of money", cs)
	}
}

// A question asking which way a quantity moved is answered in its own
// word for the way the best sentence states.
func TestWhichWay(t *testing.T) {
	ps := []Passage{
		passage("Harvest report", "The barley yield rose by 12 percent in 2021 compared with 2020. Rain was plentiful."),
		passage("Mill notes", "The mill was rebuilt in 1990."),
	}
	cs := Find(Classify("Did the barley yield increase or decrease in 2021?"), ps, idf)
	if len(cs) == 0 || cs[0].Text != "increase" || cs[0].Score < MinScore || len(cs[0].Chain) != 1 {
		t.Fatalf("best %+v, want increase from the harvest sentence", cs)
	}
	cs = Find(Classify("Did the barley yield fall or rise in 2021?"), ps, idf)
	if len(cs) == 0 || cs[0].Text != "rise" {
		t.Fatalf("best %+v, want rise", cs)
	}
}
