// Answer text → segments of plain text and citation markers. The backend
// writes citations as [n], [n, m] or [n][m]; a marker is kept only when it
// names a citation the answer has, so "[sic]" or "[2024]" stay text.

export type AnswerSegment = { kind: "text"; text: string } | { kind: "cite"; n: number[]; raw: string };

const MARKER = /\[(\d{1,3}(?:\s*[,;–-]\s*\d{1,3})*)\]/g;

/** Parses the numbers of one marker body: "1, 3" → [1,3]; "2-4" → [2,3,4]. */
export function markerNumbers(body: string): number[] {
  const out: number[] = [];
  for (const part of body.split(/\s*[,;]\s*/)) {
    const range = part.match(/^(\d+)\s*[–-]\s*(\d+)$/);
    if (range) {
      const a = Number(range[1]);
      const b = Number(range[2]);
      if (b >= a && b - a < 20) for (let i = a; i <= b; i++) out.push(i);
    } else if (/^\d+$/.test(part)) out.push(Number(part));
  }
  return out;
}

/**
 * Splits text into text and citation segments. known lists the citation
 * numbers that exist; markers naming none of them stay text. Adjacent text
 * merges.
 */
export function parseCitations(text: string, known: Iterable<number>): AnswerSegment[] {
  const ok = new Set(known);
  const out: AnswerSegment[] = [];
  const pushText = (t: string) => {
    if (!t) return;
    const last = out[out.length - 1];
    if (last && last.kind === "text") last.text += t;
    else out.push({ kind: "text", text: t });
  };
  let at = 0;
  for (const m of text.matchAll(MARKER)) {
    const i = m.index ?? 0;
    const nums = markerNumbers(m[1]).filter((n) => ok.has(n));
    pushText(text.slice(at, i));
    if (nums.length) out.push({ kind: "cite", n: [...new Set(nums)], raw: m[0] });
    else pushText(m[0]);
    at = i + m[0].length;
  }
  pushText(text.slice(at));
  return out;
}

/** Citation numbers in order of first use in the text. */
export function citedOrder(segments: AnswerSegment[]): number[] {
  const seen: number[] = [];
  for (const s of segments) if (s.kind === "cite") for (const n of s.n) if (!seen.includes(n)) seen.push(n);
  return seen;
}
