// Command titlecheck prints the title each document of one or more
// projects gets from the library decision (backend/identity) as this
// build makes it, with where it came from (organisation, metadata, reader,
// cover, file name), one line per document: file, source, title. It reads
// what the readers stored and writes nothing, so a change to the decision
// can be compared on real libraries without importing them again:
//
//	go run ./tools/titlecheck /tmp/docqa-projects/financebench-dev-HASH
//
// Run it at two commits and diff the outputs.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"cairn/backend/identity"
	"cairn/backend/store"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: titlecheck PROJECT_DIR...")
		os.Exit(2)
	}
	ctx := context.Background()
	failed := false
	for _, dir := range os.Args[1:] {
		if err := show(ctx, dir); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", dir, err)
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}

// show prints the decision for one project's documents.
func show(ctx context.Context, dir string) error {
	st, err := store.Open(filepath.Join(dir, "cairn.db"))
	if err != nil {
		return err
	}
	defer st.Close()
	srcs, err := st.IdentitySources(ctx, identity.BodyPages)
	if err != nil {
		return err
	}
	in := make([]identity.Input, len(srcs))
	for i, s := range srcs {
		in[i] = identity.InputOf(s.ID, s.FileName, s.MetaTitle, s.ReaderTitle, s.Pages)
	}
	for i, o := range identity.Assign(in) {
		fmt.Printf("%s\t%s\t%s\n", in[i].FileName, o.Source, o.Title)
	}
	return nil
}
