package answerspan

import "strings"

// Direction is the way a text says a quantity moved: +1 up ("increased",
// "rose"), -1 down ("declined", "fell"), 0 when it says neither, or both
// ("increase or decrease").
func Direction(text string) int {
	up, down := false, false
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !isAlnum(r) }) {
		up = up || riseWords[w]
		down = down || fallWords[w]
	}
	switch {
	case up && !down:
		return 1
	case down && !up:
		return -1
	}
	return 0
}

// minDirectionRel is the least part of the question's words (by weight) a
// sentence must say to answer whether the question's quantity moved.
const minDirectionRel = 0.3

// directionVerdict answers a yes/no question that asks whether something
// went up or down ("Did the risk decrease …?") by the sentence of the
// passages that says most of the question and states one direction: yes
// when it is the question's, no when it is the other. ok is false when the
// question asks no direction or no sentence says minRel of it (by weight).
func (f *finder) directionVerdict(minRel float64) (yes bool, at Ref, ok bool) {
	want := f.moved
	if want == 0 {
		return false, Ref{}, false
	}
	var best *sent
	bestRel := minRel
	for i := range f.sents {
		for k := range f.sents[i] {
			s := &f.sents[i][k]
			f.prepare(s)
			if s.rel >= bestRel && Direction(s.text) != 0 && (best == nil || s.rel > bestRel) {
				best, bestRel = s, s.rel
			}
		}
	}
	if best == nil {
		return false, Ref{}, false
	}
	return Direction(best.text) == want, Ref{Passage: best.p, Start: best.start, End: best.end}, true
}
