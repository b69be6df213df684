package project

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"cairn/backend/chunk"
	"cairn/backend/ingest"
	"cairn/backend/ingest/parsed"
	"cairn/backend/ingest/pdf"
	"cairn/backend/kb"
	"cairn/backend/search"
	"cairn/backend/store"
)

// MaxFileBytes is the largest file Cairn imports.
const MaxFileBytes = 512 << 20

// ImportOptions tune an import.
type ImportOptions struct {
	Password string // for encrypted PDFs

	names map[string]string // file name to record for a path (Repair: the name behind the hash prefix)
}

// folderExts are the file types picked up when a folder is imported; a file
// named explicitly is always tried (its type is sniffed from its bytes).
var folderExts = map[string]bool{".pdf": true, ".docx": true, ".txt": true, ".md": true, ".markdown": true, ".doc": true}

// Import reads, chunks and indexes files and folders (folders recursively).
func (p *Project) Import(ctx context.Context, paths []string, progress func(Progress)) ([]ImportResult, error) {
	return p.ImportWith(ctx, paths, ImportOptions{}, progress)
}

// ImportWith is Import with options. Each file succeeds or fails on its
// own: a broken file gets a failed result with a message and the rest go
// on. The returned error is only for the import as a whole (cancelled,
// database unusable).
func (p *Project) ImportWith(ctx context.Context, paths []string, opt ImportOptions, progress func(Progress)) ([]ImportResult, error) {
	if progress == nil {
		progress = func(Progress) {}
	}
	files, skipped := expand(paths)
	unlock, err := p.lockWriter(ctx, lockImport, func(holder string) {
		progress(Progress{Stage: "waiting", File: waitingFor(lockImport, holder)})
	})
	if err != nil {
		return nil, err
	}
	defer unlock()
	p.removeStaleIncoming()
	var results []ImportResult
	for _, r := range skipped {
		results = append(results, r)
		progress(Progress{File: r.File, Stage: "done", Result: &r})
	}
	// The next file is read (in the reader process) while this one is
	// chunked, embedded and saved: the two take about as long, and a
	// laptop has the cores for both.
	readCtx, stopReading := context.WithCancel(ctx)
	var next *readAhead
	defer func() {
		stopReading()
		if next != nil {
			<-next.done // no reader outlives the import
		}
	}()
	for i, f := range files {
		if err := ctx.Err(); err != nil {
			return results, err
		}
		progress(Progress{File: f, Index: i + 1, Total: len(files), Stage: "reading"})
		stage := func(stage string) {
			progress(Progress{File: f, Index: i + 1, Total: len(files), Stage: stage})
		}
		var fi fileImport
		var err error
		if next != nil {
			<-next.done
			fi, err = next.fi, next.err
			next = nil
		} else {
			fi, err = p.prepareFile(ctx, f, opt, "")
			if err == nil && !fi.settled {
				p.readFile(ctx, &fi, opt)
			}
		}
		if err != nil {
			return results, err
		}
		if i+1 < len(files) {
			busy := ""
			if !fi.settled && !fi.later {
				busy = fi.hash
			}
			if next, err = p.startReading(ctx, readCtx, files[i+1], opt, busy); err != nil {
				return results, err
			}
		}
		var r ImportResult
		switch {
		case fi.later:
			r, err = p.importFile(ctx, f, opt, stage)
		case fi.settled:
			r = fi.res
		default:
			r, err = p.finishFile(ctx, &fi, stage)
		}
		if err != nil {
			return results, err
		}
		results = append(results, r)
		progress(Progress{File: f, Index: i + 1, Total: len(files), Stage: "done", Result: &r})
	}
	// Then documents an interrupted import left pending (resume.go); one
	// of the files above with the same content was read again already.
	resumed, err := p.resumePending(ctx, opt, progress)
	results = append(results, resumed...)
	if err != nil {
		return results, err
	}
	if len(files) > 0 || len(resumed) > 0 {
		// Titles are decided for the library as a whole (identity.go).
		if err := p.Retitle(ctx); err != nil {
			return results, err
		}
	}
	return results, nil
}

// readAhead is a file being read on another goroutine; done is closed
// when fi (or err) is ready.
type readAhead struct {
	fi   fileImport
	err  error
	done chan struct{}
}

