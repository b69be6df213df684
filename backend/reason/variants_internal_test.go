package reason

import (
	"slices"
	"testing"
)

// A figure's other names: the whole name's synonyms of as many words,
// then its head noun put in another word; none repeating a word of the
// name or holding a digit.
func TestQuantityVariants(t *testing.T) {
	for _, c := range []struct {
		name string
		want []string
		not  []string
	}{
		{"capital expenditure", []string{"capital spending", "capital outlay"}, nil},
		{"net profit", []string{"net income", "net earnings"}, []string{"net", "net net"}},
		{"gross", nil, []string{"144"}},
	} {
		got := quantityVariants(c.name)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: variants %q, want %q among them", c.name, got, w)
			}
		}
		for _, w := range c.not {
			if slices.Contains(got, w) {
				t.Errorf("%q: variants %q hold %q", c.name, got, w)
			}
		}
		if len(got) > maxQuantityVariants {
			t.Errorf("%q: %d variants", c.name, len(got))
		}
	}
}
