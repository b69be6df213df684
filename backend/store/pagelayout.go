package store

import (
	"encoding/json"

	"cairn/backend/kb"
)

// encodePageLayout is the pages.layout column of a page: JSON, or "" when
// the page has no layout beyond its text.
func encodePageLayout(l kb.PageLayout) (string, error) {
	if l.Label == "" && len(l.Furniture) == 0 && len(l.Blocks) == 0 && l.Width == 0 && l.Height == 0 {
		return "", nil
	}
	b, err := json.Marshal(l)
	return string(b), err
}

// decodePageLayout reads the pages.layout column ("" for pages stored
// before layouts were kept).
func decodePageLayout(s string) (kb.PageLayout, error) {
	var l kb.PageLayout
	if s == "" {
		return l, nil
	}
	err := json.Unmarshal([]byte(s), &l)
	return l, err
}
