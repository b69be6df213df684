package pdf_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"cairn/backend/ingest/parsed"
	"cairn/backend/ingest/pdf"
	"cairn/backend/testshared"
)

// TestMain keeps PDFium's compiled code in a stable cache directory (so
// only the first test run on a machine pays the wasm compile) and switches
// OCR off unless a test turns it on.
func TestMain(m *testing.M) {
	os.Setenv("CAIRN_OCR", "0")
	os.Exit(m.Run())
}

// docsDir is the shared test corpus, ../../../../shared/docs from this
// package; tests skip when it is absent.
func docsDir(t testing.TB) string {
	d := filepath.Join("..", "..", "..", "..", "shared", "docs")
	if _, err := os.Stat(filepath.Join(d, "real")); err != nil {
		testshared.Missing(t, "shared test corpus not found at", d)
	}
	return d
}

type readKey struct {
	path     string
	password string
	maxPages int
	ocr      string
}

type readResult struct {
	doc *parsed.Document
	err error
}

var readCache sync.Map // readKey -> readResult

// readFile reads a corpus file once per option set and test binary.
func readFile(t testing.TB, path string, opt parsed.Options) (*parsed.Document, error) {
	t.Helper()
	k := readKey{path, opt.Password, opt.MaxPages, os.Getenv("CAIRN_OCR")}
	if r, ok := readCache.Load(k); ok {
		return r.(readResult).doc, r.(readResult).err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := pdf.Read(data, opt)
	readCache.Store(k, readResult{doc, err})
	return doc, err
}