// startReading prepares a file (here: the database is written by one
// goroutine) and reads it on another, with readCtx (cancelled when the
// import stops early). busy is the content hash of the file being indexed.
func (p *Project) startReading(ctx, readCtx context.Context, path string, opt ImportOptions, busy string) (*readAhead, error) {
	ra := &readAhead{done: make(chan struct{})}
	ra.fi, ra.err = p.prepareFile(ctx, path, opt, busy)
	if ra.err != nil {
		close(ra.done)
		return nil, ra.err
	}
	if ra.fi.settled || ra.fi.later {
		close(ra.done)
		return ra, nil
	}
	go func() {
		defer close(ra.done)
		p.readFile(readCtx, &ra.fi, opt)
	}()
	return ra, nil
}

// removeStaleIncoming deletes the temporary copies an import killed midway
// left in files/ (only called with the import lock held, so no import is
// writing one).
func (p *Project) removeStaleIncoming() {
	stale, _ := filepath.Glob(filepath.Join(p.dir, FilesDir, ".incoming-*"))
	for _, f := range stale {
		os.Remove(f)
	}
}

// expand turns paths into the files to import. Folders are walked; symbolic
// links inside a folder are not followed, and hidden entries are skipped.
// Paths that do not exist come back as failed results.
func expand(paths []string) (files []string, failed []ImportResult) {
	seen := map[string]bool{}
	add := func(f string) {
		if !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
	}
	for _, path := range paths {
		info, err := os.Stat(path)
		if err != nil {
			failed = append(failed, ImportResult{File: path, Status: kb.StatusFailed, ErrorCode: "not_found", Error: "cannot open: " + errText(err)})
			continue
		}
		if !info.IsDir() {
			add(path)
			continue
		}
		var found []string
		filepath.WalkDir(path, func(f string, d fs.DirEntry, err error) error {
			if err != nil {
				failed = append(failed, ImportResult{File: f, Status: kb.StatusFailed, ErrorCode: "not_found", Error: "cannot open: " + errText(err)})
				return nil
			}
			if f != path && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.Type()&fs.ModeSymlink != 0 || !d.Type().IsRegular() {
				return nil
			}
			if folderExts[strings.ToLower(filepath.Ext(f))] {
				found = append(found, f)
			}
			return nil
		})
		sort.Strings(found)
		for _, f := range found {
			add(f)
		}
	}
	return files, failed
}

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// importFile imports one file. Per-file problems become a failed result;
// only project-level problems (database errors) are returned as errors.
func (p *Project) importFile(ctx context.Context, path string, opt ImportOptions, stage func(string)) (ImportResult, error) {
	fi, err := p.prepareFile(ctx, path, opt, "")
	if err != nil || fi.settled {
		return fi.res, err
	}
	p.readFile(ctx, &fi, opt)
	return p.finishFile(ctx, &fi, stage)
}

// fileImport is one file on its way into the project: copied in and given
// its row (prepareFile), read by the reader process (readFile, the slow
// step, which ImportWith runs for the next file while this one is
// indexed), then chunked, embedded and saved (finishFile).
type fileImport struct {
	res     ImportResult // the result; final once settled
	settled bool         // decided before reading (a duplicate, a file problem)
	// later is set when the file has the content of the file being
	// indexed: it is imported after that one (as a duplicate).
	later  bool
	hash   string
	name   string
	stored string // the copy in files/, relative to the project
	doc    *parsed.Document
	rerr   error // the reader's failure
}

// prepareFile copies a file into the project and adds (or finds) its
// document row. busy is the hash of a file whose import has not finished:
// a file with that content is left for later.
func (p *Project) prepareFile(ctx context.Context, path string, opt ImportOptions, busy string) (fileImport, error) {
	fi := fileImport{res: ImportResult{File: path}}
	fail := func(code parsed.Code, msg string) (fileImport, error) {
		fi.res.Status, fi.res.ErrorCode, fi.res.Error = kb.StatusFailed, string(code), msg
		fi.settled = true
		return fi, nil
	}
	in, perr := p.copyIn(path)
	if perr != nil {
		var fp *fileProblem
		if errors.As(perr, &fp) {
			return fail(fp.code, fp.msg)
		}
		return fi, perr
	}
	defer os.Remove(in.tmp) // a no-op once the copy is renamed into place
	fi.hash = in.hash
	if busy != "" && in.hash == busy {
		fi.later = true
		return fi, nil
	}
	name := filepath.Base(path)
	if opt.names != nil {
		if n := opt.names[path]; n != "" {
			name = n
		}
	}

	existing, found, err := p.store.DocumentByHash(ctx, in.hash)
	if err != nil {
		return fi, err
	}
	var docID int64
	if found {
		switch existing.Status {
		case kb.StatusOK, kb.StatusNeedsOCR:
			fi.res.DocID, fi.res.Status, fi.res.Pages, fi.res.Chunks = existing.ID, kb.StatusDuplicate, existing.Pages, existing.Chunks
			fi.res.Error = fmt.Sprintf("already in the project as document %d (%s)", existing.ID, existing.Title)
			fi.settled = true
			return fi, nil
		}
		docID = existing.ID // failed, pending or locked before: read it again
		name = existing.FileName
	}
	stored, err := p.placeCopy(in.tmp, in.hash, name)
	if err != nil {
		return fi, fmt.Errorf("copy %s into the project: %w", name, err)
	}
	if docID == 0 {
		docID, err = p.store.AddDocument(ctx, kb.Document{Title: titleFromName(name), FileName: name, StoredPath: stored, Kind: kindFromName(name), Hash: in.hash, Bytes: in.size})
		if err != nil {
			return fi, err
		}
	}
	fi.res.DocID, fi.name, fi.stored = docID, name, stored
	return fi, nil
}

