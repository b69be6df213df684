import { describe, expect, it } from "vitest";
import { hasBoxes, scaleTo, spanBoxes, spanRects, type LayoutPage } from "./pdfboxes";

// A two-column page, 600 × 800 points: a title across the top, a
// paragraph of four lines in the left column, one of two lines in the right.
const title = "A Title";
const left = "aaaa bbbb cccc\ndddd eeee ffff\ngggg hhhh iiii\njjjj kk";
const right = "Right column one\nright column two";
const text = `${title}\n${left}\n${right}`;
const at = (s: string) => text.indexOf(s);
const page: LayoutPage = {
  text,
  width: 600,
  height: 800,
  blocks: [
    { start: 0, end: title.length, box: [200, 40, 400, 60] },
    { start: at(left), end: at(left) + left.length, box: [50, 100, 290, 180] }, // 4 lines of 20 points
    { start: at(right), end: at(right) + right.length, box: [310, 100, 550, 140] },
  ],
};

describe("spanBoxes", () => {
  it("gives the whole box of each block the passage covers", () => {
    expect(spanBoxes(page, at(left), at(right) + right.length)).toEqual([
      [50, 100, 290, 180],
      [310, 100, 550, 140],
    ]);
    // Only the right column: no box in the left one.
    expect(spanBoxes(page, at(right), at(right) + right.length)).toEqual([[310, 100, 550, 140]]);
  });

  it("clips to the lines a passage inside a block covers, like a selection", () => {
    // From "eeee" (line 2, 5 characters in) to the end of "hhhh" (line 3).
    const boxes = spanBoxes(page, at("eeee"), at("hhhh") + 4)!;
    expect(boxes).toHaveLength(2);
    const cw = 240 / 14; // the widest line has 14 characters
    expect(boxes[0][0]).toBeCloseTo(50 + 5 * cw);
    expect(boxes[0].slice(1)).toEqual([120, 290, 140]);
    expect(boxes[1][0]).toBe(50);
    expect(boxes[1][1]).toBe(140);
    expect(boxes[1][2]).toBeCloseTo(50 + 9 * cw);
    expect(boxes[1][3]).toBe(160);
    // A short last line ends where its characters do.
    const last = spanBoxes(page, at("jjjj"), at("kk") + 2)!;
    expect(last).toHaveLength(1);
    expect(last[0][2]).toBeCloseTo(50 + 7 * cw);
  });

  it("marks whole lines between the first and last as one box, without seams once padded", () => {
    const cw = 240 / 14;
    const boxes = spanBoxes(page, at("bbbb"), at("jjjj") + 2)!;
    expect(boxes.length).toBe(3);
    expect(boxes[0][0]).toBeCloseTo(50 + 5 * cw);
    expect(boxes[0].slice(1)).toEqual([100, 290, 120]);
    expect(boxes[1]).toEqual([50, 120, 290, 160]);
    expect(boxes[2].slice(0, 2)).toEqual([50, 160]);
    expect(boxes[2][2]).toBeCloseTo(50 + 2 * cw);
    const rects = spanRects(page, at("bbbb"), at("jjjj") + 2, scaleTo(page, 600, 800), 2)!;
    // Outer edges padded; where lines meet, none (no overlap).
    expect(rects[0].top).toBe(98);
    expect(rects[0].top + rects[0].height).toBe(120);
    expect(rects[1].top).toBe(120);
    expect(rects[1].top + rects[1].height).toBe(160);
    expect(rects[2].top).toBe(160);
    expect(rects[2].top + rects[2].height).toBe(182);
  });

  it("leaves out blocks the passage only touches with white space, and pages without a layout", () => {
    expect(spanBoxes(page, at(left) + left.length, at(right))).toEqual([]);
    expect(spanBoxes({ text }, 0, 5)).toBeNull();
    expect(spanBoxes({ text, width: 600, height: 800, blocks: [{ start: 0, end: 5 }] }, 0, 5)).toBeNull(); // blocks without boxes (DOCX, fallback reader)
    expect(hasBoxes(page)).toBe(true);
    expect(hasBoxes({ text, width: 0, height: 800, blocks: page.blocks })).toBe(false);
  });

  it("reads block spans as UTF-8 byte offsets", () => {
    const t = "é€ title\nnext";
    const bytes = new TextEncoder().encode("é€ title").length; // 12 bytes, 8 UTF-16 units
    const p: LayoutPage = { text: t, width: 100, height: 100, blocks: [{ start: 0, end: bytes, box: [10, 10, 90, 20] }, { start: bytes + 1, end: bytes + 5, box: [10, 30, 50, 40] }] };
    expect(spanBoxes(p, t.indexOf("next"), t.length)).toEqual([[10, 30, 50, 40]]);
    expect(spanBoxes(p, 0, 8)).toEqual([[10, 10, 90, 20]]);
  });
});

describe("spanRects", () => {
  it("scales boxes in points to the drawn page's pixels, padded", () => {
    // Drawn 900 px wide: 1.5 px a point.
    const r = spanRects(page, at(right), at(right) + right.length, scaleTo(page, 900, 1200), 0)!;
    expect(r).toEqual([{ left: 465, top: 150, width: 360, height: 60 }]);
    const padded = spanRects(page, 0, title.length, scaleTo(page, 900, 1200), 2)!;
    expect(padded[0]).toEqual({ left: 297, top: 57, width: 306, height: 36 });
  });

  it("places boxes on a page the viewer draws turned (/Rotate 90): corners through the mapping", () => {
    // Turned a quarter clockwise and drawn at 1 px a point: the stored
    // page's top-left corner goes to the drawn page's top-right.
    const turned = (x: number, y: number): [number, number] => [800 - y, x];
    const r = spanRects(page, at(right), at(right) + right.length, turned, 0)!;
    expect(r).toEqual([{ left: 660, top: 310, width: 40, height: 240 }]);
  });

  it("gives up (null) when the drawn page is not the stored page's shape, or has no layout", () => {
    expect(scaleTo(page, 1200, 900)).toBeNull(); // shown rotated, and no rotation given
    expect(spanRects(page, 0, 5, scaleTo(page, 1200, 900))).toBeNull();
    expect(spanRects({ text }, 0, 5, scaleTo(page, 900, 1200))).toBeNull();
    expect(scaleTo(page, 0, 0)).toBeNull();
  });

  it("keeps a padded box on the page", () => {
    const p: LayoutPage = { text: "edge", width: 100, height: 100, blocks: [{ start: 0, end: 4, box: [0, 0, 100, 10] }] };
    expect(spanRects(p, 0, 4, scaleTo(p, 200, 200), 3)).toEqual([{ left: 0, top: 0, width: 200, height: 26 }]);
  });
});
