// The cited passage (text Cairn extracted) → the characters to mark in
// pdf.js's text layer of the same page. The two texts differ in whitespace,
// line-end hyphens and ligatures, so both are reduced to a comparable
// stream (no whitespace, no hyphens, NFKC, lower case) that remembers where
// each character came from.

export interface ItemRange {
  /** Index of the text item (pdf.js textContent item / text layer div). */
  item: number;
  /** UTF-16 range inside that item's string. */
  start: number;
  end: number;
}

export interface SpanMatch {
  ranges: ItemRange[];
  /** "exact": the whole passage was found; "anchors": its start and end were; "partial": only pieces. */
  quality: "exact" | "anchors" | "partial" | "none";
}

interface Stream {
  text: string;
  /** For each character of text: [item, index in item]. */
  from: [number, number][];
}

const SKIP = /[\s\u00ad\u200b-\u200d\ufeff\-‐‑]/u;

function normalise(items: string[]): Stream {
  let text = "";
  const from: [number, number][] = [];
  items.forEach((s, item) => {
    for (let i = 0; i < s.length; i++) {
      let ch = s[i];
      const code = s.charCodeAt(i);
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < s.length) ch = s.slice(i, i + 2);
      if (!SKIP.test(ch)) {
        for (const c of ch.normalize("NFKC").toLowerCase()) {
          if (SKIP.test(c)) continue;
          text += c;
          for (let k = 0; k < c.length; k++) from.push([item, i]);
        }
      }
      if (ch.length === 2) i++;
    }
  });
  return { text, from };
}

/** The comparable form of a passage. */
export function comparable(s: string): string {
  return normalise([s]).text;
}

function toRanges(items: string[], st: Stream, start: number, end: number): ItemRange[] {
  const out: ItemRange[] = [];
  for (let k = start; k < end; k++) {
    const [item, idx] = st.from[k];
    const w = items[item].charCodeAt(idx) >= 0xd800 && items[item].charCodeAt(idx) <= 0xdbff ? 2 : 1;
    const last = out[out.length - 1];
    if (last && last.item === item) last.end = Math.max(last.end, idx + w);
    else out.push({ item, start: idx, end: idx + w });
  }
  return out;
}

/** Longest prefix (fromEnd: suffix) of p, at least min long, found in s at or after `after`. */
function longestPiece(s: string, p: string, min: number, fromEnd: boolean, after = 0): { at: number; len: number } | null {
  let lo = min;
  let hi = Math.min(p.length, 200);
  let best: { at: number; len: number } | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const piece = fromEnd ? p.slice(p.length - mid) : p.slice(0, mid);
    const at = s.indexOf(piece, after);
    if (at >= 0) {
      best = { at, len: mid };
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

/** Finds passage in the page's text items. */
export function matchSpan(items: string[], passage: string): SpanMatch {
  const st = normalise(items);
  const p = comparable(passage);
  if (!p || !st.text) return { ranges: [], quality: "none" };
  const at = st.text.indexOf(p);
  if (at >= 0) return { ranges: toRanges(items, st, at, at + p.length), quality: "exact" };

  const min = Math.min(p.length, 12);
  const head = longestPiece(st.text, p, min, false);
  if (head) {
    const tail = longestPiece(st.text, p, min, true, head.at + head.len);
    if (tail && tail.at + tail.len - head.at <= p.length * 1.5 + 40) {
      return { ranges: toRanges(items, st, head.at, tail.at + tail.len), quality: "anchors" };
    }
  }
  // Pieces: mark what can be found of each tenth of the passage.
  const ranges: ItemRange[] = [];
  const step = Math.max(min, Math.ceil(p.length / 10));
  let after = 0;
  for (let i = 0; i + min <= p.length; i += step) {
    const piece = p.slice(i, Math.min(p.length, i + step));
    const j = st.text.indexOf(piece, after);
    if (j >= 0) {
      ranges.push(...toRanges(items, st, j, j + piece.length));
      after = j + piece.length;
    }
  }
  return ranges.length ? { ranges: mergeRanges(ranges), quality: "partial" } : { ranges: [], quality: "none" };
}

function mergeRanges(rs: ItemRange[]): ItemRange[] {
  const out: ItemRange[] = [];
  for (const r of rs) {
    const last = out[out.length - 1];
    if (last && last.item === r.item && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}
