package bench

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"cairn/backend/ingest"
	"cairn/backend/ingest/parsed"
	"cairn/backend/ingest/pdf"
	"cairn/backend/ingest/pdf/pdfeval"
)

// inputFile is one document of the import corpus, held in memory so disk
// reads are not timed.
type inputFile struct {
	Path  string
	Name  string
	Data  []byte
	Pages int // as Cairn reads it
}

// docCorpus splits the real documents into text PDFs, scanned PDFs (the
// pdftotext reference has fewer than 20 tokens: no text layer) and DOCX.
type docCorpus struct {
	Text, Scans, Docx []inputFile
}

func loadDocs(dir string, havePdftotext bool) (*docCorpus, error) {
	var names []string
	for _, pat := range []string{"*.pdf", "*.docx"} {
		m, err := filepath.Glob(filepath.Join(dir, pat))
		if err != nil {
			return nil, err
		}
		names = append(names, m...)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no PDF or DOCX files in %s", dir)
	}
	sort.Strings(names)
	c := &docCorpus{}
	for _, p := range names {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		f := inputFile{Path: p, Name: filepath.Base(p), Data: data}
		if strings.HasSuffix(p, ".docx") {
			c.Docx = append(c.Docx, f)
			continue
		}
		if scanned(p, havePdftotext) {
			c.Scans = append(c.Scans, f)
		} else {
			c.Text = append(c.Text, f)
		}
	}
	return c, nil
}

// scanned reports whether a PDF has no text layer: pdftotext finds fewer
// than 20 tokens in it (without pdftotext: the file name says "scanned").
func scanned(path string, havePdftotext bool) bool {
	if !havePdftotext {
		return strings.Contains(filepath.Base(path), "scanned")
	}
	pages, err := pdfeval.ReferencePages(path)
	if err != nil {
		return false // encrypted or damaged for pdftotext: Cairn's reader decides
	}
	return len(pdfeval.Tokens(strings.Join(pages, "\n"))) < 20
}

func totalBytes(fs []inputFile) int64 {
	var n int64
	for _, f := range fs {
		n += int64(len(f.Data))
	}
	return n
}

func totalPages(fs []inputFile) int {
	n := 0
	for _, f := range fs {
		n += f.Pages
	}
	return n
}

// withEnv sets an environment variable for the duration of f.
func withEnv(k, v string, f func() error) error {
	old, had := os.LookupEnv(k)
	os.Setenv(k, v)
	defer func() {
		if had {
			os.Setenv(k, old)
		} else {
			os.Unsetenv(k)
		}
	}()
	return f()
}

// readAll reads every file in this process and returns the time taken.
func readAll(fs []inputFile, count bool) (time.Duration, error) {
	t0 := time.Now()
	for i := range fs {
		doc, err := ingest.Read(fs[i].Data, fs[i].Name, parsed.Options{})
		if err != nil {
			return 0, fmt.Errorf("%s: %w", fs[i].Name, err)
		}
		if count {
			fs[i].Pages = len(doc.Pages)
		}
	}
	return time.Since(t0), nil
}

// readAndOCRAll reads every file and OCRs its pages without a text layer,
// as import and its "ocr" index stage do (reading flags them, OCR reads them
// page by page), and counts the pages.
func readAndOCRAll(fs []inputFile) (time.Duration, error) {
	t0 := time.Now()
	for i := range fs {
		doc, err := ingest.Read(fs[i].Data, fs[i].Name, parsed.Options{})
		if err != nil {
			return 0, fmt.Errorf("%s: %w", fs[i].Name, err)
		}
		fs[i].Pages = len(doc.Pages)
		o, err := pdf.OpenOCR(fs[i].Data, "")
		if err != nil {
			return 0, fmt.Errorf("%s: %w", fs[i].Name, err)
		}
		for _, pg := range doc.Pages {
			if pg.NoText {
				if _, err := o.Page(pg.Number); err != nil {
					o.Close()
					return 0, fmt.Errorf("%s page %d: %w", fs[i].Name, pg.Number, err)
				}
			}
		}
		o.Close()
	}
	return time.Since(t0), nil
}

