package reason

import (
	"context"
	"strings"

	"cairn/backend/answerspan"
	"cairn/backend/kb"
	"cairn/backend/search"
)

// A question asking what a short form stands for ("What does QRTL stand
// for?") is answered by the long form a document of the scope writes
// beside it ("Quiet River Test Laboratory (QRTL)"), wherever
// in the scope that is: the passages holding the short form are searched
// for it, not only the question's evidence.

// longFormPassages is how many passages holding the short form are read.
const longFormPassages = 40

// longFormScore is the score of a long form found written out: above
// any short answer read from the passages' words.
const longFormScore = 1.0

// longFormFound is the long form a document writes for the short form the
// question asks about: the form most passages write (the first found
// among equals), with the passage and span of its first writing.
type longFormFound struct {
	hit      kb.Hit
	span     answerspan.Span
	line     answerspan.Ref // the line stating it (Passage unset)
	passages int            // how many passages write it so
}

// longForm looks for the long form of the question's short form in the
// scope; nil when the question asks none or no passage writes it out.
func (u *run) longForm(ctx context.Context) (*longFormFound, error) {
	short := u.q.LongFormOf
	if short == "" {
		return nil, nil
	}
	ids, err := u.r.Retriever.Match(ctx, `"`+strings.ReplaceAll(short, `"`, `""`)+`"`, search.DefaultSettings().ColumnWeights, longFormPassages)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	hits, err := u.chunkHits(ctx, ids)
	if err != nil {
		return nil, err
	}
	found := map[string]*longFormFound{}
	var best *longFormFound
	for _, h := range hits {
		inPassage := map[string]bool{}
		for _, sp := range answerspan.LongForms(short, h.Text) {
			key := strings.ToLower(strings.Join(strings.Fields(sp.Text), " "))
			if inPassage[key] {
				continue
			}
			inPassage[key] = true
			f := found[key]
			if f == nil {
				f = &longFormFound{hit: h, span: sp, line: lineAround(h.Text, sp.Start, sp.End)}
				found[key] = f
			}
			f.passages++
			if best == nil || f.passages > best.passages {
				best = f
			}
		}
	}
	return best, nil
}

// maxStatingLine bounds the line cited with a long form, each side of it.
const maxStatingLine = 200

// lineAround is the line of text holding [start, end) (a page break ends
// a line too), at most
// maxStatingLine bytes each side, cut at word edges.
func lineAround(text string, start, end int) answerspan.Ref {
	a := strings.LastIndexAny(text[:start], "\n\f") + 1
	if start-a > maxStatingLine {
		a = start - maxStatingLine
		if i := strings.IndexByte(text[a:start], ' '); i >= 0 {
			a += i + 1
		}
	}
	b := len(text)
	if i := strings.IndexAny(text[end:], "\n\f"); i >= 0 {
		b = end + i
	}
	if b-end > maxStatingLine {
		b = end + maxStatingLine
		if i := strings.LastIndexByte(text[end:b], ' '); i >= 0 {
			b = end + i
		}
	}
	return answerspan.Ref{Start: a, End: b}
}

// withLongForm puts the passage writing the long form among the evidence
// (when it is not there) and returns its index there.
func withLongForm(ev []Evidence, lf *longFormFound) ([]Evidence, int) {
	return withPassage(ev, lf.hit)
}

// withPassage is the evidence with passage h in it (at its end when it
// was not there), and h's index.
func withPassage(ev []Evidence, h kb.Hit) ([]Evidence, int) {
	for i, e := range ev {
		if e.Hit.ID == h.ID {
			return ev, i
		}
	}
	return append(ev, Evidence{N: len(ev) + 1, Hit: h}), len(ev)
}

// longFormCandidate is the long form as the short answer, stated by its
// line in passage p of the pool.
func longFormCandidate(lf *longFormFound, p int) answerspan.Candidate {
	line := lf.line
	line.Passage = p
	return answerspan.Candidate{
		Text:  lf.span.Text,
		Type:  answerspan.TPhrase,
		Score: longFormScore,
		Span:  answerspan.Ref{Passage: p, Start: lf.span.Start, End: lf.span.End},
		Chain: []answerspan.Ref{line},
	}
}
