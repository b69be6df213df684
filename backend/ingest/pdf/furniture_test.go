package pdf

import (
	"fmt"
	"reflect"
	"testing"

	"cairn/backend/ingest/parsed"
)

// TestPlainFurniture: on pages read without geometry, a running header is
// taken out wherever the fallback engine put it (here after a footnote),
// its page counter becomes the label, and the first page keeps its title
// even though the running header repeats it.
func TestPlainFurniture(t *testing.T) {
	var pages []pageOut
	for i := 1; i <= 4; i++ {
		topic := []string{"", "liability", "circumvention", "exemptions", "vessel hulls"}[i]
		text := fmt.Sprintf("The Digital Millennium Copyright Act of 1998\nCopyright Office Summary December 1998 Page %d\nThe text on %s goes on here.", i, topic)
		if i == 1 {
			text = "Pub. L. No. 105-304, 112 Stat. 2860 (Oct. 28, 1998). 1\nCopyright Office Summary December 1998 Page 1\nTHE DIGITAL MILLENNIUM COPYRIGHT ACT OF 1998\nThe text on liability goes on here."
		}
		pages = append(pages, pageOut{paras: parasFromPlain(text)})
	}
	markFurniture(pages)
	for i, p := range pages {
		var kept []string
		for _, q := range p.paras {
			if !q.furniture {
				kept = append(kept, q.text)
			}
		}
		want := []string{fmt.Sprintf("The text on %s goes on here.", []string{"", "liability", "circumvention", "exemptions", "vessel hulls"}[i+1])}
		if i == 0 {
			want = []string{"Pub. L. No. 105-304, 112 Stat. 2860 (Oct. 28, 1998). 1\nTHE DIGITAL MILLENNIUM COPYRIGHT ACT OF 1998\nThe text on liability goes on here."}
		}
		if !reflect.DeepEqual(kept, want) || p.info.Label != fmt.Sprint(i+1) {
			t.Errorf("page %d: kept %q, label %q; furniture %q", i+1, kept, p.info.Label, p.info.Furniture)
		}
	}
}

