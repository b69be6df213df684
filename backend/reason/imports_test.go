package reason_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestReadsThroughTheRetriever checks that the answer core imports no
// backend/store: it reaches the project's passages, word frequencies and
// graph only through backend/retrieve (the Retriever's look-ups), so there
// is one retrieval API and one place that keeps to a question's documents.
// Tests may open a store to build their fixtures.
func TestReadsThroughTheRetriever(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Fatal(err)
			}
			if path == "cairn/backend/store" || strings.HasPrefix(path, "cairn/backend/store/") {
				t.Errorf("%s imports %s: read the project through the retriever (backend/retrieve) instead", name, path)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no source files found")
	}
}
