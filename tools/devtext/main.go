// Command devtext checks that no Go file of the repository quotes the DEV
// evaluation sets (issue 30: tuning to DEV questions does not generalise,
// and tests are written on fixtures made for them): it reports every Go
// file holding the text of a DEV question (its first 60 characters) of
// ../shared/eval's multi-hop sets and docqa sets, or the title of one of
// the multi-hop sets' passages (titles of two words or more, 8 characters
// or more: the names of the people, films and places the questions are
// about). Its test runs it in `make test` when ../shared is there.
//
//	go run ./tools/devtext [REPO_ROOT [SHARED_DIR]]
package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"cairn/backend/evalset"
)

func main() {
	root, shared := ".", filepath.Join("..", "shared")
	if len(os.Args) > 1 {
		root = os.Args[1]
		shared = filepath.Join(root, "..", "shared")
	}
	if len(os.Args) > 2 {
		shared = os.Args[2]
	}
	found, err := Check(root, shared)
	if err != nil {
		fmt.Fprintln(os.Stderr, "devtext:", err)
		os.Exit(2)
	}
	for _, f := range found {
		fmt.Println(f)
	}
	if len(found) > 0 {
		os.Exit(1)
	}
}

// multiHop are the multi-hop DEV sets whose questions and passage titles
// are checked.
var multiHop = []string{"hotpotqa", "2wikimultihopqa", "musique"}

// Check returns one line per Go file under root that quotes a DEV question
// or passage title of the sets in shared ("FILE: question \"…\"").
func Check(root, shared string) ([]string, error) {
	var questions []string
	var titles []string
	for _, set := range multiHop {
		qs, err := field(filepath.Join(shared, "eval", set, "questions.jsonl"), "question")
		if err != nil {
			return nil, err
		}
		questions = append(questions, qs...)
		ts, err := field(filepath.Join(shared, "eval", set, "corpus.jsonl"), "title")
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			if len(t) >= 8 && strings.Contains(t, " ") {
				titles = append(titles, t)
			}
		}
	}
	docqa, err := filepath.Glob(filepath.Join(shared, "eval", "docqa", "*", "questions.jsonl"))
	if err != nil {
		return nil, err
	}
	for _, f := range docqa {
		qs, err := field(f, "question")
		if err != nil {
			return nil, err
		}
		questions = append(questions, qs...)
	}
	for i, q := range questions {
		if len(q) > 60 {
			questions[i] = q[:60]
		}
	}
	titles = unique(titles)
	questions = unique(questions)
	var found []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "build", "dist":
				if path != root {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(b)
		rel, _ := filepath.Rel(root, path)
		for _, q := range questions {
			if strings.Contains(text, q) {
				found = append(found, fmt.Sprintf("%s: DEV question %q", rel, q))
			}
		}
		for _, t := range titles {
			if strings.Contains(text, t) {
				found = append(found, fmt.Sprintf("%s: DEV passage title %q", rel, t))
			}
		}
		return nil
	})
	sort.Strings(found)
	return found, err
}

// field reads one string field of every line of a JSON-lines file,
// trimmed (evalset.ReadJSONL; docqa's ids are numbers, so rows are read
// as maps).
func field(path, name string) ([]string, error) {
	rows, err := evalset.ReadJSONL[map[string]any](path)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, row := range rows {
		if s, ok := row[name].(string); ok && strings.TrimSpace(s) != "" {
			out = append(out, strings.TrimSpace(s))
		}
	}
	return out, nil
}

func unique(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
