package pdf

import (
	"strings"
	"testing"

	"cairn/backend/ingest/parsed"
)

// contentsPage draws a contents page the way LaTeX sets one: each entry's
// number, title (with a dot leader for sections) and page number are
// drawn apart, the page numbers right-aligned at the margin; chapter
// entries are larger, bold and have no leader. The next page opens the
// first chapter under its heading.
func contentsPage() []byte {
	type entry struct {
		num, title string
		page       int
		chapter    bool
	}
	entries := []entry{
		{"1", "Brewing at Home", 1, true},
		{"1.1", "Choosing a Vessel", 2, false},
		{"1.2", "Keeping It Clean", 4, false},
		{"1.3", "A First Batch", 7, false},
		{"2", "Water and Grain", 11, true},
		{"2.1", "Hard and Soft Water", 11, false},
		{"2.2", "Malting Barley at Home", 14, false},
		{"2.3", "Mashing Temperatures", 19, false},
		{"3", "Yeast", 23, true},
	}
	var toc []hline
	toc = append(toc, hline{f: "F2", size: 18, x: 72, y: 720, text: "Contents"})
	y := 680.0
	for _, e := range entries {
		f, size, title := "F1", 10.0, e.title+" "+strings.Repeat(". ", 30)
		if e.chapter {
			f, size, title = "F2", 12, e.title
			y -= 8
		}
		page := strings.TrimSpace(strings.Repeat(" ", 0) + itoa(e.page))
		toc = append(toc,
			hline{f: f, size: size, x: 72, y: y, text: e.num},
			hline{f: f, size: size, x: 100, y: y, text: title},
			hline{f: f, size: size, x: 540 - 0.556*size*float64(len(page)), y: y, text: page})
		y -= 1.5 * size
	}
	c := column{x: 72, y: 720}
	c.add("F2", 16, nil, "1 Brewing at Home")
	for range 4 {
		c.add("F1", 10, nil, bodyLines...)
		c.gap(6)
	}
	return headPDF([][]hline{toc, c.lines})
}

func itoa(n int) string {
	s := ""
	for {
		s = string(rune('0'+n%10)) + s
		n /= 10
		if n == 0 {
			return s
		}
	}
}

// TestContentsEntriesReadWhole: each contents entry reads as one line
// ("1.2 Keeping It Clean . . . 4"), not as a table of numbers beside the
// titles, and a chapter entry set large and bold without a leader is no
// heading; the chapter's own heading on the next page still is.
func TestContentsEntriesReadWhole(t *testing.T) {
	hs, blocks := headingsOf(t, contentsPage())
	var texts []string
	for _, b := range blocks {
		if b.Page != 1 {
			continue
		}
		if b.Kind == parsed.BlockTableRow {
			t.Errorf("contents entry read as a table row: %q", b.Text)
		}
		texts = append(texts, b.Text)
	}
	want := []string{"1 Brewing at Home 1", "1.2 Keeping It Clean . . .", "2.2 Malting Barley at Home . .", "3 Yeast 23"}
	for _, w := range want {
		found := false
		for _, x := range texts {
			if strings.HasPrefix(x, w) {
				found = true
			}
		}
		if !found {
			t.Errorf("no block starts %q; page 1 reads:\n%s", w, strings.Join(texts, "\n"))
		}
	}
	for _, x := range texts {
		if strings.HasPrefix(x, "1.2 ") && !strings.HasSuffix(x, " 4") {
			t.Errorf("entry %q lost its page number", x)
		}
	}
	for h := range hs {
		if h != "Contents" && h != "1 Brewing at Home" {
			t.Errorf("%q is a heading", h)
		}
	}
	if _, ok := hs["1 Brewing at Home"]; !ok {
		t.Errorf("the chapter's own heading is lost: %v", hs)
	}
}

// TestContentsEntryKeepsItsColumn: an entry is its title and page number;
// text in the column to its left on the same baseline (an index's
// continued lines, set a gutter away) is not drawn into it.
func TestContentsEntryKeepsItsColumn(t *testing.T) {
	left := []string{"Acidity of water and", "its measurement", "Barley, malting of", "and kilning", "Boiling the wort", "with hops added", "Bottles and caps"}
	right := []string{"Mashing", "Oats", "Priming", "Racking", "Sanitising", "Water", "Yeast"}
	var ls []hline
	y := 700.0
	for i := range left {
		rp := itoa(3 + 4*i)
		ls = append(ls,
			hline{f: "F1", size: 10, x: 72, y: y, text: left[i]},
			hline{f: "F1", size: 10, x: 320, y: y, text: right[i] + " " + strings.Repeat(". ", 12)},
			hline{f: "F1", size: 10, x: 540 - 5.56*float64(len(rp)), y: y, text: rp})
		y -= 14
	}
	_, blocks := headingsOf(t, headPDF([][]hline{ls}))
	joined := 0
	for _, b := range blocks {
		for _, r := range right {
			if strings.HasPrefix(b.Text, r+" . .") {
				joined++
			}
			for _, l := range left {
				if strings.Contains(b.Text, l+" "+r) {
					t.Errorf("two columns joined: %q", b.Text)
				}
			}
		}
	}
	if joined != len(right) {
		var all []string
		for _, b := range blocks {
			all = append(all, b.Text)
		}
		t.Errorf("%d of %d entries read whole:\n%s", joined, len(right), strings.Join(all, "\n"))
	}
}

