package plaintext

import (
	"strings"

	"cairn/backend/ingest/parsed"
)

// markdown turns Markdown lines into blocks. It recognises the block
// structure that matters for retrieval (CommonMark-like, not a full
// implementation): ATX and setext headings, fenced code (kept as a
// paragraph), bullet and ordered list items, pipe tables, block quotes,
// thematic breaks (dropped) and YAML front matter (its title: is used as
// the document title). Inline markup is left as written.
func markdown(lines []string) (blocks []parsed.Block, title string) {
	var (
		cur      []string
		curKind  parsed.BlockKind
		curLevel int
	)
	flush := func() {
		if t := strings.TrimSpace(strings.Join(cur, "\n")); t != "" {
			blocks = append(blocks, parsed.Block{Page: 1, Kind: curKind, Level: curLevel, Text: t})
		}
		cur, curKind, curLevel = cur[:0], parsed.BlockParagraph, 0
	}
	curKind = parsed.BlockParagraph

	i := 0
	if fm, end := frontMatter(lines); end > 0 {
		title = fm
		i = end
	}
	for ; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \t")
		// Block quotes: drop the markers and read what is inside.
		for {
			t := strings.TrimLeft(line, " ")
			if len(line)-len(t) > 3 || !strings.HasPrefix(t, ">") {
				break
			}
			line = strings.TrimPrefix(t[1:], " ")
		}
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			flush()
			continue
		}
		indent := indentOf(line)

		if ch, n := fenceOpen(line); n > 0 {
			flush()
			var code []string
			for i++; i < len(lines); i++ {
				if isFenceClose(lines[i], ch, n) {
					break
				}
				code = append(code, strings.TrimRight(lines[i], " \t"))
			}
			if t := strings.Trim(strings.Join(code, "\n"), "\n"); strings.TrimSpace(t) != "" {
				blocks = append(blocks, parsed.Block{Page: 1, Kind: parsed.BlockParagraph, Text: t})
			}
			continue
		}
		if level, text, ok := atxHeading(line); ok {
			flush()
			if text != "" {
				blocks = append(blocks, parsed.Block{Page: 1, Kind: parsed.BlockHeading, Level: level, Text: text})
			}
			continue
		}
		if indent <= 3 && len(cur) > 0 && curKind == parsed.BlockParagraph {
			if level := setextLevel(trimmed); level > 0 {
				text := strings.Join(strings.Fields(strings.Join(cur, " ")), " ")
				cur = cur[:0]
				blocks = append(blocks, parsed.Block{Page: 1, Kind: parsed.BlockHeading, Level: level, Text: text})
				continue
			}
		}
		if indent <= 3 && isThematicBreak(trimmed) {
			flush()
			continue
		}
		if label, rest, ok := listItem(trimmed); ok {
			flush()
			curKind = parsed.BlockListItem
			curLevel = indent/2 + 1
			if curLevel > 9 {
				curLevel = 9
			}
			cur = append(cur, strings.TrimSpace(label+" "+rest))
			continue
		}
		if len(cur) == 0 && strings.Contains(trimmed, "|") && i+1 < len(lines) && isDelimiterRow(lines[i+1]) {
			flush()
			rows := []string{trimmed}
			i += 2
			for ; i < len(lines); i++ {
				t := strings.TrimSpace(lines[i])
				if t == "" || !strings.Contains(t, "|") {
					i--
					break
				}
				rows = append(rows, t)
			}
			for _, row := range rows {
				if text := tableRow(row); text != "" {
					blocks = append(blocks, parsed.Block{Page: 1, Kind: parsed.BlockTableRow, Text: text})
				}
			}
			continue
		}
		cur = append(cur, trimmed)
	}
	flush()
	if title == "" {
		for _, want := range []int{1, 0} {
			for _, b := range blocks {
				if b.Kind == parsed.BlockHeading && (want == 0 || b.Level == want) {
					title = b.Text
					break
				}
			}
			if title != "" {
				break
			}
		}
	}
	return blocks, title
}

// indentOf counts leading columns (a tab is 4).
func indentOf(s string) int {
	n := 0
	for _, r := range s {
		switch r {
		case ' ':
			n++
		case '\t':
			n += 4 - n%4
		default:
			return n
		}
	}
	return n
}

