// Package identity tells the documents of a project apart: for each one a
// title a person recognises, distinct within the project, and where its
// cover states them the organisation it is from, the kind of document and
// the period it covers. It is decided for the whole library at once: a cover
// line that many documents share ("UNITED STATES SECURITIES AND EXCHANGE
// COMMISSION", "(Mark One)") is boilerplate of that library, learnt from the
// library itself, never from a word list.
//
// Everything here is a pure function of what the reader stored (the first
// pages' blocks, the file name, the metadata title), so titles are
// recomputed without reading a file again.
package identity

import (
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"cairn/backend/kb"
	"cairn/backend/lexicon"
)

// Line is one line of a document's cover (its first pages), with how
// prominent it is set: heading level and line height against the page's
// body lines. Order is its place on the cover.
type Line struct {
	Text   string
	Weight float64
	Order  int
}

// Input is what the library decision reads of one document.
type Input struct {
	ID        int64
	FileName  string
	MetaTitle string // the file's metadata title, "" when none
	// ReaderTitle is the title the reader chose on its own (metadata
	// title, first heading or file name): kept when it is not the
	// library's boilerplate.
	ReaderTitle string
	Cover       []Line // CoverLines of its first pages
	Text        string // the cover pages' text (period cues)
	Body        string // the first BodyPages pages' text (how often a name recurs)
}

// Identity is what the decision gives one document.
type Identity struct {
	Title        string `json:"title"`
	Organisation string `json:"organisation,omitempty"`
	DocType      string `json:"doc_type,omitempty"`
	Period       string `json:"period,omitempty"`
	// Source says where the title came from: "organisation"
	// (organisation, kind and period), "metadata", "reader" (the reader's
	// own choice at import), "cover" or "file name".
	Source string `json:"source"`
}

// CoverPages is how many leading pages are read as a document's cover;
// BodyPages how many are read for how often a name recurs.
const (
	CoverPages = 2
	BodyPages  = 12
)

// CoverLines lists the lines of the first pages with their prominence:
// a heading weighs by its level, every line by its height against the
// median line height of the cover pages (a title set large weighs more). Blank
// lines and lines of no letters are left out.
func CoverLines(pages []kb.Page) []Line {
	var out []Line
	order := 0
	type raw struct {
		text    string
		height  float64
		heading int
		page    int
	}
	var lines []raw
	var heights []float64
	for pi, pg := range pages {
		if pi >= CoverPages {
			break
		}
		for _, b := range pg.Blocks {
			if b.Start < 0 || b.End > len(pg.Text) || b.Start >= b.End {
				continue
			}
			parts := strings.Split(pg.Text[b.Start:b.End], "\n")
			h := 0.0
			if b.Box != nil && len(parts) > 0 {
				h = (b.Box[3] - b.Box[1]) / float64(len(parts))
			}
			lvl := 0
			if b.Kind == "heading" {
				lvl = max(1, b.Level)
			}
			for _, p := range parts {
				p = strings.Join(strings.Fields(p), " ")
				if !hasLetter(p) {
					continue
				}
				lines = append(lines, raw{p, h, lvl, pi})
				if h > 0 {
					heights = append(heights, h)
				}
			}
		}
		if len(pg.Blocks) == 0 { // a page with no layout (DOCX, text): its lines in order
			for _, p := range strings.Split(pg.Text, "\n") {
				p = strings.Join(strings.Fields(p), " ")
				if hasLetter(p) {
					lines = append(lines, raw{text: p, page: pi})
				}
			}
		}
	}
	// Heights against the cover pages' lines together: a cover holding
	// only its title and subtitle has no body text of its own to set
	// them against.
	med := median(heights)
	for _, l := range lines {
		w := 1.0
		if l.heading > 0 {
			w += 1.5 / float64(l.heading)
		}
		if med > 0 && l.height > 0 {
			w *= min(3, max(0.5, l.height/med))
		}
		if l.page > 0 {
			w *= 0.6 // the second page is a weaker cover
		}
		out = append(out, Line{Text: l.text, Weight: w, Order: order})
		order++
	}
	return out
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// normLine is the key two documents' lines are compared by: lower case,
// letters and digits only.
func normLine(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		} else if b.Len() > 0 && !strings.HasSuffix(b.String(), " ") {
			b.WriteByte(' ')
		}
	}
	return strings.TrimSpace(b.String())
}

