package identity

import (
	"reflect"
	"testing"

	"cairn/backend/kb"
)

// cover makes cover lines: the first is set large (a heading), the rest
// as body lines.
func cover(lines ...string) []Line {
	out := make([]Line, len(lines))
	for i, l := range lines {
		out[i] = Line{Text: l, Weight: 1, Order: i}
	}
	return out
}

// TestAssignLibrary: a library of filings whose covers share their
// boilerplate ("NATIONAL REGISTRY OF FILINGS", "FORM 7-R") gets titles
// from each cover's organisation, kind and period, all distinct.
func TestAssignLibrary(t *testing.T) {
	mk := func(id int64, file, org, period string) Input {
		c := cover("NATIONAL REGISTRY OF FILINGS", "Capital City", "FORM 7-R", "For the fiscal year ended "+period, org, "(Exact name of registrant)")
		c[0].Weight = 2.5
		text := ""
		for _, l := range c {
			text += l.Text + "\n"
		}
		body := text + org + " makes lanterns. " + org + " sells them.\n"
		return Input{ID: id, FileName: file, MetaTitle: "0000123-23-000001", Cover: c, Text: text, Body: body}
	}
	in := []Input{
		mk(1, "a.pdf", "LANTERNWORKS, INC.", "December 31, 2018"),
		mk(2, "b.pdf", "LANTERNWORKS, INC.", "December 31, 2022"),
		mk(3, "c.pdf", "Orrin Mills Corporation", "May 26, 2019"),
		mk(4, "d.pdf", "Velden Group", "January 2, 2021"),
	}
	got := Assign(in)
	want := []string{
		"Lanternworks, Inc. — Form 7-R FY2018",
		"Lanternworks, Inc. — Form 7-R FY2022",
		"Orrin Mills Corporation — Form 7-R FY ended May 26, 2019",
		"Velden Group — Form 7-R FY2020",
	}
	var titles []string
	for _, g := range got {
		titles = append(titles, g.Title)
	}
	if !reflect.DeepEqual(titles, want) {
		t.Fatalf("titles\n got %q\nwant %q", titles, want)
	}
	if got[0].Organisation != "Lanternworks, Inc." || got[0].DocType != "Form 7-R" || got[0].Period != "FY2018" {
		t.Errorf("identity of the first: %+v", got[0])
	}
}

// TestAssignWithoutOrganisation: documents with no registered name take an
// informative metadata title, else the cover's most prominent line that is
// not the library's boilerplate, else the file name; equal titles are told
// apart.
func TestAssignWithoutOrganisation(t *testing.T) {
	shared := "Quarterly Field Notes"
	in := []Input{
		{ID: 1, FileName: "notes_a.pdf", MetaTitle: "Untitled", Cover: cover(shared, "Moss growth on north walls")},
		{ID: 2, FileName: "notes_b.pdf", Cover: cover(shared, "Lichen and the salt air")},
		{ID: 3, FileName: "notes_c.pdf", Cover: cover(shared, "Ferns of the river gorge")},
		{ID: 4, FileName: "survey.pdf", MetaTitle: "A Survey of Upland Bogs"},
		{ID: 5, FileName: "scan_0042.pdf"},
		{ID: 6, FileName: "x.pdf", Cover: cover("Lichen and the salt air")},
	}
	got := Assign(in)
	want := []string{
		"Moss growth on north walls",
		"Lichen and the salt air (notes b)",
		"Ferns of the river gorge",
		"A Survey of Upland Bogs",
		"scan 0042",
		"Lichen and the salt air (x)",
	}
	for i, g := range got {
		if g.Title != want[i] {
			t.Errorf("doc %d: title %q, want %q (source %s)", in[i].ID, g.Title, want[i], g.Source)
		}
	}
}

