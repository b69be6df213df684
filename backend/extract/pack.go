package extract

import (
	"cairn/backend/kb"
	"cairn/backend/llm"
)

// PackBudget bounds one extraction call: the model reads a pack of
// consecutive chunks of one document and answers for each of them
// separately. Packing spreads the fixed cost of a call (instructions,
// schema, the model's warm-up) over several chunks: chunks average about
// 240 tokens, so one call per chunk spends more than one call and about
// 1.3k tokens per 500 chunk tokens, mostly on repeated instructions.
type PackBudget struct {
	// Tokens is the most chunk tokens (llm.EstimateTokens, the
	// conservative estimate the provider sizes prompts with) one call
	// carries. A chunk over it goes alone.
	Tokens int
	// Chunks is the most chunks one call carries.
	Chunks int
}

// DefaultPack is the budget indexing uses: up to 1,600 estimated chunk
// tokens (about 1,200 real ones on prose, fewer on tables and numbers,
// which the estimate counts digit by digit) and 6 chunks per call. With
// the instructions (about 750 estimated tokens) and the reply budget (at
// most MaxPackReplyTokens), a full pack fits an 8k-token context window, which a small local model holds (the provider sizes num_ctx to
// the prompt and refuses, typed, what does not fit; such a pack is then
// extracted chunk by chunk). Measured with the fake Ollama server:
//   - go run ./tools/cairnbench -only llm (assets/sample, the
//     fake's minimal replies, mind maps included): 0.45 calls and 0.83k
//     prompt+completion tokens per 500-token chunk, against 1.71 calls and
//     1.31k tokens with one call per chunk;
//   - CAIRN_GRAPH_BUDGET=1 go test ./backend/project -run
//     TestGraphModelBudget -v (../shared/docs/real, 2,343 chunks, replies
//     sized like a real model's): 0.48 calls and 2.28k tokens per
//     500-token chunk, against 2.11 calls and 2.90k; the same statuses and
//     graph.
var DefaultPack = PackBudget{Tokens: 1600, Chunks: 6}

// ReplyTokensPerPassage is the reply budget (num_predict) per passage of a
// pack of more than one chunk, up to MaxPackReplyTokens for the pack; a
// single chunk gets the provider's default. A passage's answer averages
// about 650 tokens with replies sized like a real model's (see
// TestGraphModelBudget), and the passages of a pack share the budget.
const (
	ReplyTokensPerPassage = 1024
	MaxPackReplyTokens    = 4608
)

// Tokens is a chunk's token count for packing: the provider's
// conservative estimate of its text (llm.EstimateTokens), so a pack of
// tables or figures, which real tokenizers split digit by digit, holds
// fewer chunks than a pack of prose; or the chunker's count when that is
// higher.
func Tokens(c kb.Chunk) int {
	return max(c.Tokens, llm.EstimateTokens(c.Text))
}

// Pack splits chunks, in their order, into packs for one extraction call
// each: runs of consecutive chunks of the same document holding at most
// b.Tokens tokens and b.Chunks chunks. A chunk over b.Tokens forms a pack
// of its own. A zero field takes DefaultPack's value; b.Chunks 1 packs
// every chunk alone. The packs are sub-slices of chunks.
func Pack(chunks []kb.Chunk, b PackBudget) [][]kb.Chunk {
	if b.Tokens <= 0 {
		b.Tokens = DefaultPack.Tokens
	}
	if b.Chunks <= 0 {
		b.Chunks = DefaultPack.Chunks
	}
	var packs [][]kb.Chunk
	start, tokens := 0, 0
	for i, c := range chunks {
		n := Tokens(c)
		if i > start && (c.DocID != chunks[start].DocID || i-start >= b.Chunks || tokens+n > b.Tokens) {
			packs = append(packs, chunks[start:i:i])
			start, tokens = i, 0
		}
		tokens += n
	}
	if start < len(chunks) {
		packs = append(packs, chunks[start:len(chunks):len(chunks)])
	}
	return packs
}
