package pdf

import "testing"

func TestNumberedTitle(t *testing.T) {
	cases := []struct {
		text  string
		size  float64
		depth int
		ok    bool
	}{
		{"2.1. Data sets", 10, 2, true},
		{"4 MAIN RESULTS", 12, 1, true},
		{"II. OVERVIEW OF THE METHOD", 8.5, 1, true}, // small capitals
		{"B. Related models", 10, 2, true},
		{"C.2 Prompts", 10, 2, true},
		{"B DATASET STATISTICS", 10, 1, true},
		{"3 第三章", 10, 1, true},
		{"1. The model is trained on the data.", 10, 0, false}, // a sentence
		{"2 apples and oranges", 10, 0, false},                 // no capital
		{"3.2 Results for", 10, 0, false},                      // ends open
		{"4.5 Results", 8, 0, false},                           // a footnote size
		{"12,500 Tokens", 10, 0, false},
		{"Results", 10, 0, false},
		// A labelled title may name its item in full, over 90 characters.
		{"Item 7. Discussion and Analysis of the Mills' Water Rights, Grain Storage and Results of the Harvest.", 10, 1, true},
		{"7 Discussion and Analysis of the Mills' Water Rights, Grain Storage and Results of the Harvest", 10, 0, false},
		{"Question 1. Do you think the mill's future lies mostly in its grain storage? Explain your reasoning.", 10, 0, false},
		{"Section 9. For this purpose and to the extent permissible under Section 9, the Partnership pays.", 10, 0, false},
		{"Item 7. The Partnership shall pay the fees of the mills, the grain storage and the water rights within thirty days of the invoice date.", 10, 0, false},
	}
	for _, c := range cases {
		q := para{text: c.text, size: c.size, lines: 1, runes: len([]rune(c.text)), upright: true}
		d, ok := numberedTitle(q, 10)
		if ok != c.ok || d != c.depth {
			t.Errorf("%q: depth %d ok %v, want %d %v", c.text, d, ok, c.depth, c.ok)
		}
	}
}

func TestTitleLine(t *testing.T) {
	for s, want := range map[string]bool{
		"II. OVERVIEW OF RAG": true, "4 MAIN RESULTS": true, "A SCALABILITY STUDY": true,
		"2 Related work": false, "II. OVERVIEW.": false, "REFERENCES": false, "USD 4 MILLION": false,
	} {
		if got := titleLine(s); got != want {
			t.Errorf("titleLine(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestStyledTitles: numbered titles set like the body become headings
// when the document uses their style for three or more of them; a
// capitals line in a capitals title style does too; a numbered list does
// not, nor does a lone numbered line.
func TestStyledTitles(t *testing.T) {
	body := func(s string) para {
		return para{text: s, size: 10, lines: 4, runes: 300, upright: true}
	}
	line := func(s string, size float64) para {
		return para{text: s, size: size, lines: 1, runes: len([]rune(s)), upright: true}
	}
	text := "Running text of the section goes on for several lines of prose here."
	pages := []pageOut{
		{paras: []para{line("1 INTRODUCTION", 12), body(text), line("1. Apples", 10), line("2. Pears", 10), line("3. Plums", 10), body(text)}},
		{paras: []para{line("2 RELATED WORK", 12), body(text), line("2.1 Prior methods", 10), body(text)}},
		{paras: []para{line("3 METHOD", 12), body(text), line("REFERENCES", 12), body(text)}},
	}
	markStyledTitles(pages, 10)
	want := map[string]bool{"1 INTRODUCTION": true, "2 RELATED WORK": true, "3 METHOD": true, "REFERENCES": true}
	for _, p := range pages {
		for _, q := range p.paras {
			if q.titled != want[q.text] {
				t.Errorf("%q: titled %v, want %v", q.text, q.titled, want[q.text])
			}
		}
	}
}

// TestCapsTitles: one-line titles in capitals, set like the body, are
// headings when three or more of them on two pages or more share a style;
// a capitals line next to another is not (a list or a table's labels),
// nor is a capitals line that ends a sentence.
func TestCapsTitles(t *testing.T) {
	text := "Running text of the section goes on for several lines of prose here."
	body := para{text: text, size: 10, lines: 4, runes: 300, upright: true}
	line := func(s string) para {
		return para{text: s, size: 10, lines: 1, runes: len([]rune(s)), upright: true}
	}
	var pages []pageOut
	for _, p := range [][]para{
		{line("RESULTS OF OPERATIONS"), body, body, line("DO NOT REMOVE."), body},
		{line("BUSINESS SEGMENTS"), body, line("NORTH"), line("SOUTH"), body},
		{line("RISK MANAGEMENT"), body, body, body, body},
	} {
		for k := 0; k < 8; k++ { // titles are a small share of a document's paragraphs
			p = append(p, body)
		}
		pages = append(pages, pageOut{paras: p})
	}
	markStyledTitles(pages, 10)
	want := map[string]bool{"RESULTS OF OPERATIONS": true, "BUSINESS SEGMENTS": true, "RISK MANAGEMENT": true}
	for _, p := range pages {
		for _, q := range p.paras {
			if q.titled != want[q.text] {
				t.Errorf("%q: titled %v, want %v", q.text, q.titled, want[q.text])
			}
		}
	}
}
