package pdf

import (
	"html"
	"regexp"
	"strings"

	lp "github.com/ledongthuc/pdf"

	"cairn/backend/ingest/parsed"
)

// infoTitle reads /Title from the Info dictionary, else dc:title from the
// XMP metadata stream of the catalog.
func infoTitle(r *lp.Reader) string {
	var t string
	guard(func() {
		t = cleanTitle(key(key(r.Trailer(), "Info"), "Title").Text())
	})
	if t != "" {
		return t
	}
	guard(func() {
		meta := key(key(r.Trailer(), "Root"), "Metadata")
		if meta.Kind() != lp.Stream {
			return
		}
		data, err := readStream(meta, 1<<20)
		if err == nil {
			t = xmpTitle(string(data))
		}
	})
	return t
}

var (
	xmpTitleRe = regexp.MustCompile(`(?s)<dc:title[^>]*>(.*?)</dc:title>`)
	xmpLiRe    = regexp.MustCompile(`(?s)<rdf:li[^>]*>(.*?)</rdf:li>`)
)

// xmpTitle extracts the first dc:title alternative from an XMP packet.
func xmpTitle(x string) string {
	m := xmpTitleRe.FindStringSubmatch(x)
	if m == nil {
		return ""
	}
	inner := m[1]
	if li := xmpLiRe.FindStringSubmatch(inner); li != nil {
		inner = li[1]
	}
	return cleanTitle(html.UnescapeString(inner))
}

// cleanTitle trims a metadata title and drops placeholders.
func cleanTitle(t string) string {
	t = ligatures.Replace(t)
	t = strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0xFFFD || r == 0xFEFF {
			return ' '
		}
		return r
	}, t)), " ")
	switch strings.ToLower(t) {
	case "", "untitled", "title", "untitled document", "no title", "(anonymous)":
		return ""
	}
	return t
}

// plausibleTitle rejects metadata titles that look like noise, which is
// what a wrongly decrypted /Title looks like: damaged characters, few
// letters, or mostly one-letter "words".
func plausibleTitle(t string) bool {
	st := measure(t)
	if st.runes == 0 || st.bad > 0 || 10*st.letters < 6*st.runes {
		return false
	}
	words, wordy := 0, 0
	for _, w := range strings.Fields(t) {
		words++
		if measure(w).letters >= 2 {
			wordy++
		}
	}
	return 2*wordy >= words
}

// firstHeading returns the text of the first heading on page 1.
func firstHeading(blocks []parsed.Block) string {
	for _, b := range blocks {
		if b.Page > 1 {
			break
		}
		if b.Kind == parsed.BlockHeading {
			return b.Text
		}
	}
	return ""
}