// readFile reads a prepared file in the reader process. It touches
// neither the database nor fi's result, so it may run beside another
// file's finishFile.
func (p *Project) readFile(ctx context.Context, fi *fileImport, opt ImportOptions) {
	fi.doc, fi.rerr = ingest.ReadIsolated(ctx, filepath.Join(p.dir, fi.stored), fi.name, parsed.Options{Password: opt.Password}, p.limits)
}

// finishFile records a read file: its failure, or its pages and passages
// chunked, embedded and saved.
func (p *Project) finishFile(ctx context.Context, fi *fileImport, stage func(string)) (ImportResult, error) {
	res, docID, doc := fi.res, fi.res.DocID, fi.doc
	if rerr := fi.rerr; rerr != nil {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		code := parsed.CodeOf(rerr)
		if code == parsed.CodeTooLarge {
			// Refused for its size (or a decompression bomb): keep no
			// row and no copy; a 300 MB text must not leave 300 MB in
			// files/ for a document that will never be read.
			if _, err := p.RemoveDocuments(ctx, docID); err != nil {
				return res, err
			}
			res.DocID, res.Status, res.ErrorCode = 0, kb.StatusFailed, string(code)
			res.Error = rerr.Error() + " (nothing was kept in the project)"
			return res, nil
		}
		st := kb.StatusFailed
		if code == parsed.CodePasswordRequired || code == parsed.CodeWrongPassword {
			st = kb.StatusNeedsPassword
		}
		if err := p.store.SetStatus(ctx, docID, st, string(code), rerr.Error(), nil); err != nil {
			return res, err
		}
		res.Status, res.ErrorCode, res.Error = st, string(code), rerr.Error()
		return res, nil
	}
	stage("indexing")
	defer p.holdEmbedder()() // the chunk embedder cannot switch between embedding and saving
	content, err := p.index(ctx, fi.name, doc)
	if err != nil {
		return res, err
	}
	if len(content.Chunks) == 0 && content.Status != kb.StatusNeedsOCR && !awaitingOCR(content.Pages) {
		msg := "no text found in this file"
		if err := p.store.SetStatus(ctx, docID, kb.StatusFailed, string(parsed.CodeNoText), msg, doc.Warnings); err != nil {
			return res, err
		}
		res.Status, res.ErrorCode, res.Error, res.Pages = kb.StatusFailed, string(parsed.CodeNoText), msg, len(doc.Pages)
		return res, nil
	}
	if err := p.store.SaveContent(ctx, docID, content); err != nil {
		return res, err
	}
	res.Status, res.Pages, res.Chunks, res.Warnings = content.Status, len(content.Pages), len(content.Chunks), content.Warnings
	if content.Status == kb.StatusNeedsOCR {
		res.Error = ocrMessage(content.Pages, ocrHere())
	}
	if ocrHere() == ocrAwaiting {
		for _, pg := range content.Pages {
			if pg.OCRStatus == kb.OCRPending {
				res.OCRPages++
			}
		}
	}
	return res, nil
}

