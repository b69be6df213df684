import { describe, expect, it } from "vitest";
import { citedOrder, markerNumbers, parseCitations } from "./citations";

describe("markerNumbers", () => {
  it.each([
    ["1", [1]],
    ["1, 3", [1, 3]],
    ["2-4", [2, 3, 4]],
    ["2–3; 7", [2, 3, 7]],
    ["9-2", []],
  ])("%s", (body, want) => expect(markerNumbers(body)).toEqual(want));
});

describe("parseCitations", () => {
  it("splits markers that name known citations", () => {
    expect(parseCitations("Fair use applies [1]. Also [2][3].", [1, 2, 3])).toEqual([
      { kind: "text", text: "Fair use applies " },
      { kind: "cite", n: [1], raw: "[1]" },
      { kind: "text", text: ". Also " },
      { kind: "cite", n: [2], raw: "[2]" },
      { kind: "cite", n: [3], raw: "[3]" },
      { kind: "text", text: "." },
    ]);
  });
  it("keeps unknown numbers and non-markers as text", () => {
    expect(parseCitations("In [2024] see [sic] and [9].", [1])).toEqual([{ kind: "text", text: "In [2024] see [sic] and [9]." }]);
  });
  it("drops unknown members of a list marker", () => {
    expect(parseCitations("x [1, 5]", [1])).toEqual([
      { kind: "text", text: "x " },
      { kind: "cite", n: [1], raw: "[1, 5]" },
    ]);
  });
  it("handles CJK text and empty input", () => {
    expect(parseCitations("民事主体[1]。", [1]).map((s) => s.kind)).toEqual(["text", "cite", "text"]);
    expect(parseCitations("", [1])).toEqual([]);
  });
  it("orders citations by first use", () => {
    expect(citedOrder(parseCitations("a [3] b [1, 3] c [2]", [1, 2, 3]))).toEqual([3, 1, 2]);
  });
});
