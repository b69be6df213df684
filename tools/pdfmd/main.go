// Command pdfmd prints a PDF's pages as `cairn text --format md` does,
// without making a project: the reader, the chunker's page assembly and the
// Markdown renderer, on one file. For looking at what the reader makes of a
// page while working on it.
//
//	go run ./tools/pdfmd [-pages 60,61] FILE.pdf
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"cairn/backend/chunk"
	"cairn/backend/ingest"
	"cairn/backend/ingest/parsed"
	"cairn/backend/pagetext"
)

func main() {
	pages := flag.String("pages", "", "comma-separated page numbers (default: all)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: pdfmd [-pages 1,2] FILE.pdf")
		os.Exit(2)
	}
	data, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	doc, err := ingest.Read(data, flag.Arg(0), parsed.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	want := map[int]bool{}
	for _, p := range strings.Split(*pages, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(p)); err == nil {
			want[n] = true
		}
	}
	kpages, _ := chunk.Split(doc, chunk.Options{})
	for _, pg := range kpages {
		if len(want) > 0 && !want[pg.Number] {
			continue
		}
		fmt.Printf("=== page %d ===\n%s\n", pg.Number, pagetext.Markdown(pg))
	}
}
