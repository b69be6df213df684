package pdf

import (
	"html"
	"regexp"
	"strings"

	lp "github.com/ledongthuc/pdf"
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
