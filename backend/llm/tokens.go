package llm

import "unicode"

// Token estimates. Cairn cannot run the model's tokenizer, so it sizes the
// context window with a deliberately pessimistic count: one token per CJK
// character (tokenizers give 0.6–1.5), one per 3 bytes of other text (English
// averages about 4 characters a token), plus a per-message overhead for the
// chat template. Over-estimating costs a little memory; under-estimating would
// let Ollama truncate the prompt.

// messageOverhead covers role markers and template tokens per message.
const messageOverhead = 8

// EstimateTokens returns a pessimistic token count of text.
func EstimateTokens(text string) int {
	cjk, other := 0, 0
	for _, r := range text {
		if isCJK(r) {
			cjk++
		} else if r < 0x80 {
			other++
		} else {
			other += 2 // accented letters, Cyrillic, …: usually more tokens per character
		}
	}
	return cjk + (other+2)/3
}

// EstimateMessages counts a whole chat, template overhead included.
func EstimateMessages(msgs []Message) int {
	n := 0
	for _, m := range msgs {
		n += messageOverhead + EstimateTokens(m.Content)
	}
	return n
}

func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}
