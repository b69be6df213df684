import { describe, expect, it } from "vitest";
import { applyTheme, loadTheme, projectNameError, pullFraction, pullText, THEME_KEY } from "./settings";

describe("pullText", () => {
  it.each([
    [null, ""],
    [{ completed_bytes: 0, total_bytes: 0, percent: 0, status: "pulling manifest" }, "Pulling manifest"],
    [{ completed_bytes: 0, total_bytes: 0, percent: 0 }, "Starting…"],
    [{ completed_bytes: 1_000_000_000, total_bytes: 4_000_000_000, percent: 25, eta_ns: 180e9 }, /of .* · 25% · about 3 min left$/],
    [{ completed_bytes: 5, total_bytes: 10, percent: 0 }, /· 50%$/],
    [{ completed_bytes: 10, total_bytes: 10, percent: 100, done: true }, "Downloaded"],
  ])("%j", (p, want) => {
    const got = pullText(p as never);
    if (want instanceof RegExp) expect(got).toMatch(want);
    else expect(got).toBe(want);
  });
  it("fraction is clamped and complete when done", () => {
    expect(pullFraction({ completed_bytes: 20, total_bytes: 10, percent: 0 })).toBe(1);
    expect(pullFraction({ completed_bytes: 0, total_bytes: 0, percent: 0, done: true })).toBe(1);
    expect(pullFraction({ completed_bytes: 0, total_bytes: 0, percent: 40 })).toBeCloseTo(0.4);
  });
});

describe("projectNameError (mirrors project.ValidateName)", () => {
  it.each([
    ["Sample", ""],
    ["民法典 notes", ""],
    ["Café 2024", ""],
    ["", "name"],
    [" x", "spaces"],
    ["x ", "spaces"],
    ["..", "cannot be"],
    [".hidden", "dot"],
    ["end.", "dot"],
    ["a/b", "/"],
    ["a\\b", "\\"],
    ["a:b", ":"],
    ["x".repeat(81), "80"],
  ])("%j", (name, want) => {
    const got = projectNameError(name);
    if (want === "") expect(got).toBe("");
    else expect(got).toContain(want);
  });
});

describe("theme", () => {
  it("loads the saved theme, else the system's", () => {
    const store = (v: string | null) => ({ getItem: (k: string) => (k === THEME_KEY ? v : null) });
    expect(loadTheme(store("dark"), false)).toBe("dark");
    expect(loadTheme(store("light"), true)).toBe("light");
    expect(loadTheme(store(null), true)).toBe("dark");
    expect(loadTheme(store("purple"), false)).toBe("light");
    expect(loadTheme(undefined, false)).toBe("light");
  });
  it("applies and saves", () => {
    const saved: Record<string, string> = {};
    const root = document.createElement("div");
    applyTheme("dark", root, { setItem: (k, v) => (saved[k] = v) });
    expect(root.dataset.theme).toBe("dark");
    expect(saved[THEME_KEY]).toBe("dark");
    applyTheme("light", root, { setItem: () => { throw new Error("quota"); } });
    expect(root.dataset.theme).toBe("light");
  });
});
