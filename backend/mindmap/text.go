package mindmap

import (
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"cairn/backend/analyze"
)

// word is one token of a text with its byte span: a Latin-script word
// (letters/digits, inner hyphens and apostrophes) or a run of CJK characters.
type word struct {
	start, end int
	lower      string
	key        string // "w:"+stem, as the built-in embedder counts words
	stop, cjk  bool
	// broken: punctuation (not just space) separates this word from the previous one
	broken bool
}

// words cuts s into words, keeping byte spans into s.
func words(s string) []word {
	var out []word
	gapBreaks := true
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case analyze.IsCJK(r):
			j := i
			for j < len(s) {
				r2, sz := utf8.DecodeRuneInString(s[j:])
				if !analyze.IsCJK(r2) {
					break
				}
				j += sz
			}
			t := s[i:j]
			out = append(out, word{start: i, end: j, lower: t, key: "w:" + t, cjk: true, broken: gapBreaks})
			gapBreaks = false
			i = j
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			j := i + size
			for j < len(s) {
				r2, sz := utf8.DecodeRuneInString(s[j:])
				if unicode.IsLetter(r2) || unicode.IsDigit(r2) || unicode.Is(unicode.Mn, r2) {
					j += sz
					continue
				}
				if (r2 == '\'' || r2 == '’') && j+sz < len(s) {
					r3, _ := utf8.DecodeRuneInString(s[j+sz:])
					if unicode.IsLetter(r3) || unicode.IsDigit(r3) {
						j += sz
						continue
					}
				}
				break
			}
			low := strings.ToLower(s[i:j])
			low = strings.TrimSuffix(strings.TrimSuffix(low, "'s"), "’s")
			w := word{start: i, end: j, lower: low, broken: gapBreaks}
			w.stop = analyze.IsStop(low)
			w.key = "w:" + analyze.Stem(low)
			out = append(out, w)
			gapBreaks = false
			i = j
		default:
			joiner := r == '-' && i > 0 && i+size < len(s) && isAlnumAt(s, i+size) && isAlnumBefore(s, i)
			if !unicode.IsSpace(r) && !joiner {
				gapBreaks = true
			}
			i += size
		}
	}
	return out
}

