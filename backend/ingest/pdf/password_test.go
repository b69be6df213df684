package pdf_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"cairn/backend/ingest/parsed"
	"cairn/backend/ingest/pdf"
	"cairn/backend/ingest/pdf/pdfeval"
)

// TestPasswords: user-password files need the password, extract with the
// right one and report a wrong one; the owner-only file needs none.
func TestPasswords(t *testing.T) {
	dir := docsDir(t)
	for _, file := range []string{"encrypted-aes256-userpw.pdf", "encrypted-rc4-userpw.pdf"} {
		path := filepath.Join(dir, "bad", file)
		t.Run(file, func(t *testing.T) {
			_, err := readFile(t, path, parsed.Options{})
			var pe *parsed.Error
			if !errors.As(err, &pe) || pe.Code != parsed.CodePasswordRequired {
				t.Fatalf("no password: want %s, got %v", parsed.CodePasswordRequired, err)
			}
			if pe.Msg != "This PDF is password-protected; enter its password to import it." {
				t.Errorf("message %q", pe.Msg)
			}
			_, err = readFile(t, path, parsed.Options{Password: "not-the-password"})
			if !errors.As(err, &pe) || pe.Code != parsed.CodeWrongPassword {
				t.Fatalf("wrong password: want %s, got %v", parsed.CodeWrongPassword, err)
			}
			doc, err := readFile(t, path, parsed.Options{Password: "secret"})
			if err != nil {
				t.Fatalf("right password: %v", err)
			}
			text := strings.ToLower(strings.Join(pdfeval.PageTexts(doc), " "))
			for _, w := range []string{"dense passage retrieval", "question answering"} {
				if !strings.Contains(strings.Join(strings.Fields(text), " "), w) {
					t.Errorf("decrypted text lacks %q", w)
				}
			}
			if len(doc.Pages) != 2 {
				t.Errorf("want 2 pages, got %d", len(doc.Pages))
			}
			readWithLayout(t, doc)
		})
	}
	// A password given for a file that needs none is ignored.
	doc, err := readFile(t, filepath.Join(dir, "bad", "encrypted-aes256-ownerpw-only.pdf"), parsed.Options{Password: "secret"})
	if err != nil || len(doc.Blocks) == 0 {
		t.Fatalf("owner-only file with a password: %v", err)
	}
	readWithLayout(t, doc)
}

// readWithLayout fails the test unless doc was read with its layout (by
// the first reader, which the encryption the first reader does not
// implement reaches through PDFium's plain copy): its title found and
// headings made, not PDFium's plain text of each page.
func readWithLayout(t *testing.T, doc *parsed.Document) {
	t.Helper()
	headings := 0
	for _, b := range doc.Blocks {
		if b.Kind == parsed.BlockHeading {
			headings++
		}
	}
	for _, p := range doc.Pages {
		if p.Engine != pdf.EngineWalker {
			t.Errorf("page %d read by %s, not with its layout", p.Number, p.Engine)
		}
	}
	if headings == 0 || !strings.Contains(doc.Title, "Dense Passage Retrieval") {
		t.Errorf("title %q and %d headings: the layout was not read", doc.Title, headings)
	}
}
