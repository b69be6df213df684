package identity

import (
	"reflect"
	"testing"
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
