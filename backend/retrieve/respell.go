package retrieve

import (
	"context"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"cairn/backend/analyze"
	"cairn/backend/lexicon"
	"cairn/backend/question"
)

// minRespelled is the shortest word respelled: shorter words have too
// many neighbours one letter away.
const minRespelled = 6

// wordRun is a run of letters in a question.
var wordRun = regexp.MustCompile(`\p{L}+`)

// Respell reads the misspelled words of a question text: a lower-case word
// of six letters or more (or a capitalised one opening a sentence) that no
// passage of the project holds is written as the project's word one edit
// from it (two from nine letters; a letter put in, left out, changed, or
// two swapped) that shares its first two letters, the one in most passages
// when several are, unless the word is an English noun of its own
// (respellable); else, when it reads as a word and a function word run
// together, as the two (unglued). Names (capitalised inside a sentence)
// are left as written, but for such a run ("Receivablesfrom"): a name the
// documents do not hold is what the question asks about, not a slip (see
// Unmentioned). It returns the text with the words
// replaced and what was replaced; the text unchanged and nil when nothing
// was.
func (r *Retriever) Respell(ctx context.Context, text string) (string, []question.Respelling, error) {
	type slot struct {
		a, b int
		word string // lower case
		name bool   // capitalised inside a sentence
	}
	var slots []slot
	var keys []string
	for _, m := range wordRun.FindAllStringIndex(text, -1) {
		w := text[m[0]:m[1]]
		first, _ := utf8.DecodeRuneInString(w)
		if utf8.RuneCountInString(w) < minRespelled || analyze.IsCJK(first) {
			continue
		}
		lw := strings.ToLower(w)
		if analyze.IsStop(lw) {
			continue
		}
		name := unicode.IsUpper(first) && !opensSentence(text[:m[0]])
		slots = append(slots, slot{m[0], m[1], lw, name})
		keys = append(keys, "w:"+analyze.Stem(lw))
	}
	if len(slots) == 0 {
		return text, nil, nil
	}
	known, _, err := r.Store.TermDF(ctx, keys)
	if err != nil {
		return "", nil, err
	}
	var out []question.Respelling
	var b strings.Builder
	last := 0
	for i, s := range slots {
		if known[keys[i]] > 0 {
			continue
		}
		as := ""
		if !s.name {
			if as, err = r.respelled(ctx, s.word); err != nil {
				return "", nil, err
			}
			if as != "" && !respellable(s.word, as) {
				as = ""
			}
		}
		written := text[s.a:s.b]
		if as == "" {
			// A word and a function word run together
			// ("Receivablesfrom"): in a name too.
			if as, err = r.unglued(ctx, written); err != nil {
				return "", nil, err
			}
		}
		if as == "" {
			continue
		}
		if first, _ := utf8.DecodeRuneInString(written); unicode.IsUpper(first) {
			as = upperFirst(as)
		}
		b.WriteString(text[last:s.a])
		b.WriteString(as)
		last = s.b
		out = append(out, question.Respelling{Word: written, As: as})
	}
	if len(out) == 0 {
		return text, nil, nil
	}
	b.WriteString(text[last:])
	return b.String(), out, nil
}

// respelled is the project's word a misspelled word w (lower case) is read
// as (see Respell), as a passage writes it; "" when there is none. The
// project counts stems, so the stems that a start of w is spelled near
// are candidates (the one in most passages first), and a word its
// passages write with that stem is the respelling when it is near w
// itself.
func (r *Retriever) respelled(ctx context.Context, w string) (string, error) {
	near, err := r.nearStems(ctx, w, 2)
	if err != nil || len(near) == 0 {
		return "", err
	}
	keys := make([]string, len(near))
	for i, t := range near {
		keys[i] = "w:" + t
	}
	df, _, err := r.Store.TermDF(ctx, keys)
	if err != nil {
		return "", err
	}
	sort.SliceStable(near, func(a, b int) bool { return df["w:"+near[a]] > df["w:"+near[b]] })
	allowed := editsAllowed(w)
	for _, t := range near[:min(len(near), maxRespellStems)] {
		if df["w:"+t] == 0 {
			break
		}
		words, err := r.wordsOfStem(ctx, t, nil)
		if err != nil {
			return "", err
		}
		for _, s := range words {
			if analyze.SpellingDistance(s, w) <= allowed {
				return s, nil
			}
		}
	}
	return "", nil
}

