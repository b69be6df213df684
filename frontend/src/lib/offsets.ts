// Byte offsets from the Go side are offsets into UTF-8 text; JavaScript
// strings are indexed in UTF-16 code units. These helpers convert between
// the two without encoding whole documents.

/** Number of UTF-8 bytes needed to encode s. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4; // a surrogate pair is one code point of 4 bytes
        i++;
      } else {
        n += 3; // lone surrogate: Go would write U+FFFD, 3 bytes
      }
    } else n += 3;
  }
  return n;
}

/**
 * UTF-16 index in s of UTF-8 byte offset `byte`. An offset that falls inside
 * a multi-byte character snaps to the start of that character; offsets past
 * the end give s.length and negative ones 0.
 */
export function byteToIndex(s: string, byte: number): number {
  if (byte <= 0) return 0;
  let b = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let w: number;
    let units = 1;
    if (c < 0x80) w = 1;
    else if (c < 0x800) w = 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      w = 4;
      units = 2;
    } else w = 3;
    if (b + w > byte) return i; // byte is at, or inside, this character
    b += w;
    i += units - 1;
    if (b === byte) return i + 1;
  }
  return s.length;
}

export interface PageLike {
  number: number;
  char_start: number;
  text: string;
}

export interface PageSpan {
  page: number;
  /** UTF-16 start and end inside the page's text. */
  start: number;
  end: number;
}

/** Separator between pages in the document text ("\f", one byte). */
export const PAGE_SEPARATOR_BYTES = 1;

/**
 * Byte start of each page in the document text. Uses the pages' own
 * char_start when they look consistent (increasing), else recomputes them
 * from the texts joined by "\f".
 */
export function pageStarts(pages: PageLike[]): number[] {
  const computed: number[] = [];
  let at = 0;
  for (const p of pages) {
    computed.push(at);
    at += utf8Length(p.text) + PAGE_SEPARATOR_BYTES;
  }
  const given = pages.map((p) => p.char_start ?? 0);
  const consistent = given.every((v, i) => i === 0 || v > given[i - 1]) && (pages.length < 2 || given[pages.length - 1] > 0);
  return consistent ? given : computed;
}

/**
 * Where the document-level byte range [charStart, charEnd) falls, page by
 * page, as UTF-16 ranges inside each page's text. Pages the range does not
 * touch are left out.
 */
export function locateSpan(pages: PageLike[], charStart: number, charEnd: number): PageSpan[] {
  const starts = pageStarts(pages);
  const out: PageSpan[] = [];
  if (charEnd <= charStart) return out;
  pages.forEach((p, i) => {
    const ps = starts[i];
    const pe = ps + utf8Length(p.text);
    const s = Math.max(charStart, ps);
    const e = Math.min(charEnd, pe);
    if (e <= s) return;
    const start = byteToIndex(p.text, s - ps);
    let end = byteToIndex(p.text, e - ps);
    // An end inside a character includes that character.
    if (end < p.text.length && utf8Length(p.text.slice(0, end)) < e - ps) end = nextIndex(p.text, end);
    if (end > start) out.push({ page: p.number, start, end });
  });
  return out;
}

function nextIndex(s: string, i: number): number {
  const c = s.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < s.length ? i + 2 : i + 1;
}
