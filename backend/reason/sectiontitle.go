package reason

import (
	"context"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"cairn/backend/answerspan"
	"cairn/backend/search"
)

// A question asking the title or topic of a labelled part of a document
// ("What is the topic of Unit 7?", question.SectionLabels) is answered by
// the heading that labels the part ("UNIT 7: Reading the Grain Ledger"), wherever in the scope it stands: the passages holding
// the label are searched for a line that starts with it.

// sectionTitlePassages is how many passages holding a label are read.
const sectionTitlePassages = 30

// maxTitleWords bounds a section title read after its label.
const maxTitleWords = 14

// sectionTitle finds the title of each labelled part the question asks
// about; nil unless every one is found. The titles are found as long
// forms are (longFormFound: the passage, the title's span, its line).
func (u *run) sectionTitles(ctx context.Context) ([]*longFormFound, error) {
	var out []*longFormFound
	for _, label := range u.q.SectionLabels {
		f, err := u.sectionTitle(ctx, label)
		if err != nil || f == nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// sectionTitle is the title a line starting with label gives it, the one
// most passages write (a title set after a separator counting twice; the
// first found among equals).
func (u *run) sectionTitle(ctx context.Context, label string) (*longFormFound, error) {
	ids, err := u.r.Retriever.Match(ctx, `"`+strings.ReplaceAll(label, `"`, `""`)+`"`, search.DefaultSettings().ColumnWeights, sectionTitlePassages)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	hits, err := u.chunkHits(ctx, ids)
	if err != nil {
		return nil, err
	}
	re := labelLineRE(label)
	found := map[string]*longFormFound{}
	var best *longFormFound
	for _, h := range hits {
		for _, sp := range titlesAfter(re, h.Text) {
			key := strings.ToLower(sp.Text)
			f := found[key]
			if f == nil {
				f = &longFormFound{hit: h, span: sp.Span, line: lineAround(h.Text, sp.Start, sp.End)}
				found[key] = f
			}
			f.passages++
			if sp.marked {
				f.passages++
			}
			if best == nil || f.passages > best.passages {
				best = f
			}
		}
	}
	return best, nil
}

// labelLineRE matches a line that starts with the label (any case, any
// spacing), a separator (":", ".", a dash) or none, then the title.
func labelLineRE(label string) *regexp.Regexp {
	parts := strings.Fields(label)
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile(`(?im)(?:^|\f)[ \t]*` + strings.Join(parts, `\s+`) + `([ \t]*[:.–—-][ \t]*|[ \t]+)(\S[^\n\f]*)(?:$|\f)`)
}

// titlesAfter are the titles lines of text give after the label: a
// capitalised phrase of at most maxTitleWords words that is no lead-in
// (ending in ":") and no sentence running on.
func titlesAfter(re *regexp.Regexp, text string) []titleSpan {
	var out []titleSpan
	for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
		start, end := m[4], m[5]
		marked := strings.TrimSpace(text[m[2]:m[3]]) != ""
		t := strings.TrimRight(text[start:end], " \t.")
		end = start + len(t)
		first, _ := utf8.DecodeRuneInString(t)
		if t == "" || !unicode.IsUpper(first) || strings.HasSuffix(t, ":") || len(strings.Fields(t)) > maxTitleWords {
			continue
		}
		out = append(out, titleSpan{Span: answerspan.Span{Text: t, Start: start, End: end, Type: answerspan.TPhrase}, marked: marked})
	}
	return out
}

// titleSpan is a title found after its label; marked says a separator
// (":", ".", a dash) stands between them, as headings set it: such a
// title counts twice against one after a bare space.
type titleSpan struct {
	answerspan.Span
	marked bool
}

// titlesCandidate is the titles as the short answer ("A; B" for two
// parts), each stated by its line; the first title's span is the one the
// answer cites. ps are the titles' indexes among the evidence.
func titlesCandidate(ts []*longFormFound, ps []int) answerspan.Candidate {
	c := longFormCandidate(ts[0], ps[0])
	for i := 1; i < len(ts); i++ {
		line := ts[i].line
		line.Passage = ps[i]
		c.Text += "; " + ts[i].span.Text
		c.Chain = append(c.Chain, line)
	}
	return c
}