// index chunks, embeds and prepares the lexical rows of a parsed document.
func (p *Project) index(ctx context.Context, name string, doc *parsed.Document) (store.Content, error) {
	pages, chunks := chunk.Split(doc, chunk.Options{})
	title := cleanTitle(doc.Title)
	if !plausibleTitle(title) {
		title = titleFromName(name)
	}
	title = printableTitle(title)
	rows, texts := search.ChunkRows(title, chunks)
	vecs, err := p.embedChunks(ctx, texts)
	if err != nil {
		return store.Content{}, err
	}
	for i := range rows {
		rows[i].Vector = vecs[i]
	}
	st := kb.StatusOK
	noText := 0
	for i := range pages {
		if pages[i].NoText {
			// Read by the "ocr" index stage (ocr.go), also when OCR is
			// not available yet: installing tesseract later reads them.
			pages[i].OCRStatus = kb.OCRPending
			noText++
		}
	}
	warnings := doc.Warnings
	if noText > 0 {
		// A document with readable pages is ok (with a warning naming the
		// image-only ones), and so is one whose scans the OCR stage will
		// read; needs_ocr is for documents with no usable text and no OCR.
		ocr := ocrHere()
		if (noText == len(pages) || len(chunks) == 0) && ocr != ocrAwaiting {
			st = kb.StatusNeedsOCR
		}
		warnings = append(warnings, ocrMessage(pages, ocr))
	}
	meta := printableTitle(cleanTitle(doc.MetaTitle))
	if !plausibleTitle(meta) {
		meta = ""
	}
	return store.Content{Title: title, MetaTitle: meta, Kind: string(doc.Kind), Status: st, Warnings: warnings, Pages: pages, Chunks: rows}, nil
}

// ocrState is what OCR can do, or did, for a document's scanned pages.
type ocrState int

const (
	ocrMissing  ocrState = iota // tesseract is not installed
	ocrOff                      // CAIRN_OCR=0
	ocrAwaiting                 // the "ocr" index stage will read them
	ocrRan                      // the stage ran on them (some found nothing or failed)
)

// ocrHere is the state for pages awaiting OCR on this machine.
func ocrHere() ocrState {
	switch {
	case ingest.OCRAvailable():
		return ocrAwaiting
	case ingest.OCRSwitchedOff():
		return ocrOff
	}
	return ocrMissing
}

// ocrPhrase is in every OCR warning (isOCRWarning finds them by it).
const ocrPhrase = "no text layer (scanned images)"

// isOCRWarning reports whether a document warning is ocrMessage's.
func isOCRWarning(w string) bool { return strings.Contains(w, ocrPhrase) }

// ocrMessage explains a document's scanned pages after what OCR can do or
// did ("" when every page has text): awaiting the OCR stage, switched off,
// tesseract missing, or, once the stage ran, the pages where it found no
// reliable text or stopped.
func ocrMessage(pages []kb.Page, st ocrState) string {
	var scans, empty, failed []kb.Page
	for _, pg := range pages {
		if !pg.NoText {
			continue
		}
		scans = append(scans, pg)
		switch pg.OCRStatus {
		case kb.OCRFailed:
			failed = append(failed, pg)
		case kb.OCREmpty, "":
			empty = append(empty, pg)
		}
	}
	if len(scans) == 0 {
		return ""
	}
	head := fmt.Sprintf("%d of %d pages (%s) have %s", len(scans), len(pages), noTextPages(scans), ocrPhrase)
	switch st {
	case ocrAwaiting:
		return head + "; they are read with OCR (tesseract) page by page as an indexing stage, and become searchable as each page is read."
	case ocrOff:
		return head + "; OCR is switched off (CAIRN_OCR=0): unset it and run cairn index (or Build index in the app) to read them with tesseract."
	case ocrMissing:
		return head + ". To read them with OCR, " + pdf.OCRInstallHint + ", then run cairn index (or Build index in the app)."
	}
	var parts []string
	if len(empty) > 0 {
		parts = append(parts, fmt.Sprintf("OCR (tesseract) ran on %s but found no reliable text: they may be blank, a poor scan, or in a language whose tesseract pack is not installed (e.g. tesseract-ocr-chi-sim)", noTextPages(empty)))
	}
	if len(failed) > 0 {
		parts = append(parts, fmt.Sprintf("OCR stopped on %s (%s); cairn index --retry-failed (or Build index in the app) tries again", noTextPages(failed), failed[0].OCRNote))
	}
	return head + " after OCR: " + strings.Join(parts, "; ") + "."
}

// awaitingOCR reports whether any page awaits the OCR stage.
func awaitingOCR(pages []kb.Page) bool {
	for _, pg := range pages {
		if pg.OCRStatus == kb.OCRPending {
			return true
		}
	}
	return false
}

// noTextPages lists the image-only pages: "p. 3, 7, 12" (the first 20).
func noTextPages(pages []kb.Page) string {
	var ns []string
	for _, pg := range pages {
		if pg.NoText {
			if len(ns) == 20 {
				ns = append(ns, "…")
				break
			}
			ns = append(ns, fmt.Sprint(pg.Number))
		}
	}
	return "p. " + strings.Join(ns, ", ")
}