// InputOf is what the decision reads of one document: its file name,
// metadata title, the reader's own title and its first pages (at least
// BodyPages of them when it has so many; the first CoverPages are its
// cover).
func InputOf(id int64, fileName, metaTitle, readerTitle string, pages []kb.Page) Input {
	var cover, body strings.Builder
	for j, pg := range pages {
		if j < CoverPages {
			cover.WriteString(pg.Text)
			cover.WriteString("\n")
		}
		body.WriteString(pg.Text)
		body.WriteString("\n")
	}
	return Input{ID: id, FileName: fileName, MetaTitle: metaTitle, ReaderTitle: readerTitle, Cover: CoverLines(pages),
		Text: cover.String(), Body: body.String()}
}

// Assign decides every document's identity for the library in.
func Assign(in []Input) []Identity {
	// shared[k]: in how many documents a cover line (or metadata title) of
	// key k appears. A line of more than one document in four (and of at
	// least three) is the library's boilerplate, not a title.
	shared := map[string]int{}
	for _, d := range in {
		seen := map[string]bool{}
		for _, l := range d.Cover {
			seen[normLine(l.Text)] = true
		}
		seen[normLine(d.MetaTitle)] = true
		seen[normLine(d.ReaderTitle)] = true
		for k := range seen {
			if k != "" {
				shared[k]++
			}
		}
	}
	limit := max(3, (len(in)+3)/4)
	boiler := func(s string) bool { return shared[normLine(s)] >= limit }
	out := make([]Identity, len(in))
	for i, d := range in {
		id := Identity{
			Organisation: organisation(d, orgCandidates(d)),
			DocType:      docType(d, boiler),
			Period:       period(d.Text),
		}
		switch {
		case id.Organisation != "" && (id.DocType != "" || id.Period != ""):
			id.Title, id.Source = compose(id.Organisation, id.DocType, id.Period), "organisation"
		case informative(d.MetaTitle, d.FileName) && !boiler(d.MetaTitle):
			id.Title, id.Source = d.MetaTitle, "metadata"
		default:
			cover := coverTitle(d.Cover, boiler)
			switch {
			// The reader's first heading, unless it is a file name of
			// no words (namesFile) or a part of the cover's title ("MOSS" of "MOSS ON
			// THE NORTH WALLS OF UPLAND BARNS").
			case d.ReaderTitle != "" && !boiler(d.ReaderTitle) && titleLike(d.ReaderTitle) &&
				(normLine(d.ReaderTitle) != normLine(fileTitle(d.FileName)) || cover == "" || namesFile(d.FileName)) && !partOf(d.ReaderTitle, cover):
				id.Title, id.Source = d.ReaderTitle, "reader"
			case cover != "":
				id.Title, id.Source = cover, "cover"
			default:
				id.Title, id.Source = fileTitle(d.FileName), "file name"
			}
		}
		out[i] = id
	}
	distinguish(in, out)
	return out
}

// compose writes "Organisation — Type Period".
func compose(org, typ, period string) string {
	rest := strings.TrimSpace(typ + " " + period)
	if rest == "" {
		return org
	}
	return org + " — " + rest
}

// distinguish makes titles distinct: documents of one title get their
// period, then their type, then their file name added.
func distinguish(in []Input, out []Identity) {
	for pass := 0; pass < 3; pass++ {
		groups := map[string][]int{}
		for i, o := range out {
			groups[strings.ToLower(o.Title)] = append(groups[strings.ToLower(o.Title)], i)
		}
		clash := false
		for _, g := range groups {
			if len(g) < 2 {
				continue
			}
			clash = true
			for _, i := range g {
				add := ""
				switch pass {
				case 0:
					if out[i].Source != "organisation" {
						add = strings.TrimSpace(out[i].DocType + " " + out[i].Period)
					}
				case 1:
					add = fileTitle(in[i].FileName)
				case 2:
					add = "#" + strconv.FormatInt(in[i].ID, 10)
				}
				if add != "" && !strings.Contains(strings.ToLower(out[i].Title), strings.ToLower(add)) {
					out[i].Title += " (" + add + ")"
				}
			}
		}
		if !clash {
			return
		}
	}
}

// fileTitle is a file name without its extension, underscores as spaces.
func fileTitle(name string) string {
	t := strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	return strings.Join(strings.Fields(strings.NewReplacer("_", " ").Replace(t)), " ")
}

