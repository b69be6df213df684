package pdf

import (
	"slices"
	"strings"
	"testing"

	"cairn/backend/ingest/parsed"
)

func TestJoinSplitWords(t *testing.T) {
	for _, tc := range []struct {
		name      string
		texts     []string
		want      string // the first block's text after the join
		wantOther []string
	}{
		{"a word's last letter placed apart, the word printed whole elsewhere",
			[]string{"Consolidated Balance Shee t", "The balance sheet below.", "A sheet of figures."},
			"Consolidated Balance Sheet", nil},
		{"two last letters, and a title's several words",
			[]string{"Item 1. Busines s and Knowled ge", "Our business.", "The business of knowledge; knowledge."},
			"Item 1. Business and Knowledge", nil},
		{"a function word after a word that never stands alone",
			[]string{"any direct or indirect interest", "The director said.", "Each director."},
			"any direct or indirect interest", nil},
		{"a head printed on its own elsewhere",
			[]string{"Shee t", "sheet and sheet", "the Shee river"},
			"Shee t", nil},
		{"the joined word printed once elsewhere",
			[]string{"Shee t", "one sheet"},
			"Shee t", nil},
		{"a head of two letters",
			[]string{"Ca t", "the cat, a cat"},
			"Ca t", nil},
		{"table cells are no fragments",
			[]string{"Shee | t", "sheet, sheet"},
			"Shee | t", nil},
		{"a capital tail is a word of its own",
			[]string{"Vitamin D and Plan B", "vitamind plan b"},
			"Vitamin D and Plan B", nil},
		{"every split of the word is joined, in every block",
			[]string{"Informatio n", "informatio n about information", "information"},
			"Information", []string{"information about information", "information"}},
	} {
		var blocks []parsed.Block
		for _, s := range tc.texts {
			blocks = append(blocks, parsed.Block{Text: s})
		}
		joinSplitWords(blocks)
		if blocks[0].Text != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, blocks[0].Text, tc.want)
		}
		if tc.wantOther != nil {
			var got []string
			for _, b := range blocks[1:] {
				got = append(got, b.Text)
			}
			if !slices.Equal(got, tc.wantOther) {
				t.Errorf("%s: the other blocks %q, want %q", tc.name, got, tc.wantOther)
			}
		}
	}
}

// FuzzJoinSplitWords: joining only ever drops spaces, never panics.
func FuzzJoinSplitWords(f *testing.F) {
	f.Add("Consolidated Balance Shee t", "balance sheet, sheet")
	f.Add("Busines s é t", "business businesS\xff s")
	f.Fuzz(func(t *testing.T, a, b string) {
		blocks := []parsed.Block{{Text: a}, {Text: b}}
		joinSplitWords(blocks)
		for i, in := range []string{a, b} {
			if strings.ReplaceAll(blocks[i].Text, " ", "") != strings.ReplaceAll(in, " ", "") {
				t.Fatalf("%q became %q", in, blocks[i].Text)
			}
		}
	})
}
