package chunk

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"cairn/backend/ingest/parsed"
	"cairn/backend/ingest/plaintext"
)

// Chunks stay bounded whatever the structure (issue 21, item 9): runs of
// headings with no text between them, zero-token lines, one endless line.
// Inputs are generated here.
func TestChunksBoundedWhateverTheStructure(t *testing.T) {
	var setext strings.Builder
	for i := 0; setext.Len() < 3_750_000; i++ {
		fmt.Fprintf(&setext, "Heading %d\n===\n", i)
	}
	var zw strings.Builder
	for i := 0; i < 200_000; i++ {
		zw.WriteString("\u200b\n\n")
	}
	cases := map[string][]byte{
		"setext headings":    []byte(setext.String()),
		"atx headings":       []byte(strings.Repeat("# h\n", 250_000)),
		"zero-token lines":   []byte(zw.String()),
		"one 8 MB line":      []byte(strings.Repeat("harbour ", 1<<20)),
		"one 4 MB word":      []byte(strings.Repeat("x", 4<<20)),
		"deep list nesting":  []byte(strings.Repeat("  ", 0) + strings.Repeat("- a\n  - b\n    - c\n", 100_000)),
		"table of 100k rows": []byte("| a | b |\n|---|---|\n" + strings.Repeat("| x | y |\n", 100_000)),
	}
	opt := Options{}.withDefaults()
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			doc, err := plaintext.Read(data, parsed.KindMD)
			if err != nil {
				t.Skipf("not read: %v", err)
			}
			start := time.Now()
			_, chunks := Split(doc, Options{})
			d := time.Since(start)
			longest := 0
			for _, c := range chunks {
				longest = max(longest, len(c.Text))
				if c.Tokens > opt.Max*2 {
					t.Errorf("chunk %d has %d tokens (ceiling %d)", c.Ordinal, c.Tokens, opt.Max)
				}
			}
			// a chunk holds at most Max pieces or Max tokens; a token is at
			// most 12 letters of an unbroken run, so ~12 bytes per token
			// (UTF-8: 4 bytes a letter) bounds it.
			if limit := opt.Max * 12 * 4 * 2; longest > limit {
				t.Errorf("longest chunk %d bytes, over %d", longest, limit)
			}
			if d > 20*time.Second {
				t.Errorf("split took %v (quadratic?)", d)
			}
			t.Logf("%d bytes → %d chunks, longest %d bytes, in %v", len(data), len(chunks), longest, d.Round(time.Millisecond))
		})
	}
}