func TestPeriod(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"For the fiscal year ended December 31, 2018", "FY2018"},
		{"FOR THE FISCAL YEAR ENDED May 26, 2019", "FY ended May 26, 2019"},
		{"For the quarterly period ended March 31, 2021", "Q1 2021"},
		{"For the quarterly period ended July 29, 2023", "quarter ended Jul 29, 2023"},
		{"Date of report (Date of earliest event reported): August 19, 2022", "Aug 19, 2022"},
		{"Reports Second-Quarter 2023 Results", "Q2 2023"},
		{"Fourth Quarter Fiscal 2022 Results", "Q4 fiscal 2022"},
		{"a report on moss", ""},
	} {
		if got := period(c.text); got != c.want {
			t.Errorf("period(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestYears(t *testing.T) {
	if got := Years("quarter ended Jul 29, 2023", "SHOP_2024Q2_10Q.pdf"); !reflect.DeepEqual(got, []int{2023, 2024}) {
		t.Errorf("Years = %v", got)
	}
}

func TestIsLegalForm(t *testing.T) {
	for w, want := range map[string]bool{"inc": true, "co": true, "llc": true, "lp": true, "nv": true, "gmbh": true, "the": true, "lantern": false, "mills": false} {
		if IsLegalForm(w) != want {
			t.Errorf("IsLegalForm(%q) = %v", w, !want)
		}
	}
}

// TestCoverTitleLines: a cover title broken after a word it cannot end on
// takes the lines it runs over, though they are set smaller; the reader's
// first heading gives way to a cover title it is a part of, and a file
// name of no words (a generated one) to the cover's title, while a file
// name a person gave stays ahead of a weak cover line.
func TestCoverTitleLines(t *testing.T) {
	big := func(ls ...Line) []Line {
		for i := range ls {
			ls[i].Order = i
		}
		return ls
	}
	in := []Input{
		{ID: 1, FileName: "a1b2c3d4e5f60718293a4b5c6d7e8f90.pdf", ReaderTitle: "NORTH WALLS",
			Cover: big(Line{Text: "THE SPREAD OF LICHEN ON", Weight: 2}, Line{Text: "NORTH WALLS", Weight: 4}, Line{Text: "A field report", Weight: 1})},
		{ID: 2, FileName: "bogs-160203114512-app1234_95.pdf", ReaderTitle: "bogs-160203114512-app1234 95",
			Cover: big(Line{Text: "Keeping Track of Upland Bogs:", Weight: 3}, Line{Text: "A Season of Counts", Weight: 1.5})},
		{ID: 3, FileName: "River_survey_handbook_2020.pdf", ReaderTitle: "River survey handbook 2020",
			Cover: big(Line{Text: "Table of Contents", Weight: 3})},
	}
	want := []string{
		"THE SPREAD OF LICHEN ON NORTH WALLS",
		"Keeping Track of Upland Bogs: A Season of Counts",
		"River survey handbook 2020",
	}
	for i, g := range Assign(in) {
		if g.Title != want[i] {
			t.Errorf("doc %d: title %q, want %q (source %s)", in[i].ID, g.Title, want[i], g.Source)
		}
	}
}

// TestOrganisationAfterYear: a copyright notice's year is no part of the
// organisation's name.
func TestOrganisationAfterYear(t *testing.T) {
	d := Input{Cover: cover("Help Guide", "Copyright 2020 Fernwick Corporation"), Body: "Copyright 2020 Fernwick Corporation. Fernwick Corporation makes headsets."}
	if got := organisation(d, orgCandidates(d)); got != "Fernwick Corporation" {
		t.Errorf("organisation %q, want Fernwick Corporation", got)
	}
}

// TestCoverLinesAgainstBothPages: a cover holding only its title and
// subtitle sets them against the lines of both cover pages, so the
// title outweighs the contents page's heading on the page after it.
func TestCoverLinesAgainstBothPages(t *testing.T) {
	page := func(blocks ...[3]any) kb.Page {
		var p kb.Page
		y := 800.0
		for _, b := range blocks {
			text, kind, h := b[0].(string), b[1].(string), b[2].(float64)
			start := len(p.Text)
			p.Text += text + "\n"
			box := [4]float64{50, y - h, 400, y}
			y -= h + 10
			pb := kb.PageBlock{Kind: kind, Start: start, End: start + len(text), Box: &box}
			if kind == "heading" {
				pb.Level = 1
			}
			p.Blocks = append(p.Blocks, pb)
		}
		return p
	}
	cover := page([3]any{"OTTER GUIDE", "heading", 40.0}, [3]any{"FIELD EDITION", "heading", 30.0})
	contents := page([3]any{"Contents", "heading", 24.0}, [3]any{"Tracks 4", "paragraph", 12.0}, [3]any{"Dens 9", "paragraph", 12.0},
		[3]any{"Diet 14", "paragraph", 12.0}, [3]any{"Rivers 20", "paragraph", 12.0})
	if got := coverTitle(CoverLines([]kb.Page{cover, contents}), func(string) bool { return false }); got != "OTTER GUIDE" {
		t.Errorf("cover title %q, want OTTER GUIDE", got)
	}
}