// placeCopy moves a copy made by copyIn to its place in files/ (one file
// per content hash) and returns its path relative to the project folder.
func (p *Project) placeCopy(tmp, hash, name string) (string, error) {
	rel := filepath.Join(FilesDir, hash[:12]+"-"+safeName(name))
	if err := os.Rename(tmp, filepath.Join(p.dir, rel)); err != nil {
		return "", err
	}
	return filepath.ToSlash(rel), nil
}

// safeName keeps a file name readable but portable: letters (any script),
// digits, dot, dash, underscore; at most 80 bytes.
func safeName(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '-' || r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	s := b.String()
	for len(s) > 80 {
		_, size := lastRune(s)
		s = s[:len(s)-size]
	}
	if s == "" || s == "." || s == ".." {
		s = "file"
	}
	return s
}

func lastRune(s string) (rune, int) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i]&0xC0 != 0x80 {
			return []rune(s[i:])[0], len(s) - i
		}
	}
	return 0, 1
}

func titleFromName(name string) string {
	t := strings.TrimSuffix(name, filepath.Ext(name))
	return printableTitle(strings.NewReplacer("_", " ").Replace(t))
}

// printableTitle keeps a title's printable text only: control characters
// (a file name may carry terminal escape sequences), bidirectional
// overrides and invalid bytes become spaces, runs of space collapse.
func printableTitle(t string) string {
	t = strings.Map(func(r rune) rune {
		switch {
		case r == utf8.RuneError, unicode.IsControl(r),
			r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
			return ' '
		}
		return r
	}, strings.ToValidUTF8(t, " "))
	return strings.Join(strings.Fields(t), " ")
}

func kindFromName(name string) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".pdf":
		return "pdf"
	case ".docx":
		return "docx"
	case ".md", ".markdown":
		return "md"
	}
	return "txt"
}

// plausibleTitle rejects metadata titles that are empty, garbled (an
// undecrypted or mis-encoded Info string) or placeholders.
// Print-production noise that PDF producers leave in title metadata:
// "Page 1 of 48 …" in front, "7:48 - 6-DEC-2007" or a bare time behind,
// "Microsoft Word - " in front.
var (
	titlePagePrefix = regexp.MustCompile(`(?i)^(page|p\.)\s*\d+(\s*(of|/)\s*\d+)?\s*[-–:]?\s+`)
	titleStampTail  = regexp.MustCompile(`\s+\d{1,2}:\d{2}(:\d{2})?(\s*[-–]?\s*\d{1,2}[-/ ][A-Za-z]{3}[-/ ]\d{2,4})?$`)
	titleAppPrefix  = regexp.MustCompile(`(?i)^microsoft (word|powerpoint|excel) - `)
)

// cleanTitle collapses white space and strips print-production noise.
func cleanTitle(t string) string {
	t = strings.Join(strings.Fields(t), " ")
	for _, re := range []*regexp.Regexp{titlePagePrefix, titleStampTail, titleAppPrefix} {
		if c := strings.TrimSpace(re.ReplaceAllString(t, "")); c != "" {
			t = c
		}
	}
	return t
}

func plausibleTitle(t string) bool {
	if t == "" || len(t) > 300 {
		return false
	}
	letters, other, longest, run := 0, 0, 0, 0
	for _, r := range t {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			letters++
			run++
			longest = max(longest, run)
		case r == ' ':
			run = 0
		case unicode.IsControl(r) || r == '\uFFFD':
			return false
		default:
			other++
			run = 0
		}
	}
	if letters < 3*other || (longest < 3 && utf8.RuneCountInString(t) > 3) {
		return false
	}
	switch strings.ToLower(t) {
	case "untitled", "untitled document", "microsoft word", "document", "title", "powerpoint presentation":
		return false
	}
	return true
}

// Retry reads documents again from their stored copies: for files that
// failed, were interrupted (pending) or need a password (opt.Password).
// Documents already indexed come back as duplicates, untouched.
func (p *Project) Retry(ctx context.Context, ids []int64, opt ImportOptions, progress func(Progress)) ([]ImportResult, error) {
	var paths []string
	for _, id := range ids {
		d, err := p.store.Document(ctx, id)
		if err != nil {
			return nil, err
		}
		f, err := p.storedFile(d.StoredPath)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", id, err)
		}
		paths = append(paths, f)
	}
	return p.ImportWith(ctx, paths, opt, progress)
}
