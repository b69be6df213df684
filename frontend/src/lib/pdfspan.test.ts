import { describe, expect, it } from "vitest";
import { comparable, matchSpan } from "./pdfspan";

const marked = (items: string[], r: ReturnType<typeof matchSpan>) => r.ranges.map((x) => items[x.item].slice(x.start, x.end)).join("|");

describe("matchSpan", () => {
  const items = ["Title II of the DMCA ", "creates limitations on the liabil-", "ity of online service", " providers for copyright infringement."];
  it("finds a passage across items, ignoring spacing and line-end hyphens", () => {
    const r = matchSpan(items, "limitations on the liability of online service providers");
    expect(r.quality).toBe("exact");
    expect(marked(items, r)).toBe("limitations on the liabil|ity of online service|providers");
    expect(r.ranges.map((x) => x.item)).toEqual([1, 2, 3]);
  });
  it("maps ligatures and case", () => {
    const its = ["The e\ufb03cient ", "FILING"];
    const r = matchSpan(its, "efficient filing");
    expect(r.quality).toBe("exact");
    expect(marked(its, r)).toBe("e\ufb03cient|FILING");
  });
  it("anchors on start and end when the middle differs", () => {
    const its = ["Section 512 provides four safe harbors (see note 3) for service providers."];
    const r = matchSpan(its, "Section 512 provides four safe harbors for service providers.");
    expect(r.quality).toBe("anchors");
    expect(marked(its, r)).toBe("Section 512 provides four safe harbors (see note 3) for service providers.");
  });
  it("marks CJK text and surrogate pairs whole", () => {
    const its = ["第一条 为了保护", "民事主体的合法权益𠀋，"];
    const r = matchSpan(its, "保护民事主体的合法权益𠀋");
    expect(r.quality).toBe("exact");
    expect(marked(its, r)).toBe("保护|民事主体的合法权益𠀋");
  });
  it("falls back to pieces, and says none when nothing matches", () => {
    const its = ["alpha beta gamma delta epsilon zeta eta theta iota kappa lambda"];
    const p = matchSpan(its, "alpha beta gamma delta XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX");
    expect(p.quality).toBe("partial");
    expect(matchSpan(its, "nothing like it at all here")).toEqual({ ranges: [], quality: "none" });
    expect(matchSpan([], "x")).toEqual({ ranges: [], quality: "none" });
  });
  it("comparable drops whitespace and hyphens", () => {
    expect(comparable(" A-b\u00ad c\n")).toBe("abc");
  });
});
