// Highlighting: what a query matches in a text is decided by the backend
// (App.Marks, analyze.Marks in Go: by stem, stop words left out, CJK
// bigrams, as search matches), so the marks and the search agree; this
// turns its ranges into segments to draw.

export interface Segment {
  text: string;
  hit: boolean;
}

/** A [start, end) range of a string (analyze.Mark). */
export interface Mark {
  start: number;
  end: number;
}

/** Splits text into plain and marked segments at the backend's marks. */
export function highlight(text: string, marks: Mark[] | null | undefined): Segment[] {
  if (!text) return [];
  return splitRanges(text, (marks ?? []).map((m) => [m.start, m.end]));
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
