import { describe, expect, it } from "vitest";
import { highlight, queryTerms, splitRanges, stem } from "./highlight";

const marked = (segs: { text: string; hit: boolean }[]) => segs.filter((s) => s.hit).map((s) => s.text);

describe("queryTerms", () => {
  it("drops stop words and single letters, lowercases", () => {
    expect(queryTerms("What is the Standard Deduction of a NR alien?")).toEqual(["standard", "deduction", "nr", "alien"]);
  });
  it("splits CJK runs into bigrams and keeps short runs whole", () => {
    expect(queryTerms("民事主体 法人")).toEqual(["民事", "事主", "主体", "法人"]);
  });
  it("separates CJK from Latin inside one word", () => {
    expect(queryTerms("GDPR规定")).toEqual(["gdpr", "规定"]);
  });
});

describe("highlight", () => {
  it("marks whole words that start with the term's stem, case-insensitively", () => {
    const segs = highlight("Deductions and the standard deduction; undeducted.", ["deduction", "standard"]);
    expect(marked(segs)).toEqual(["Deductions", "standard", "deduction"]);
    expect(segs.map((s) => s.text).join("")).toBe("Deductions and the standard deduction; undeducted.");
  });
  it("marks CJK anywhere and merges overlaps", () => {
    const segs = highlight("自然人的民事权利能力", queryTerms("民事权利"));
    expect(marked(segs)).toEqual(["民事权利"]);
  });
  it("returns the text unmarked without terms", () => {
    expect(highlight("abc", [])).toEqual([{ text: "abc", hit: false }]);
    expect(highlight("", ["a"])).toEqual([]);
  });
  it("escapes regex characters in terms", () => {
    expect(marked(highlight("costs (a+b) rise", ["(a+b)"]))).toEqual(["(a+b)"]);
    expect(marked(highlight("a c++ b", ["c++"]))).toEqual(["c++"]);
  });
});

describe("stem", () => {
  it("strips common suffixes but keeps three letters", () => {
    expect(stem("deduction")).toBe("deduct");
    expect(stem("taxes")).toBe("tax");
    expect(stem("gas")).toBe("gas");
    expect(stem("standard")).toBe("standard");
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
