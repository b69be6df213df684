package reason

import (
	"strings"
	"testing"

	"cairn/backend/kb"
)

// The parts of a section the question quotes: the headings under it in
// the passages' heading paths; when the reader set them at its own level,
// the headings after it numbered another way, up to the next heading
// numbered as it is ("C." is a letter here, not a hundred), with a part
// whose heading starts no passage found by its label in the text. A
// heading is quoted by two words or more (its number aside).
func TestHeadingsUnder(t *testing.T) {
	hit := func(id int64, text string, path ...string) kb.Hit {
		return kb.Hit{Chunk: kb.Chunk{ID: id, Text: text, HeadingPath: path}}
	}
	nested := []kb.Hit{
		hit(1, "Kettles boil.", "Guide", "2 Cleaning Up"),
		hit(2, "Use vinegar.", "Guide", "2 Cleaning Up", "2.1 Descaling"),
		hit(3, "Wipe it.", "Guide", "2 Cleaning Up", "2.2 Outside"),
		hit(4, "Buy parts.", "Guide", "3 Spare Parts"),
	}
	flat := []kb.Hit{
		hit(1, "Intro.", "Guide", "IV. HEATING"),
		hit(2, "Text.", "Guide", "V. CLEANING THE KETTLE"),
		hit(3, "Use vinegar.", "Guide", "A. Descaling"),
		hit(4, "Wipe it.\nB. Outside\nWipe the outside.\nC. Filter\nRinse the filter.", "Guide", "A. Descaling"),
		hit(5, "Parts.\nD. Spare parts list", "Guide", "VI. SPARE PARTS"),
	}
	for _, c := range []struct {
		name string
		q    string
		hits []kb.Hit
		want string
	}{
		{"nested", "Which subsections does the section Cleaning up have?", nested, "2.1 Descaling|2.2 Outside"},
		{"flat", `Which subsections does "Cleaning the kettle" include?`, flat, "A. Descaling|B. Outside|C. Filter"},
		{"no heading quoted", "Which subsections does the guide have?", nested, ""},
	} {
		_, subs := headingsUnder(surfaceWords(c.q), c.hits)
		var got []string
		for _, s := range subs {
			got = append(got, s.title)
		}
		if strings.Join(got, "|") != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