// readIsolatedAll reads every file in a reader child process, as import does.
func readIsolatedAll(ctx context.Context, fs []inputFile) (time.Duration, error) {
	t0 := time.Now()
	for _, f := range fs {
		if _, err := ingest.ReadIsolated(ctx, f.Path, f.Name, parsed.Options{}, ingest.DefaultLimits()); err != nil {
			return 0, fmt.Errorf("%s: %w", f.Name, err)
		}
	}
	return time.Since(t0), nil
}

// pdftotextAll runs `pdftotext -enc UTF-8 FILE -` on every file.
func pdftotextAll(ctx context.Context, fs []inputFile) (time.Duration, error) {
	t0 := time.Now()
	for _, f := range fs {
		cmd := exec.CommandContext(ctx, "pdftotext", "-enc", "UTF-8", f.Path, "-")
		cmd.Stdout = io.Discard
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Run(); err != nil {
			return 0, fmt.Errorf("pdftotext %s: %v: %s", f.Name, err, strings.TrimSpace(errb.String()))
		}
	}
	return time.Since(t0), nil
}

func pdftotextCmd(dir string) string {
	return fmt.Sprintf("for f in %s/*.pdf; do pdftotext -enc UTF-8 \"$f\" - >/dev/null; done (scans excluded)", dir)
}

// measureImport: PDF text extraction against pdftotext, scans apart, DOCX
// against a raw unzip + XML walk.
func measureImport(ctx context.Context, env *Env) ([]Figure, error) {
	have := pdfeval.HavePdftotext()
	if !have {
		env.Notef("pdftotext not found (apt-get install poppler-utils): PDF figures have no reference and scans are picked by file name")
	}
	docs, err := loadDocs(env.DocsDir, have)
	if err != nil {
		return nil, err
	}
	const group = "1. Import"
	var figs []Figure
	// Text PDFs, OCR off (pdftotext does none either). The first pass counts
	// pages and warms caches (PDFium's compiled module).
	err = withEnv("CAIRN_OCR", "0", func() error {
		if _, err := readAll(docs.Text, true); err != nil {
			return err
		}
		mb := float64(totalBytes(docs.Text)) / 1e6
		pages := float64(totalPages(docs.Text))
		var inPages, inMB, isoPages, refPages, refMB []float64
		for r := 0; r < env.Runs; r++ {
			d, err := readAll(docs.Text, false)
			if err != nil {
				return err
			}
			inPages, inMB = append(inPages, Rate(pages, d)), append(inMB, Rate(mb, d))
			d, err = readIsolatedAll(ctx, docs.Text)
			if err != nil {
				return err
			}
			isoPages = append(isoPages, Rate(pages, d))
			if have {
				d, err := pdftotextAll(ctx, docs.Text)
				if err != nil {
					return err
				}
				refPages, refMB = append(refPages, Rate(pages, d)), append(refMB, Rate(mb, d))
			}
		}
		what := fmt.Sprintf("%d text PDFs, %d pages, %.1f MB, OCR off", len(docs.Text), int(pages), mb)
		ref := func(runs []float64) *Reference {
			if !have {
				return nil
			}
			return &Reference{Name: "pdftotext (poppler), one process per file", Command: pdftotextCmd(relDir(env.Root, env.DocsDir)), Stat: Stat{Runs: runs}}
		}
		figs = append(figs,
			Figure{ID: "import.pdf.pages_per_s", Group: group, Name: "PDF text extraction, in process (" + what + ")", Unit: "pages/s",
				Stat: Stat{Runs: inPages}, Reference: ref(refPages), Target: "≥ 1/3 of pdftotext (ratio ≥ 0.33)"},
			Figure{ID: "import.pdf.mb_per_s", Group: group, Name: "PDF text extraction, in process (same files)", Unit: "MB/s",
				Stat: Stat{Runs: inMB}, Reference: ref(refMB)},
			Figure{ID: "import.pdf.isolated_pages_per_s", Group: group, Name: "PDF text extraction, one reader process per file as import does (same files)", Unit: "pages/s",
				Stat: Stat{Runs: isoPages}, Reference: ref(refPages)},
		)
		return nil
	})
	if err != nil {
		return figs, err
	}
	// Scans: OCR when tesseract is installed; slow, so one run, full mode only.
	if len(docs.Scans) > 0 && !env.Quick {
		if _, err := exec.LookPath("tesseract"); err != nil {
			env.Notef("tesseract not installed: scanned PDFs were not timed")
		} else {
			d, err := readAndOCRAll(docs.Scans)
			if err != nil {
				return figs, err
			}
			names := make([]string, len(docs.Scans))
			for i, f := range docs.Scans {
				names[i] = f.Name
			}
			figs = append(figs, Figure{ID: "import.scan.pages_per_s", Group: group,
				Name: fmt.Sprintf("scanned PDFs with OCR (tesseract), one run: %s, %d pages", strings.Join(names, ", "), totalPages(docs.Scans)),
				Unit: "pages/s", Stat: Stat{Runs: []float64{Rate(float64(totalPages(docs.Scans)), d)}}})
		}
	}
	// DOCX against the raw walk; each run repeats the set until ≥ 0.5 s.
	if len(docs.Docx) > 0 {
		d0, err := readAll(docs.Docx, true)
		if err != nil {
			return figs, err
		}
		reps := max(1, int(500*time.Millisecond/max(d0, time.Millisecond)))
		mb := float64(totalBytes(docs.Docx)) / 1e6 * float64(reps)
		var got, ref []float64
		for r := 0; r < env.Runs; r++ {
			t0 := time.Now()
			for i := 0; i < reps; i++ {
				if _, err := readAll(docs.Docx, false); err != nil {
					return figs, err
				}
			}
			got = append(got, Rate(mb, time.Since(t0)))
			t0 = time.Now()
			for i := 0; i < reps; i++ {
				for _, f := range docs.Docx {
					if _, err := RawDocxText(f.Data); err != nil {
						return figs, fmt.Errorf("raw walk %s: %w", f.Name, err)
					}
				}
			}
			ref = append(ref, Rate(mb, time.Since(t0)))
		}
		figs = append(figs, Figure{ID: "import.docx.mb_per_s", Group: group,
			Name: fmt.Sprintf("DOCX reading, in process (%d files, %.1f MB, ~%d pages, set read %d× per run)", len(docs.Docx), float64(totalBytes(docs.Docx))/1e6, totalPages(docs.Docx), reps),
			Unit: "MB/s", Stat: Stat{Runs: got},
			Reference: &Reference{Name: "raw unzip + XML walk of the main part (bench.RawDocxText)", Command: "(in the same run; see backend/bench/importbench.go)", Stat: Stat{Runs: ref}}})
	}
	return figs, nil
}

