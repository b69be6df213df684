// Reads cairn's --json output (one object per line) on stdin and prints, one
// line each, the fields the Linux and Windows runs must agree on.
// Usage: node pick.mjs import|docs|search|ask
import { readFileSync } from "node:fs";

const kind = process.argv[2];
const base = (p) => String(p ?? "").split(/[\\/]/).pop();
const pickers = {
  import: (o) => [base(o.file), o.status, o.pages, o.chunks, o.error_code ?? ""],
  docs: (o) => [o.id, base(o.file), o.status, o.pages, o.chunks, o.error_code ?? ""],
  search: (o) => [o.rank, o.doc_id, o.chunk_id, o.page_start, o.page_end],
  ask: (o) => [o.declined, o.answer, (o.citations ?? []).map((c) => [c.n, c.doc_id, c.chunk_id, c.page_start, c.char_start, c.char_end]), (o.paths ?? []).length],
};
for (const line of readFileSync(0, "utf8").split("\n")) {
  if (!line.trim()) continue;
  console.log(JSON.stringify(pickers[kind](JSON.parse(line))));
}
