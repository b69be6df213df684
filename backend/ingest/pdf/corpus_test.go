package pdf_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cairn/backend/ingest/parsed"
	"cairn/backend/ingest/pdf"
	"cairn/backend/ingest/pdf/pdfeval"
	"cairn/backend/testshared"
)

// want is the expected outcome of reading one corpus file
// (shared/docs/PROVENANCE.md says why).
type want struct {
	code    parsed.Code // expected error code; "" = success
	pages   int         // expected page count (0 = don't check)
	words   []string    // must appear (case-insensitive) in the text
	noText  int         // pages that must be flagged NoText (reading never OCRs them; the import's ocr stage does)
	warning string      // a warning must contain this
	engine  string      // every page must come from this engine ("" = any)
}

var corpus = map[string]want{
	// bad/
	"bad/broken-xref-offsets.pdf":           {pages: 18, words: []string{"digital millennium copyright act", "vessel hull"}, engine: pdf.EngineWalker},
	"bad/deep-nesting-content.pdf":          {pages: 1, words: []string{"before"}},
	"bad/docx-named-as.pdf":                 {code: parsed.CodeUnsupported},
	"bad/empty.pdf":                         {code: parsed.CodeEmpty},
	"bad/encrypted-aes256-ownerpw-only.pdf": {pages: 2, words: []string{"dense passage retrieval"}},
	"bad/encrypted-aes256-userpw.pdf":       {code: parsed.CodePasswordRequired},
	"bad/encrypted-rc4-userpw.pdf":          {code: parsed.CodePasswordRequired},
	"bad/garbage-in-body.pdf":               {pages: 18, words: []string{"copyright", "wipo"}, warning: "Page"},
	"bad/huge-page-count-100k.pdf":          {pages: parsed.DefaultMaxPages, words: []string{"page"}, warning: "first 20000 pages"},
	"bad/junk-before-header.pdf":            {pages: 18, words: []string{"copyright", "vessel hull"}},
	"bad/page-count-lie.pdf":                {pages: 1, words: []string{"page"}},
	"bad/pdf-2.0-header.pdf":                {pages: 2, words: []string{"dense passage retrieval"}, engine: pdf.EngineWalker},
	"bad/random-bytes.pdf":                  {code: parsed.CodeUnsupported},
	"bad/text-only-in-images.pdf":           {pages: 2, noText: 2},
	"bad/trailing-garbage.pdf":              {pages: 18, words: []string{"copyright", "vessel hull"}},
	"bad/truncated.pdf":                     {code: parsed.CodeTruncated},
	// real/
	"real/en-book-r-intro-113p.pdf":             {pages: 113, words: []string{"an introduction to r", "data analysis and graphics"}, engine: pdf.EngineWalker},
	"real/en-guide-breast-cancer-76p.pdf":       {pages: 76, words: []string{"understanding breast cancer", "cancer council"}, engine: pdf.EngineWalker},
	"real/en-paper-2col-dpr-2p.pdf":             {pages: 2, words: []string{"dense passage retrieval", "open-domain question answering"}, engine: pdf.EngineWalker},
	"real/en-paper-2col-ieee-stereo.pdf":        {pages: 6, words: []string{"temporal stereo matching", "adaptive support weights"}},
	"real/en-paper-2col-naacl2006.pdf":          {pages: 8, words: []string{"preemptive information extraction", "unrestricted relation discovery"}},
	"real/en-paper-copy-protected-owner-pw.pdf": {pages: 2, words: []string{"layoutparser", "document image analysis"}},
	"real/en-paper-elsevier-hydrology.pdf":      {pages: 13, words: []string{"flow duration curves", "afforestation"}},
	"real/en-report-3col-federal-register.pdf":  {pages: 15, words: []string{"federal register", "proposed rules"}},
	"real/en-report-annual-reliance.pdf":        {pages: 3, words: []string{"reliance industries limited", "integrated annual report"}},
	"real/en-report-dmca-summary.pdf":           {pages: 18, words: []string{"copyright", "digital millennium copyright act"}},
	"real/en-report-tables-ca-warn.pdf":         {pages: 16, words: []string{"warn report", "effective"}},
	"real/en-report-tables-irs-i1040nr.pdf":     {pages: 50, words: []string{"instructions for form 1040nr", "nonresident alien"}},
	"real/en-scanned-jbig2-xerox.pdf":           {pages: 1, noText: 1},
	"real/en-slides-libreoffice.pdf":            {pages: 3, words: []string{"test table slide", "class1"}},
	"real/ja-slides-nlp2004.pdf":                {pages: 31, words: []string{"固有表現", "新聞記事"}},
	"real/ja-vertical-poem.pdf":                 {pages: 1, words: []string{"わたくし", "風景やみんなといっしょに"}},
	"real/ko-card-benefits-tables.pdf":          {pages: 1, words: []string{"빅포인트", "적립"}},
	"real/zh-book-kg-tutorial-50p.pdf":          {pages: 50, words: []string{"知识图谱", "自然语言处理"}},
	"real/zh-book-labor-law-qa-191p.pdf":        {pages: 191, words: []string{"劳动合同法", "用人单位"}, noText: 2},
	"real/zh-manual-car-4p.pdf":                 {pages: 4, words: []string{"使用说明", "解锁车辆"}},
	"real/zh-paper-2col-cjc-template.pdf":       {pages: 3, words: []string{"计算机学报", "chinese journal of computers"}},
	"real/zh-paper-amas-2011.pdf":               {pages: 2, words: []string{"应用数学学报", "半参数"}},
	"real/zh-report-tables-bond-prospectus.pdf": {pages: 1, words: []string{"募集说明书", "信用评级"}},
	"real/zh-scanned-book-8p.pdf":               {pages: 8, noText: 8},
}

