import { describe, expect, it } from "vitest";
import { highlight, splitRanges } from "./highlight";

const marked = (segs: { text: string; hit: boolean }[]) => segs.filter((s) => s.hit).map((s) => s.text);

describe("highlight", () => {
  it("marks the backend's ranges and keeps the whole text", () => {
    const text = "Deductions and the standard deduction; undeducted.";
    const segs = highlight(text, [{ start: 0, end: 10 }, { start: 19, end: 27 }, { start: 28, end: 37 }]);
    expect(marked(segs)).toEqual(["Deductions", "standard", "deduction"]);
    expect(segs.map((s) => s.text).join("")).toBe(text);
  });
  it("returns the text unmarked without marks", () => {
    expect(highlight("abc", [])).toEqual([{ text: "abc", hit: false }]);
    expect(highlight("abc", null)).toEqual([{ text: "abc", hit: false }]);
    expect(highlight("", [{ start: 0, end: 1 }])).toEqual([]);
  });
});

describe("splitRanges", () => {
  it("covers the whole text and clamps ranges", () => {
    const segs = splitRanges("hello world", [[0, 5], [6, 99]]);
    expect(segs).toEqual([
      { text: "hello", hit: true },
      { text: " ", hit: false },
      { text: "world", hit: true },
    ]);
  });
});
