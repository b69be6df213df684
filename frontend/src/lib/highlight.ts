// Query-term highlighting: pure functions from (text, query) to segments.

export interface Segment {
  text: string;
  hit: boolean;
}

const STOP = new Set([
  "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "into", "is", "it", "of", "on",
  "or", "that", "the", "this", "to", "was", "what", "when", "where", "which", "who", "with",
]);

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * Terms to highlight for a query: words of two or more letters or digits
 * that are not stop words, and runs of CJK characters (matched as written,
 * and by their two-character pieces, as the search index does).
 */
export function queryTerms(query: string): string[] {
  const terms = new Set<string>();
  for (const m of query.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = m[0];
    // Split a word into its CJK runs and other runs.
    for (const run of word.match(/([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+)/gu) ?? []) {
      if (CJK.test(run)) {
        const chars = Array.from(run);
        if (chars.length <= 2) terms.add(run);
        else for (let i = 0; i + 1 < chars.length; i++) terms.add(chars[i] + chars[i + 1]);
      } else if (run.length >= 2 && !STOP.has(run)) {
        terms.add(run);
      }
    }
  }
  return [...terms];
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const SUFFIXES = ["ations", "ation", "ions", "ion", "ings", "ing", "ies", "ed", "es", "s", "ly"];

/**
 * A crude English stem, only for highlighting: the search index finds
 * "deduct" for "deduction", so the marks should too. Never shorter than 3.
 */
export function stem(term: string): string {
  for (const suf of SUFFIXES) {
    if (term.endsWith(suf) && term.length - suf.length >= 3) return term.slice(0, -suf.length);
  }
  return term;
}

/**
 * Splits text into alternating plain and highlighted segments. A Latin term
 * marks whole words that start with its stem ("deduction" marks "deduct",
 * "deductions"); CJK terms match anywhere. Overlapping matches merge.
 */
export function highlight(text: string, terms: string[]): Segment[] {
  if (!text) return [];
  const parts = terms
    .filter((t) => t.length > 0)
    .sort((a, b) => b.length - a.length)
    .map((t) => (CJK.test(t) ? escape(t) : `(?<![\\p{L}\\p{N}])${escape(stem(t))}[\\p{L}\\p{N}]*`));
  if (parts.length === 0) return [{ text, hit: false }];
  const re = new RegExp(parts.join("|"), "giu");
  const ranges: [number, number][] = [];
  for (const m of text.matchAll(re)) {
    const s = m.index ?? 0;
    const e = s + m[0].length;
    if (e === s) continue;
    const last = ranges[ranges.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else ranges.push([s, e]);
  }
  return splitRanges(text, ranges);
}

/** Splits text at the given sorted, non-overlapping [start, end) ranges. */
export function splitRanges(text: string, ranges: [number, number][]): Segment[] {
  const out: Segment[] = [];
  let at = 0;
  for (const [s0, e0] of ranges) {
    const s = Math.max(at, Math.min(s0, text.length));
    const e = Math.max(s, Math.min(e0, text.length));
    if (s > at) out.push({ text: text.slice(at, s), hit: false });
    if (e > s) out.push({ text: text.slice(s, e), hit: true });
    at = e;
  }
  if (at < text.length) out.push({ text: text.slice(at), hit: false });
  return out;
}
