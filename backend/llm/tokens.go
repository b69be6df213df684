package llm

import (
	"math"
	"unicode"
	"unicode/utf8"
)

// Token estimates. Cairn cannot run every model's tokenizer, so it sizes
// prompts with a count that is deliberately on the high side for any text.
// It splits text the way byte-level BPE tokenizers (Qwen, Llama 3) split it
// before merging — letter runs with one leading space or mark, single
// digits, runs of punctuation, runs of white space — and charges each piece
// what those tokenizers spend on it at worst, measured on the documents of
// ../shared/docs/real against the Qwen2.5/Qwen3 tokenizer:
//
//   - every digit is one token (Qwen splits numbers digit by digit);
//   - a run of ASCII punctuation one token per 2 bytes, at least one
//     (". . . ." in a table of contents is a token per dot), and one more
//     per non-ASCII symbol (†, ∗, a spacing breve), which never merges
//     with the word after it;
//   - an English word one token up to 6 letters, one more per 5 letters
//     after that; a word with two or more capitals (acronyms, ALL CAPS,
//     which merge badly) one more per 2 letters after 3; a capitalised word
//     of seven letters or more (often a name) one more;
//   - Chinese and Japanese 0.6 tokens per character, Korean 1.2 per
//     syllable, other scripts (accented Latin, Cyrillic, Greek, ...) one per
//     2.5 bytes;
//   - a run of white space one token, except the single space a word or a
//     mark takes with it.
//
// The sum plus 4 is multiplied by estimateScale, the smallest factor that
// put every chunk and every extraction pack of those documents at or above
// the real count (1.264), with a margin: 1.35. On prose the estimate comes out
// at 1.2–1.4× the real count (TestTokenEstimateAgainstQwen in
// backend/extract prints the ratios per document). A model whose tokenizer
// splits finer than this (an older Llama on CJK) is caught by Ratios, which
// learns each model's real ratio from the server's prompt_eval_count.

// messageOverhead covers role markers and template tokens per message.
const messageOverhead = 8

// estimateScale is the safety factor over the piece-wise count.
const estimateScale = 1.35

// EstimateTokens returns a pessimistic token count of text.
func EstimateTokens(text string) int {
	if text == "" {
		return 0
	}
	n := 4.0
	rs := []rune(text)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsLetter(r) || unicode.IsMark(r):
			j := letterRun(rs, i)
			n += wordCost(rs[i:j])
			i = j
		case unicode.IsNumber(r):
			n++
			i++
		case unicode.IsSpace(r):
			j := i
			lines := false
			for j < len(rs) && unicode.IsSpace(rs[j]) {
				lines = lines || rs[j] == '\n' || rs[j] == '\r'
				j++
			}
			next := j < len(rs) && !unicode.IsNumber(rs[j])
			switch {
			case j-i == 1 && r == ' ' && next:
				// joins the next word or mark
			case lines && j-i > 1:
				n += 2
			default:
				n++
			}
			i = j
		default:
			if r < utf8.RuneSelf && r != '\n' && r != '\r' && i+1 < len(rs) && (unicode.IsLetter(rs[i+1]) || unicode.IsMark(rs[i+1])) {
				// an ASCII mark before a word goes with it ("(word", "'s");
				// a symbol such as † or ∗ is a token of its own
				j := letterRun(rs, i+1)
				n += wordCost(rs[i+1 : j])
				i = j
				continue
			}
			j, bytes, wide := i, 0, 0
			for j < len(rs) && !unicode.IsSpace(rs[j]) && !unicode.IsLetter(rs[j]) && !unicode.IsMark(rs[j]) && !unicode.IsNumber(rs[j]) {
				if rs[j] < utf8.RuneSelf {
					bytes++
				} else {
					wide++ // a non-ASCII symbol (†, ∗, ˘) is at least a token
				}
				j++
			}
			if j == i { // an unprintable rune
				bytes = utf8.RuneLen(r)
				j++
			}
			n += float64(max(1, wide+(bytes+1)/2))
			for j < len(rs) && (rs[j] == '\n' || rs[j] == '\r') {
				j++
			}
			i = j
		}
	}
	return int(math.Ceil(n * estimateScale))
}

// letterRun returns the end of the run of letters (and combining marks)
// starting at i.
func letterRun(rs []rune, i int) int {
	j := i
	for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsMark(rs[j])) {
		j++
	}
	return j
}

// wordCost is the worst-case token count of one run of letters.
func wordCost(w []rune) float64 {
	cjk, hangul, ascii, upper, otherBytes := 0, 0, 0, 0, 0
	for _, r := range w {
		switch {
		case unicode.Is(unicode.Hangul, r):
			hangul++
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
			cjk++
		case r < utf8.RuneSelf:
			ascii++
			if r >= 'A' && r <= 'Z' {
				upper++
			}
		default:
			otherBytes += utf8.RuneLen(r)
		}
	}
	cost := 0.0
	if hangul > 0 {
		cost += math.Ceil(float64(hangul) * 1.2)
	}
	if cjk > 0 {
		cost += math.Ceil(float64(cjk) * 0.6)
	}
	if otherBytes > 0 {
		cost += math.Ceil(float64(otherBytes) / 2.5)
	}
	if ascii > 0 {
		switch {
		case upper >= 2:
			cost += float64(1 + max(0, ascii-3)/2)
		case upper == 1 && ascii >= 7:
			// A capitalised word of seven letters or more is often a name
			// ("Karpukhin", "Edunov"), which the vocabulary splits.
			cost += float64(2 + max(0, ascii-6)/5)
		default:
			cost += float64(1 + max(0, ascii-6)/5)
		}
	}
	return cost
}

// EstimateMessages counts a whole chat, template overhead included.
func EstimateMessages(msgs []Message) int {
	n := 0
	for _, m := range msgs {
		n += messageOverhead + EstimateTokens(m.Content)
	}
	return n
}
