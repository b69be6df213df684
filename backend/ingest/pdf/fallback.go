package pdf

import (
	"errors"
	"strings"

	"cairn/backend/ingest/parsed"
)

// retryWithIum re-reads the failing pages with PDFium and keeps, page by
// page, whichever text is better.
func (rd *reading) retryWithIum(pages []pageOut, results []pageResult, verdicts []verdict, failing []int) {
	d, err := rd.openIum()
	if err != nil || d.pages != len(pages) {
		reason := "its pages do not match"
		if err != nil {
			reason = err.Error()
		}
		rd.warn("%d pages may be misread: the fallback reader could not check them (%s).", len(failing), reason)
		for _, i := range failing {
			if results[i].err != nil {
				rd.warn("Page %d: %v.", i+1, results[i].err)
			}
		}
		return
	}
	for _, i := range failing {
		t, err := d.text(i)
		if err != nil {
			rd.warn("Page %d could not be re-read: %v.", i+1, err)
			continue
		}
		if preferFallback(verdicts[i], measure(results[i].text()), measure(t)) {
			pages[i].paras = parasFromPlain(t)
			pages[i].info.Engine = EnginePDFium
		}
	}
	if rd.title == "" {
		rd.title = cleanTitle(d.title())
	}
}

// readAllWithIum reads the whole file with PDFium, after the first reader
// failed with lpErr.
func (rd *reading) readAllWithIum(lpErr error) ([]pageOut, error) {
	d, err := rd.openIum()
	if err != nil {
		var pe *parsed.Error
		if errors.As(err, &pe) {
			return nil, err
		}
		if looksTruncated(rd.data) {
			return nil, parsed.Errorf(parsed.CodeTruncated, "This PDF is incomplete: the file ends early (an interrupted download or copy?). No pages could be read.")
		}
		return nil, parsed.Errorf(parsed.CodeCorrupt, "This PDF is damaged and could not be read (%s).", shortErr(lpErr, err))
	}
	n := d.pages
	if n > rd.maxPages {
		rd.warn("Only the first %d pages were read (the PDF has %d); the rest were skipped.", rd.maxPages, n)
		n = rd.maxPages
	}
	if n == 0 {
		return nil, parsed.Errorf(parsed.CodeCorrupt, "This PDF has no readable pages.")
	}
	if t := cleanTitle(d.title()); plausibleTitle(t) {
		rd.title = t
	}
	pages := make([]pageOut, n)
	for i := 0; i < n; i++ {
		pages[i].info = parsed.PageInfo{Number: i + 1, Engine: EnginePDFium}
		t, err := d.text(i)
		if err != nil {
			rd.warn("Page %d could not be read: %v.", i+1, err)
		}
		pages[i].paras = parasFromPlain(t)
		if measure(t).runes < noTextRunes && d.imageCover(i) >= noTextCover {
			pages[i].info.NoText = true
		}
	}
	return pages, nil
}

// shortErr summarises the two engines' errors for a message.
func shortErr(a, b error) string {
	var parts []string
	for _, e := range []error{a, b} {
		if e != nil {
			s := e.Error()
			if len(s) > 120 {
				s = s[:120] + "…"
			}
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "; ")
}