// TestCorpus reads every PDF of shared/docs/bad and shared/docs/real and
// checks the outcome PROVENANCE.md asks for.
func TestCorpus(t *testing.T) {
	dir := docsDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.pdf"))
	if len(files) == 0 {
		testshared.Missing(t, "no PDFs in", dir)
	}
	for _, path := range files {
		name := filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			w, ok := corpus[name]
			if !ok {
				t.Fatalf("no expectation for %s: add it to the corpus table", name)
			}
			t0 := time.Now()
			doc, err := readFile(t, path, parsed.Options{})
			t.Logf("read in %v", time.Since(t0))
			checkOutcome(t, doc, err, w)
		})
	}
}

func checkOutcome(t *testing.T, doc *parsed.Document, err error, w want) {
	t.Helper()
	if w.code != "" {
		var pe *parsed.Error
		if !errors.As(err, &pe) {
			t.Fatalf("want *parsed.Error %s, got %v (doc %v)", w.code, err, doc != nil)
		}
		if pe.Code != w.code {
			t.Fatalf("want code %s, got %s (%s)", w.code, pe.Code, pe.Msg)
		}
		if pe.Msg == "" {
			t.Fatal("error without a message")
		}
		return
	}
	if err != nil {
		t.Fatalf("want success, got %v", err)
	}
	if doc.Kind != parsed.KindPDF {
		t.Errorf("kind %q", doc.Kind)
	}
	if w.pages > 0 && len(doc.Pages) != w.pages {
		t.Errorf("want %d pages, got %d", w.pages, len(doc.Pages))
	}
	for i, p := range doc.Pages {
		if p.Number != i+1 {
			t.Fatalf("page %d numbered %d", i+1, p.Number)
		}
		if p.Engine == "" {
			t.Errorf("page %d: no engine", p.Number)
		}
		if w.engine != "" && p.Engine != w.engine {
			t.Errorf("page %d: engine %s, want %s", p.Number, p.Engine, w.engine)
		}
	}
	for _, b := range doc.Blocks {
		if b.Page < 1 || b.Page > len(doc.Pages) {
			t.Fatalf("block on page %d of %d", b.Page, len(doc.Pages))
		}
		if strings.TrimSpace(b.Text) == "" {
			t.Fatalf("empty block on page %d", b.Page)
		}
		if strings.ContainsRune(b.Text, '\uFFFE') || strings.ContainsRune(b.Text, 0) {
			t.Fatalf("artefact characters in block on page %d: %q", b.Page, b.Text)
		}
		if b.Kind == parsed.BlockHeading && (b.Level < 1 || b.Level > 9) {
			t.Errorf("heading level %d", b.Level)
		}
	}
	// Words are looked for in what was read: the text, and the running
	// headers and footers kept beside it.
	read := pdfeval.PageTexts(doc)
	for _, p := range doc.Pages {
		read = append(read, p.Furniture...)
	}
	text := strings.ToLower(strings.Join(read, "\n"))
	flat := strings.Join(strings.Fields(text), " ")
	for _, word := range w.words {
		if !strings.Contains(flat, word) && !strings.Contains(strings.ReplaceAll(flat, " ", ""), strings.ReplaceAll(word, " ", "")) {
			t.Errorf("text lacks %q", word)
		}
	}
	noText := 0
	for _, p := range doc.Pages {
		if p.NoText {
			noText++
		}
	}
	if noText != w.noText {
		t.Errorf("want %d no-text pages, got %d", w.noText, noText)
	}
	if w.warning != "" && !strings.Contains(strings.Join(doc.Warnings, "\n"), w.warning) {
		t.Errorf("want a warning containing %q, got %q", w.warning, doc.Warnings)
	}
}

