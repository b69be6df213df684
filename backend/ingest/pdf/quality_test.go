package pdf_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"cairn/backend/ingest/pdf/pdfeval"
)

// knownFurniture matches the furniture the layout issue found in passages
// and mind maps: page counters, the IRS printer's slug, the DMCA summary's
// running header. None of it may reach the text.
var knownFurniture = regexp.MustCompile(`(?i)^page \d+ of \d+|userid:|leadpct|^the digital millennium copyright act of 1998 copyright office summary|^copyright office summary december 1998 page \d+`)

// minMeanF1 is the quality bar of the issue: mean token F1 against
// pdftotext over the text PDFs of shared/docs/real.
const minMeanF1 = 0.95

// TestQualityVsPdftotext scores every text PDF of shared/docs/real against
// pdftotext (poppler-utils; CJK references also need poppler-data) and
// requires the mean F1 to reach minMeanF1.
func TestQualityVsPdftotext(t *testing.T) {
	if !pdfeval.HavePdftotext() {
		t.Skip("pdftotext not installed (apt-get install poppler-utils poppler-data)")
	}
	files, _ := filepath.Glob(filepath.Join(docsDir(t), "real", "*.pdf"))
	var rs []pdfeval.Result
	for _, f := range files {
		r := pdfeval.Evaluate(f)
		switch {
		case r.Err != nil:
			t.Logf("%-40s %v", r.File, r.Err)
		case r.NoText:
			t.Logf("%-40s no text layer (excluded)", r.File)
		default:
			t.Logf("%-40s F1 %.3f  page F1 %.3f  8-gram F1 %.3f  %s", r.File, r.F1, r.PageF1, r.F8, r.Engines)
			for _, l := range r.Lines {
				if knownFurniture.MatchString(strings.TrimSpace(l)) {
					t.Errorf("%s: page furniture left in a line of the text: %q", r.File, l)
				}
			}
			for _, l := range r.Leaks {
				if knownFurniture.MatchString(l) {
					t.Errorf("%s: page furniture left in the text: %q", r.File, l)
				} else {
					t.Logf("%s: repeated near the page edge in pdftotext, kept: %q", r.File, l)
				}
			}
		}
		rs = append(rs, r)
	}
	s := pdfeval.Summarise(rs)
	t.Logf("mean F1 %.3f over %d files (English %.3f over %d, CJK %.3f over %d), per-page %.3f",
		s.All, s.NAll, s.English, s.NEnglish, s.CJK, s.NCJK, s.PageAll)
	if s.NAll < 20 {
		t.Logf("only %d files could be scored", s.NAll)
	}
	if s.All < minMeanF1 {
		t.Errorf("mean F1 %.3f < %.2f", s.All, minMeanF1)
	}
}
