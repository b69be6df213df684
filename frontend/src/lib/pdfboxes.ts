// A passage on a PDF page → the rectangles to highlight on the drawn page,
// from the page's stored layout (kb.Page: Width × Height in points, blocks
// with a byte span in the page text and a box [x0, y0, x1, y1] in points
// from the page's top-left corner). Only the blocks the passage overlaps
// are marked, and within a block only its part of the passage: the block's
// lines are its text's lines, evenly spaced in its box, every line but the
// last as wide as the block, a line's characters evenly spread across it,
// so a sentence starting mid-paragraph is marked like a text selection
// (at most three boxes a block: first line, whole lines, last line). Pure.
import { byteToIndex } from "./offsets";

/** What is needed of a kb.Page. */
export interface LayoutPage {
  text: string;
  width?: number;
  height?: number;
  blocks?: { start: number; end: number; box?: number[] | null }[] | null;
}

/** A rectangle in CSS pixels of the drawn page, from its top-left corner. */
export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A box in points from the page's top-left: [x0, y0, x1, y1]. */
export type Box = [number, number, number, number];

/** Whether a page has a layout to draw highlights from. */
export function hasBoxes(p: LayoutPage | undefined | null): boolean {
  return !!p && (p.width ?? 0) > 0 && (p.height ?? 0) > 0 && !!p.blocks?.some((b) => validBox(b.box));
}

function validBox(b: number[] | null | undefined): b is Box {
  return !!b && b.length === 4 && b.every(Number.isFinite) && b[2] > b[0] && b[3] > b[1];
}

/**
 * The boxes, in points, that cover the UTF-16 range [start, end) of the
 * page text: for each block the range overlaps, its whole box when the
 * range covers the block's text, else the part of its lines the range
 * covers (the first and last line clipped where the range starts and
 * ends, whole lines between them as one box). Null when the page has no
 * usable layout.
 */
export function spanBoxes(page: LayoutPage, start: number, end: number): Box[] | null {
  if (!hasBoxes(page)) return null;
  const text = page.text;
  const out: Box[] = [];
  for (const b of page.blocks ?? []) {
    if (!validBox(b.box)) continue;
    const bs = byteToIndex(text, b.start);
    const be = byteToIndex(text, b.end);
    const s = Math.max(start, bs);
    const e = Math.min(end, be);
    if (e <= s || !text.slice(s, e).trim()) continue;
    const [x0, y0, x1, y1] = b.box;
    // The block's lines (UTF-16 ranges), blank ones kept: they take space.
    const lines: [number, number][] = [];
    for (let at = bs; at <= be; ) {
      const nl = text.indexOf("\n", at);
      const stop = nl < 0 || nl > be ? be : nl;
      lines.push([at, stop]);
      at = stop + 1;
    }
    const blockText = text.slice(bs, be);
    const lead = blockText.length - blockText.trimStart().length;
    const trail = blockText.length - blockText.trimEnd().length;
    if (s <= bs + lead && e >= be - trail) {
      out.push([x0, y0, x1, y1]);
      continue;
    }
    // Lines but the last fill the block's width (justified or wrapped
    // text); a line's characters are spread evenly across its width, the
    // last line's at the pace of the others.
    const lh = (y1 - y0) / lines.length;
    const full = lines.length > 1 ? lines.slice(0, -1) : lines;
    const pace = (x1 - x0) / Math.max(1, ...full.map(([a, z]) => z - a));
    let run: Box | null = null; // consecutive whole lines, as one box
    lines.forEach(([a, z], i) => {
      const ls = Math.max(s, a);
      const le = Math.min(e, z);
      if (le <= ls || !text.slice(ls, le).trim()) return;
      const last = i === lines.length - 1 && lines.length > 1;
      const width = last ? Math.min(x1 - x0, (z - a) * pace) : x1 - x0;
      const at = (k: number) => x0 + (z > a ? ((k - a) / (z - a)) * width : 0);
      const left = ls > a ? at(ls) : x0;
      const right = le < z ? at(le) : x0 + width;
      if (right <= left) return;
      const box: Box = [left, y0 + i * lh, right, y0 + (i + 1) * lh];
      if (run && left === x0 && right === x1 && run[0] === x0 && run[2] === x1 && Math.abs(run[3] - box[1]) < 1e-6) {
        run[3] = box[3];
        return;
      }
      out.push(box);
      run = box;
    });
  }
  return out;
}

/** Maps a point, in points from the stored page's top-left corner, to the
 * drawn page's CSS pixels. */
export type ToDrawn = (x: number, y: number) => [number, number];

/** The mapping of a page drawn drawnW × drawnH upright (scaling only);
 * null when the drawn page does not have the stored page's proportions. */
export function scaleTo(page: LayoutPage, drawnW: number, drawnH: number): ToDrawn | null {
  const w = page.width ?? 0;
  const h = page.height ?? 0;
  if (!(w > 0 && h > 0 && drawnW > 0 && drawnH > 0) || Math.abs(drawnH / drawnW - h / w) > 0.02 * (h / w)) return null;
  return (x, y) => [(x * drawnW) / w, (y * drawnH) / h];
}

/**
 * The rectangles to draw, in CSS pixels of the drawn page, for the UTF-16
 * range [start, end) of the page text, each box padded by pad points and
 * its corners placed by toDrawn (which may scale and rotate: pdf.js's
 * viewport for a page with /Rotate). Null when the page has no usable
 * layout or no mapping: then the caller marks the text layer instead.
 */
export function spanRects(page: LayoutPage, start: number, end: number, toDrawn: ToDrawn | null, pad = 1.5): Rect[] | null {
  const boxes = spanBoxes(page, start, end);
  if (!boxes || !toDrawn) return null;
  const w = page.width!;
  const h = page.height!;
  // Padded outwards, except where a box meets the one above or below it
  // (lines of one passage): no overlap, no darker seam.
  const meets = (y: number, x0: number, x1: number, edge: 1 | 3) => boxes.some((o) => Math.abs(o[edge] - y) < 0.5 && o[0] < x1 && o[2] > x0);
  return boxes.map(([a, b, c, d]) => {
    const x0 = Math.max(0, a - pad);
    const y0 = Math.max(0, meets(b, a, c, 3) ? b : b - pad);
    const x1 = Math.min(w, c + pad);
    const y1 = Math.min(h, meets(d, a, c, 1) ? d : d + pad);
    const [p, q] = [toDrawn(x0, y0), toDrawn(x1, y1)];
    const left = Math.min(p[0], q[0]);
    const top = Math.min(p[1], q[1]);
    return { left, top, width: Math.abs(q[0] - p[0]), height: Math.abs(q[1] - p[1]) };
  });
}
