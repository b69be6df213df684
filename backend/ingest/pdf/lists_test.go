package pdf

import (
	"fmt"
	"strings"
	"testing"

	"cairn/backend/ingest/parsed"
)

// textOfItems reads a one-page PDF showing items in 8 pt Helvetica and
// returns its blocks' texts and its table rows.
func textOfItems(t *testing.T, items []placedText) (text string, rows []string) {
	t.Helper()
	doc, err := Read(pdfWithObjects([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
		placedStream(8, items...),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}), parsed.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, b := range doc.Blocks {
		all = append(all, b.Text)
		if b.Kind == parsed.BlockTableRow {
			rows = append(rows, b.Text)
		}
	}
	return strings.Join(all, "\n"), rows
}

// A list whose bullets stand apart from their text (a tab stop after each
// bullet, as filings set them) reads as items, "• text" on each line, not
// as a table of bullets beside a column of text. (\267 is the bullet in
// Helvetica's standard encoding.)
func TestBulletsSetApartAreListItems(t *testing.T) {
	items := []placedText{{57, 720, "Our greenhouse keeps its plants well when it has:"}}
	for i, s := range []string{"warm nights;", "a steady supply of rain water from the roof tanks and the well;", "shade at noon;", "fresh soil in spring."} {
		y := float64(700 - 12*i)
		items = append(items, placedText{72, y, "\\267"}, placedText{90, y, s})
	}
	text, rows := textOfItems(t, items)
	if len(rows) > 0 {
		t.Errorf("a list read as a table: %q", rows)
	}
	for _, want := range []string{"• warm nights;", "• shade at noon;", "• fresh soil in spring."} {
		if !strings.Contains(text, want) {
			t.Errorf("%q not read; text:\n%s", want, text)
		}
	}
	// Dots in a matrix of columns stay cells: a bullet before a bullet.
	var matrix []placedText
	for i, s := range []string{"Model", "Light", "Heavy", "Spare"} {
		y := float64(700 - 12*i)
		matrix = append(matrix, placedText{72, y, s})
		if i == 0 {
			matrix = append(matrix, placedText{200, y, "Indoor"}, placedText{260, y, "Outdoor"})
			continue
		}
		matrix = append(matrix, placedText{210, y, "\\267"}, placedText{272, y, "\\267"})
	}
	if _, rows := textOfItems(t, matrix); len(rows) != 4 || !strings.Contains(rows[1], "Light | • | •") {
		t.Errorf("a matrix of dots: %q", rows)
	}
}

// Paragraphs set across a table's columns end the table: their lines are
// not bridged as the table's long label rows, so a paragraph's short last
// line is no table row and the next table is a table of its own.
func TestParagraphsEndATable(t *testing.T) {
	var items []placedText
	table := func(top float64, labels ...string) {
		items = append(items, placedText{57, top, "(Units)"}, figureAt(400, top, "2025"), figureAt(470, top, "2024"))
		for i, l := range labels {
			y := top - float64(12*(i+1))
			items = append(items, placedText{57, y, l}, figureAt(400, y, "1,20"+string(rune('0'+i))), figureAt(470, y, "98"+string(rune('0'+i))))
		}
	}
	table(720, "Widgets", "Gadgets", "Total")
	for i, l := range []string{
		"The mix of our sales moved towards gadgets during the year, as the new line of gadgets was sold in every one of",
		"our stores from the spring onwards and the older widgets were sold in fewer of them than the year before; the",
		"change in each category, with the share of sales it made in each of the two years, is set out in the table just",
		"below.",
	} {
		items = append(items, placedText{57, float64(672 - 11*i), l})
	}
	table(627, "Stores", "Online", "Total")
	_, rows := textOfItems(t, items)
	for _, r := range rows {
		if strings.Contains(r, "below.") {
			t.Errorf("a paragraph's last line read as a table row: %q", rows)
		}
	}
	if len(rows) != 8 {
		t.Errorf("want two tables of four rows, got %d rows: %q", len(rows), rows)
	}
}

// A table that repeats a phrase of four words from row to row (a filing's
// cover lists the exchange on every line) is a table, not two or three
// columns of running text.
func TestRepeatedPhrasesAreNoProse(t *testing.T) {
	items := []placedText{{72, 720, "Title of each class"}, {250, 720, "Symbol"}, {360, 720, "Exchange"}}
	for i, s := range []string{"0.625% Notes due 2031", "1.125% Notes due 2033", "1.875% Notes due 2036", "2.375% Notes due 2040"} {
		y := float64(708 - 12*i)
		items = append(items, placedText{72, y, s}, placedText{250, y, "XYZ" + s[len(s)-2:]}, placedText{360, y, "North Atlantic Stock Exchange"})
	}
	_, rows := textOfItems(t, items)
	if len(rows) != 5 || !strings.Contains(strings.Join(rows, "\n"), "1.875% Notes due 2036 | XYZ36 | North Atlantic Stock Exchange") {
		t.Errorf("rows: %q", rows)
	}
}

// Entries ruled off one above another, with a tree line down their left
// (a manual's contents), are no table when no row fills two cells: they
// read as lines of text, not as a table of one column.
func TestRuledEntriesOfOneCellAreNoTable(t *testing.T) {
	entries := []string{"Charging the headset", "Checking the charge left", "Turning on the headset", "Turning off the headset"}
	var items []placedText
	body := ""
	for i, e := range entries {
		y := float64(700 - 20*i)
		items = append(items, placedText{100, y, e})
		body += fmt.Sprintf("72 %g 400 0.5 re f\n", y-6) // a rule under each entry
	}
	body += "72 714 400 0.5 re f\n" // the rule over the first
	body += "88 636 0.5 78 re f\n"  // the tree line down the entries' left
	text := placedStream(8, items...)
	inner := text[strings.Index(text, "stream\n")+len("stream\n") : strings.LastIndex(text, "endstream")]
	inner += body
	rows, _ := tableRowsOfStream(t, fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(inner), inner))
	if len(rows) > 0 {
		t.Errorf("ruled entries read as a table: %q", rows)
	}
	// The same rules over two filled columns stay a table.
	items = items[:0]
	for i, e := range entries {
		y := float64(700 - 20*i)
		items = append(items, placedText{100, y, e}, placedText{300, y, fmt.Sprint(12 + i)})
	}
	text = placedStream(8, items...)
	inner = text[strings.Index(text, "stream\n")+len("stream\n"):strings.LastIndex(text, "endstream")] + body
	if rows, _ := tableRowsOfStream(t, fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(inner), inner)); len(rows) != 4 {
		t.Errorf("a ruled table of two columns: %q", rows)
	}
}
