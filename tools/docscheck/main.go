// Command docscheck checks the documentation's shape: README.md stays a
// front door of at most MaxReadmeLines lines, every relative link in
// README.md and docs/**/*.md names a file that exists (and, for a Markdown
// file, a heading that exists when the link names one), and the committed
// frontend/dist/.keep is the same file as frontend/public/.keep, which Vite
// copies into frontend/dist on every build (docs/development.md, "Building
// before the frontend exists"). Its test runs the same checks in `make test`.
//
//	go run ./tools/docscheck [REPO_ROOT]
package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
)

// MaxReadmeLines is the most lines README.md may have (issue 30: the README
// is a front door; the rest lives in docs/).
const MaxReadmeLines = 250

func main() {
	root := "."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	problems, err := Check(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "docscheck:", err)
		os.Exit(2)
	}
	for _, p := range problems {
		fmt.Println(p)
	}
	if len(problems) > 0 {
		os.Exit(1)
	}
}

// Check returns every problem found under the repository root.
func Check(root string) ([]string, error) {
	var problems []string
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		return nil, err
	}
	if n := countLines(readme); n > MaxReadmeLines {
		problems = append(problems, fmt.Sprintf("README.md has %d lines, more than %d: move the detail into docs/", n, MaxReadmeLines))
	}
	files := []string{"README.md"}
	err = filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, _ := filepath.Rel(root, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		p, err := checkLinks(root, f)
		if err != nil {
			return nil, err
		}
		problems = append(problems, p...)
	}
	a, errA := os.ReadFile(filepath.Join(root, "frontend", "public", ".keep"))
	b, errB := os.ReadFile(filepath.Join(root, "frontend", "dist", ".keep"))
	switch {
	case errA != nil || errB != nil:
		problems = append(problems, "frontend/public/.keep and frontend/dist/.keep must both exist (main.go embeds frontend/dist before the frontend is built)")
	case !bytes.Equal(a, b):
		problems = append(problems, "frontend/dist/.keep differs from frontend/public/.keep: every Vite build rewrites it from public/, so keep them identical")
	}
	return problems, nil
}

func countLines(b []byte) int {
	n := bytes.Count(b, []byte("\n"))
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}

// linkRE finds inline Markdown links and images: [text](target) with an
// optional title after the target.
var linkRE = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// checkLinks checks the relative links of one Markdown file (rel is its
// path from root, with forward slashes). Links inside fenced code blocks and
// inline code are not links; a link's text may run over several lines.
func checkLinks(root, rel string) ([]string, error) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(data), "\n")
	inFence := false
	for i, text := range lines {
		fence := strings.HasPrefix(strings.TrimSpace(text), "```")
		if fence {
			inFence = !inFence
		}
		if fence || inFence {
			lines[i] = ""
		} else {
			lines[i] = stripCode(text)
		}
	}
	prose := strings.Join(lines, "\n")
	var problems []string
	for _, m := range linkRE.FindAllStringSubmatchIndex(prose, -1) {
		target := prose[m[2]:m[3]]
		if p := checkTarget(root, rel, target); p != "" {
			line := 1 + strings.Count(prose[:m[2]], "\n")
			problems = append(problems, fmt.Sprintf("%s:%d: %s", rel, line, p))
		}
	}
	return problems, nil
}

// stripCode blanks inline code spans, so `[a](b)` written as code is skipped.
func stripCode(s string) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		if r == '`' {
			in = !in
			b.WriteRune(r)
			continue
		}
		if in {
			b.WriteRune(' ')
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// checkTarget returns a problem with one link target, or "".
func checkTarget(root, from, target string) string {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return ""
	}
	file, anchor, _ := strings.Cut(target, "#")
	path := filepath.Join(root, filepath.FromSlash(filepath.ToSlash(filepath.Dir(from))), filepath.FromSlash(file))
	if file == "" {
		path = filepath.Join(root, filepath.FromSlash(from))
	}
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Sprintf("link %q: %s does not exist", target, file)
	}
	if anchor == "" || st.IsDir() || !strings.HasSuffix(path, ".md") {
		return ""
	}
	anchors, err := headingAnchors(path)
	if err != nil {
		return fmt.Sprintf("link %q: %v", target, err)
	}
	if !anchors[anchor] {
		return fmt.Sprintf("link %q: no heading with the anchor #%s", target, anchor)
	}
	return ""
}

// headingAnchors returns the anchors GitHub gives the headings of a Markdown
// file: lower case, everything but letters, digits, spaces, hyphens and
// underscores dropped, spaces made hyphens; a repeated anchor gets -1, -2, ….
func headingAnchors(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	anchors := map[string]bool{}
	seen := map[string]int{}
	inFence := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
			continue
		}
		if inFence || !strings.HasPrefix(line, "#") {
			continue
		}
		title := strings.TrimSpace(strings.TrimLeft(line, "#"))
		a := Slug(title)
		if n := seen[a]; n > 0 {
			anchors[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors, nil
}

// Slug is GitHub's anchor for a heading's text.
func Slug(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteRune('-')
		}
	}
	return b.String()
}
