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
