package pdf_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"cairn/backend/ingest/parsed"
	"cairn/backend/ingest/pdf"
)

// TestConcurrentReads reads files that use both engines from several
// goroutines at once: PDFium is one shared instance behind a lock.
func TestConcurrentReads(t *testing.T) {
	dir := docsDir(t)
	files := []string{
		"real/en-report-dmca-summary.pdf", // PDFium (RC4-40)
		"real/en-paper-2col-dpr-2p.pdf",   // walker
		"bad/broken-xref-offsets.pdf",     // PDFium
		"real/zh-manual-car-4p.pdf",       // walker
	}
	var wg sync.WaitGroup
	for round := 0; round < 2; round++ {
		for _, f := range files {
			data, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				doc, err := pdf.Read(data, parsed.Options{})
				if err != nil || len(doc.Blocks) == 0 {
					t.Errorf("%s: %v", f, err)
				}
			}()
		}
	}
	wg.Wait()
}