// TestContentsEntry: the leaders that end an entry on its page number,
// and lines that only look alike.
func TestContentsEntry(t *testing.T) {
	cases := []struct {
		text string
		want bool
	}{
		{"Water and Grain........27", true},
		{"Preface . . . . xi", true},
		{"Malting Barley at Home . . 8", true},
		{"Every Site over Three Weeks ..90", true},
		{"Storage · · · 12", true},
		{"Malting Barley at Home 8", false},
		{"The mill was sold in 1892.", false},
		{"See p. 8", false},
	}
	for _, c := range cases {
		if got := contentsEntry(c.text); got != c.want {
			t.Errorf("contentsEntry(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// TestLeadingNumberContents: a contents page that puts each page number
// before its title, in columns, without leaders, reads column by column,
// an entry and the title lines under it one paragraph; a table of dated
// rows ("9 Friday") and paragraphs opening with a year stay as they were.
func TestLeadingNumberContents(t *testing.T) {
	type entry struct {
		page  string
		title []string
	}
	cols := [][]entry{
		{{"2", []string{"The Mill at a Glance"}}, {"4", []string{"Letter from the", "Board of Millers"}}, {"8", []string{"Grain We Bought"}},
			{"14", []string{"Water Rights and", "the Valley"}}, {"18", []string{"Our Storage Barns"}}, {"24", []string{"Ten Years of Harvests"}}},
		{{"30", []string{"Brewing with Our", "Own Barley"}}, {"36", []string{"The Kestrel Orchards"}}, {"42", []string{"Keeping the Wheel Turning"}},
			{"48", []string{"Prices at the Gate"}}, {"56", []string{"People of the Mill"}}, {"60", []string{"Accounts in Brief"}}},
	}
	var ls []hline
	ls = append(ls, hline{f: "F2", size: 16, x: 72, y: 740, text: "Contents"})
	for c, col := range cols {
		x := 72 + 250*float64(c)
		y := 700.0
		for _, e := range col {
			ls = append(ls, hline{f: "F1", size: 10, x: x, y: y, text: e.page}, hline{f: "F1", size: 10, x: x + 22, y: y, text: e.title[0]})
			for _, more := range e.title[1:] {
				y -= 12
				ls = append(ls, hline{f: "F1", size: 10, x: x + 22, y: y, text: more})
			}
			y -= 20
		}
	}
	// Dated rows of a log, and paragraphs opening with a year.
	y := 400.0
	for i, day := range []string{"Friday", "Tuesday", "Wednesday", "Sunday", "Thursday", "Saturday"} {
		ls = append(ls, hline{f: "F1", size: 10, x: 72, y: y, text: itoa(3 + 4*i)}, hline{f: "F1", size: 10, x: 94, y: y, text: day},
			hline{f: "F1", size: 10, x: 200, y: y, text: "8 30"}, hline{f: "F1", size: 10, x: 260, y: y, text: "Slight shock."})
		y -= 14
	}
	y -= 10
	for i, year := range []string{"1996", "1998", "2004", "2011", "2015"} {
		_ = i
		ls = append(ls, hline{f: "F1", size: 10, x: 72, y: y, text: year + " Grain Storage Plan, as amended, filed with the county register of the valley, is"},
			hline{f: "F1", size: 10, x: 72, y: y - 12, text: "hereby incorporated by reference."})
		y -= 28
	}
	_, blocks := headingsOf(t, headPDF([][]hline{ls}))
	var texts []string
	for _, b := range blocks {
		texts = append(texts, strings.Join(strings.Fields(b.Text), " "))
	}
	all := strings.Join(texts, "\n")
	for _, want := range []string{"4 Letter from the Board of Millers", "14 Water Rights and the Valley", "30 Brewing with Our Own Barley"} {
		found := false
		for _, x := range texts {
			if x == want {
				found = true
			}
		}
		if !found {
			t.Errorf("no paragraph %q; the page reads:\n%s", want, all)
		}
	}
	if strings.Index(all, "24 Ten Years") > strings.Index(all, "30 Brewing") {
		t.Errorf("columns read across, not one after the other:\n%s", all)
	}
	for _, b := range blocks {
		if strings.Contains(b.Text, "Wednesday") && b.Kind != parsed.BlockTableRow {
			t.Errorf("a log row left its table: %q (%v)", b.Text, b.Kind)
		}
		if strings.HasPrefix(b.Text, "hereby") {
			t.Errorf("a paragraph opening with a year was cut after its first line: %q", b.Text)
		}
	}
}