// TestRunningPages: a header or footer runs at one distance from the page
// edge on pages near one another; the same words opening or closing pages
// scattered through a document, or at varying heights, do not run.
func TestRunningPages(t *testing.T) {
	marks := func(pages []int, edges ...float64) []edgeMark {
		var out []edgeMark
		for i, p := range pages {
			e := 20.0
			if len(edges) > 0 {
				e = edges[i%len(edges)]
			}
			out = append(out, edgeMark{page: p, edge: e, pageSize: 792})
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		marks []edgeMark
		need  int
		want  []int
	}{
		{"every page", marks([]int{0, 1, 2, 3}), 3, []int{0, 1, 2, 3}},
		{"every other page of a spread", marks([]int{1, 3, 5, 7}), 3, []int{1, 3, 5, 7}},
		{"a chapter's pages and one far page", marks([]int{4, 5, 6, 40}), 3, []int{4, 5, 6, 40}},
		{"scattered pages", marks([]int{23, 52, 64, 69}), 3, nil},
		{"near pages at varying heights", marks([]int{3, 4, 5, 6}, 20, 140, 260, 380), 3, nil},
		{"heights within the tolerance", marks([]int{3, 4, 5}, 20, 22, 21), 3, []int{3, 4, 5}},
		{"both pages of a two-page document", marks([]int{0, 1}), 2, []int{0, 1}},
		{"too few pages", marks([]int{0, 1}), 3, nil},
	} {
		run := runningPages(tc.marks, tc.need)
		var got []int
		for _, m := range tc.marks {
			if run[m.page] {
				got = append(got, m.page)
			}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: running on %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestNoteOpeningScatteredPagesIsText: a manual's "Hint" box that happens
// to open a few scattered pages stays in the text, while the running
// header at the same place on every page is furniture.
func TestNoteOpeningScatteredPagesIsText(t *testing.T) {
	var pages []pageOut
	at := func(text string, top float64) para {
		return para{text: text, size: 10, lines: 1, runes: len(text), upright: true, box: [4]float64{72, top - 12, 540, top}, hasBox: true}
	}
	for i := 0; i < 30; i++ {
		p := pageOut{info: parsed.PageInfo{Number: i + 1}, box: [4]float64{0, 0, 612, 792}, hasBox: true}
		p.paras = append(p.paras, at("User Guide", 780))
		if i == 5 || i == 14 || i == 22 {
			p.paras = append(p.paras, at("Hint", 740))
		}
		p.paras = append(p.paras, at(fmt.Sprintf("Body text of page %d, which goes on.", i+1), 400))
		pages = append(pages, p)
	}
	markFurniture(pages)
	for i, p := range pages {
		for _, q := range p.paras {
			if want := q.text == "User Guide" && i > 0; q.furniture != want {
				t.Errorf("page %d: %q furniture %v, want %v", i+1, q.text, q.furniture, want)
			}
		}
	}
}

// TestRepeatUnderPageTitleIsText: statement pages repeat the company line
// and "(in millions)" under each page's own title; under the running
// header at the page's top edge they are the page's text, while the
// header and the footer's page number are furniture.
func TestRepeatUnderPageTitleIsText(t *testing.T) {
	var pages []pageOut
	at := func(text string, top float64) para {
		return para{text: text, size: 10, lines: 1, runes: len(text), upright: true, box: [4]float64{150, top - 12, 460, top}, hasBox: true}
	}
	titles := []string{"Statement of Income", "Statement of Cash Flows", "Balance Sheet", "Statement of Equity"}
	for i, title := range titles {
		p := pageOut{info: parsed.PageInfo{Number: i + 1}, box: [4]float64{0, 0, 612, 792}, hasBox: true}
		p.paras = append(p.paras, at("Table of Contents", 780), at(title, 760), at("Varnholt Holdings and Subsidiaries", 744), at("(in millions)", 730),
			at(fmt.Sprintf("Net revenue %d", 100+i), 400), at(fmt.Sprint(60+i), 30))
		pages = append(pages, p)
	}
	markFurniture(pages)
	for i, p := range pages {
		for _, q := range p.paras {
			want := q.text == "Table of Contents" && i > 0 || q.text == fmt.Sprint(60+i)
			if q.furniture != want {
				t.Errorf("page %d: %q furniture %v, want %v", i+1, q.text, q.furniture, want)
			}
		}
	}
}

// TestCaptionsAtPageTopsAreText: successive tables set at the tops of
// their pages, each under its numbered caption ("TABLE I", "TABLE II", …),
// repeat "table #" with numbers masked, but a caption is no running
// header; the running header above them still is.
func TestCaptionsAtPageTopsAreText(t *testing.T) {
	var pages []pageOut
	at := func(text string, top float64) para {
		return para{text: text, size: 10, lines: 1, runes: len(text), upright: true, box: [4]float64{150, top - 12, 460, top}, hasBox: true}
	}
	roman := []string{"I", "II", "III", "IV"}
	titles := []string{"Sites surveyed", "Species counted", "Nests found", "Weather by month"}
	for i := range roman {
		p := pageOut{info: parsed.PageInfo{Number: i + 1}, box: [4]float64{0, 0, 612, 792}, hasBox: true}
		p.paras = append(p.paras, at("Journal of Made-up Studies, Vol. 3", 780), at("TABLE "+roman[i], 760), at(titles[i], 744),
			at(fmt.Sprintf("Trial %d recruited %d people.", i+1, 40+i), 400))
		pages = append(pages, p)
	}
	markFurniture(pages)
	for i, p := range pages {
		for _, q := range p.paras {
			want := q.text == "Journal of Made-up Studies, Vol. 3" && i > 0
			if q.furniture != want {
				t.Errorf("page %d: %q furniture %v, want %v", i+1, q.text, q.furniture, want)
			}
		}
	}
}

func TestSequenceRuns(t *testing.T) {
	for _, tc := range []struct {
		name        string
		pages, offs []int
		want        []bool
	}{
		{"a run", []int{0, 1, 2, 3}, []int{1, 1, 1, 1}, []bool{true, true, true, true}},
		{"every other page", []int{0, 2, 4}, []int{5, 5, 5}, []bool{true, true, true}},
		{"too short", []int{0, 1}, []int{1, 1}, []bool{false, false}},
		{"a gap of three pages breaks it", []int{0, 1, 4, 5}, []int{1, 1, 1, 1}, []bool{false, false, false, false}},
		{"a restart is a run of its own", []int{0, 1, 2, 3, 4, 5, 6}, []int{1, 1, 1, 1, -3, -3, -3}, []bool{true, true, true, true, true, true, true}},
		{"a stray number", []int{0, 1, 2, 3}, []int{1, 1, 7, 1}, []bool{true, true, false, true}},
	} {
		if got := sequenceRuns(tc.pages, tc.offs, 3); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestPageNumbersInsideTheFrame: small pages set on large paper print
// their numbers inside the text frame, below the furniture bands ("2"
// over the text, "(1)" under the first page of the text); a number alone
// opening or closing a page is the page's number when it runs in the
// page order, and a page whose first line happens to be a number keeps it.
func TestPageNumbersInsideTheFrame(t *testing.T) {
	at := func(text string, top float64) para {
		return para{text: text, size: 10, lines: 1, runes: len(text), upright: true, box: [4]float64{150, top - 12, 460, top}, hasBox: true}
	}
	var pages []pageOut
	for i := range 6 {
		p := pageOut{info: parsed.PageInfo{Number: i + 1}, box: [4]float64{0, 0, 612, 792}, hasBox: true}
		switch {
		case i == 0:
			p.paras = append(p.paras, at("7", 640), at("Steps of the method, in the order taken.", 620))
		case i == 1:
			p.paras = append(p.paras, at("THE HEARING", 640), at("The committee met at noon.", 620), at("(1)", 140))
		default:
			p.paras = append(p.paras, at(fmt.Sprint(i), 660), at(fmt.Sprintf("Testimony, part %d.", i), 640))
		}
		pages = append(pages, p)
	}
	markFurniture(pages)
	wantLabels := []string{"", "1", "2", "3", "4", "5"}
	for i, p := range pages {
		var kept []string
		for _, q := range p.paras {
			if !q.furniture {
				kept = append(kept, q.text)
			}
		}
		if p.info.Label != wantLabels[i] || i == 0 && len(kept) != 2 || i > 0 && len(kept) != len(p.paras)-1 {
			t.Errorf("page %d: label %q, want %q; kept %q", i+1, p.info.Label, wantLabels[i], kept)
		}
	}
}
