import { describe, expect, it } from "vitest";
import { etaSeconds, etaText, nsToSeconds, stageText } from "./eta";

describe("etaSeconds", () => {
  it("extrapolates the observed rate", () => {
    expect(etaSeconds([{ t: 0, done: 0, total: 100 }, { t: 10_000, done: 20, total: 100 }])).toBe(40);
  });
  it("restarts when the total changes", () => {
    expect(etaSeconds([{ t: 0, done: 0, total: 10 }, { t: 1000, done: 0, total: 50 }, { t: 3000, done: 10, total: 50 }])).toBe(8);
  });
  it("is unknown without progress", () => {
    expect(etaSeconds([{ t: 0, done: 0, total: 10 }])).toBeNull();
    expect(etaSeconds([{ t: 0, done: 3, total: 10 }, { t: 5, done: 3, total: 10 }])).toBeNull();
  });
});

describe("etaText", () => {
  it.each([
    [10, "less than a minute left"],
    [170, "about 3 min left"],
    [3600 + 600, "about 1 h 10 min left"],
    [7200, "about 2 h left"],
    [null, ""],
    [NaN, ""],
  ])("%s", (s, want) => expect(etaText(s as number | null)).toBe(want));
  it("converts Go durations and names stages", () => {
    expect(nsToSeconds(2.5e9)).toBe(2.5);
    expect(stageText("mindmap")).toBe("Drawing mind maps");
    expect(stageText("ocr")).toBe("Reading scanned pages (OCR)");
    expect(stageText("entity_links")).toBe("Entity links");
  });
});