// respellable says whether w may be read as the project's word as: not
// when w is an English noun WordNet knows ("format" is no slip for
// "formal"), unless as is one of its synonyms there (a spelling of it:
// "harbor", "harbour").
func respellable(w, as string) bool {
	syn := lexicon.Synonyms(w)
	if syn == nil {
		syn = lexicon.Synonyms(strings.TrimSuffix(w, "s"))
		if syn == nil {
			return true
		}
	}
	as = strings.ToLower(as)
	for _, x := range syn {
		if x == as || x+"s" == as {
			return true
		}
	}
	return false
}

// unglued reads a word the project does not hold as two words run
// together, written as the question wrote them with a space between
// ("Receivablesfrom" → "Receivables from"): a word of six letters or more
// (minRespelled) that the project holds and a function word, either way
// round. A shorter word with a function word is often one word of its
// own ("turnover", "handout"), and so are two content words ("database"),
// so neither is split. Of several splits the longest word wins; "" when
// there is none.
func (r *Retriever) unglued(ctx context.Context, w string) (string, error) {
	type split struct{ at, content int }
	var cands []split
	var keys []string
	rs := []rune(w)
	for at := 1; at < len(rs); at++ {
		a, b := strings.ToLower(string(rs[:at])), strings.ToLower(string(rs[at:]))
		stopA, stopB := analyze.IsStop(a), analyze.IsStop(b)
		switch {
		case stopB && !stopA && at >= minRespelled:
			cands = append(cands, split{at, at})
			keys = append(keys, "w:"+analyze.Stem(a))
		case stopA && !stopB && len(rs)-at >= minRespelled:
			cands = append(cands, split{at, len(rs) - at})
			keys = append(keys, "w:"+analyze.Stem(b))
		}
	}
	if len(cands) == 0 {
		return "", nil
	}
	known, _, err := r.Store.TermDF(ctx, keys)
	if err != nil {
		return "", err
	}
	best := -1
	for i, c := range cands {
		if known[keys[i]] > 0 && (best < 0 || c.content > cands[best].content) {
			best = i
		}
	}
	if best < 0 {
		return "", nil
	}
	at := cands[best].at
	return string(rs[:at]) + " " + string(rs[at:]), nil
}

// maxRespellStems bounds the candidate stems whose passages are read.
const maxRespellStems = 5

// stemNear says stem is spelled within allowed edits of a start of w.
func stemNear(stem, w []rune, allowed int) bool {
	for k := max(1, len(stem)-allowed); k <= min(len(w), len(stem)+allowed); k++ {
		if analyze.SpellingDistance(string(stem), string(w[:k])) <= allowed {
			return true
		}
	}
	return false
}

// wordsOfStem lists the words (lower-cased, once each) that a few
// passages holding stem write with it, in the documents docs (all when
// empty).
func (r *Retriever) wordsOfStem(ctx context.Context, stem string, docs []int64) ([]string, error) {
	// a stem is the start of the words it stands for
	ids, err := r.match(ctx, `{title heading body} : "`+stem+`"*`, [4]float64{1, 1, 1, 1}, 5, docs)
	if err != nil {
		return nil, err
	}
	hits, err := r.Store.ChunkHits(ctx, ids)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	for _, h := range hits {
		for _, w := range wordRun.FindAllString(h.IndexTitle+" "+strings.Join(h.HeadingPath, " ")+" "+h.Text, -1) {
			if lw := strings.ToLower(w); !seen[lw] && analyze.Stem(lw) == stem {
				seen[lw] = true
				out = append(out, lw)
			}
		}
	}
	return out, nil
}

// opensSentence says the text before a word ends a sentence (or is empty).
func opensSentence(before string) bool {
	before = strings.TrimRightFunc(before, unicode.IsSpace)
	return before == "" || strings.ContainsAny(before[len(before)-1:], ".?!:\"“(")
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