// frontMatter reads a YAML front-matter block at the top ("---" ... "---"
// or "..."), returning its title and the index of the first line after it.
func frontMatter(lines []string) (title string, end int) {
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "---" {
		return "", 0
	}
	for i := 1; i < len(lines) && i < 200; i++ {
		t := strings.TrimSpace(lines[i])
		if t == "---" || t == "..." {
			return title, i + 1
		}
		if k, v, ok := strings.Cut(lines[i], ":"); ok && strings.TrimSpace(k) == "title" && title == "" {
			title = strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	return "", 0
}

// fenceOpen reports a code fence (``` or ~~~, 3 or more, indented at most 3).
func fenceOpen(line string) (byte, int) {
	if indentOf(line) > 3 {
		return 0, 0
	}
	t := strings.TrimLeft(line, " \t")
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return 0, 0
	}
	ch := t[0]
	n := 0
	for n < len(t) && t[n] == ch {
		n++
	}
	if n < 3 || (ch == '`' && strings.Contains(t[n:], "`")) {
		return 0, 0
	}
	return ch, n
}

func isFenceClose(line string, ch byte, n int) bool {
	if indentOf(line) > 3 {
		return false
	}
	t := strings.TrimSpace(line)
	if len(t) < n {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] != ch {
			return false
		}
	}
	return true
}

// atxHeading parses "## Heading ##".
func atxHeading(line string) (int, string, bool) {
	if indentOf(line) > 3 {
		return 0, "", false
	}
	t := strings.TrimLeft(line, " \t")
	level := 0
	for level < len(t) && t[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || (level < len(t) && t[level] != ' ' && t[level] != '\t') {
		return 0, "", false
	}
	text := strings.TrimSpace(t[level:])
	// Optional closing sequence: spaces then #s.
	if j := strings.TrimRight(text, "#"); j != text && (j == "" || strings.HasSuffix(j, " ") || strings.HasSuffix(j, "\t")) {
		text = strings.TrimSpace(j)
	}
	return level, text, true
}

// setextLevel: "===" underlines a level-1 heading, "---" a level-2 one.
func setextLevel(t string) int {
	if t == "" {
		return 0
	}
	if strings.Trim(t, "=") == "" {
		return 1
	}
	if strings.Trim(t, "-") == "" {
		return 2
	}
	return 0
}

// isThematicBreak: three or more of the same -, * or _ (spaces allowed).
func isThematicBreak(t string) bool {
	if t == "" || !strings.ContainsAny(t[:1], "-*_") {
		return false
	}
	ch := t[0]
	n := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case ch:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// listItem parses a bullet ("- x", "* x", "+ x") or ordered ("1. x",
// "2) x") item. Bullets are written as "•"; ordered items keep their number.
func listItem(t string) (label, rest string, ok bool) {
	if len(t) >= 1 && (t[0] == '-' || t[0] == '*' || t[0] == '+') {
		if len(t) == 1 {
			return "", "", false // a lone marker: not worth a block
		}
		if t[1] == ' ' || t[1] == '\t' {
			rest = strings.TrimSpace(t[2:])
			// Task-list boxes stay as written.
			return "•", rest, rest != ""
		}
		return "", "", false
	}
	n := 0
	for n < len(t) && n < 9 && t[n] >= '0' && t[n] <= '9' {
		n++
	}
	if n == 0 || n >= len(t) || (t[n] != '.' && t[n] != ')') {
		return "", "", false
	}
	if n+1 < len(t) && t[n+1] != ' ' && t[n+1] != '\t' {
		return "", "", false
	}
	rest = strings.TrimSpace(t[n+1:])
	return t[:n+1], rest, rest != ""
}

// isDelimiterRow matches a table's header separator: "|---|:--:|".
func isDelimiterRow(line string) bool {
	t := strings.TrimSpace(line)
	if !strings.Contains(t, "-") {
		return false
	}
	t = strings.Trim(t, "|")
	if strings.TrimSpace(t) == "" {
		return false
	}
	for _, cell := range strings.Split(t, "|") {
		c := strings.TrimSpace(cell)
		c = strings.TrimPrefix(c, ":")
		c = strings.TrimSuffix(c, ":")
		if c == "" || strings.Trim(c, "-") != "" {
			return false
		}
	}
	return true
}

// tableRow renders a pipe-table row with cells joined by " | ".
func tableRow(row string) string {
	t := strings.TrimSpace(row)
	t = strings.TrimPrefix(t, "|")
	if strings.HasSuffix(t, "|") && !strings.HasSuffix(t, `\|`) {
		t = t[:len(t)-1]
	}
	var cells []string
	var b strings.Builder
	for i := 0; i < len(t); i++ {
		if t[i] == '\\' && i+1 < len(t) && t[i+1] == '|' {
			b.WriteByte('|')
			i++
			continue
		}
		if t[i] == '|' {
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
			continue
		}
		b.WriteByte(t[i])
	}
	cells = append(cells, strings.TrimSpace(b.String()))
	if strings.TrimSpace(strings.Join(cells, "")) == "" {
		return ""
	}
	return strings.TrimSpace(strings.Join(cells, " | "))
}