func isAlnumAt(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isAlnumBefore(s string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// cjkFunction are characters that rarely start or end a Chinese key phrase.
const cjkFunction = "的了和与或是在为对等及其之由以于并且可应不也而被把从向将该此各第条款项"

// phrase is a key-phrase candidate.
type phrase struct {
	key     string // normalised (lower-case stems or the CJK string)
	surface string // first surface form seen
	count   int
	score   float64
	stems   []string
}

// IDF returns a word's inverse document frequency ("w:"+stem keys).
type IDF func(key string) float64

// keyPhrases ranks the key phrases of text: runs of up to three content
// words between stop words and punctuation (Latin) or 2–4-character n-grams
// of CJK runs, scored by frequency × IDF with longer phrases preferred, and
// returns the best n that do not overlap each other.
func keyPhrases(text string, idf IDF, n int, exclude map[string]bool) []phrase {
	ws := words(text)
	cands := map[string]*phrase{}
	add := func(key, surface string, stems []string, weight float64) {
		p := cands[key]
		if p == nil {
			p = &phrase{key: key, surface: surface, stems: stems}
			cands[key] = p
		}
		p.count++
		_ = weight
	}
	// Latin runs.
	for i := 0; i < len(ws); {
		if ws[i].cjk || ws[i].stop {
			i++
			continue
		}
		j := i + 1
		for j < len(ws) && !ws[j].cjk && !ws[j].stop && !ws[j].broken && j-i < 6 {
			j++
		}
		for a := i; a < j; a++ {
			for b := a + 1; b <= j && b-a <= 3; b++ {
				if !goodRun(ws[a:b]) {
					continue
				}
				stems := make([]string, 0, b-a)
				for _, w := range ws[a:b] {
					stems = append(stems, w.key)
				}
				add(strings.Join(stems, " "), text[ws[a].start:ws[b-1].end], stems, 1)
			}
		}
		i = j
	}
	// CJK n-grams: closed ones only (no one-character extension occurs
	// nearly as often), so fragments of longer words are not proposed.
	grams := map[string]int{}
	for _, w := range ws {
		if !w.cjk {
			continue
		}
		rs := []rune(w.lower)
		for size := 2; size <= 7; size++ {
			for a := 0; a+size <= len(rs); a++ {
				grams[string(rs[a:a+size])]++
			}
		}
	}
	for _, w := range ws {
		if !w.cjk {
			continue
		}
		rs := []rune(w.lower)
		for size := 2; size <= 6; size++ {
			for a := 0; a+size <= len(rs); a++ {
				g := rs[a : a+size]
				if strings.ContainsRune(cjkFunction, g[0]) || strings.ContainsRune(cjkFunction, g[size-1]) {
					continue
				}
				s := string(g)
				c := grams[s]
				closed := true
				if a > 0 && float64(grams[string(rs[a-1:a+size])]) >= 0.75*float64(c) {
					closed = false
				}
				if a+size < len(rs) && float64(grams[string(rs[a:a+size+1])]) >= 0.75*float64(c) {
					closed = false
				}
				if !closed {
					continue
				}
				stems := make([]string, 0, size-1)
				for k := 0; k+1 < size; k++ {
					stems = append(stems, "w:"+string(g[k:k+2]))
				}
				add(s, s, stems, 1)
			}
		}
	}
	var list []*phrase
	for _, p := range cands {
		if exclude[p.key] {
			continue
		}
		var sum float64
		for _, st := range p.stems {
			sum += idfOf(idf, st)
		}
		avg := sum / float64(len(p.stems))
		length := float64(len(p.stems))
		isCJK := !strings.HasPrefix(p.key, "w:")
		p.score = float64(p.count) * avg * (1 + 0.6*(length-1))
		if isCJK && p.count < 2 {
			p.score *= 0.3
		}
		list = append(list, p)
	}
	sort.Slice(list, func(a, b int) bool {
		if list[a].score != list[b].score {
			return list[a].score > list[b].score
		}
		return list[a].key < list[b].key
	})
	var out []phrase
	for _, p := range list {
		if len(out) >= n {
			break
		}
		clash := false
		for _, q := range out {
			if overlaps(p, &q) {
				clash = true
				break
			}
		}
		if !clash {
			out = append(out, *p)
		}
	}
	return out
}

// goodRun: at least one word of four or more letters, not starting or ending
// with a bare number, each word at least two characters.
func goodRun(ws []word) bool {
	long := false
	for _, w := range ws {
		if utf8.RuneCountInString(w.lower) < 2 {
			return false
		}
		if utf8.RuneCountInString(w.lower) >= 4 && hasLetter(w.lower) {
			long = true
		}
	}
	if !hasLetter(ws[0].lower) || !hasLetter(ws[len(ws)-1].lower) {
		return false
	}
	return long
}

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// overlaps: one phrase contains the other (as words or CJK substrings).
func overlaps(p, q *phrase) bool {
	pc, qc := !strings.HasPrefix(p.key, "w:"), !strings.HasPrefix(q.key, "w:")
	if pc || qc {
		return strings.Contains(p.key, q.key) || strings.Contains(q.key, p.key)
	}
	set := map[string]bool{}
	for _, s := range q.stems {
		set[s] = true
	}
	for _, s := range p.stems {
		if set[s] {
			return true
		}
	}
	return false
}

func idfOf(idf IDF, key string) float64 {
	if idf == nil {
		return 1
	}
	return idf(key)
}

// localIDF is an IDF over a document's chunks (used when the caller gives none).
func localIDF(texts []string) IDF {
	df := map[string]int{}
	for _, t := range texts {
		seen := map[string]bool{}
		for _, w := range words(t) {
			for _, k := range wordKeys(w) {
				if !seen[k] {
					seen[k] = true
					df[k]++
				}
			}
		}
	}
	n := float64(len(texts))
	return func(key string) float64 { return math.Log(1+n/float64(df[key]+1)) + 0.1 }
}

// wordKeys are the IDF keys of a word: its stem, or its CJK bigrams.
func wordKeys(w word) []string {
	if w.stop {
		return nil
	}
	if !w.cjk {
		return []string{w.key}
	}
	rs := []rune(w.lower)
	if len(rs) == 1 {
		return []string{"w:" + w.lower}
	}
	out := make([]string, 0, len(rs)-1)
	for i := 0; i+1 < len(rs); i++ {
		out = append(out, "w:"+string(rs[i:i+2]))
	}
	return out
}

// containsPhrase reports whether text mentions the phrase (same stems in a
// row, or the CJK string).
func containsPhrase(ws []word, text string, p phrase) bool {
	if !strings.HasPrefix(p.key, "w:") {
		return strings.Contains(text, p.key)
	}
	for i := 0; i+len(p.stems) <= len(ws); i++ {
		ok := true
		for k, st := range p.stems {
			if ws[i+k].key != st || ws[i+k].cjk {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// letterRatio is the share of letters among non-space runes.
func letterRatio(s string) float64 {
	var letters, total int
	for _, r := range s {
		if unicode.IsSpace(r) {
			continue
		}
		total++
		if unicode.IsLetter(r) {
			letters++
		}
	}
	if total == 0 {
		return 0
	}
	return float64(letters) / float64(total)
}

// shorten collapses white space and cuts s to at most max bytes at a word
// boundary, adding an ellipsis.
func shorten(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if i := strings.LastIndexByte(s[:cut], ' '); i > max/2 {
		cut = i
	}
	return strings.TrimRight(s[:cut], " ,;:") + "…"
}

// titleCase upper-cases the first letter of a key phrase shown as a label.
func titleCase(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}