// informative says whether a metadata title names the document: words, not
// a number or code; not the file name again; not a producer's placeholder
// (one word, or mostly digits).
func informative(t, fileName string) bool {
	t = strings.TrimSpace(t)
	if t == "" || normLine(t) == normLine(fileTitle(fileName)) {
		return false
	}
	words, letters, digits := 0, 0, 0
	for _, w := range strings.Fields(t) {
		if hasLetter(w) && len([]rune(w)) > 1 {
			words++
		}
	}
	for _, r := range t {
		switch {
		case unicode.IsLetter(r):
			letters++
		case unicode.IsDigit(r):
			digits++
		}
	}
	if words < 2 && !hasCJK(t) {
		return false
	}
	return letters > 2*digits
}

func hasCJK(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r) {
			return true
		}
	}
	return false
}

// coverTitle is the cover's most prominent line that is not boilerplate and
// reads as a title: words, not a sentence, a parenthetical caption, an
// address or a date alone. A title set over two lines of the same weight is
// joined.
func coverTitle(cover []Line, boiler func(string) bool) string {
	best, bestW := -1, 0.0
	for i, l := range cover {
		if boiler(l.Text) || !titleLike(l.Text) {
			continue
		}
		// Prominence first; among equals, the earlier line.
		w := l.Weight - 0.01*float64(l.Order)
		if best < 0 || w > bestW {
			best, bestW = i, w
		}
	}
	if best < 0 {
		return ""
	}
	lo, hi := best, best // the lines joined: cover[lo..hi]
	t := cover[best].Text
	if n := best + 1; n < len(cover) && cover[n].Weight >= cover[best].Weight*0.95 && cover[n].Weight <= cover[best].Weight*1.05 &&
		titleLike(cover[n].Text) && !boiler(cover[n].Text) && len(t)+len(cover[n].Text) < maxTitleBytes {
		t += " " + cover[n].Text
		hi = n
	}
	// A title broken after a word it cannot end on goes on in the next
	// line, whatever its size ("THE SPREAD OF LICHEN ON" over
	// "NORTH WALLS"), and starts on the line before when that one
	// breaks so.
	for lo > 0 && opensOnto(cover[lo-1].Text) && !boiler(cover[lo-1].Text) && len(t)+len(cover[lo-1].Text) < maxTitleBytes {
		lo--
		t = cover[lo].Text + " " + t
	}
	for hi+1 < len(cover) && opensOnto(t) && titleLike(cover[hi+1].Text) && !boiler(cover[hi+1].Text) && len(t)+len(cover[hi+1].Text) < maxTitleBytes {
		hi++
		t += " " + cover[hi].Text
	}
	return t
}

// maxTitleBytes is the longest title lines are joined into.
const maxTitleBytes = 160

// opensOnto reports whether a line ends on a word a title does not end on
// (lexicon title_open_enders: "of", "and", "on"), or on a comma, colon,
// hyphen or ampersand.
func opensOnto(s string) bool {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, ",") || strings.HasSuffix(s, ":") || strings.HasSuffix(s, "-") || strings.HasSuffix(s, "&") {
		return true
	}
	f := strings.Fields(s)
	return len(f) > 1 && openEnders[strings.ToLower(f[len(f)-1])]
}

// openEnders are the words a title does not end on.
var openEnders = lexicon.English().Set("title_open_enders")

// namesFile reports whether a file name reads as a title: words as a
// person names a file ("ISEP student handbook 2020"), not a generated
// name holding a long run of digits ("deck-160203114512-app1234", a hash).
func namesFile(name string) bool {
	t := strings.ReplaceAll(fileTitle(name), "-", " ")
	return informative(t, "") && !generatedRE.MatchString(t)
}

// generatedRE is a run of six digits or more: a time stamp or an id.
var generatedRE = regexp.MustCompile(`\d{6,}`)

// partOf reports whether a is a strictly shorter part of b, as lines are
// compared (normLine).
func partOf(a, b string) bool {
	na, nb := normLine(a), normLine(b)
	return na != "" && len(na) < len(nb) && strings.Contains(nb, na)
}

// titleLike: 2 to 200 bytes, some letters, not a parenthetical caption,
// not a sentence (it does not end in a period unless short).
func titleLike(s string) bool {
	if len(s) < 3 || len(s) > 200 {
		return false
	}
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		return false
	}
	letters := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters < 3 {
		return false
	}
	if len(strings.Fields(s)) > 16 {
		return false
	}
	return true
}
