package search

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"cairn/backend/kb"
)

func TestPageRefs(t *testing.T) {
	n := func(ns ...int) []PageRef {
		var out []PageRef
		for _, v := range ns {
			out = append(out, PageRef{Number: v, Label: fmt.Sprint(v)})
		}
		return out
	}
	for _, tc := range []struct {
		question string
		want     []PageRef
	}{
		{"What date is printed on page 12?", n(12)},
		{"What does p. 7 say about the warranty?", n(7)},
		{"Which words are at the top of page(1)?", n(1)},
		{"What is written on page two?", n(2)},
		{"Summarise pages 3-5.", n(3, 4, 5)},
		{"Compare pages 3 and 9.", n(3, 9)},
		{"How many figures are there from page 3 to page 6?", n(3, 4, 5, 6)},
		{"What is the title of the second page?", n(2)},
		{"Which chart is on the 3rd slide?", n(3)},
		{"How many people are shown in Slide 4 in 2014?", n(4)},
		{"What is on the last page?", []PageRef{{Last: true}}},
		{"What does the preface say on page iv?", []PageRef{{Label: "iv"}}},
		{"第3页讲了什么？", n(3)},
		{"第十二页的标题是什么？", n(12)},
		// No number with the page word: not a page of the document.
		{"How many pages does the report have?", nil},
		{"Which platform measures page likes?", nil},
		{"What was the first product of the company?", nil},
		// A number before the word is a length, not a page.
		{"Who wrote the 10-page memo?", nil},
		// "p" alone needs digits.
		{"What is p one?", nil},
		// A range is capped.
		{"Summarise pages 1-400.", n(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)},
	} {
		if got := PageRefs(tc.question); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("PageRefs(%q) = %v, want %v", tc.question, got, tc.want)
		}
	}
}

func FuzzPageRefs(f *testing.F) {
	for _, s := range []string{"page 12", "pages 3-4", "the second page", "第三页", "p. 7", "page iv", "pages 9 to 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		for _, r := range PageRefs(q) {
			if r.Number < 0 || (r.Number == 0 && r.Label == "" && !r.Last) {
				t.Errorf("PageRefs(%q) gave %+v", q, r)
			}
		}
	})
}

// A question that names a page finds that page's passages first, however
// little of the question they repeat: first the page printed with the
// number (a report's "page 1" is its third sheet here), then the page at
// that place in the file; "the last page" is the last page with text.
func TestNamedPageIsFound(t *testing.T) {
	ctx := context.Background()
	st := testStore(t)
	save := func(title string, texts []string, labels []string) int64 {
		var chunks []kb.Chunk
		var pages []kb.Page
		for i, text := range texts {
			chunks = append(chunks, kb.Chunk{Ordinal: i, PageStart: i + 1, PageEnd: i + 1, CharEnd: len(text), Text: text})
			p := kb.Page{Number: i + 1, Text: text}
			p.Label = labels[i]
			pages = append(pages, p)
		}
		return saveDoc(t, st, title, "pdf", pages, chunks)
	}
	survey := save("Survey", []string{
		"Harbour Survey. Prepared for the county board.",
		"Contents: introduction, methods, results, the date of the survey.",
		"Introduction. Fieldwork began on 12 March 2019 and ended in June.",
		"Methods. The date of each visit, the date of each photograph and the date of each interview were logged; dates are in the appendix.",
		"Results. 214 buildings were recorded.",
	}, []string{"", "", "1", "2", "3"})
	other := save("Guide", []string{"Guide cover.", "The date of the visit is on the ticket.", "Closing notes."}, []string{"", "", ""})
	top := func(set Settings, docs []int64, q string) []string {
		s := &Searcher{Store: st, Settings: set, Docs: docs}
		hits, err := s.Search(ctx, q, 3)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range hits {
			out = append(out, fmt.Sprintf("%d:%d", h.DocID, h.PageStart))
		}
		return out
	}
	at := func(doc int64, page int) string { return fmt.Sprintf("%d:%d", doc, page) }
	set := DefaultSettings()
	const q = "What date is mentioned on page 1?"
	got := top(set, []int64{survey}, q)
	if len(got) < 2 || got[0] != at(survey, 3) || got[1] != at(survey, 1) {
		t.Errorf("%q in the survey: top %v, want the page printed 1 (%s), then the first sheet (%s)", q, got, at(survey, 3), at(survey, 1))
	}
	set.PageWeight = 0
	if got := top(set, []int64{survey}, q); len(got) > 0 && got[0] == at(survey, 3) {
		t.Errorf("without the page list the printed page 1 ranks first too (%v): the test does not test it", got)
	}
	set = DefaultSettings()
	if got := top(set, nil, "What is on the last page?"); len(got) < 2 || !(got[0] == at(survey, 5) && got[1] == at(other, 3) || got[0] == at(other, 3) && got[1] == at(survey, 5)) {
		t.Errorf("the last page: top %v, want the last page of each document", got)
	}
	if got := top(set, []int64{other}, "What is on the second page?"); len(got) == 0 || got[0] != at(other, 2) {
		t.Errorf("the second page of the guide: top %v, want %s", got, at(other, 2))
	}
}