// RawDocxText is the DOCX reference: find the main part through
// _rels/.rels, unzip it and collect the character data of w:t elements, a
// paragraph break at each w:p end. No styles, numbering, tables, headers,
// notes or caps: the floor any reader pays.
func RawDocxText(data []byte) (string, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return "", err
	}
	main := "word/document.xml"
	for _, f := range zr.File {
		if f.Name != "_rels/.rels" {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return "", err
		}
		var rels struct {
			Rel []struct {
				Type   string `xml:"Type,attr"`
				Target string `xml:"Target,attr"`
			} `xml:"Relationship"`
		}
		err = xml.NewDecoder(rc).Decode(&rels)
		rc.Close()
		if err != nil {
			return "", err
		}
		for _, r := range rels.Rel {
			if strings.HasSuffix(r.Type, "/officeDocument") {
				main = strings.TrimPrefix(r.Target, "/")
			}
		}
	}
	for _, f := range zr.File {
		if f.Name != main {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return "", err
		}
		defer rc.Close()
		var b strings.Builder
		dec := xml.NewDecoder(rc)
		inText := false
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				return b.String(), nil
			}
			if err != nil {
				return "", err
			}
			switch t := tok.(type) {
			case xml.StartElement:
				inText = t.Name.Local == "t"
			case xml.EndElement:
				inText = false
				if t.Name.Local == "p" {
					b.WriteByte('\n')
				}
			case xml.CharData:
				if inText {
					b.Write(t)
				}
			}
		}
	}
	return "", fmt.Errorf("no main part %s", main)
}

// relDir shows dir relative to the repository root when it is near it.
func relDir(root, dir string) string {
	if r, err := filepath.Rel(root, dir); err == nil && !strings.HasPrefix(r, "../../") {
		return r
	}
	return dir
}
