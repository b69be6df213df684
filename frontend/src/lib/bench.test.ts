import { describe, expect, it } from "vitest";
import { benchSize } from "./bench";

describe("benchSize", () => {
  it.each([
    ["", 0],
    ["#bench-graph=10000", 10000],
    ["#x&bench-graph=250", 250],
    ["#bench-graph=999999999", 200000],
    ["#bench-graph=", 0],
  ])("%s → %d", (hash, want) => expect(benchSize(hash)).toBe(want));
});
