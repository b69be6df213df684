package pdf

import (
	"bytes"
	"errors"
	"fmt"

	lp "github.com/ledongthuc/pdf"

	"cairn/backend/ingest/parsed"
)

// errNestedObjectStreams: the first reader would recurse without end
// (xrefscan.go); PDFium reads the file instead.
var errNestedObjectStreams = errors.New("an object stream is listed inside an object stream (the file refers to itself without end)")

// openLP opens data with the first reader. A missing or wrong password is
// returned as a typed error; other failures as plain errors.
func openLP(data []byte, password string) (r *lp.Reader, err error) {
	if nestedObjectStreams(data) {
		return nil, errNestedObjectStreams
	}
	tried := false
	perr := guard(func() {
		r, err = lp.NewReaderEncrypted(bytes.NewReader(data), int64(len(data)), func() string {
			if tried {
				return ""
			}
			tried = true
			return password
		})
	})
	if perr != nil {
		return nil, perr
	}
	if errors.Is(err, lp.ErrInvalidPassword) {
		return nil, passwordError(password)
	}
	return r, err
}

// brokenDecryption reports files the first reader opens but decrypts
// wrongly: 40-bit RC4 (/V 1 or /R 2) uses a 5+5-byte object key that the
// library does not truncate.
func brokenDecryption(r *lp.Reader) bool {
	var broken bool
	guard(func() {
		enc := key(r.Trailer(), "Encrypt")
		if enc.Kind() != lp.Dict {
			return
		}
		v, _ := num(key(enc, "V"))
		rev, _ := num(key(enc, "R"))
		broken = v <= 1 || rev <= 2
	})
	return broken
}

// walk reads every page with the walker, then re-reads the pages the judge
// rejects with PDFium. It returns nil if the file has no readable page tree.
func (rd *reading) walk(r *lp.Reader) []pageOut {
	tree := enumeratePages(r, rd.maxPages)
	if len(tree.pages) == 0 {
		return nil
	}
	rd.title = infoTitle(r)
	if !plausibleTitle(rd.title) {
		rd.title = ""
	}
	if tree.truncated {
		total := "more"
		if tree.declared > len(tree.pages) {
			total = fmt.Sprint(tree.declared)
		}
		rd.warn("Only the first %d pages were read (the PDF declares %s); the rest were skipped.", len(tree.pages), total)
	}
	if tree.damaged > 0 {
		rd.warn("%d damaged entries in the page tree were skipped.", tree.damaged)
	}
	ds := newDocState()
	pages := make([]pageOut, len(tree.pages))
	results := make([]pageResult, len(tree.pages))
	verdicts := make([]verdict, len(tree.pages))
	var failing []int
	for i, p := range tree.pages {
		if ds.exhausted() {
			rd.warn("Reading stopped after %d of %d pages: the drawing instructions exceed the work limit.", i, len(tree.pages))
			pages, results, verdicts = pages[:i], results[:i], verdicts[:i]
			break
		}
		results[i] = walkPage(ds, p)
		pages[i] = pageOut{info: parsed.PageInfo{Number: i + 1, Engine: EngineWalker}, paras: results[i].paras, box: p.visibleBox(), hasBox: p.hasBox}
		pages[i].media = p.box
		if verdicts[i] = judge(&results[i], results[i].text()); verdicts[i] != "" {
			failing = append(failing, i)
		}
	}
	if len(failing) > 0 {
		if d, err := rd.openIum(); err == nil && d.pages != len(pages) && 2*len(failing) > len(pages) {
			// Most pages failed and PDFium sees a different page tree
			// (damaged file): trust PDFium for the whole document.
			if all, err := rd.readAllWithIum(nil); err == nil {
				rd.warn("The page tree is damaged; %d pages were read by the fallback reader (the first reader found %d).", len(all), len(pages))
				return all
			}
		}
		rd.retryWithIum(pages, results, verdicts, failing)
	}
	pageIndex := make(map[uint64]int, len(pages))
	for i := range pages {
		if id := objectID(tree.pages[i].v); id != 0 {
			pageIndex[id] = i
		}
	}
	if !outlineSwitchedOff() {
		markOutlineHeadings(pages, outlineEntries(r, pageIndex))
	}
	if labels := pageLabels(r, len(pages)); labels != nil {
		for i := range pages {
			pages[i].label = labels[i]
		}
	}
	for i := range pages {
		if measure(joinParas(pages[i].paras)).runes < noTextRunes && results[i].imageCover >= noTextCover {
			pages[i].info.NoText = true
		}
	}
	return pages
}