// TestPageCap checks that the page cap applies and is reported.
func TestPageCap(t *testing.T) {
	path := filepath.Join(docsDir(t), "bad", "huge-page-count-100k.pdf")
	t0 := time.Now()
	doc, err := readFile(t, path, parsed.Options{MaxPages: 500})
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Pages) != 500 {
		t.Fatalf("want 500 pages, got %d", len(doc.Pages))
	}
	if !strings.Contains(strings.Join(doc.Warnings, " "), "first 500 pages") {
		t.Errorf("no page-cap warning: %q", doc.Warnings)
	}
	// Reading all 100k pages would take many minutes; the bound is loose
	// so a busy machine does not fail it (speed is make bench's).
	if d := time.Since(t0); d > 2*time.Minute {
		t.Errorf("500 pages took %v", d)
	}
}

// TestTitle checks titles taken from the Info dictionary.
func TestTitle(t *testing.T) {
	dir := docsDir(t)
	for file, title := range map[string]string{
		"real/en-report-dmca-summary.pdf": "The Digital Millennium Copyright Act of 1998",
		"bad/pdf-2.0-header.pdf":          "Dense Passage Retrieval for Open-Domain Question Answering",
	} {
		doc, err := readFile(t, filepath.Join(dir, file), parsed.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if doc.Title != title {
			t.Errorf("%s: title %q, want %q", file, doc.Title, title)
		}
	}
}

// TestNotPDF checks the typed errors for input that is not a PDF.
func TestNotPDF(t *testing.T) {
	for name, data := range map[string][]byte{
		"empty":       nil,
		"zip":         []byte("PK\x03\x04rest of a zip"),
		"ole2":        {0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1},
		"text":        []byte("Just some text, no PDF here."),
		"header-only": []byte("%PDF-1.4\n"),
		"header-junk": []byte("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n"),
	} {
		doc, err := pdf.Read(data, parsed.Options{})
		var pe *parsed.Error
		if !errors.As(err, &pe) {
			t.Errorf("%s: want a typed error, got %v, %v", name, doc, err)
			continue
		}
		t.Logf("%s: %s: %s", name, pe.Code, pe.Msg)
	}
}

// TestOCR reads the image-only files with tesseract, when it is installed:
// Read flags their pages (it no longer OCRs them: the import's "ocr" index
// stage does, page by page) and OpenOCR reads each flagged page.
func TestOCR(t *testing.T) {
	dir := docsDir(t)
	t.Setenv("CAIRN_OCR", "1")
	if !pdf.OCRAvailable() {
		t.Skip("tesseract not installed")
	}
	cases := map[string][]string{
		"real/en-scanned-jbig2-xerox.pdf": nil,
		"bad/text-only-in-images.pdf":     {"copyright", "wipo"},
	}
	if os.Getenv("CAIRN_TEST_OCR_ALL") != "" {
		cases["real/zh-scanned-book-8p.pdf"] = []string{"商品"}
	}
	for file, words := range cases {
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := pdf.Read(data, parsed.Options{})
		if err != nil {
			t.Fatal(err)
		}
		o, err := pdf.OpenOCR(data, "")
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, p := range doc.Pages {
			if !p.NoText || p.OCR {
				t.Errorf("%s page %d: %+v, want it flagged for OCR and not read", file, p.Number, p)
				continue
			}
			pt, err := o.Page(p.Number)
			if err != nil {
				t.Fatalf("%s page %d: %v", file, p.Number, err)
			}
			texts = append(texts, pt.Paras...)
		}
		o.Close()
		text := strings.ToLower(strings.Join(texts, " "))
		if strings.TrimSpace(text) == "" {
			t.Errorf("%s: OCR found no text", file)
		}
		for _, w := range words {
			if !strings.Contains(text, w) {
				t.Errorf("%s: OCR text lacks %q", file, w)
			}
		}
	}
}
