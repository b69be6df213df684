package reason

import (
	"context"
	"sort"
	"strings"
	"testing"

	"cairn/backend/question"
	"cairn/backend/retrieve"
)

func TestLabelBefore(t *testing.T) {
	keys := []string{"16", "B", "9", "2.1", "A", "2", "IV"}
	sort.SliceStable(keys, func(i, j int) bool { return labelBefore(keys[i], keys[j]) })
	if got := strings.Join(keys, " "); got != "2 2.1 9 16 A B IV" {
		t.Errorf("labels in order: %s", got)
	}
}

func TestCountedPart(t *testing.T) {
	for q, want := range map[string]string{
		"How many tables are included in the document?":         "table",
		"how many figures are there in total in this paper?":    "figure",
		"How many appendices appear in the report?":             "appendix",
		"In all, how many chapters does the book have?":         "chapter",
		"How many figures of trains appear in the document?":    "", // narrowed: figures of what
		"How many tables are related to costs?":                 "",
		"How many figures are in this paper from Page 3 to 10?": "",
		"How many people attended the meeting?":                 "",
		"What does Table 2 show?":                               "",
	} {
		if got := countedPart(question.New(q)); got != want {
			t.Errorf("countedPart(%q) = %q, want %q", q, got, want)
		}
	}
}

// The tables of a document are counted by the distinct labels its lines
// start with: a caption after a page break counts, a caption repeated on
// the next page ("Table 2 (continued)") and a reference inside a sentence
// do not count again, "Table of Contents" is no table; the count leads the
// answer with the labels, each cited by its first line.
func TestCountPartsByTheirLabels(t *testing.T) {
	ctx := context.Background()
	texts := []string{
		"Table of Contents\nIntroduction 1\nFarms 4",
		"The county grew fast (Table 1). Its farms\nTable 1. Population, 1870-1950\nYear | People\n1870 | 130",
		"were many.\fTable 2: Number of farms\nYear | Farms\n1900 | 2,100\nTable 2 (continued)\n1950 | 1,100",
		"As Table 2 shows, the farms grew larger.\nTABLE 3. Towns by size\nTown | People\nAurora | 4,000",
	}
	chunks, pages := onePassagePerPage(texts)
	st, e, _ := oneDocStore(t, "County buildings survey", chunks, pages)
	r := &Reasoner{Retriever: retrieve.New(st, e)}
	u := &run{r: r, q: question.New("How many tables are included in the document?"), set: DefaultSettings(), trace: &Trace{}}
	parts, err := u.countParts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, p := range parts {
		labels = append(labels, p.label)
	}
	if got := strings.Join(labels, ", "); got != "Table 1, Table 2, Table 3" {
		t.Fatalf("labels %q, want Table 1, Table 2, Table 3", got)
	}
	var ev []Evidence
	var at []int
	for _, p := range parts {
		var i int
		ev, i = withPassage(ev, p.hit)
		at = append(at, i)
	}
	c := partsCandidate(parts, at)
	if c.Text != "3 (Table 1, Table 2, Table 3)" || len(c.Chain) != 3 {
		t.Errorf("candidate %q with %d lines cited", c.Text, len(c.Chain))
	}
	if line := ev[c.Chain[1].Passage].Hit.Text[c.Chain[1].Start:c.Chain[1].End]; line != "Table 2: Number of farms" {
		t.Errorf("Table 2 cited by %q", line)
	}
}

// Chapters numbered only on the contents page are counted from it: the
// entries numbered 1, 2, 3 under "CHAPTERS" (after an unnumbered summary),
// the list running on into the next passage, which repeats the line the
// last one closed on; not the appendix after them nor a numbered list
// elsewhere.
func TestCountPartsFromContents(t *testing.T) {
	ctx := context.Background()
	texts := []string{
		"CONTENTS\nForeword........................v\nCHAPTERS\nSummary.........................1\n1. Brewing at Home..............3\n2. Water and Grain .............27",
		"2. Water and Grain .............27\n3. Yeast .......................40\nAppendix 1: Tables..............90",
		"Brewing at Home\nThe steps are:\n1. Boil the water.\n2. Add the grain.\n3. Stir.\n4. Cool it.",
		"Water and Grain\nHard water suits dark beers.",
	}
	chunks, pages := onePassagePerPage(texts)
	st, e, _ := oneDocStore(t, "Home brewing guide", chunks, pages)
	r := &Reasoner{Retriever: retrieve.New(st, e)}
	u := &run{r: r, q: question.New("How many chapters are in this book?"), set: DefaultSettings(), trace: &Trace{}}
	parts, err := u.countParts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, p := range parts {
		labels = append(labels, p.label)
	}
	if got := strings.Join(labels, ", "); got != "Chapter 1, Chapter 2, Chapter 3" {
		t.Fatalf("labels %q, want Chapter 1, Chapter 2, Chapter 3", got)
	}
	if line := parts[1].hit.Text[parts[1].line.Start:parts[1].line.End]; line != "2. Water and Grain .............27" {
		t.Errorf("Chapter 2 cited by %q", line)
	}
}

func TestListedPart(t *testing.T) {
	for _, tc := range []struct {
		q, part, end string
		n            int
	}{
		{"Which are the final 3 chapters shown in the table of contents?", "chapter", "last", 3},
		{"What are the first two appendices of the report?", "appendix", "first", 2},
		{"List the chapters of this book.", "chapter", "", 0},
		{"Which chapters include research highlights?", "", "", 0}, // narrowed
		{"What are the main findings?", "", "", 0},
	} {
		part, end, n := listedPart(question.New(tc.q))
		if part != tc.part || end != tc.end || n != tc.n {
			t.Errorf("listedPart(%q) = %q %q %d, want %q %q %d", tc.q, part, end, n, tc.part, tc.end, tc.n)
		}
	}
}

// A list question about the chapters a contents page sets out is answered
// with their titles, the last n when it asks for them.
func TestListedPartsFromContents(t *testing.T) {
	ctx := context.Background()
	texts := []string{
		"CONTENTS\nCHAPTERS\n1. Brewing at Home..............3\n2. Water and Grain .............27\n3. Yeast .......................40",
		"Brewing at Home\nStart with clean pans.",
	}
	chunks, pages := onePassagePerPage(texts)
	st, e, _ := oneDocStore(t, "Home brewing guide", chunks, pages)
	r := &Reasoner{Retriever: retrieve.New(st, e)}
	u := &run{r: r, q: question.New("List the last two chapters given in the contents."), set: DefaultSettings(), trace: &Trace{}}
	parts, err := u.listedParts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c := partsListCandidate(parts, []int{0, 0})
	if c.Text != "Water and Grain; Yeast" || len(c.Chain) != 2 {
		t.Errorf("candidate %q with %d lines cited", c.Text, len(c.Chain))
	}
}
